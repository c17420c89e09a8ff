"""The league domain: leagues, memberships, stadiums, the request-idempotency records and log-in attempts."""

from __future__ import annotations

import functools
import json
import secrets
from zoneinfo import available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.utils.functional import cached_property

from campaigns import house_rules
from campaigns.rulesets import CHOICES as RULESET_CHOICES
from campaigns.rulesets import get_ruleset

WEEKDAYS = [
    (0, "Monday"),
    (1, "Tuesday"),
    (2, "Wednesday"),
    (3, "Thursday"),
    (4, "Friday"),
    (5, "Saturday"),
    (6, "Sunday"),
]


def validate_timezone(value: str) -> None:
    if value not in available_timezones():
        raise ValidationError(f"{value!r} is not a time zone (e.g. Europe/London, America/New_York, UTC).")


def new_table_version() -> int:
    """A table version never handed out before (random: also unlike any a restored database's cache still holds)."""
    return secrets.randbits(62) + 1


class League(models.Model):
    name = models.CharField(max_length=100)
    ruleset = models.CharField(max_length=20, choices=RULESET_CHOICES)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="leagues_created")
    #: Only what the commissioner changed; the effective rules are the ruleset defaults merged with these.
    house_rules_overrides = models.JSONField(default=dict, blank=True)
    open_registration = models.BooleanField(
        default=True, help_text="Any signed-in user may join as a coach without the commissioner adding him."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: The weekly report: when it is written (in the league's time zone) and whether at all.
    reports_enabled = models.BooleanField(default=True)
    report_weekday = models.PositiveSmallIntegerField(
        default=0, choices=WEEKDAYS, validators=[MaxValueValidator(6)], help_text="0 = Monday … 6 = Sunday."
    )
    report_hour = models.PositiveSmallIntegerField(default=8, validators=[MaxValueValidator(23)])
    timezone = models.CharField(max_length=64, default="UTC", validators=[validate_timezone])
    #: Changes (to a fresh random value, never one used before) in the transaction of every write that can change
    #: the league table; the cached table is keyed by it (matches/standings.py, docs/decisions.md 2026-12-01).
    table_version = models.BigIntegerField(default=new_table_version, editable=False)
    #: The same for the league page's fixtures, results and reports panels (league/web/views.py
    #: `_activity_panels`): changes in the transaction of every write that can change what they show — a match
    #: scheduled, its result submitted, replaced, rejected, confirmed or corrected, a team renamed, moved or
    #: removed, a stadium renamed, a report written, the report settings changed — and with every table version
    #: (`league_table_changed`), as the page shows the table too (docs/decisions.md 2026-12-01).
    activity_version = models.BigIntegerField(default=new_table_version, editable=False)
    #: The open season's number (its `Season` row holds the rest): matches, standings and reports are of a
    #: season, and the table is the open season's. Changes only when a season turns (league/seasons.py).
    season = models.PositiveSmallIntegerField(default=1, editable=False)
    #: House-rule overrides the commissioner set "from next season": merged into `house_rules_overrides` when
    #: the open season closes (league/seasons.py), so a season is played under one set of rules.
    house_rules_next_season = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ruleset__in=[key for key, _ in RULESET_CHOICES]), name="league_ruleset_known"
            ),
            models.CheckConstraint(condition=Q(report_weekday__lte=6), name="league_report_weekday_valid"),
            models.CheckConstraint(condition=Q(report_hour__lte=23), name="league_report_hour_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self):
        return get_ruleset(self.ruleset)

    @cached_property
    def house_rules(self) -> dict:
        """The effective house rules (computed once per loaded league; reload the league after a change): a fresh
        copy of the merge of the ruleset's defaults with these overrides, which the process merges once."""
        return json.loads(_merged_house_rules(self.ruleset, json.dumps(self.house_rules_overrides)))


@functools.lru_cache(maxsize=256)
def _merged_house_rules(ruleset: str, overrides: str) -> str:
    """The effective house rules of `ruleset` under `overrides` (JSON text), as JSON text: merged once per process
    and distinct overrides (the defaults are the ruleset's shipped data), each league read parses a copy of its
    own (a step's request loads its league afresh: ~4 ms a merge, 12 a match, against a fraction of one)."""
    return json.dumps(house_rules.merge(get_ruleset(ruleset).default_house_rules(), json.loads(overrides)))


def league_table_changed(league_id: int) -> int:
    """The league's table may have changed (a result confirmed or corrected, a team founded, renamed, moved or
    removed, a house rule set): give it a new table version, in the caller's transaction, so no cached table of
    it is read again — and a new activity version (`league_activity_changed`) in the same UPDATE, as such a
    write may change the page's fixtures and results too (a result confirmed, a team renamed).

    Random rather than +1: a version is never handed out twice, even by a transaction that rolls back after
    caching a table it computed, or after the database is restored from a backup while Redis keeps its cache."""
    version = new_table_version()
    League.objects.filter(pk=league_id).update(table_version=version, activity_version=new_table_version())
    return version


def league_activity_changed(league_id: int) -> None:
    """What the league page's fixtures, results or reports panels show may have changed (a match scheduled, a
    result submitted, replaced or rejected, a stadium renamed, a report written, the report settings changed):
    give the league a new activity version, in the caller's transaction, so no panels rendered before are read
    again. (A write that changes the table calls `league_table_changed`, which changes both.)"""
    League.objects.filter(pk=league_id).update(activity_version=new_table_version())


class Season(models.Model):
    """A league's season (issue 13): numbered from 1, one open at a time. Closing one keeps its final table and
    champion here, frozen, and opens the next; teams, players, the ledger and the memorial carry over."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=100, blank=True)
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.OPEN)
    started_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    champion = models.ForeignKey("teams.Team", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    #: The table as it stood when the season closed (the standings rows), shown for the season ever after.
    final_table = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["league", "number"]
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="season_number_once_per_league"),
            models.UniqueConstraint(fields=["league"], condition=Q(status="open"), name="season_one_open_per_league"),
            models.CheckConstraint(condition=Q(status__in=["open", "closed"]), name="season_status_known"),
            models.CheckConstraint(condition=Q(number__gte=1), name="season_number_from_one"),
        ]

    def __str__(self) -> str:
        return self.name or f"Season {self.number}"


class AuditEntry(models.Model):
    """One commissioner action (issue 13, "Audit"): who did what to which target, when, with the state before and
    after and the reason given. Written by the service that acts, in its transaction; never changed."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    #: e.g. "house_rules", "membership", "correction", "rejection", "forfeit", "schedule", "season", "adjustment".
    action = models.CharField(max_length=30)
    #: What was acted on, in words the dashboard shows (e.g. "match 12", "team 3", "season 2").
    target = models.CharField(max_length=100, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["league", "-at", "-id"], name="audit_league_newest")]

    def __str__(self) -> str:
        return f"{self.league_id}: {self.action} {self.target}"


