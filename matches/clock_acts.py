"""What the league clock does when nobody acts (matches/clock.py's tick runs it), as the league's house rules say
(campaigns/deadlines.py):

- a result submitted and left unanswered for `auto_confirm_hours` is confirmed — by `match_confirm` itself, so
  the table, the ledger and both post-match sequences are exactly a confirmation's;
- with `on_deadline: "double_forfeit"`, a match still to be played `deadline_grace_hours` after its deadline is
  final as a loss for both teams — by the forfeit's own writer (`disputes.forfeit_record`), no post-match
  sequence; while a coach's request for more time waits for the commissioner, the clock leaves the match alone;
- with `on_deadline: "queue"`, the commissioners are told once that the deadline passed (the match waits in
  their queue, as it always has); a deadline moved later is told again if it passes too.

Each act happens once: its match's row is locked and the condition read again inside the act's transaction, so a
second tick, or a second worker at the same moment, finds nothing left to do. The acts are in the league's audit
with no actor and the reason "league clock", and the people concerned are notified in the same transaction.
Candidates are read in one query per kind; each act is a short transaction of its own, so one that fails (a
result the rosters no longer allow) is logged and left to the commissioner without holding back the others.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext as _

from campaigns import deadlines
from campaigns.errors import RuleViolation
from league.audit import LEAGUE_CLOCK, audit_record
from league.models import Membership
from notifications.writer import notify

from . import disputes, lifecycle, policy, services
from .models import Extension, Match, MatchTeam
from .overdue import overdue_condition

log = logging.getLogger(__name__)

#: The shortest auto-confirmation a league may set (campaigns.house_rules.SHAPES): results submitted more
#: recently are not read at all.
MIN_AUTO_CONFIRM = timedelta(hours=1)
#: How far back a passed deadline is still announced: a deadline that passed longer ago (before the clock ran,
#: or before this existed) is in the commissioner's queue already, and a burst of old news tells him nothing.
ANNOUNCE_WINDOW = timedelta(days=2)


def _names(match: Match) -> str:
    return " v ".join(side.team.name for side in match.sides.all())


def _coach_ids(match: Match) -> list[int]:
    return [side.team.coach_id for side in match.sides.all() if side.team.coach_id]


def _commissioner_ids(league_id: int) -> list[int]:
    rows = Membership.objects.filter(league_id=league_id, role=Membership.Role.COMMISSIONER)
    return list(rows.values_list("user_id", flat=True))


def _locked(match_id: int) -> Match:
    """The match, its row locked (the act's guard), with its league and its sides' teams."""
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("league")
        .prefetch_related("sides__team")
        .get(pk=match_id)
    )


def _local(moment: datetime, tz: str) -> str:
    return f"{moment.astimezone(ZoneInfo(tz)):%Y-%m-%d %H:%M} ({tz})"


def clock_confirm(*, match_id: int, now: datetime) -> bool:
    """Confirm the match's result if the league's `auto_confirm_hours` have passed since it was submitted and it
    is still unanswered; True when confirmed now. A result the rosters no longer allow is logged and left."""
    try:
        with transaction.atomic():
            match = _locked(match_id)
            if not policy.clock_may_confirm(match, now=now):
                return False  # confirmed, rejected, disputed or entered again since it was read: nothing to do
            services.match_confirm(user=None, match_id=match.pk, now=now, tell=False)  # told below, in its words
            hours = match.league.house_rules["auto_confirm_hours"]
            audit_record(
                league=match.league,
                actor=None,
                action="confirmation",
                target=f"match {match.pk}",
                before={"status": lifecycle.Status.SUBMITTED},
                after={"status": lifecycle.Status.FINAL, "auto_confirm_hours": hours},
                reason=LEAGUE_CLOCK,
            )
            notify(
                "result_confirmed",
                recipients=[*_coach_ids(match), *_commissioner_ids(match.league_id)],
                actor=None,
                text=_(
                    "%(league)s: the league clock confirmed the result of %(teams)s, unanswered for %(hours)s hours."
                )
                % {"league": match.league.name, "teams": _names(match), "hours": hours},
                url=reverse("match-detail", args=[match.pk]),
                league=match.league,
                match=match,
            )
    except RuleViolation as exc:
        log.warning("league clock: match %s not confirmed: %s", match_id, exc)
        return False
    return True


def clock_forfeit(*, match_id: int, now: datetime) -> bool:
    """Record the match as lost by both teams if the league forfeits unplayed matches and its deadline and grace
    have passed, unless a request for more time waits for the commissioner; True when forfeited now."""
    with transaction.atomic():
        match = _locked(match_id)
        if not policy.clock_may_forfeit(match, now=now):
            return False
        if Extension.objects.filter(match=match, state=Extension.State.PENDING).exists():
            return False  # the commissioner has a request for more time to answer first
        sides = list(MatchTeam.objects.filter(match=match).order_by("order"))
        losers = [side.team_id for side in sides]
        disputes.forfeit_record(
            match,
            sides,
            losers=set(losers),
            user=None,
            result={"forfeit": {"team": None, "teams": losers, "reason": LEAGUE_CLOCK}},
            audit_after={"losers": losers},
            reason=LEAGUE_CLOCK,
        )
        Match.objects.filter(pk=match.pk).update(deadline_announced=match.deadline)
        notify(
            "deadline_passed",
            recipients=[*_coach_ids(match), *_commissioner_ids(match.league_id)],
            actor=None,
            text=_(
                "%(league)s: %(teams)s was not played by its deadline, %(deadline)s: the league clock recorded it "
                "as lost by both teams."
            )
            % {
                "league": match.league.name,
                "teams": _names(match),
                "deadline": _local(match.deadline, match.league.timezone),
            },
            url=reverse("match-detail", args=[match.pk]),
            league=match.league,
            match=match,
        )
    return True


def clock_announce(*, match_id: int, now: datetime) -> bool:
    """Tell the league's commissioners, once per deadline, that a match's deadline passed without a result (a
    league that leaves overdue matches to its queue); True when told now."""
    with transaction.atomic():
        match = _locked(match_id)
        hr = match.league.house_rules
        if (
            match.status != Match.Status.SCHEDULED
            or match.deadline is None
            or not match.deadline < now
            or match.deadline_announced == match.deadline
            or hr.get("on_deadline", deadlines.QUEUE) != deadlines.QUEUE
        ):
            return False
        Match.objects.filter(pk=match.pk).update(deadline_announced=match.deadline)
        notify(
            "deadline_passed",
            recipients=_commissioner_ids(match.league_id),
            actor=None,
            text=_(
                "%(league)s: the deadline of %(teams)s, %(deadline)s, passed without a result: it waits in your queue."
            )
            % {
                "league": match.league.name,
                "teams": _names(match),
                "deadline": _local(match.deadline, match.league.timezone),
            },
            url=reverse("desk-queue", args=[match.league_id]),
            league=match.league,
            match=match,
        )
    return True


def _not_announced() -> Q:
    return Q(deadline_announced__isnull=True) | ~Q(deadline_announced=F("deadline"))


def clock_acts(now: datetime) -> dict[str, int]:
    """Everything the clock does at `now` that the house rules ask of it: how many results it confirmed, matches
    it forfeited and deadlines it announced. Three reads of candidates (with their leagues), then one short
    transaction per candidate that is due."""
    done = {"confirmed": 0, "forfeited": 0, "announced": 0}
    submitted = Match.objects.filter(status=Match.Status.SUBMITTED, submitted_at__lte=now - MIN_AUTO_CONFIRM)
    for match in submitted.select_related("league").order_by("submitted_at", "pk"):
        if policy.clock_may_confirm(match, now=now):
            done["confirmed"] += clock_confirm(match_id=match.pk, now=now)
    overdue = Match.objects.filter(overdue_condition(now=now), season=F("league__season")).select_related("league")
    for match in overdue.order_by("deadline", "pk"):
        if policy.clock_may_forfeit(match, now=now):
            done["forfeited"] += clock_forfeit(match_id=match.pk, now=now)
    fresh = overdue.filter(_not_announced(), deadline__gte=now - ANNOUNCE_WINDOW)
    for match in fresh.order_by("deadline", "pk"):
        if match.league.house_rules.get("on_deadline", deadlines.QUEUE) == deadlines.QUEUE:
            done["announced"] += clock_announce(match_id=match.pk, now=now)
    return done
