"""The benchmark's data: one big Blitz Bowl league (400 teams, ~4,978 players,
10,000 final matches) and 1,000 small ones (4 teams, a few matches each), shaped as real use makes them.

Bulk mode: users, memberships, teams, their opening treasury and hires are written with bulk_create from the
same values the services compute (the ruleset's starting treasury, each position's cost and initial value);
the matches come from `dugout.benchmark.history`; then a sample of matches is played through the real services
(`dugout.benchmark.play`), so the newest rows of the big league are exactly what the product writes."""

from __future__ import annotations

import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone

from campaigns.rulesets import get_ruleset
from dugout.benchmark.history import BATCH, TeamBook, history_write, players_settle
from dugout.benchmark.play import match_play
from league.models import League, Membership, Season
from matches.models import Aftermath, Inducement, Match, MatchDraft, MatchTeam, PlayerMatch, Prematch, Roll
from teams.models import LedgerEntry, Player, Position, Sponsorship, Team, Transfer

BIG_LEAGUE = "Bench big league"
SMALL_PREFIX = "Bench small league"
USER_PREFIX = "bench_"
PASSWORD = "bench-pass-1"
RULESET = "blitzbowl"
ROSTER = "hume"
#: A Hume team of 12 (74,000 gil of the 100,000 opening treasury); every other team hires a 13th lineman,
#: so 400 teams hold 4,978 players as in the issue.
LINE_UP = ("thrower", "catcher", "catcher", "blitzer", "blitzer", *["lineman"] * 7)


def bench_present(*, matches: int) -> bool:
    league = League.objects.filter(name=BIG_LEAGUE).first()
    return league is not None and league.matches.filter(status=Match.Status.FINAL).count() >= matches


def bench_reset() -> None:
    """Remove every benchmark league and user (children first: the ledger and match rows protect teams)."""
    leagues = League.objects.filter(name__startswith="Bench ")
    teams = Team.objects.filter(league__in=leagues)
    matches = Match.objects.filter(league__in=leagues)
    for model, scope in (
        (Roll, {"league__in": leagues}),
        (PlayerMatch, {"match__in": matches}),
        (Aftermath, {"match__in": matches}),
        (Inducement, {"match__in": matches}),
        (Prematch, {"match__in": matches}),
        (MatchDraft, {"match__in": matches}),
        (MatchTeam, {"match__in": matches}),
        (LedgerEntry, {"team__in": teams}),
        (Sponsorship, {"team__in": teams}),
        (Transfer, {"from_team__in": teams}),
    ):
        model.objects.filter(**scope).delete()
    Player.objects.filter(team__in=teams).delete()
    matches.delete()
    teams.delete()
    leagues.delete()
    get_user_model().objects.filter(username__startswith=USER_PREFIX).delete()


def _users(count: int) -> tuple:
    User = get_user_model()
    hashed = make_password(PASSWORD)  # one hash: hashing 400 passwords would be the seed's slowest part
    commissioner = User.objects.create(username=f"{USER_PREFIX}commissioner", password=hashed)
    coaches = User.objects.bulk_create(
        [
            User(username=f"{USER_PREFIX}coach{n:04d}", email=f"coach{n}@bench.invalid", password=hashed)
            for n in range(count)
        ],
        batch_size=BATCH,
    )
    return commissioner, coaches


def _teams(leagues_coaches: list[tuple[League, list]], sizes, history_start) -> dict[int, TeamBook]:
    """Teams with their line-ups, opening treasury and hires, as `team_create` and `team_hire_player` leave
    them (memberships too); returns each team's book for the history writer."""
    rules = get_ruleset(RULESET)
    positions = {p.key: p for p in Position.objects.filter(roster__ruleset=RULESET, roster__key=ROSTER)}
    roster_id = next(iter(positions.values())).roster_id
    teams, memberships = [], []
    for league, coaches in leagues_coaches:
        memberships += [Membership(league=league, user=c, role=Membership.Role.COACH) for c in coaches]
        teams += [
            Team(
                league=league,
                coach=c,
                name=f"{league.name[6:]} team {n + 1}",
                roster_id=roster_id,
                creation_closed_at=history_start,
            )
            for n, c in enumerate(coaches)
        ]
    Membership.objects.bulk_create(memberships, batch_size=BATCH)
    Team.objects.bulk_create(teams, batch_size=BATCH)
    books, players, entries = {}, [], []
    for n, team in enumerate(teams):
        hr = team.league.house_rules
        opening = rules.starting_treasury(hr)
        book = TeamBook(pk=team.pk, coach_id=team.coach_id, name=team.name, players={}, balance=opening, sequence=1)
        entries.append(
            LedgerEntry(
                team=team,
                sequence=1,
                amount=opening,
                balance_after=opening,
                kind="starting_treasury",
                reason="Starting treasury",
                created_by_id=team.coach_id,
            )
        )
        for number, key in enumerate(sizes(n), start=1):
            spec = positions[key]
            name = f"{spec.name} {number}"
            players.append(
                Player(
                    team=team,
                    position=spec,
                    name=name,
                    number=number,
                    attributes=dict(spec.attributes),
                    skills=list(spec.skills),
                    value=rules.initial_player_value(spec.spec(), hr),
                )
            )
            book.balance -= spec.cost
            book.sequence += 1
            entries.append(
                LedgerEntry(
                    team=team,
                    sequence=book.sequence,
                    amount=-spec.cost,
                    balance_after=book.balance,
                    kind="hire",
                    reason=f"Hired {name} ({spec.name})",
                    created_by_id=team.coach_id,
                )
            )
        books[team.pk] = book
    Player.objects.bulk_create(players, batch_size=BATCH)
    LedgerEntry.objects.bulk_create(entries, batch_size=BATCH)
    for p in players:
        books[p.team_id].players[p.pk] = {
            "name": p.name,
            "number": p.number,
            "position": p.position.name,
            "position_key": p.position.key,
            "status": p.status,
            "value": p.value,
            "spp": 0,
            "attributes": p.attributes,
            "skills": list(p.skills),
            "access": p.position.skill_access,
        }
    return books


