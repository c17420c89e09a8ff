"""A league, its seasons and stadiums, and the versions its cached reads are keyed by."""

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
    #: the league table; the cached table is keyed by it (matches/standings.py, docs/decisions/ 2026-12-01).
    table_version = models.BigIntegerField(default=new_table_version, editable=False)
    #: The same for the league page's fixtures, results and reports panels (dugout/web/views.py
    #: `_activity_panels`): changes in the transaction of every write that can change what they show — a match
    #: scheduled, its result submitted, replaced, rejected, confirmed or corrected, a team renamed, moved or
    #: removed, a stadium renamed, a report written, the report settings changed — and with every table version
    #: (`league_table_changed`), as the page shows the table too (docs/decisions/ 2026-12-01).
    activity_version = models.BigIntegerField(default=new_table_version, editable=False)
    #: The open season's number (its `Season` row holds the rest): matches, standings and reports are of a
    #: season, and the table is the open season's. Changes only when a season turns (dugout/seasons.py).
    season = models.PositiveSmallIntegerField(default=1, editable=False)
    #: House-rule overrides the commissioner set "from next season": merged into `house_rules_overrides` when
    #: the open season closes (dugout/seasons.py), so a season is played under one set of rules.
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
    """A league's season: numbered from 1, one open at a time. Closing one keeps its final table and
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


class Stadium(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="stadiums")
    name = models.CharField(max_length=100)
    special_attribute = models.CharField(max_length=100, blank=True, help_text="Empty when the stadium has none.")

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["league", "name"], name="stadium_unique_name")]

    def __str__(self) -> str:
        return self.name
