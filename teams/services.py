"""Writes to teams. Each service runs in one transaction with the team row locked (a unit of work):
the rules are asked with the team as it stands, the effects applied, and gil moved only through
`ledger_post`, the one writer of money. A refusal raises RuleViolation and rolls everything back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone

from campaigns.errors import NotPermitted, RuleViolation
from campaigns.rulesets.base import fmt_gil
from league.models import League, league_table_changed

from . import policy
from .models import LedgerEntry, Player, Position, Roster, Team
from .selectors import team_state, team_treasury


@contextmanager
def team_locked(*, team_id: int) -> Iterator[Team]:
    """The unit of work: a transaction holding the team's row lock, with players and roster loaded."""
    with transaction.atomic():
        # Lock the team row alone (PostgreSQL forbids FOR UPDATE across the nullable outer joins).
        Team.objects.select_for_update().filter(pk=team_id).values_list("pk", flat=True).get()
        team = (
            Team.objects.select_related("league", "roster")
            .prefetch_related(
                Prefetch("roster__positions", queryset=Position.objects.order_by("order", "id")),
                Prefetch("players", queryset=Player.objects.select_related("position")),
            )
            .get(pk=team_id)
        )
        yield team


@contextmanager
def _team_coached(*, team_id: int, user: AbstractBaseUser) -> Iterator[Team]:
    """`team_locked`, for a write only the team's coach may make: anyone else is refused before any change."""
    with team_locked(team_id=team_id) as team:
        if not policy.may_coach_team(user, team):
            raise NotPermitted(f"Only {team.name}'s coach may do that.")
        yield team


@dataclass(frozen=True)
class Posting:
    """One entry for `ledger_post_many`: what `ledger_post` takes, minus the team."""

    amount: int
    kind: str
    reason: str
    account: str = LedgerEntry.Account.TREASURY
    match_id: int | None = None


def ledger_post(
    *,
    team: Team,
    amount: int,
    kind: str,
    reason: str,
    user: AbstractBaseUser | None = None,
    account: str = LedgerEntry.Account.TREASURY,
    match_id: int | None = None,
) -> LedgerEntry:
    """Append one ledger entry. The caller holds the team lock (`team_locked`).

    The new running balance is the last entry's plus `amount`; a balance below 0 is refused here with a
    message, and by the database's CheckConstraint should anything else try.
    """
    posting = Posting(amount=amount, kind=kind, reason=reason, account=account, match_id=match_id)
    return ledger_post_many(team=team, postings=[posting], user=user)[0]


def ledger_post_many(
    *,
    team: Team,
    postings: list[Posting],
    user: AbstractBaseUser | None = None,
    heads: dict[str, tuple[int, int]] | None = None,
) -> list[LedgerEntry]:
    """Append `postings` in order, in one insert: each entry's running balance follows the one before it in its
    account, exactly as that many `ledger_post` calls would, and the first that would take an account below 0
    refuses them all (RuleViolation; nothing is written). The caller holds the team lock (`team_locked`).

    `heads`: each account's last (sequence, balance), when the caller read them in a statement that began after
    it held the team's lock (a post-match step folds them into its sequence's row); else one query an account."""
    if not postings:
        return []
    if any(p.amount == 0 for p in postings):
        raise ValueError("a ledger entry moves gil: amount must not be 0")
    # The last entry of each account the postings touch (at most two accounts; the team's lock keeps it last).
    last: dict[str, tuple[int, int]] = {}
    for account in sorted({p.account for p in postings}):
        if heads is not None and account in heads:
            last[account] = heads[account]
            continue
        found = (
            LedgerEntry.objects.filter(team=team, account=account)
            .order_by("-sequence")
            .values_list("sequence", "balance_after")
            .first()
        )
        last[account] = found or (0, 0)
    created_by = user if user and user.is_authenticated else None
    entries = []
    for posting in postings:
        entry = _ledger_entry(posting, last[posting.account], created_by=created_by, team=team)
        last[posting.account] = (entry.sequence, entry.balance_after)
        entries.append(entry)
    return LedgerEntry.objects.bulk_create(entries)


def _ledger_entry(
    posting: Posting, head: tuple[int, int], *, created_by: AbstractBaseUser | None, **team: object
) -> LedgerEntry:
    """The entry (unsaved) `posting` appends after `head`, its account's last (sequence, balance); `team`: the
    entry's `team=` or `team_id=`. The overdraft check of every ledger write: an entry that would take its
    account below 0 is refused in words (RuleViolation), before anything is written."""
    sequence, balance = head
    if balance + posting.amount < 0:
        raise RuleViolation(
            f"Not enough gil: {posting.reason} needs {fmt_gil(-posting.amount)} "
            f"and the {posting.account.replace('_', ' ')} holds {fmt_gil(balance)}.",
            field="treasury",
        )
    return LedgerEntry(
        **team,
        account=posting.account,
        sequence=sequence + 1,
        amount=posting.amount,
        balance_after=balance + posting.amount,
        kind=posting.kind,
        reason=posting.reason,
        match_id=posting.match_id,
        created_by=created_by,
    )


