"""What a match's events tell whom (contract v1.2 "Notifications"): one function per kind, called by the service
of its event inside that event's transaction once the event has happened (a refused or rolled-back event tells
nobody), each calling `notifications.writer.notify` once.

Recipients are read from what the service already holds — the match's sides with their teams, whose coaches
they are — or, for what waits for the league's running, from one query of its commissioners. The user who acted
is never told (the writer leaves him out). Each line names the league, the match and who acted; its link is the
page where the recipient acts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime

from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse
from django.utils.translation import gettext_noop

from league.models import League
from league.selectors import league_commissioner_ids
from notifications.texts import day, line, moment, who
from notifications.writer import notify
from teams.models import Team

from . import policy
from .models import Match, MatchTeam, TimeProposal

#: A dispute's ruling (matches.disputes.RULINGS) in the line that tells the coaches of it.
RULED = {
    "confirm": gettext_noop("%(league)s: %(actor)s ruled on the disputed result of %(match)s: confirmed as entered."),
    "correct": gettext_noop(
        "%(league)s: %(actor)s ruled on the disputed result of %(match)s: corrected, and the corrected result is final."
    ),
    "reject": gettext_noop(
        "%(league)s: %(actor)s ruled on the disputed result of %(match)s: rejected, the match is to be played again."
    ),
}


def sides_of(match: Match) -> list[MatchTeam]:
    """The match's sides with their teams, in order (one query), for a service that does not hold them."""
    return list(MatchTeam.objects.filter(match=match).select_related("team").order_by("order"))


def match_words(sides: Iterable[MatchTeam]) -> str:
    """The match as a line names it: its teams in order, "Home v Away"."""
    return " v ".join(side.team.name for side in sorted(sides, key=lambda side: side.order))


def _coaches(sides: Iterable[MatchTeam]) -> list[int]:
    return [side.team.coach_id for side in sides if side.team.coach_id is not None]


def _their_team(sides: Iterable[MatchTeam], recipients: Iterable[int]) -> Team | None:
    """The one team of the match its recipients coach, when there is one (a line to one side), else None."""
    told = set(recipients)
    teams = [side.team for side in sides if side.team.coach_id in told]
    return teams[0] if len(teams) == 1 else None


def _tell(
    kind: str,
    match: Match,
    sides: Sequence[MatchTeam],
    recipients: Iterable[int],
    actor,
    message: str,
    url: str | None = None,
    **params,
) -> None:
    actor_id = getattr(actor, "pk", None)
    recipients = [r for r in recipients if r != actor_id]  # (the writer leaves him out too; the team is theirs)
    text = line(message, league=match.league.name, match=match_words(sides), actor=who(actor), **params)
    notify(
        kind,
        recipients=recipients,
        actor=actor,
        text=text,
        url=url or reverse("match-detail", args=[match.pk]),
        league=match.league,
        match=match,
        team=_their_team(sides, recipients),
    )


def result_submitted(match: Match, sides: Sequence[MatchTeam], *, actor: AbstractBaseUser) -> None:
    """A result was entered: the coaches who may confirm it (of a side the submitter does not coach) are told."""
    coaches = {side.team_id: side.team.coach_id for side in sides}
    confirmers = [
        coach
        for coach in _coaches(sides)
        if policy.confirms_as_other_coach(user_id=coach, submitted_by_id=actor.pk, coaches=coaches)
    ]
    message = gettext_noop("%(league)s: %(actor)s entered the result of %(match)s: confirm it or dispute it.")
    _tell("result_submitted", match, sides, confirmers, actor, message)


def result_confirmed(match: Match, sides: Sequence[MatchTeam], *, actor: AbstractBaseUser | None) -> None:
    """The result is final (confirmed by the other coach, or by the commissioner, a disputed one included): both
    coaches are told, but the one who confirmed."""
    message = gettext_noop("%(league)s: %(actor)s confirmed the result of %(match)s: it is final.")
    _tell("result_confirmed", match, sides, _coaches(sides), actor, message)


def result_rejected(match: Match, *, actor: AbstractBaseUser) -> None:
    """The commissioner sent the result back: both coaches are told (one query: the sides)."""
    sides = sides_of(match)
    message = gettext_noop("%(league)s: %(actor)s rejected the result of %(match)s: the match is to be played again.")
    _tell("result_rejected", match, sides, _coaches(sides), actor, message)


def result_disputed(match: Match, *, actor: AbstractBaseUser) -> None:
    """A coach disputed the result: the league's commissioners are told, on their queue (two queries: the sides,
    the commissioners)."""
    message = gettext_noop("%(league)s: %(actor)s disputed the result of %(match)s: it waits for your ruling.")
    url = reverse("desk-queue", args=[match.league_id])
    _tell(
        "result_disputed",
        match,
        sides_of(match),
        league_commissioner_ids(league_id=match.league_id),
        actor,
        message,
        url,
    )


