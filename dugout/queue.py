"""The commissioner's queue (contract: docs api-v1 "Result disputes and the commissioner's queue"):
what waits for him, oldest first — results awaiting confirmation for more than 24 hours, open disputes, overdue
matches, transfers to approve and requests to join. Three queries whatever the league's size: its waiting
matches (with their sides and open dispute folded in), its accepted transfers, its pending requests."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field

from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from league.models import JoinRequest, League
from league.selectors import json_rows
from matches.models import Dispute, Match, MatchTeam
from matches.overdue import overdue_condition
from teams.models import Transfer

#: A submitted result enters the queue when it has waited this long for the other coach.
CONFIRMATION_GRACE = dt.timedelta(hours=24)
KINDS = ("awaiting_confirmation", "disputed", "overdue", "transfer", "join_request")


@dataclass
class QueueItem:
    kind: str
    since: dt.datetime
    detail: str
    match: int | None = None
    team: int | None = None
    #: What the page's actions need (not in the API's contract): the match's sides, the transfer or request id,
    #: the result body to correct.
    sides: list[dict] = field(default_factory=list)
    transfer: int | None = None
    join_request: int | None = None
    user: str = ""
    status: str = ""
    result_body: dict | None = None

    @property
    def result_json(self) -> str:
        """The result body as the correction form's starting text."""
        return json.dumps(self.result_body, indent=1) if self.result_body else ""


def _sides() -> Subquery:
    rows = MatchTeam.objects.filter(match=OuterRef("pk")).order_by("order")
    return json_rows(rows, "match", team="team_id", name="team__name", order="order")


def _open_dispute(column: str) -> Subquery:
    return Subquery(Dispute.objects.filter(match=OuterRef("pk"), ruling="").order_by("id").values(column)[:1])


def _names(sides: list[dict]) -> str:
    return " v ".join(s["name"] for s in sorted(sides or [], key=lambda s: s["order"]))


def _match_item(match: Match, now: dt.datetime) -> QueueItem:
    sides = sorted(match.sides_json or [], key=lambda s: s["order"])
    common = {"match": match.pk, "sides": sides, "status": match.status, "result_body": match.result_body}
    if match.status == Match.Status.DISPUTED:
        return QueueItem(
            kind="disputed",
            since=match.dispute_at or match.submitted_at or match.created_at,
            detail=f"{_names(sides)}: disputed — {match.dispute_reason or ''}".rstrip(" —"),
            **common,
        )
    if match.status == Match.Status.SUBMITTED and match.submitted_at and match.submitted_at <= now - CONFIRMATION_GRACE:
        hours = int((now - match.submitted_at).total_seconds() // 3600)
        return QueueItem(
            kind="awaiting_confirmation",
            since=match.submitted_at,
            detail=f"{_names(sides)}: result waiting {hours} hours for confirmation",
            **common,
        )
    return QueueItem(
        kind="overdue",
        since=match.deadline,
        detail=f"{_names(sides)}: deadline {match.deadline:%Y-%m-%d %H:%M} passed, "
        f"{match.get_status_display().lower()}",
        **common,
    )


def league_queue(*, league: League, now: dt.datetime | None = None) -> list[QueueItem]:
    """Everything waiting for the league's commissioner, oldest first. A match is listed once, under its most
    pressing kind: disputed, then awaiting confirmation, then overdue."""
    now = now or timezone.now()
    matches = (
        Match.objects.filter(league=league, season=league.season)
        .filter(
            Q(status=Match.Status.DISPUTED)
            | Q(status=Match.Status.SUBMITTED, submitted_at__lte=now - CONFIRMATION_GRACE)
            | overdue_condition(now=now)
        )
        .annotate(sides_json=_sides(), dispute_reason=_open_dispute("reason"), dispute_at=_open_dispute("created_at"))
        .only("pk", "status", "submitted_at", "created_at", "deadline", "result_body", "league_id")
    )
    items = [_match_item(m, now) for m in matches]
    transfers = (
        Transfer.objects.filter(from_team__league=league, status=Transfer.Status.ACCEPTED)
        .select_related("player", "from_team", "to_team")
        .order_by("created_at", "id")
    )
    for t in transfers:
        price = f" for {t.price:,} gil" if t.price else ""
        items.append(
            QueueItem(
                kind="transfer",
                since=t.created_at,
                detail=f"{t.player.name}: {t.from_team.name} → {t.to_team.name}{price}",
                team=t.to_team_id,
                transfer=t.pk,
            )
        )
    joins = JoinRequest.objects.filter(league=league, state=JoinRequest.State.PENDING).select_related("user")
    for j in joins.order_by("created_at", "id"):
        message = f": “{j.message}”" if j.message else ""
        items.append(
            QueueItem(
                kind="join_request",
                since=j.created_at,
                detail=f"{j.user.get_username()} asks to join{message}",
                join_request=j.pk,
                user=j.user.get_username(),
            )
        )
    items.sort(key=lambda item: (item.since, KINDS.index(item.kind), item.match or 0))
    return items
