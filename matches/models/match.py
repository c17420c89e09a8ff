"""Matches, their teams' lines of the result, per-player match rows, rolls, the post-match and pre-match
sequences, live-sheet drafts and disputes."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from matches import lifecycle


class Match(models.Model):
    class Kind(models.TextChoices):
        LEAGUE = "league", "League"
        PLAYOFF = "playoff", "Play-off"
        FINAL = "final", "Final"
        FRIENDLY = "friendly", "Friendly"

    class Event(models.TextChoices):
        NONE = "", "—"
        SCORCHBALL = "scorchball", "Scorchball"
        TERMINIX = "terminix", "Terminix"

    #: The statuses and the moves between them are declared in `matches.lifecycle`.
    Status = lifecycle.Status

    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="matches")
    #: The number of the league's season the match belongs to (`Season.number`); the services set the league's
    #: open season (`League.season`). The default serves a league's first season.
    season = models.PositiveSmallIntegerField(default=1)
    #: The schedule round it was generated in (matches/schedules.py), or null for a match scheduled by hand.
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    #: When it is to be played (agreed by the coaches, or the round's start) and by when its result is due.
    scheduled_for = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    #: The deadline the league clock last told the commissioners had passed (matches/clock.py): each deadline is
    #: announced once; one moved later is a new deadline, announced again if it passes too.
    deadline_announced = models.DateTimeField(null=True, blank=True, editable=False)
    #: The generated schedule's round it belongs to (matches/schedules.py), null for a match scheduled by hand.
    schedule_round = models.ForeignKey(
        "ScheduleRound", null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.LEAGUE)
    event = models.CharField(max_length=12, choices=Event.choices, blank=True, default="")
    stadium = models.ForeignKey("league.Stadium", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    tests_to_win = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    #: The submitted result as validated (the ruleset's result format).
    result = models.JSONField(default=dict, blank=True)
    #: The result body as it was entered: confirmation validates it again against the rosters of that moment.
    result_body = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    submitted_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    #: How the teams' players stood before the result became final ({player id: {status, attributes, spp}}),
    #: so a correction can put them back.
    journal = models.JSONField(default=dict, blank=True)
    #: Results the commissioner corrected, kept as history: [{result, player_rows, logs, by, at}].
    corrections = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        # The league page's panels and the paginated lists read a league's matches (of a status) in one
        # order: each index serves one of them without a sort (EXPLAINs in docs/decisions/, 2026-12-01).
        indexes = [
            models.Index(fields=["league", "status", "-confirmed_at", "-id"], name="match_league_results"),
            # Partial: only the matches not final yet (few, whatever the history), in the fixtures' order.
            models.Index(
                fields=["league", "created_at", "id"],
                condition=Q(status__in=list(lifecycle.OPEN)),
                name="match_league_fixtures",
            ),
            # The API's list of a league's matches, newest first (the model's order), of any status.
            models.Index(fields=["league", "-created_at", "-id"], name="match_league_recent"),
            # A season's matches of a status (its table, its close check, the schedule's rounds).
            models.Index(fields=["league", "season", "status"], name="match_league_season"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=list(lifecycle.STATUSES)), name="match_status_known"),
            models.CheckConstraint(
                condition=Q(kind__in=["league", "playoff", "final", "friendly"]), name="match_kind_known"
            ),
        ]

    def __str__(self) -> str:
        return f"Match #{self.pk}"


class MatchTeam(models.Model):
    """A team's place in a match and its line of the final result (the standings read these)."""

    class Outcome(models.TextChoices):
        NONE = "", "—"
        WIN = "win", "Won"
        DRAW = "draw", "Drawn"
        LOSS = "loss", "Lost"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sides")
    team = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="match_sides")
    order = models.PositiveSmallIntegerField(help_text="0 = home team.")
    score = models.PositiveIntegerField(null=True, blank=True)
    casualties_inflicted = models.PositiveIntegerField(default=0)
    conceded = models.BooleanField(default=False)
    conceded_early = models.BooleanField(default=False)
    fame = models.PositiveSmallIntegerField(default=0)
    placing = models.PositiveSmallIntegerField(null=True, blank=True)
    eliminations = models.PositiveSmallIntegerField(default=0)
    mvp = models.ForeignKey("teams.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    outcome = models.CharField(max_length=4, choices=Outcome.choices, blank=True, default="")
    league_points = models.SmallIntegerField(default=0)
    #: The team as it stood before the match (TV, treasury, fan factor, roster), taken when the result is final.
    snapshot = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["match", "order"]
        constraints = [
            models.UniqueConstraint(fields=["match", "team"], name="matchteam_once_per_match"),
            models.UniqueConstraint(fields=["match", "order"], name="matchteam_unique_order"),
        ]

    def __str__(self) -> str:
        return f"{self.team} in {self.match}"


class PlayerMatch(models.Model):
    """One player's match: the source of truth for SPP, casualties, goal points, wounds and injuries."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="player_rows")
    team = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey("teams.Player", on_delete=models.PROTECT, related_name="match_rows")
    touchdowns = models.PositiveSmallIntegerField(default=0)
    casualties = models.PositiveSmallIntegerField(default=0)
    completions = models.PositiveSmallIntegerField(default=0)
    interceptions = models.PositiveSmallIntegerField(default=0)
    mvp = models.BooleanField(default=False)
    spp = models.PositiveIntegerField(default=0)
    goal_points = models.PositiveSmallIntegerField(default=0)
    wounds = models.PositiveSmallIntegerField(default=0)
    injury = models.CharField(max_length=20, blank=True, default="")
    injury_detail = models.CharField(max_length=20, blank=True, default="", help_text="e.g. the stat lost.")
    #: The ruleset's own facts of the row (ElfBall potions and goals; Bone Cruncher wound areas, criticals).
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["match", "team", "player"]
        constraints = [models.UniqueConstraint(fields=["match", "player"], name="playermatch_once_per_match")]

    def __str__(self) -> str:
        return f"{self.player} in {self.match}"


#: What a player's match row records (every column but its keys): the export writes them, the careers read them.
PLAYER_ROW_FACTS = tuple(
    f.name for f in PlayerMatch._meta.concrete_fields if f.name not in ("id", "match", "team", "player")
)


class Roll(models.Model):
    """The one roll log of the service: every die, entered at the table or rolled by the server."""

    league = models.ForeignKey("league.League", on_delete=models.CASCADE, related_name="rolls")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE, related_name="rolls")
    team = models.ForeignKey("teams.Team", null=True, blank=True, on_delete=models.CASCADE, related_name="rolls")
    step = models.CharField(max_length=30, blank=True)
    key = models.CharField(max_length=40)
    expression = models.CharField(max_length=10)
    values = models.JSONField()
    entered = models.BooleanField(help_text="True: entered from the table; False: rolled by the server.")
    rolled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.key} {self.expression} = {self.values}"


class Aftermath(models.Model):
    """One team's post-match sequence for one final match: an explicit state machine over its ruleset's steps."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="aftermaths")
    team = models.ForeignKey("teams.Team", on_delete=models.CASCADE, related_name="aftermaths")
    #: Index of the current step in the ruleset's list; equal to its length when complete.
    step_index = models.PositiveSmallIntegerField(default=0)
    complete = models.BooleanField(default=False)
    #: The decision the current step waits for: {decision, options, message, rolls (made so far), choices}.
    pending = models.JSONField(default=dict, blank=True)
    log = models.JSONField(default=list, blank=True)
    #: Data the steps carry to later steps (e.g. this match's winnings).
    carry = models.JSONField(default=dict, blank=True)
    #: Every applied effect with what undoes it, in order (a correction replays it backwards).
    journal = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "team"], name="aftermath_once_per_team")]

    def __str__(self) -> str:
        return f"Post-match of {self.team} after {self.match}"