def _pairs(team_ids: list[int], count: int, rng: random.Random) -> list[tuple[int, int]]:
    """Rounds in which every team plays once (random opponents), until `count` matches."""
    pairs: list[tuple[int, int]] = []
    while len(pairs) < count:
        order = list(team_ids)
        rng.shuffle(order)
        pairs += list(zip(order[::2], order[1::2], strict=False))
    return pairs[:count]


def seed(
    *,
    teams: int = 400,
    matches: int = 10_000,
    small_leagues: int = 1_000,
    small_matches: int = 3,
    real_matches: int = 10,
    weeks: int = 40,
    seed_value: int = 12,
    log=print,
) -> League:
    """Seed everything; returns the big league."""
    rng = random.Random(seed_value)  # noqa: S311 (a reproducible history, not a secret)
    now = timezone.now()
    start = now - timedelta(weeks=weeks)
    commissioner, coaches = _users(max(teams, 4))
    with transaction.atomic():
        big = League.objects.create(name=BIG_LEAGUE, ruleset=RULESET, created_by=commissioner)
        smalls = League.objects.bulk_create(
            [
                League(name=f"{SMALL_PREFIX} {n + 1:04d}", ruleset=RULESET, created_by=commissioner)
                for n in range(small_leagues)
            ],
            batch_size=BATCH,
        )
        Membership.objects.bulk_create(
            [Membership(league=lg, user=commissioner, role=Membership.Role.COMMISSIONER) for lg in [big, *smalls]],
            batch_size=BATCH,
        )
        # Each in its first season, as league_create opens it.
        Season.objects.bulk_create(
            [Season(league=lg, number=1, started_at=start) for lg in [big, *smalls]], batch_size=BATCH
        )
        big_books = _teams([(big, coaches[:teams])], lambda n: LINE_UP + (("lineman",) if n % 9 < 4 else ()), start)
        small_books = _teams(
            [(lg, [coaches[(4 * i + k) % len(coaches)] for k in range(4)]) for i, lg in enumerate(smalls)],
            lambda n: ("lineman",) * 11,
            start,
        )
    log(f"seed: {len(big_books)} + {len(small_books)} teams, {Player.objects.count()} players")
    played = history_write(
        league=big,
        books=big_books,
        pairs=_pairs(list(big_books), matches - real_matches, rng),
        start=start,
        end=now - timedelta(hours=6),
        commissioner_id=commissioner.pk,
        rng=rng,
    )
    log(f"seed: {played} matches in {BIG_LEAGUE}")
    small_ids = list(small_books)
    for n, league in enumerate(smalls):
        ids = small_ids[4 * n : 4 * n + 4]
        pairs = [(ids[k % 4], ids[(k + 1 + k // 4) % 4]) for k in range(small_matches)]
        books = {pk: small_books[pk] for pk in ids}
        history_write(
            league=league,
            books=books,
            pairs=pairs,
            start=now - timedelta(days=6),
            end=now - timedelta(hours=1),
            commissioner_id=commissioner.pk,
            rng=rng,
        )
    players_settle(big_books)
    players_settle(small_books)
    log(f"seed: {small_leagues} small leagues with {small_matches} matches each")
    big_teams = list(Team.objects.filter(league=big).select_related("coach").order_by("pk"))
    for n in range(real_matches):
        home, away = big_teams[(2 * n) % len(big_teams)], big_teams[(2 * n + 1) % len(big_teams)]
        match_play(league=big, home=home, away=away, commissioner=commissioner, rng=rng)
    log(f"seed: {real_matches} matches played through the services")
    return big
