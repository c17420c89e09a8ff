"""A league's history of final Blitz Bowl matches, made in bulk: each match's result is the ruleset's own
`parse_result` of a plausible body, a row (`player_match_row`) for every player who played (the ruleset's
`match_players`, asked as the services ask it: a stat line or not), its points `league_points`, and each
team's post-match sequence the money the pure rules give (winnings, expensive mistakes) with the dice it rolled —
the rows a confirmed match and two walked sequences leave (Match, MatchTeam with its snapshot, PlayerMatch, Roll,
LedgerEntry, a complete Aftermath), written with bulk_create in batches. Nothing here takes a lock or a service
round trip per row; `dugout.benchmark.play` is the real path, and the seeder plays a sample through it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction

from campaigns.dice import RollRecord
from campaigns.rulesets.base import PlayerState, fmt_gil
from campaigns.rulesets.blitzbowl import postmatch
from dugout.benchmark.play import result_body
from matches.models import Aftermath, Match, MatchTeam, PlayerMatch, Roll
from matches.rolls import roll_row, write_roll_rows
from matches.tally import tally_rebuild
from teams.models import LedgerEntry, Player

BATCH = 1000


@dataclass
class TeamBook:
    """What the bulk writer keeps of a team between its matches: players (pk → dict), the treasury's running
    balance and the ledger's next sequence number."""

    pk: int
    coach_id: int
    name: str
    players: dict[int, dict]
    balance: int
    sequence: int
    fan_factor: int = 0
    rerolls: int = 0
    entries: list = field(default_factory=list)


@contextmanager
def dated(*fields) -> Iterator[None]:
    """Let bulk rows carry their own `created_at` (history spread over past weeks) instead of "now"."""
    saved = [(f, f.auto_now_add) for f in fields]
    for f, _ in saved:
        f.auto_now_add = False
    try:
        yield
    finally:
        for f, value in saved:
            f.auto_now_add = value


DATED_FIELDS = (
    Match._meta.get_field("created_at"),
    Roll._meta.get_field("created_at"),
    LedgerEntry._meta.get_field("created_at"),
)


def _snapshot(book: TeamBook) -> dict:
    return {
        "coach": book.coach_id,
        "team_value": sum(p["value"] for p in book.players.values()),
        "treasury": book.balance,
        "fan_factor": book.fan_factor,
        "rerolls": book.rerolls,
        "players": [
            {
                "id": pk,
                "name": p["name"],
                "number": p["number"],
                "position": p["position"],
                "status": p["status"],
                "value": p["value"],
                "spp": p["spp"],
            }
            for pk, p in book.players.items()
        ],
    }


def _post(book: TeamBook, amount: int, kind: str, reason: str, match: Match, at: datetime) -> None:
    book.sequence += 1
    book.balance += amount
    book.entries.append(
        LedgerEntry(
            team_id=book.pk,
            sequence=book.sequence,
            amount=amount,
            balance_after=book.balance,
            kind=kind,
            reason=reason,
            match=match,
            created_by_id=book.coach_id,
            created_at=at,
        )
    )


def _sequence(book: TeamBook, side: MatchTeam, match: Match, hr, rng: random.Random, at: datetime) -> tuple:
    """One team's post-match sequence as the pure rules run it: the rolls, the ledger lines, the log."""
    rolls, lines = [], []
    d6 = rng.randint(1, 6)
    won = postmatch.winnings(d6=d6, fame=side.fame, outcome=side.outcome, at_owned_stadium=False, d3=None, hr=hr)
    rolls.append(("fortune", "winnings", "1d6", [d6]))
    if won.amount:
        _post(book, won.amount, "winnings", f"Winnings, match #{match.pk}", match, at)
    dice = postmatch.fan_factor_dice(outcome=side.outcome, hr=hr)
    rolls.append(("fortune", "fan_factor", dice, [rng.randint(1, 6) for _ in range(int(dice[0]))]))
    lines.append({"step": "fortune", "title": "Fortune and FAME", "lines": [won.explanation]})
    mistake = "Treasury below 10,000 gil, no expensive mistakes."
    if postmatch.expensive_mistake_needs_roll(treasury=book.balance, hr=hr):
        d6 = rng.randint(1, 6)
        rolls.append(("prepare", "expensive_mistakes", "1d6", [d6]))
        kind = postmatch.expensive_mistake(treasury=book.balance, d6=d6, hr=hr)
        d3 = rng.randint(1, 3) if kind == "minor" else None
        two_d6 = rng.randint(1, 6) + rng.randint(1, 6) if kind == "catastrophe" else None
        if d3 is not None:
            rolls.append(("prepare", "expensive_mistakes_amount", "1d3", [d3]))
        loss = postmatch.expensive_mistake_loss(kind=kind, treasury=book.balance, d3=d3, two_d6=two_d6, hr=hr)
        mistake = f"Expensive mistakes (treasury {fmt_gil(book.balance)}, rolled {d6}): {loss.explanation}"
        if loss.amount:
            _post(book, -loss.amount, "expensive_mistake", f"Expensive mistake ({kind})", match, at)
    lines.append({"step": "prepare", "title": "Prepare for next match", "lines": [mistake]})
    return rolls, lines, won.amount