class Membership(models.Model):
    class Role(models.TextChoices):
        COACH = "coach", "Coach"
        COMMISSIONER = "commissioner", "Commissioner"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "role", "user"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user", "role"], name="membership_unique_role"),
            models.CheckConstraint(condition=Q(role__in=["coach", "commissioner"]), name="membership_role_known"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.league}"


class Stadium(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="stadiums")
    name = models.CharField(max_length=100)
    special_attribute = models.CharField(max_length=100, blank=True, help_text="Empty when the stadium has none.")

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["league", "name"], name="stadium_unique_name")]

    def __str__(self) -> str:
        return self.name


class IdempotencyRecord(models.Model):
    """The first answer to a write that carried an Idempotency-Key, replayed for repeats."""

    scope = models.CharField(max_length=64, help_text="Hash of the caller's credentials.")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="Hash of method, path and body.")
    status_code = models.PositiveSmallIntegerField(default=0, help_text="0 while the first request runs.")
    content_type = models.CharField(max_length=100, blank=True)
    body = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="idempotency_unique_key")]

    def __str__(self) -> str:
        return f"{self.key} → {self.status_code}"


class LeagueReport(models.Model):
    """The weekly league report (the commissioner's newsletter): one per league and ISO week."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="reports")
    #: The ISO week, e.g. "2026-W49".
    week = models.CharField(max_length=8)
    #: The number of the league's season the report is of (issue 13): the open season when it was written; its
    #: sections count that season's matches only (docs/decisions.md, "A report in the week a season turned").
    season = models.PositiveSmallIntegerField(default=1)
    week_start = models.DateTimeField()
    week_end = models.DateTimeField()
    #: The report's sections as data (the export and the feed read it) and rendered for the page and e-mail.
    data = models.JSONField(default=dict)
    html = models.TextField()
    text = models.TextField(blank=True)
    #: The chart as PNG for the e-mail (mail clients drop inline SVG): an inline part the HTML shows by `cid:`.
    chart_png = models.BinaryField(blank=True, default=b"", editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-week_start", "-id"]
        constraints = [models.UniqueConstraint(fields=["league", "week"], name="report_once_per_league_week")]

    def __str__(self) -> str:
        return f"{self.league} — week {self.week}"


class ReportDelivery(models.Model):
    """The outbox: one row per member and week, written in the report's transaction and mailed after it commits.

    pending → sending (claimed by one worker with a conditional update) → sent. A row left in `sending` (its
    worker died between claiming it and recording the send) may or may not have been mailed: it is never resent
    automatically (a member is mailed at most once); `report_mail` logs it as stuck. A regenerated report is not
    mailed again: the week's rows keep their state."""

    class State(models.TextChoices):
        PENDING = "pending", "pending"
        SENDING = "sending", "sending"
        SENT = "sent", "sent"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="report_deliveries")
    week = models.CharField(max_length=8)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="report_deliveries")
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    #: When a worker claimed the row (moved it to `sending`).
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "week", "user"], name="report_mailed_once_per_member")]
        indexes = [models.Index(fields=["league", "week", "state"], name="report_outbox_by_state")]

    def __str__(self) -> str:
        return f"{self.league} week {self.week} to {self.user} ({self.state})"


