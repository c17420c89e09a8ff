"""The league domain: leagues, memberships, stadiums, and the request-idempotency records."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.functional import cached_property

from campaigns import house_rules
from campaigns.rulesets import CHOICES as RULESET_CHOICES
from campaigns.rulesets import get_ruleset


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

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ruleset__in=[key for key, _ in RULESET_CHOICES]), name="league_ruleset_known"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self):
        return get_ruleset(self.ruleset)

    @cached_property
    def house_rules(self) -> dict:
        """The effective house rules (computed once per loaded league; reload the league after a change)."""
        return house_rules.merge(self.rules.default_house_rules(), self.house_rules_overrides)


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