def history_write(
    *,
    league,
    books: dict[int, TeamBook],
    pairs: list[tuple[int, int]],
    start: datetime,
    end: datetime,
    commissioner_id: int,
    rng: random.Random,
) -> int:
    """Write one final match per pair, dated evenly from `start` to `end`, in batches; returns the count."""
    rules, hr = league.rules, league.house_rules
    step = (end - start) / max(len(pairs), 1)
    written = 0
    for first in range(0, len(pairs), BATCH):
        chunk = pairs[first : first + BATCH]
        with transaction.atomic(), dated(*DATED_FIELDS):
            written += _chunk_write(league, rules, hr, books, chunk, start + step * first, step, commissioner_id, rng)
    tally_rebuild(league_id=league.pk)  # the rows were written in bulk: the players' season totals from them
    return written


def _chunk_write(league, rules, hr, books, chunk, at, step, commissioner_id, rng) -> int:
    matches, bodies = [], []
    for n, (home, away) in enumerate(chunk):
        hb, ab = books[home], books[away]
        body = result_body(rng, list(hb.players), list(ab.players), home, away)
        when = at + step * n
        rosters = {home: {pk: "active" for pk in hb.players}, away: {pk: "active" for pk in ab.players}}
        context = {
            "tests_to_win": None,
            "stock": {home: {}, away: {}},
            "players": {
                pk: {"attributes": p["attributes"], "abilities": [], "role": "", "elite": False}
                for b in (hb, ab)
                for pk, p in b.players.items()
            },
        }
        result = rules.parse_result(body, rosters=rosters, event="", hr=hr, context=context)
        result["rolls"] = {}
        journal = {
            "players": {
                str(pk): {"status": "active", "attributes": p["attributes"], "spp": p["spp"], "goal_points": 0}
                for b in (hb, ab)
                for pk, p in b.players.items()
            }
        }
        matches.append(
            Match(
                league=league,
                status=Match.Status.FINAL,
                result=result,
                result_body=body,
                created_by_id=commissioner_id,
                created_at=when - timedelta(hours=2),
                submitted_by_id=hb.coach_id,
                submitted_at=when - timedelta(minutes=10),
                confirmed_by_id=ab.coach_id,
                confirmed_at=when,
                journal=journal,
            )
        )
        bodies.append((result, when))
    Match.objects.bulk_create(matches)
    sides, rows, rolls, aftermaths = [], [], [], []
    for match, (result, when) in zip(matches, bodies, strict=True):
        mvps = {line["mvp"] for line in result["teams"]}
        by_player = {r["player"]: r for r in result.get("players", [])}
        for order, line in enumerate(result["teams"]):
            book = books[line["team"]]
            side = MatchTeam(
                match=match,
                team_id=book.pk,
                order=order,
                snapshot=_snapshot(book),
                score=line["score"],
                casualties_inflicted=line["casualties_inflicted"],
                fame=line.get("fame", 0),
                mvp_id=line["mvp"],
                outcome=line["outcome"],
            )
            side.league_points = rules.league_points(
                outcome=side.outcome, kind=match.kind, hr=hr, event="", placing=None
            )
            sides.append(side)
            improved: list[tuple[list[int], str]] = []
            played = _played(rules, hr, book, line)
            for pk in book.players:
                if pk not in played and pk not in by_player and pk not in mvps:
                    continue
                row = rules.player_match_row(by_player.get(pk, {}), mvp=pk in mvps, hr=hr)
                rows.append(PlayerMatch(match=match, team_id=book.pk, player_id=pk, **row))
                improved += _improve(book.players[pk], row.get("spp", 0), hr, rng)
            team_rolls, log, winnings = _sequence(book, side, match, hr, rng, when)
            team_rolls = [("improvements", "improvement", "2d6", dice) for dice, _ in improved] + team_rolls
            log.insert(
                0,
                {
                    "step": "improvements",
                    "title": "Improvements",
                    "lines": [line for _, line in improved] or ["No player reached a new level."],
                },
            )
            rolls += [
                roll_row(
                    league=league,
                    match=match,
                    team_id=book.pk,
                    step=s,
                    record=RollRecord(k, e, tuple(v), False),
                    rolled_by_id=book.coach_id,
                    created_at=when,
                )
                for s, k, e, v in team_rolls
            ]
            aftermaths.append(
                Aftermath(
                    match=match,
                    team_id=book.pk,
                    step_index=len(rules.postmatch_steps),
                    complete=True,
                    log=log,
                    carry={"winnings": winnings, "team_value": side.snapshot["team_value"]},
                    journal=[
                        {
                            "type": "gil",
                            "amount": winnings,
                            "account": "treasury",
                            "reason": f"Winnings, match #{match.pk}",
                        }
                    ],
                )
            )
    MatchTeam.objects.bulk_create(sides, batch_size=BATCH)
    PlayerMatch.objects.bulk_create(rows, batch_size=BATCH)
    write_roll_rows(rolls, batch_size=BATCH)
    Aftermath.objects.bulk_create(aftermaths, batch_size=BATCH)
    entries = [e for b in books.values() for e in b.entries]
    LedgerEntry.objects.bulk_create(entries, batch_size=BATCH)
    for b in books.values():
        b.entries.clear()
    return len(matches)