class Prematch(models.Model):
    """A match's pre-match sequence (Blitz Bowl: weather, fans and FAME, inducements; Bone Cruncher: the
    Aggressor and terrain): a state machine over the ruleset's pre-match steps, like the post-match one."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="prematch")
    step_index = models.PositiveSmallIntegerField(default=0)
    complete = models.BooleanField(default=False)
    weather = models.CharField(max_length=30, blank=True)
    #: {team id: fans}, {team id: FAME} — FAME feeds the winnings of the post-match sequence.
    fans = models.JSONField(default=dict, blank=True)
    fame = models.JSONField(default=dict, blank=True)
    #: Team Values as of the pre-match sequence and the inducement gil each team receives ({team id: gil}).
    team_values = models.JSONField(default=dict, blank=True)
    induced = models.JSONField(default=dict, blank=True)
    superior = models.ForeignKey("teams.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    underdog = models.ForeignKey("teams.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    #: Bone Cruncher: the Aggressor, and each coach's terrain roll ({team id: {pieces, traps…}}).
    aggressor = models.ForeignKey("teams.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    terrain = models.JSONField(default=dict, blank=True)
    log = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Pre-match of {self.match}"


class Inducement(models.Model):
    """Something a team induced for one match. It lasts that match only: mercenaries and stars never join
    the roster. The treasury-funded part of a team's shopping leaves the ledger when it closes its turn."""

    class Item(models.TextChoices):
        KEG = "keg", "Blitzweiser Keg"
        BRIBE = "bribe", "Bribe"
        EXTRA_TRAINING = "extra_training", "Extra Team Training"
        CHEF = "chef", "Qu Master Chef"
        WANDERING_WHITE_MAGE = "wandering_white_mage", "Wandering White Mage"
        BLACK_MAGE = "black_mage", "Black Mage"
        STAR_PLAYER = "star_player", "Star Player"
        MERCENARY = "mercenary", "Mercenary"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="inducements")
    team = models.ForeignKey("teams.Team", on_delete=models.PROTECT, related_name="inducements")
    item = models.CharField(max_length=25, choices=Item.choices)
    quantity = models.PositiveSmallIntegerField(default=1)
    position = models.ForeignKey("teams.Position", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    skill = models.CharField(max_length=40, blank=True)
    star = models.CharField(max_length=40, blank=True)
    #: Gil for the whole line (quantity × unit price).
    price = models.PositiveIntegerField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "team", "id"]
        constraints = [models.CheckConstraint(condition=Q(quantity__gte=1), name="inducement_quantity_positive")]

    def __str__(self) -> str:
        return f"{self.quantity} × {self.get_item_display()} for {self.team}"


