"""The commissioner's queue (contract: docs api-v1 "Result disputes and the commissioner's queue"):
what waits for him, oldest first — results awaiting confirmation for more than 24 hours, open disputes, overdue
matches, coaches' requests for more time (`extension`, approved or refused from here), transfers to approve,
requests to join, and weekly-report mails whose delivery was lost (a worker died while sending them:
`undelivered_report`, resent from here). Three queries whatever the league's size: its waiting matches (with
their sides, open dispute and waiting request for more time folded in), its accepted transfers, its pending
requests with its lost deliveries."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field

from django.db.models import BooleanField, CharField, Exists, ExpressionWrapper, F, OuterRef, Q, Subquery, Value
from django.utils import timezone
from django.utils.translation import gettext as _

from dugout.reports.services import lost_condition
from league.models import JoinRequest, League, ReportDelivery
from league.selectors import json_rows
from matches import lifecycle
from matches.models import Dispute, Extension, Match, MatchTeam
from matches.overdue import overdue_condition
from teams.models import Transfer

#: A submitted result enters the queue when it has waited this long for the other coach.
CONFIRMATION_GRACE = dt.timedelta(hours=24)
KINDS = (
    "awaiting_confirmation",
    "disputed",
    "overdue",
    "extension",
    "transfer",
    "join_request",
    "undelivered_report",
)


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
    #: The lost delivery to resend (kind undelivered_report), and its claim as the resend's token: a resend
    #: acts only on the claim the commissioner saw, so a second tap (or a second commissioner) mails nothing.
    delivery: int | None = None
    claimed: str = ""
    #: The request for more time to approve or refuse (kind extension), and the deadline it asks for.
    extension: int | None = None
    until: dt.datetime | None = None

    @property
    def result_json(self) -> str:
        """The result body as the correction form's starting text."""
        return json.dumps(self.result_body, indent=1) if self.result_body else ""


def _sides() -> Subquery:
    rows = MatchTeam.objects.filter(match=OuterRef("pk")).order_by("order")
    return json_rows(rows, "match", team="team_id", name="team__name", order="order")


def _open_dispute(column: str) -> Subquery:
    return Subquery(Dispute.objects.filter(match=OuterRef("pk"), ruling="").order_by("id").values(column)[:1])


def _pending_extension(column: str) -> Subquery:
    rows = Extension.objects.filter(match=OuterRef("pk"), state=Extension.State.PENDING)
    return Subquery(rows.values(column)[:1])


def _extension_item(match: Match) -> QueueItem:
    sides = sorted(match.sides_json or [], key=lambda s: s["order"])
    deadline = f"{match.deadline:%Y-%m-%d %H:%M}" if match.deadline else "—"
    return QueueItem(
        kind="extension",
        since=match.extension_at,
        detail=_("{teams}: {user} asks for more time, from {deadline} to {until} — {reason}").format(
            teams=_names(sides),
            user=match.extension_by,
            deadline=deadline,
            until=f"{match.extension_until:%Y-%m-%d %H:%M}",
            reason=match.extension_reason,
        ),
        match=match.pk,
        sides=sides,
        status=match.status,
        user=match.extension_by,
        extension=match.extension_id,
        until=match.extension_until,
    )


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


def _lost_item(pk: int, claimed_at: dt.datetime, username: str, email: str, week: str) -> QueueItem:
    return QueueItem(
        kind="undelivered_report",
        since=claimed_at,
        detail=_(
            "The report of week {week} to {user} ({email}): its worker stopped while mailing it at {at}, and it "
            "was never marked sent. It may not have arrived."
        ).format(week=week, user=username, email=email, at=f"{claimed_at:%Y-%m-%d %H:%M}"),
        delivery=pk,
        user=username,
        claimed=claimed_at.isoformat(),
    )


def _requests_and_lost_mails(league: League, now: dt.datetime):
    """The pending requests to join and the lost report mails, in one query (a UNION: both are few, and the
    queue keeps its budget): rows (kind, id, since, username, message or e-mail address, week)."""
    text = CharField()
    joins = (
        JoinRequest.objects.filter(league=league, state=JoinRequest.State.PENDING)
        .annotate(
            kind=Value("join_request", text),
            since=F("created_at"),
            username=F("user__username"),
            words=F("message"),
            week_of=Value("", text),
        )
        .values_list("kind", "pk", "since", "username", "words", "week_of")
        .order_by()  # the models' orders are not allowed inside a UNION: the queue sorts its items itself
    )
    lost = (
        ReportDelivery.objects.filter(lost_condition(now=now), league=league)
        .annotate(
            kind=Value("undelivered_report", text),
            since=F("claimed_at"),
            username=F("user__username"),
            words=F("user__email"),
            week_of=F("week"),
        )
        .values_list("kind", "pk", "since", "username", "words", "week_of")
        .order_by()
    )
    return joins.union(lost, all=True)


def league_queue(*, league: League, now: dt.datetime | None = None) -> list[QueueItem]:
    """Everything waiting for the league's commissioner, oldest first. A match is listed once, under its most
    pressing kind: disputed, then awaiting confirmation, then overdue."""
    now = now or timezone.now()
    waiting = (
        Q(status=Match.Status.DISPUTED)
        | Q(status=Match.Status.SUBMITTED, submitted_at__lte=now - CONFIRMATION_GRACE)
        | overdue_condition(now=now)
    )
    asking = Exists(Extension.objects.filter(match=OuterRef("pk"), state=Extension.State.PENDING))
    matches = (
        Match.objects.filter(league=league, season=league.season)
        .filter(waiting | Q(asking, status__in=list(lifecycle.OPEN)))
        .annotate(
            sides_json=_sides(),
            dispute_reason=_open_dispute("reason"),
            dispute_at=_open_dispute("created_at"),
            is_waiting=ExpressionWrapper(waiting, output_field=BooleanField()),
            extension_id=_pending_extension("pk"),
            extension_at=_pending_extension("created_at"),
            extension_until=_pending_extension("until"),
            extension_reason=_pending_extension("reason"),
            extension_by=_pending_extension("requested_by__username"),
        )
        .only("pk", "status", "submitted_at", "created_at", "deadline", "result_body", "league_id")
    )
    items = []
    for match in matches:
        if match.is_waiting:
            items.append(_match_item(match, now))
        if match.extension_id is not None and match.status in lifecycle.OPEN:
            items.append(_extension_item(match))
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
    for kind, pk, since, username, words, week in _requests_and_lost_mails(league, now):
        if kind == "undelivered_report":
            items.append(_lost_item(pk, since, username, words, week))
            continue
        message = f": “{words}”" if words else ""
        items.append(
            QueueItem(
                kind="join_request",
                since=since,
                detail=f"{username} asks to join{message}",
                join_request=pk,
                user=username,
            )
        )
    items.sort(key=lambda item: (item.since, KINDS.index(item.kind), item.match or 0))
    return items