def _played(rules, hr, book: TeamBook, line: dict) -> frozenset[int]:
    """Who of the team played the match, as `matches.effects.played_by` asks the ruleset when a result becomes
    final: the team's players as they stood before it, and its line of the result. Each gets his row, a stat line
    or not, so a seeded career counts every match played, as real data does."""
    states = tuple(
        PlayerState(id=pk, position=p["position_key"], status=p["status"], value=p["value"])
        for pk, p in book.players.items()
    )
    return rules.match_players(states, line=line, hr=hr)


def _improve(player: dict, spp: int, hr, rng: random.Random) -> list[tuple[list[int], str]]:
    """The player's SPP grow by `spp`; each level reached rolls its improvement and takes the first normal skill
    offered (as `dugout.benchmark.play` answers the real step). Returns (dice, log line) per level."""
    before = player["spp"]
    player["spp"] += spp
    out = []
    for _ in range(postmatch.levels_gained(spp_before=before, spp_after=player["spp"], hr=hr) if spp else 0):
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        roll = postmatch.improvement_options(dice=tuple(dice), hr=hr)
        skills = postmatch.skill_choices(
            categories=list(player["access"].get("normal", ())), known=player["skills"], hr=hr
        )
        if not skills:
            continue
        value = postmatch.improvement_value(choice="normal_skill", hr=hr)
        player["skills"].append(skills[0])
        player["value"] += value
        out.append((dice, f"{player['name']}: {roll.explanation} → {skills[0]} (value +{fmt_gil(value)})."))
    return out


def players_settle(books: dict[int, TeamBook]) -> None:
    """Players' running SPP are the sums of their rows (as `result_apply` keeps them); their skills and value
    are what their improvements made them."""
    players = [
        Player(pk=pk, spp=p["spp"], skills=p["skills"], value=p["value"])
        for b in books.values()
        for pk, p in b.players.items()
        if p["spp"]
    ]
    Player.objects.bulk_update(players, ["spp", "skills", "value"], batch_size=BATCH)
