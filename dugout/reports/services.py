"""Weekly league reports: which leagues are due, writing a week's report once, and mailing it to the members
at most once each. The Celery tasks in `dugout.tasks` are thin wrappers around these.

The mail goes through an outbox (`ReportDelivery`, one row per member): the rows are written in the report's
transaction, and only after it commits is each row claimed by one worker (a conditional update), mailed, and
marked sent. A worker killed before the claim leaves the row pending (the task's redelivery mails it); killed
after it, the row stays `sending` and is never mailed again by the workers (it may have gone out): at most
once. Such a row is shown in the commissioner's queue once it is surely lost (`lost_condition`), and he may
resend it with one tap (`report_resend`), once.

A report is labelled by the ISO week in which it is written, in the league's time zone, and covers the seven
days before that moment (written on Monday at 08:00, the default, it covers the week just played).
"""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, time, timedelta
from email.mime.image import MIMEImage
from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest
from django.template.loader import get_template, render_to_string
from django.urls import get_resolver, reverse
from django.utils import timezone
from django.utils.translation import gettext

from campaigns.errors import NotPermitted, RuleViolation
from league import policy
from league.audit import audit_record
from league.models import League, LeagueReport, Membership, ReportDelivery, league_activity_changed
from league.webhooks.emit import event_emit

REPORT_SPAN = timedelta(days=7)
#: The templates a report is written with: its HTML body (the page's and the mail's) and its plain-text mail.
REPORT_HTML, REPORT_TEXT = "league/_report_body.html", "league/report_email.txt"
#: The Content-ID of the mailed chart's PNG part (the HTML's `<img src="cid:…">`).
CHART_CID = "report-chart@dugout"
log = logging.getLogger(__name__)

#: Where the mailed report's links point when `SITE_URL` is not set: the worker has no request to follow, so
#: the address `make run` serves by default (a deployment sets `SITE_URL`; see docs/decisions/).
MAIL_FALLBACK_URL = "http://127.0.0.1:8000"


def site_url(request: HttpRequest | None = None) -> str:
    """The address absolute links are built on: `SITE_URL` when set; else the request's own scheme and host (a
    feed or page follows the address it was asked at); else, with no request (the mail), `MAIL_FALLBACK_URL`."""
    if settings.SITE_URL:
        return settings.SITE_URL
    if request is not None:
        return f"{request.scheme}://{request.get_host()}"
    return MAIL_FALLBACK_URL


def report_body_html(report: LeagueReport, *, request: HttpRequest) -> str:
    """The stored body as the members received it, its links moved from the address the mail was written with
    to the one this request came to. The template writes every absolute link as `href="<base>/…"` and escapes
    the text it prints, so no other `href="` can carry that prefix."""
    written, wanted = site_url(), site_url(request)
    if written == wanted:
        return report.html
    return report.html.replace(f'href="{written}/', f'href="{wanted}/')


def report_preload() -> None:
    """What a worker's first report would otherwise pay for, done once when the worker starts (dugout/celery.py):
    the URLconf imported and its reverse index built (a report reverses a link per player it names), and the
    report's templates read and compiled (the cached template loader keeps them when DEBUG is off). ≈ 0.3 s of
    the first report of a 400-team league on the benchmark's machine (docs/decisions/)."""
    get_resolver().reverse_dict  # noqa: B018 (the property builds the index)
    for name in (REPORT_HTML, REPORT_TEXT):
        get_template(name)


def week_label(moment: datetime, tz: str) -> str:
    """The ISO week of `moment` in the time zone `tz`, e.g. "2026-W49"."""
    year, week, _ = moment.astimezone(ZoneInfo(tz)).isocalendar()
    return f"{year}-W{week:02d}"


def leagues_due(moment: datetime) -> list[League]:
    """The leagues whose report day and hour (in their own time zone) falls in the hour of `moment` (one query).

    The league's local report time is taken on the local date of `moment` and placed on the UTC clock: a report
    hour the clocks skip that day (spring forward) comes at the first hour after the gap; an hour the clocks
    repeat (fall back) comes once, at its first occurrence.
    """
    hour = moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
    due = []
    for league in League.objects.filter(reports_enabled=True).order_by("pk"):
        tz = ZoneInfo(league.timezone)
        local = moment.astimezone(tz)
        scheduled = datetime.combine(local.date(), time(league.report_hour), tzinfo=tz).astimezone(UTC)
        if local.weekday() == league.report_weekday and scheduled == hour:
            due.append(league)
    return due