def ledger_post_teams(*, postings: dict[int, Posting], user: AbstractBaseUser | None = None) -> list[LedgerEntry]:
    """One treasury entry for each of several teams ({team id: posting}), in two queries (their last balances,
    one insert), exactly as a `ledger_post` per team would write them; one that would take a treasury below 0
    refuses them all. The caller holds the teams' locks (e.g. `season_turn_apply`)."""
    from .selectors import latest_balance

    postings = {team_id: p for team_id, p in postings.items() if p.amount}
    if not postings:
        return []
    if any(p.account != LedgerEntry.Account.TREASURY for p in postings.values()):
        raise ValueError("ledger_post_teams writes treasury entries")
    last = {
        row["pk"]: (row["last_sequence"] or 0, row["balance"])
        for row in Team.objects.filter(pk__in=list(postings))
        .annotate(**latest_balance(LedgerEntry.Account.TREASURY))
        .values("pk", "last_sequence", "balance")
    }
    created_by = user if user and user.is_authenticated else None
    entries = [
        _ledger_entry(posting, last[team_id], created_by=created_by, team_id=team_id)
        for team_id, posting in sorted(postings.items())
    ]
    return LedgerEntry.objects.bulk_create(entries)


def team_create(*, user: AbstractBaseUser, league: League, name: str, roster_key: str) -> Team:
    """The acting user founds a team (and coaches it) from one of the league's rosters; Blitz Bowl teams open
    their treasury."""
    rules, hr = league.rules, league.house_rules
    coach = user
    if not policy.may_found_team(user, league):
        raise NotPermitted(
            "Only a coach of this league can create a team in it. Join the league first.", field="league"
        )
    roster = Roster.objects.filter(ruleset=league.ruleset, key=roster_key).first()
    if roster is None:
        raise RuleViolation(f"{roster_key!r} is not a {rules.name} roster.", field="roster")
    with transaction.atomic():
        # Serialise team creation per coach and league so "one team per coach" holds under races.
        League.objects.select_for_update().filter(pk=league.pk).values_list("pk", flat=True).get()
        if not rules.may_run_several_teams(hr) and Team.objects.filter(league=league, coach=coach).exists():
            raise RuleViolation(
                "This league allows one team per coach (house rule coach_may_run_several_teams).", field="league"
            )
        if Team.objects.filter(league=league, name__iexact=name).exists():
            raise RuleViolation(f"The league already has a team called {name}.", field="name")
        team = Team.objects.create(league=league, coach=coach, name=name, roster=roster)
        league_table_changed(league.pk)
        opening = rules.starting_treasury(hr)
        if opening:
            ledger_post(team=team, amount=opening, kind="starting_treasury", reason="Starting treasury", user=coach)
    return team


def _position(team: Team, key: str) -> Position:
    for position in team.roster.positions.all():
        if position.key == key:
            return position
    raise RuleViolation(f"{key!r} is not a position of the {team.roster.name} roster.", field="position")


def _player(team: Team, player_id: int) -> Player:
    for player in team.players.all():
        if player.pk == player_id and player.left_at is None:
            return player
    raise RuleViolation("No such player on this team.", field="player")


def team_hire_player(
    *, team_id: int, user: AbstractBaseUser, position: str, name: str, number: int | None = None, role: str = ""
) -> Player:
    """Hire a rookie: position and roster limits, budget or treasury, role rules — then pay for him."""
    with _team_coached(team_id=team_id, user=user) as team:
        league = team.league
        spec = _position(team, position)
        state = team_state(team=team)
        cost = league.rules.check_hire(state, spec.spec(), league.house_rules, role=role)
        _check_number_free(team, number)
        player = Player.objects.create(
            team=team,
            position=spec,
            name=name,
            number=number,
            role=role,
            attributes=dict(spec.attributes),
            skills=list(spec.skills),
            value=league.rules.initial_player_value(spec.spec(), league.house_rules),
            # R (Bone Cruncher): a Halfling team's player of another race is its one Elite player.
            elite=bool(spec.extra.get("elite", spec.extra.get("race"))),
        )
        if cost:
            ledger_post(team=team, amount=-cost, kind="hire", reason=f"Hired {name} ({spec.name})", user=user)
    return player


def _check_number_free(team: Team, number: int | None, *, except_id: int | None = None) -> None:
    if number is None:
        return
    if any(p.number == number and p.left_at is None and p.pk != except_id for p in team.players.all()):
        raise RuleViolation(f"Shirt number {number} is already taken on this team.", field="number")


def team_update_player(*, team_id: int, player_id: int, user: AbstractBaseUser, fields: dict) -> Player:
    """Rename, renumber or (Bone Cruncher) change a player's role."""
    with _team_coached(team_id=team_id, user=user) as team:
        player = _player(team, player_id)
        if "number" in fields:
            _check_number_free(team, fields["number"], except_id=player.pk)
        if "role" in fields:
            state = team_state(team=team)
            me = next(p for p in state.players if p.id == player.pk)
            team.league.rules.check_role(state, me, fields["role"], team.league.house_rules)
        if "equipment" in fields:
            equipment = {"weapon": "none", "shield": False, **fields["equipment"]}
            team.league.rules.check_equipment(
                weapon=equipment["weapon"], shield=equipment["shield"], hr=team.league.house_rules
            )
            fields = {**fields, "equipment": equipment}
        changed = [f for f in ("name", "number", "role", "equipment") if f in fields]
        for attr in changed:
            setattr(player, attr, fields[attr])
        player.save(update_fields=changed)
    return player


