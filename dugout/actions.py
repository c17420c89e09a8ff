"""What waits for a user, everywhere (contract v1.2 "What waits for whom"): the one list read by
`GET /api/v1/me/actions/`, his home page (`/me/`) and the header's badge, so none of them disagrees.

It composes two domains: what waits on matches (`matches.waiting.user_waiting`: a result to enter or confirm,
a pre- or post-match step, a time to agree, and for a commissioner a dispute to rule on and a request for more
time), and what waits in the leagues — an invitation to answer, and for a commissioner the transfers to approve
and the requests to join, read from the same rows as his queue (`dugout.queue`). Two queries whatever the
number of his teams, matches and leagues: the matches with what they wait for annotated, and one UNION of the
league rows.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import CharField, F, IntegerField, Value
from django.db.models.functions import Concat
from django.urls import reverse
from django.utils.translation import gettext as _

from league.models import Invitation, JoinRequest, Membership
from matches.waiting import KINDS as MATCH_KINDS
from matches.waiting import Waiting, user_waiting
from teams.models import Transfer

#: Where an item without a moment of its own sorts: first.
EARLIEST = dt.datetime.min.replace(tzinfo=dt.UTC)

ANSWER_INVITATION = "answer_invitation"
APPROVE_TRANSFER = "approve_transfer"
ANSWER_JOIN_REQUEST = "answer_join_request"
#: Every kind the list holds: a match's (matches.waiting.KINDS), then the leagues'.
KINDS: tuple[str, ...] = (*MATCH_KINDS, ANSWER_INVITATION, APPROVE_TRANSFER, ANSWER_JOIN_REQUEST)


@dataclass(frozen=True)
class UserAction:
    """One thing that waits for the user (the API's `{kind, league, match, team, text, url, since, deadline}`)."""

    kind: str
    league: int
    league_name: str
    match: int | None
    team: int | None
    text: str
    url: str
    since: dt.datetime | None
    deadline: dt.datetime | None


def _from_match(item: Waiting) -> UserAction:
    return UserAction(
        kind=item.kind,
        league=item.league_id,
        league_name=item.league_name,
        match=item.match_id,
        team=item.team_id,
        text=item.text,
        url=item.url,
        since=item.since,
        deadline=item.deadline,
    )


def _league_rows(user: AbstractBaseUser):
    """His pending invitations, and in the leagues he runs the accepted transfers (the commissioner agrees last)
    and the pending requests to join: one UNION of rows (kind, id, since, league, league name, team, words)."""
    text, number = CharField(), IntegerField()
    runs = Membership.objects.filter(user=user, role=Membership.Role.COMMISSIONER).values("league_id")
    invitations = (
        Invitation.objects.filter(user=user, state=Invitation.State.PENDING)
        .annotate(
            kind=Value(ANSWER_INVITATION, text),
            since=F("created_at"),
            in_league=F("league_id"),
            name=F("league__name"),
            for_team=Value(None, number),
            words=F("role"),
        )
        .values_list("kind", "pk", "since", "in_league", "name", "for_team", "words")
        .order_by()  # no model order inside a UNION: the list is sorted as a whole
    )
    transfers = (
        Transfer.objects.filter(from_team__league_id__in=runs, status=Transfer.Status.ACCEPTED)
        .annotate(
            kind=Value(APPROVE_TRANSFER, text),
            since=F("created_at"),
            in_league=F("from_team__league_id"),
            name=F("from_team__league__name"),
            for_team=F("to_team_id"),
            words=Concat(F("player__name"), Value(": "), F("from_team__name"), Value(" → "), F("to_team__name")),
        )
        .values_list("kind", "pk", "since", "in_league", "name", "for_team", "words")
        .order_by()
    )
    requests = (
        JoinRequest.objects.filter(league_id__in=runs, state=JoinRequest.State.PENDING)
        .annotate(
            kind=Value(ANSWER_JOIN_REQUEST, text),
            since=F("created_at"),
            in_league=F("league_id"),
            name=F("league__name"),
            for_team=Value(None, number),
            words=F("user__username"),
        )
        .values_list("kind", "pk", "since", "in_league", "name", "for_team", "words")
        .order_by()
    )
    return invitations.union(transfers, requests, all=True)


def _from_league(kind: str, since: dt.datetime, league: int, name: str, team: int | None, words: str) -> UserAction:
    if kind == ANSWER_INVITATION:
        text = _("Answer the invitation to %(league)s as %(role)s") % {"league": name, "role": words}
        url = reverse("invitations")
    elif kind == APPROVE_TRANSFER:
        text = _("Approve or refuse the transfer of %(what)s") % {"what": words}
        url = reverse("desk-queue", args=[league])
    else:
        text = _("Answer %(user)s's request to join %(league)s") % {"user": words, "league": name}
        url = reverse("desk-queue", args=[league])
    return UserAction(kind, league, name, None, team, text, url, since, None)


def user_actions(*, user: AbstractBaseUser) -> list[UserAction]:
    """Everything that waits for `user`, oldest first (two queries; none when anonymous)."""
    if not user.is_authenticated:
        return []
    items = [_from_match(item) for item in user_waiting(user=user)]
    items += [
        _from_league(kind, since, league, name, team, words)
        for kind, _pk, since, league, name, team, words in _league_rows(user)
    ]
    return sorted(items, key=lambda a: (a.since or EARLIEST, a.kind, a.match or 0, a.team or 0))


def user_actions_count(*, user: AbstractBaseUser) -> int:
    """The header badge's number: the length of the same list, so badge and page never disagree."""
    return len(user_actions(user=user))