class Invitation(models.Model):
    """A commissioner asks a user to become a coach or commissioner of his league; the membership exists only
    once that user accepts (consent). At most one invitation per league and user is pending at a time."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=20, choices=Membership.Role.choices)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "user"], condition=Q(state="pending"), name="invitation_one_pending_per_user"
            ),
            models.CheckConstraint(condition=Q(role__in=["coach", "commissioner"]), name="invitation_role_known"),
            models.CheckConstraint(
                condition=Q(state__in=["pending", "accepted", "declined"]), name="invitation_state_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} invited as {self.role} to {self.league} ({self.state})"

    @property
    def status(self) -> str:
        """The API's word: "invited" while the user has not answered."""
        return "invited" if self.state == self.State.PENDING else self.state


class LoginAttempt(models.Model):
    """One log-in attempt (API token or web page), kept in the database so the log-in guard works with Redis down.

    A row is written as a failure before the password is checked and turned into a success only when the
    password proves right, so concurrent guesses see each other (league/logins.py). Pruned by age."""

    #: The username as typed, NFKC-normalised and case-folded: "Alice" and "alice" count together.
    username_norm = models.CharField(max_length=150)
    #: The client address (REMOTE_ADDR, or X-Forwarded-For as far as NUM_PROXIES trusts it).
    address = models.CharField(max_length=64)
    succeeded = models.BooleanField(default=False)
    at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["username_norm", "address", "succeeded", "at"], name="login_attempt_pair"),
            models.Index(fields=["username_norm", "succeeded", "at"], name="login_attempt_account"),
            models.Index(fields=["address", "succeeded", "at"], name="login_attempt_address"),
            models.Index(fields=["at"], name="login_attempt_age"),
        ]

    def __str__(self) -> str:
        outcome = "ok" if self.succeeded else "failed"
        return f"{self.username_norm} from {self.address} at {self.at:%Y-%m-%d %H:%M:%S}: {outcome}"


class JoinRequest(models.Model):
    """A signed-in user asks to coach in an invite-only league (issue 13, "Membership"); the commissioner
    approves (he becomes a coach member) or refuses. At most one request per league and user waits at a time."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="join_requests")
    message = models.CharField(max_length=500, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "user"], condition=Q(state="pending"), name="join_request_one_pending_per_user"
            ),
            models.CheckConstraint(
                condition=Q(state__in=["pending", "approved", "refused"]), name="join_request_state_known"
            ),
        ]
        indexes = [models.Index(fields=["league", "state", "created_at"], name="join_request_league_queue")]

    def __str__(self) -> str:
        return f"{self.user} asks to join {self.league} ({self.state})"


from .divisions_models import Division  # noqa: E402, F401 (defined apart to keep this module short; needs League)

# Models of their own modules, registered with the app here (this module stays under 400 lines).
from .invite_links import InviteLink  # noqa: E402, F401
from .member_removals import MemberRemoval  # noqa: E402, F401
from .webhooks.models import Webhook, WebhookDelivery  # noqa: E402, F401 (league/webhooks/; needs League)
