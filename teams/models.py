"""Rosters (the rulesets' team lists as editable data), teams, players and the append-only gil ledger."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from campaigns.rulesets import CHOICES as RULESET_CHOICES
from campaigns.rulesets.base import PositionSpec, RosterSpec


class Roster(models.Model):
    """A Blitz Bowl roster, an ElfBall team list or a Bone Cruncher race. Shipped by a data migration."""

    ruleset = models.CharField(max_length=20, choices=RULESET_CHOICES)
    key = models.SlugField(max_length=50)
    name = models.CharField(max_length=100)
    #: Everything else the ruleset's data gives: reroll_cost, white_mage, special_prices, journeyman_position
    #: (Blitz Bowl); traits, health_template, movement (Bone Cruncher); description.
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["ruleset", "name"]
        constraints = [models.UniqueConstraint(fields=["ruleset", "key"], name="roster_unique_key")]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_ruleset_display()})"

    def spec(self) -> RosterSpec:
        """The plain-value roster the rules read (positions must be prefetched for one query)."""
        return RosterSpec(
            key=self.key,
            name=self.name,
            extra=self.extra,
            positions={p.key: p.spec() for p in self.positions.all()},
        )


class Position(models.Model):
    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="positions")
    key = models.SlugField(max_length=50)
    name = models.CharField(max_length=100)
    min_count = models.PositiveSmallIntegerField(default=0)
    max_count = models.PositiveSmallIntegerField()
    cost = models.PositiveIntegerField(help_text="Gil (Blitz Bowl), points (ElfBall) or 0 (Bone Cruncher).")
    attributes = models.JSONField(default=dict)
    skills = models.JSONField(default=list, blank=True)
    skill_access = models.JSONField(default=dict, blank=True)
    extra = models.JSONField(default=dict, blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["roster", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["roster", "key"], name="position_unique_key"),
            models.CheckConstraint(condition=Q(max_count__gte=F("min_count")), name="position_max_gte_min"),
        ]

    def __str__(self) -> str:
        return f"{self.roster.name} {self.name}"

    def spec(self) -> PositionSpec:
        return PositionSpec(
            key=self.key,
            name=self.name,
            min=self.min_count,
            max=self.max_count,
            cost=self.cost,
            attributes=self.attributes,
            skills=tuple(self.skills),
            extra=self.extra,
        )


class Team(models.Model):
    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="teams")
    #: Null while the team has no coach: its coach was removed from the league and the commissioner has not
    #: reassigned it yet (league/membership.py); the team, its players and its ledger stay.
    coach = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="teams"
    )
    name = models.CharField(max_length=100)
    roster = models.ForeignKey(Roster, on_delete=models.PROTECT, related_name="teams")
    fan_factor = models.PositiveSmallIntegerField(default=0)
    rerolls = models.PositiveSmallIntegerField(default=0)
    #: Counts of coaching staff and team support, by purchase item key (e.g. {"cheerleader": 2}).
    staff = models.JSONField(default=dict, blank=True)
    home_stadium = models.ForeignKey(
        "league.Stadium", null=True, blank=True, on_delete=models.SET_NULL, related_name="resident_teams"
    )
    owns_stadium = models.BooleanField(default=False)
    #: The league division it plays in; none when the league has none or it is unplaced
    #: (a division deleted: its teams fall back to none).
    division = models.ForeignKey(
        "league.Division", null=True, blank=True, on_delete=models.SET_NULL, related_name="teams"
    )
    #: Set when the team leaves creation (the coach declares it ready, or its first match is scheduled).
    creation_closed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Team identity: two colours (#rrggbb, checked by teams/identity/services.py) and the logo, a
    #: content key naming its re-encoded PNGs in the default storage (empty: no logo; teams/identity/images.py).
    primary_colour = models.CharField(max_length=7, default="#1f3a5f")
    secondary_colour = models.CharField(max_length=7, default="#f2c14e")
    logo_key = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ["league", "name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="team_unique_name_in_league"),
            models.CheckConstraint(
                condition=Q(owns_stadium=False) | Q(home_stadium__isnull=False), name="team_owned_stadium_is_home"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def in_creation(self) -> bool:
        return self.creation_closed_at is None


class Player(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        MISS_NEXT_MATCH = "miss_next_match", "Misses next match"
        DEAD = "dead", "Dead"
        RETIRED = "retired", "Retired"
        JOURNEYMAN = "journeyman", "Journeyman"

    class Role(models.TextChoices):
        NONE = "", "—"
        CAPTAIN = "captain", "Great Captain"
        GOALIE = "goalie", "Goalie"

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players")
    position = models.ForeignKey(Position, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=100)
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    role = models.CharField(max_length=10, choices=Role.choices, blank=True, default="")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    attributes = models.JSONField(default=dict)
    skills = models.JSONField(default=list, blank=True)
    abilities = models.JSONField(default=list, blank=True)
    #: Cost plus the value of improvements (gil for Blitz Bowl, points for ElfBall).
    value = models.PositiveIntegerField(default=0)
    spp = models.PositiveIntegerField(default=0)
    goal_points = models.PositiveIntegerField(default=0)
    wounds = models.PositiveSmallIntegerField(default=0)
    armour_used = models.PositiveSmallIntegerField(default=0)
    matches_survived = models.PositiveSmallIntegerField(default=0)
    #: Bone Cruncher: Elite status, wound boxes marked per body area (advanced templates), lasting conditions
    #: ([{"key": "incapacitated_leg", "side": "left"}]) and Bloody Blades equipment ({"weapon", "shield"}).
    elite = models.BooleanField(default=False)
    wound_areas = models.JSONField(default=dict, blank=True)
    conditions = models.JSONField(default=list, blank=True)
    equipment = models.JSONField(default=dict, blank=True)
    hired_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["team", "number", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["active", "miss_next_match", "dead", "retired", "journeyman"]),
                name="player_status_known",
            ),
            models.CheckConstraint(condition=Q(role__in=["", "captain", "goalie"]), name="player_role_known"),
            # R (Bone Cruncher): one Great Captain and one Goalie per team.
            models.UniqueConstraint(fields=["team", "role"], condition=~Q(role=""), name="player_one_per_role"),
            models.UniqueConstraint(
                fields=["team", "number"],
                condition=Q(number__isnull=False, status__in=["active", "miss_next_match", "journeyman"]),
                name="player_unique_number_on_roster",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class LedgerEntry(models.Model):
    """One movement of gil. Append-only: the balance is the running sum, never edited.

    `sequence` numbers a team account's entries 1, 2, 3 … (unique), so two writers can never both append
    the next entry; `balance_after` is checked by the database never to be negative.
    """

    class Account(models.TextChoices):
        TREASURY = "treasury", "Treasury"
        STADIUM_FUND = "stadium_fund", "Stadium fund"

    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="ledger")
    account = models.CharField(max_length=20, choices=Account.choices, default=Account.TREASURY)
    sequence = models.PositiveIntegerField()
    amount = models.IntegerField()
    balance_after = models.IntegerField()
    kind = models.CharField(max_length=30, help_text="Machine-readable reason, e.g. hire, purchase.")
    reason = models.CharField(max_length=255)
    match = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["team", "account", "sequence"]
        verbose_name_plural = "ledger entries"
        # The weekly report reads a league's entries of one week: per team, a range of dates
        # (docs/decisions/, 2026-12-01 "The ledger's date index").
        indexes = [models.Index(fields=["team", "created_at"], name="ledger_team_created_at")]
        constraints = [
            models.UniqueConstraint(fields=["team", "account", "sequence"], name="ledger_unique_sequence"),
            models.CheckConstraint(condition=Q(balance_after__gte=0), name="ledger_balance_never_negative"),
            models.CheckConstraint(condition=~Q(amount=0), name="ledger_amount_not_zero"),
            models.CheckConstraint(condition=Q(account__in=["treasury", "stadium_fund"]), name="ledger_account_known"),
        ]

    def __str__(self) -> str:
        return f"{self.team} {self.amount:+,} → {self.balance_after:,} ({self.reason})"


class Sponsorship(models.Model):
    """A team's Ongoing Sponsorship (Blitz Bowl, Fortune and FAME). Gained and ended in the post-match sequence."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="sponsorships")
    name = models.CharField(max_length=100, blank=True)
    gained_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["team", "gained_at"]

    def __str__(self) -> str:
        return self.name or f"Sponsorship #{self.pk}"


class Transfer(models.Model):
    """A player moving between two coaches' teams: proposed by the selling coach, accepted by the buying
    coach, approved by the commissioner (R: all three must agree), then carried out at once."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Proposed"
        ACCEPTED = "accepted", "Accepted by the buying coach"
        COMPLETED = "completed", "Completed"
        REFUSED = "refused", "Refused"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="transfers")
    from_team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="transfers_out")
    to_team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="transfers_in")
    price = models.PositiveIntegerField(default=0, help_text="Gil the buying team pays the selling team.")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PROPOSED)
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(from_team=F("to_team")), name="transfer_between_two_teams"),
            models.CheckConstraint(
                condition=Q(status__in=["proposed", "accepted", "completed", "refused"]), name="transfer_status_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} → {self.to_team} ({self.status})"