def report_generate(*, league_id: int, moment: datetime | None = None, regenerate: bool = False) -> LeagueReport:
    """The league's report for the week of `moment`: written once (a second call returns the first), or
    written again in place when `regenerate` (the commissioner's "generate now")."""
    from dugout.reports import build_report

    moment = moment or timezone.now()
    with transaction.atomic():
        # The league's row lock queues two workers writing the same report; the unique (league, week) backs it.
        league = League.objects.select_for_update().get(pk=league_id)
        week = week_label(moment, league.timezone)
        this_week = LeagueReport.objects.filter(league=league, week=week)
        if not regenerate and (report := this_week.first()) is not None:
            return report
        start = moment - REPORT_SPAN
        # I: a report is of the season open when it is written, and counts only that season's matches
        # (docs/decisions/, "A report in the week a season turned").
        images: dict[str, bytes] = {}
        data = build_report(league=league, week_start=start, week_end=moment, season=league.season, images=images)
        context = {"report": data, "league": league, "week": week, "base_url": site_url()}
        fields = {
            "season": league.season,
            "week_start": start,
            "week_end": moment,
            "data": data,
            "html": render_to_string(REPORT_HTML, context),
            "text": render_to_string(REPORT_TEXT, context),
            "chart_png": images.get("chart", b""),
        }
        # The week's row without the body it replaces (a 400-team league's is megabytes to read back and decode);
        # its own fields set, `save` writes them all (with `updated_at`). The league's lock serialises writers.
        report = this_week.only("pk", "league", "week", "created_at", "updated_at").first()
        report = report or LeagueReport(league=league, week=week)
        for name, value in fields.items():
            setattr(report, name, value)
        report.save()
        league_activity_changed(league.pk)  # the league page lists its reports
        _outbox_fill(league=league, week=week)
        event_emit(  # the webhooks' outbox: announced once per week, however often regenerated
            league_id=league.pk,
            event="report_published",
            key=f"report:{week}",
            data={
                "league": {"id": league.pk, "name": league.name},
                "report": {"week": week, "path": reverse("league-report", args=[league.pk, week])},
            },
        )
    return report


def _outbox_fill(*, league: League, week: str) -> None:
    """One pending delivery per member with an address (in the report's transaction); a member's existing row
    for the week keeps its state, so a regenerated report is not mailed again."""
    # Without the memberships' default ordering, which joined the league and made DISTINCT keep a row per role.
    user_ids = (
        Membership.objects.filter(league=league)
        .exclude(user__email="")
        .order_by()
        .values_list("user_id", flat=True)
        .distinct()
    )
    ReportDelivery.objects.bulk_create(
        [ReportDelivery(league=league, week=week, user_id=user_id) for user_id in sorted(set(user_ids))],
        ignore_conflicts=True,
    )


def report_mail(*, report_id: int) -> int:
    """Mail the report to each member whose delivery is pending, never twice: each row is claimed with a
    conditional update (one winner among any number of workers), then mailed, then marked sent. Run outside a
    transaction, so each claim is committed before its mail goes out. Returns how many were sent now."""
    report = LeagueReport.objects.select_related("league").get(pk=report_id)
    league = report.league
    _outbox_fill(league=league, week=report.week)  # members who joined since the report was written get it too
    outbox = ReportDelivery.objects.filter(league=league, week=report.week)
    for stuck in outbox.filter(state=ReportDelivery.State.SENDING).values_list("pk", "user_id", "claimed_at"):
        log.error("report delivery %s (user %s) claimed at %s and never marked sent: not resent", *stuck)
    sent = 0
    for delivery in outbox.filter(state=ReportDelivery.State.PENDING).select_related("user").order_by("user_id"):
        # One query a row, by design: the claim is the row's own conditional UPDATE, committed before the send.
        claimed = ReportDelivery.objects.filter(pk=delivery.pk, state=ReportDelivery.State.PENDING).update(
            state=ReportDelivery.State.SENDING, claimed_at=timezone.now()
        )
        if not claimed:
            continue  # another worker has it
        _send(report, delivery)
        ReportDelivery.objects.filter(pk=delivery.pk).update(state=ReportDelivery.State.SENT, sent_at=timezone.now())
        sent += 1
    return sent


def lost_after() -> timedelta:
    """How long a delivery may stay `sending` before it is lost: its worker is gone for sure once the task's hard
    time limit has passed (twice over, and at least ten minutes)."""
    return max(timedelta(minutes=10), 2 * timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT))


def lost_condition(*, now: datetime | None = None) -> Q:
    """The filter of a lost delivery: left `sending` longer than `lost_after()` — a mail a killed worker may not
    have sent, which no worker will try again (the commissioner's queue lists them)."""
    return Q(state=ReportDelivery.State.SENDING, claimed_at__lte=(now or timezone.now()) - lost_after())


class ResendRefused(RuleViolation):
    """A resend that cannot be made (answered in words, nothing changed)."""