def team_learn_ability(*, team_id: int, player_id: int, user: AbstractBaseUser, ability: str) -> Player:
    """R (ElfBall): a player learns an ability he is entitled to, at any time after earning it — Basic before
    Advanced, each once, +5 points, never taking the team over its budget (cut something or someone first)."""
    with _team_coached(team_id=team_id, user=user) as team:
        player = _player(team, player_id)
        if player.status not in (Player.Status.ACTIVE, Player.Status.MISS_NEXT_MATCH):
            raise RuleViolation(f"{player.name} cannot learn an ability ({player.get_status_display()}).")
        league = team.league
        added = league.rules.learn_ability(
            team_state(team=team),
            abilities=tuple(player.abilities),
            goal_points=player.goal_points,
            ability=ability,
            hr=league.house_rules,
        )
        player.abilities = [*player.abilities, ability]
        player.value += added
        player.save(update_fields=["abilities", "value"])
    return player


def team_fire_player(*, team_id: int, player_id: int, user: AbstractBaseUser) -> Player:
    """Fire a player (H: no refund). He leaves the roster; his record stays for the league's history."""
    with _team_coached(team_id=team_id, user=user) as team:
        player = _player(team, player_id)
        state = team_state(team=team)
        me = next(p for p in state.players if p.id == player.pk)
        team.league.rules.check_fire(state, me, team.league.house_rules)
        player.status = Player.Status.RETIRED
        player.role = ""
        player.left_at = timezone.now()
        player.save(update_fields=["status", "role", "left_at"])
    return player


def team_purchase(*, team_id: int, user: AbstractBaseUser, item: str, quantity: int) -> Team:
    """Buy re-rolls, staff, Fan Factor or team support, as the league's ruleset prices them."""
    if quantity < 1:
        raise RuleViolation("Buy at least one.", field="quantity")
    with _team_coached(team_id=team_id, user=user) as team:
        league = team.league
        purchase = league.rules.purchase(team_state(team=team), item, quantity, league.house_rules)
        team.rerolls += purchase.rerolls
        team.fan_factor += purchase.fan_factor
        staff = dict(team.staff)
        for key, count in purchase.staff.items():
            staff[key] = staff.get(key, 0) + count
        team.staff = staff
        team.save(update_fields=["rerolls", "fan_factor", "staff"])
        if purchase.cost:
            ledger_post(
                team=team, amount=-purchase.cost, kind="purchase", reason=f"Bought {purchase.description}", user=user
            )
    return team


def team_close_creation(*, team_id: int, user: AbstractBaseUser) -> Team:
    """Declare the team ready: creation prices end (e.g. re-rolls now cost double)."""
    with _team_coached(team_id=team_id, user=user) as team:
        if not team.in_creation:
            raise RuleViolation("The team has already left creation.")
        team.league.rules.check_ready(team_state(team=team), team.league.house_rules)
        team.creation_closed_at = timezone.now()
        team.save(update_fields=["creation_closed_at"])
    return team


def team_cancel_residency(*, team_id: int, user: AbstractBaseUser) -> Team:
    """Cancel the team's home stadium (R Blitz Bowl: "at any time for 5,000 gil"), by the team's coach.

    Under the team's lock, so two cancels at once pay once: the second finds no residency (a Conflict). The cost
    leaves the treasury through `ledger_post`; a treasury that cannot pay refuses it and nothing changes."""
    with _team_coached(team_id=team_id, user=user) as team:
        league = team.league
        stadium = team.home_stadium
        cost = league.rules.check_residency_cancel(
            resident=stadium is not None,
            owns_stadium=team.owns_stadium,
            treasury=team_treasury(team=team),
            hr=league.house_rules,
        )
        if cost:
            ledger_post(
                team=team,
                amount=-cost,
                kind="residency_cancel",
                reason=f"Cancelled the residency at {stadium.name}",
                user=user,
            )
        team.home_stadium = None
        team.save(update_fields=["home_stadium"])
    return team


def ledger_audit() -> list[str]:
    """Recompute every account's running balance from its entries; return the discrepancies found."""
    problems: list[str] = []
    expected: dict[tuple[int, str], tuple[int, int]] = {}
    for entry in LedgerEntry.objects.order_by("team_id", "account", "sequence").iterator():
        key = (entry.team_id, entry.account)
        sequence, balance = expected.get(key, (0, 0))
        if entry.sequence != sequence + 1 or entry.balance_after != balance + entry.amount:
            problems.append(f"team {entry.team_id} {entry.account} entry {entry.sequence}: balance does not add up")
        expected[key] = (entry.sequence, entry.balance_after)
    return problems