class MatchDraft(models.Model):
    """A match's live sheet: the events coaches tap during the game, kept as they happen so a reload, a second
    device or the other coach sees the same sheet; submitting it enters the result they fold into."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="draft")
    #: The sequence number the next event gets (events keep the order they reached the server in).
    next_seq = models.PositiveIntegerField(default=1)
    submitted_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Live sheet of {self.match}"


class DraftEvent(models.Model):
    """One tapped event of a live sheet. `key` is the client's idempotency key: the same key sent twice is kept
    once. An undone event stays (undone), so a late repeat of its key cannot bring it back."""

    draft = models.ForeignKey(MatchDraft, on_delete=models.CASCADE, related_name="events")
    key = models.CharField(max_length=64)
    seq = models.PositiveIntegerField()
    #: The event as the ruleset's sheet normalised it: {kind, team, player, players, option}.
    event = models.JSONField()
    undone = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["draft", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["draft", "key"], name="draftevent_key_once"),
            models.UniqueConstraint(fields=["draft", "seq"], name="draftevent_seq_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event.get('kind')} #{self.seq} of {self.draft}"


class Dispute(models.Model):
    """A coach's dispute of a submitted result, with his reason, until the commissioner rules on it:
    confirmed as is, corrected or rejected (or the result is replaced by a coach first)."""

    class Ruling(models.TextChoices):
        OPEN = "", "Open"
        CONFIRMED = "confirmed", "Confirmed as is"
        CORRECTED = "corrected", "Corrected"
        REJECTED = "rejected", "Rejected"
        REPLACED = "replaced", "Replaced by a coach"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="disputes")
    raised_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    ruling = models.CharField(max_length=10, choices=Ruling.choices, blank=True, default="")
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    ruled_at = models.DateTimeField(null=True, blank=True)
    ruling_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            # One open dispute per match at a time (a second dispute waits for the first ruling).
            models.UniqueConstraint(fields=["match"], condition=Q(ruling=""), name="dispute_one_open_per_match"),
            models.CheckConstraint(
                condition=Q(ruling__in=["", "confirmed", "corrected", "rejected", "replaced"]),
                name="dispute_ruling_known",
            ),
        ]

    def __str__(self) -> str:
        return f"Dispute of match {self.match_id}"