def report_resend(*, user: AbstractBaseUser, league: League, delivery_id: int, claimed: str) -> bool:
    """The commissioner resends one lost delivery of the league's report (listed in his queue): the mail goes
    out once and the row is marked sent. `claimed` is the claim he saw (`claimed_at`, ISO): the row is claimed
    again only if it still holds that claim, with a conditional update, so a second tap, a second commissioner
    or a worker that took it meanwhile makes this a no-op. True when mailed now, False when there was nothing
    left to resend. If the mail server refuses it, the row keeps its old claim and stays in the queue."""
    if not policy.may_resend_report(user, league):
        raise NotPermitted(gettext("Only a commissioner of this league can resend its reports."))
    try:
        seen = datetime.fromisoformat(claimed)
    except (TypeError, ValueError):
        raise ResendRefused(gettext("Resend it from the queue as it is listed."), field="claimed") from None
    delivery = ReportDelivery.objects.filter(pk=delivery_id, league=league).select_related("user").first()
    if delivery is None:
        raise ResendRefused(gettext("No such report delivery in this league."), field="delivery")
    report = LeagueReport.objects.filter(league=league, week=delivery.week).select_related("league").first()
    if report is None:
        raise ResendRefused(gettext("That week's report no longer exists."), field="delivery")
    now = timezone.now()
    claimed_now = ReportDelivery.objects.filter(
        pk=delivery.pk, state=ReportDelivery.State.SENDING, claimed_at=seen
    ).update(claimed_at=now)
    if not claimed_now:
        return False  # resent already (or delivered, or taken by a worker): nothing to do
    try:
        _send(report, delivery)
    except TimeoutError:
        # The server may have taken it: the row stays `sending` (claimed now) and comes back if it is lost.
        raise ResendRefused(
            gettext("The mail server did not answer; if the mail did not go out it is listed again later.")
        ) from None
    except Exception:
        # Refused, nothing went out (`_send` made the row pending): back to the claim he saw, still listed.
        ReportDelivery.objects.filter(pk=delivery.pk, state=ReportDelivery.State.PENDING).update(
            state=ReportDelivery.State.SENDING, claimed_at=seen
        )
        log.warning("report delivery %s: resend refused by the mail server", delivery.pk)
        raise ResendRefused(gettext("The mail server refused the mail: nothing was sent. Try again later.")) from None
    ReportDelivery.objects.filter(pk=delivery.pk).update(state=ReportDelivery.State.SENT, sent_at=timezone.now())
    audit_record(
        league=league,
        actor=user,
        action="report_resent",
        target=f"report {delivery.week} to {delivery.user.get_username()}",
        before={"state": ReportDelivery.State.SENDING, "claimed_at": claimed},
        after={"state": ReportDelivery.State.SENT},
    )
    return True


def _send(report: LeagueReport, delivery: ReportDelivery) -> None:
    """Mail one member; if the mail server refused it (nothing went out) the row is pending again, for the
    task's retry. A timeout leaves it `sending`: the server may have taken the message."""
    message = EmailMultiAlternatives(
        subject=f"{report.league.name} — the week's report ({report.week})",
        body=report.text,
        to=[delivery.user.email],
    )
    message.attach_alternative(mail_html(report), "text/html")
    if report.chart_png and report.data.get("chart"):
        # multipart/related around the alternatives and the picture the HTML shows by its Content-ID.
        message.mixed_subtype = "related"
        image = MIMEImage(bytes(report.chart_png), "png")
        image.add_header("Content-ID", f"<{CHART_CID}>")
        image.add_header("Content-Disposition", "inline", filename="chart.png")
        message.attach(image)
    try:
        message.send()
    except TimeoutError:
        raise
    except Exception:
        ReportDelivery.objects.filter(pk=delivery.pk, state=ReportDelivery.State.SENDING).update(
            state=ReportDelivery.State.PENDING, claimed_at=None
        )
        raise


def mail_html(report: LeagueReport) -> str:
    """The stored body with its inline SVG chart swapped for the PNG part (`cid:`): most mail clients drop SVG.
    The page keeps the SVG. The chart's SVG is the report's `chart` string, placed in the body verbatim."""
    svg = report.data.get("chart")
    if not (report.chart_png and svg and svg in report.html):
        return report.html
    alt = escape(
        ET.fromstring(svg).get(  # noqa: S314 — the chart we drew
            "aria-label", "Team value over the season"
        ),
        {'"': "&quot;"},
    )
    img = f'<img src="cid:{CHART_CID}" alt="{alt}" width="640" style="max-width:100%;height:auto;border:0">'
    return report.html.replace(svg, img, 1)


def report_url(report: LeagueReport) -> str:
    return reverse("league-report", args=[report.league_id, report.week])


def report_queue_now(*, league: League) -> str | None:
    """Queue this week's report for writing now (replacing this week's); the week, or None when the queue
    cannot be reached (the web keeps serving: the caller says so)."""
    from dugout.tasks import generate_league_report

    moment = timezone.now()
    try:
        generate_league_report.apply_async(
            args=[league.pk], kwargs={"now": moment.isoformat(), "regenerate": True}, retry=False
        )
    except Exception as error:  # any broker failure (refused, timeout, unknown host) means "not queued"
        # Expected while Redis is down, and answered in words: one line, no traceback (a commissioner tapping
        # "generate now" again and again must not flood the log with the broker's stack).
        log.warning(
            "report queue unavailable for league %s, nothing queued: %s: %s",
            league.pk,
            type(error).__name__,
            " ".join(str(error).split()),
        )
        return None
    return week_label(moment, league.timezone)