def dispute_ruled(match: Match, *, actor: AbstractBaseUser, ruling: str) -> None:
    """The commissioner ruled on a dispute (confirm, correct or reject): both coaches are told what he ruled."""
    sides = sides_of(match)
    _tell("dispute_ruled", match, sides, _coaches(sides), actor, RULED[ruling])


def time_proposed(match: Match, *, actor: AbstractBaseUser, proposal: TimeProposal) -> None:
    """A coach proposed a time: the coaches who may accept it (the other sides') are told. `match` holds its sides
    with their teams."""
    sides = list(match.sides.all())
    others = [side.team.coach_id for side in sides if side.team_id != proposal.team_id and side.team.coach_id]
    message = gettext_noop(
        "%(league)s: %(actor)s proposes to play %(match)s on %(at)s (%(zone)s): accept it or propose another."
    )
    at, zone = moment(proposal.at, match.league.timezone), match.league.timezone
    _tell("time_proposed", match, sides, others, actor, message, at=at, zone=zone)


def time_agreed(match: Match, *, actor: AbstractBaseUser, proposal: TimeProposal) -> None:
    """The opponent accepted a time: the coach who proposed it is told. `match` holds its sides."""
    message = gettext_noop("%(league)s: %(actor)s agreed to play %(match)s on %(at)s (%(zone)s).")
    at, zone = moment(proposal.at, match.league.timezone), match.league.timezone
    _tell("time_agreed", match, list(match.sides.all()), [proposal.proposed_by_id], actor, message, at=at, zone=zone)


def deadline_soon(
    match: Match, sides: Sequence[MatchTeam], *, recipients: Iterable[int], deadline: datetime, today: bool
) -> None:
    """The league clock's reminder, to the coaches whose reminder row it just claimed: the result is due today or
    in two days (the deadline in the league's time and zone), and whether a kick-off is agreed."""
    zone = match.league.timezone
    if today:
        message = gettext_noop("%(league)s: %(match)s — the result is due today, by %(deadline)s (%(zone)s).")
    else:
        message = gettext_noop("%(league)s: %(match)s — the result is due in two days, by %(deadline)s (%(zone)s).")
    if match.scheduled_for is not None:
        after = line(gettext_noop("Agreed kick-off: %(kickoff)s."), kickoff=moment(match.scheduled_for, zone))
    else:
        after = line(gettext_noop("No time is agreed yet: propose one on the match page."))
    first = line(
        message, league=match.league.name, match=match_words(sides), deadline=moment(deadline, zone), zone=zone
    )
    recipients = list(recipients)
    notify(
        "deadline_soon",
        recipients=recipients,
        actor=None,
        text=f"{first} {after}",
        url=reverse("match-detail", args=[match.pk]),
        league=match.league,
        match=match,
        team=_their_team(sides, recipients),
    )


def round_published(
    league: League,
    *,
    actor: AbstractBaseUser | None,
    rounds: Sequence[tuple[int, date, date]],
    team_ids: Iterable[int],
) -> None:
    """Rounds were published — a generated schedule (every round of a round robin, a knockout's first round, a
    Swiss' next round) by the commissioner `actor`, or a knockout's next round drawn once the last one is final
    (`actor` None: nobody's act) — `rounds` as (number, start day, deadline day): every coach with a match in
    them is told once, however many of his teams play (one query: the teams' coaches)."""
    if not rounds:
        return
    teams = Team.objects.filter(pk__in=set(team_ids), coach__isnull=False).order_by()  # (no join for the order)
    coaches = set(teams.values_list("coach_id", flat=True))
    number, starts = rounds[0][:2]
    params = {"league": league.name, "round": number, "starts": day(starts), "ends": day(rounds[-1][2])}
    if len(rounds) > 1:
        message = gettext_noop(
            "%(league)s: %(actor)s published %(rounds)s rounds, from %(starts)s to %(ends)s: your matches are on "
            "the fixtures page."
        )
        params["rounds"] = len(rounds)
    elif actor is None:
        message = gettext_noop(
            "%(league)s: round %(round)s of the knockout is drawn, from %(starts)s to %(ends)s: your match is on "
            "the fixtures page."
        )
    else:
        message = gettext_noop(
            "%(league)s: %(actor)s published round %(round)s, from %(starts)s to %(ends)s: your match is on the "
            "fixtures page."
        )
    notify(
        "round_published",
        recipients=coaches,
        actor=actor,
        text=line(message, actor=who(actor), **params),
        url=reverse("league-fixtures", args=[league.pk]),
        league=league,
    )
