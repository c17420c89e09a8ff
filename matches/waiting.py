"""What waits for a coach: the matches of his teams where the next move is his — a result to enter, a result to
confirm, a post-match sequence to walk, an inducement shopping turn open. Read by his home page (`/me/`) and the
header's badge (`league.context_processors`).

Two queries whatever the number of teams and matches: every side of the open matches his teams play in (with the
match, its league and its pre-match sequence joined), and the unfinished post-match sequences of his teams and of
the teams he plays (his to walk; any of them holds up its team's next result). The rest is
decided in Python over those rows, with what the match's status and the policy let him do (`matches.available`:
the same table and predicates the services enforce).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.urls import reverse

from league.selectors import hold_viewer_roles, viewer_roles

from . import lifecycle
from .available import available
from .models import Aftermath, Match, MatchTeam, Prematch
from .prematch import shopping_team

#: The order items are listed in: what holds the other coach up first.
KINDS = ("confirm", "aftermath", "shopping", "result")


@dataclass(frozen=True)
class WaitingItem:
    kind: str  # one of KINDS
    match_id: int
    team_id: int  # the coach's team the item is about
    team_name: str
    league_name: str
    opponents: str  # the other teams' names, joined
    action: str  # what to do, in words
    url: str


def _prematch_of(match: Match) -> Prematch | None:
    try:
        return match.prematch
    except Prematch.DoesNotExist:
        return None


def _result_blocked(match: Match, prematch: Prematch | None) -> bool:
    """As the result services refuse: a started pre-match sequence that settles FAME must finish first."""
    return prematch is not None and not prematch.complete and match.league.rules.fame_from_prematch


def _open_matches(user: AbstractBaseUser):
    """The scheduled or submitted matches the user's teams play in (a subquery: no query of its own)."""
    return Match.objects.filter(sides__team__coach=user, status__in=lifecycle.OPEN).values("pk")


def _hold_sides(match: Match, sides: list[MatchTeam]) -> None:
    """`sides` as `match`'s prefetched sides (what `prefetch_related` leaves): `match.sides.all()` answers them."""
    held = match.sides.all()
    held._result_cache = sides
    held._prefetch_done = True
    vars(match).setdefault("_prefetched_objects_cache", {})["sides"] = held


def _open_sides(user: AbstractBaseUser) -> dict[int, list[MatchTeam]]:
    """Every side (team, match, league, pre-match joined, the user's roles in the league annotated) of those
    matches, by match id: one query. Each match holds its sides and its league the user's roles, so `available`
    answers from them without a query of its own."""
    rows = (
        MatchTeam.objects.filter(match__in=_open_matches(user))
        .select_related("team", "match__league", "match__prematch")
        .annotate(**viewer_roles(user=user, league="match__league_id"))
        .order_by("match_id", "order")
    )
    by_match: dict[int, list[MatchTeam]] = {}
    for side in rows:
        by_match.setdefault(side.match_id, []).append(side)
    for sides in by_match.values():
        match = sides[0].match  # the one `_match_items` reads
        _hold_sides(match, sides)
        hold_viewer_roles(league=match.league, user=user, annotated=sides[0])
    return by_match


def _unfinished(user: AbstractBaseUser) -> list[Aftermath]:
    """The unfinished post-match sequences of his teams and of every team in his open matches (one query): his
    are items, and any of them holds up the next result of its team's matches."""
    in_his_matches = MatchTeam.objects.filter(match__in=_open_matches(user)).values("team_id")
    return list(
        Aftermath.objects.filter(Q(team__coach=user) | Q(team__in=in_his_matches), complete=False)
        .select_related("team", "match__league")
        .order_by("match_id", "team_id")
    )


def _match_items(user: AbstractBaseUser, sides: list[MatchTeam], unfinished: list[Aftermath]) -> list[WaitingItem]:
    match = sides[0].match
    coaches = {s.team_id: s.team.coach_id for s in sides}
    names = {s.team_id: s.team.name for s in sides}
    own = [s.team_id for s in sides if s.team.coach_id == user.pk]

    def item(kind: str, team_id: int, action: str, url: str) -> WaitingItem:
        others = ", ".join(name for tid, name in names.items() if tid != team_id)
        return WaitingItem(kind, match.pk, team_id, names[team_id], match.league.name, others, action, url)

    can = available(user, match)
    if match.status == Match.Status.SUBMITTED:  # the result waits for its confirmation, not for another entry
        if can.confirm:
            team_id = next(t for t in own if coaches[t] != match.submitted_by_id)
            return [item("confirm", team_id, "Confirm the result", reverse("match-detail", args=[match.pk]))]
        return []
    if not can.submit:
        return []
    prematch = _prematch_of(match)
    if prematch is not None:
        shopper = shopping_team(prematch, match.league.rules.prematch_steps)
        if shopper in own:
            url = reverse("match-inducements", args=[match.pk, shopper])
            return [item("shopping", shopper, "Shop for inducements: your turn is open", url)]
        if shopper is not None:
            return []  # the other coach is shopping: nothing is his to do yet
    if any(a.team_id in coaches and a.match_id != match.pk for a in unfinished):
        return []  # as the result services refuse: a team's previous post-match sequence comes first
    if _result_blocked(match, prematch):
        url = reverse("match-prematch", args=[match.pk])
        return [item("result", own[0], "Finish the pre-match sequence, then enter the result", url)]
    return [item("result", own[0], "Enter the result", reverse("match-result", args=[match.pk]))]


def _aftermath_items(user: AbstractBaseUser, unfinished: list[Aftermath]) -> list[WaitingItem]:
    items = []
    for a in unfinished:
        if a.team.coach_id != user.pk:
            continue
        steps = a.match.league.rules.postmatch_steps
        step = steps[a.step_index].title if a.step_index < len(steps) else ""
        action = f"Walk the post-match sequence: {step}" if step else "Walk the post-match sequence"
        url = reverse("match-aftermath", args=[a.match_id, a.team_id])
        items.append(WaitingItem("aftermath", a.match_id, a.team_id, a.team.name, a.match.league.name, "", action, url))
    return items


def coach_waiting(*, user: AbstractBaseUser) -> list[WaitingItem]:
    """Everything waiting for `user` as a coach, most pressing first (two queries; none when anonymous)."""
    if not user.is_authenticated:
        return []
    unfinished = _unfinished(user)
    items = _aftermath_items(user, unfinished)
    for sides in _open_sides(user).values():
        items.extend(_match_items(user, sides, unfinished))
    return sorted(items, key=lambda i: (KINDS.index(i.kind), i.match_id, i.team_id))


def coach_waiting_count(*, user: AbstractBaseUser) -> int:
    """The header badge's number: the length of the same list, so badge and page never disagree."""
    return len(coach_waiting(user=user))
