"""The matches with their sides, results, sequences, inducements and disputes; then the players' match rows."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from dugout.export import batches
from dugout.importer.checks import a_list, bad, boolean, choices_of, field, integer, json_value, text, timestamp
from dugout.importer.state import ImportState, create_stamped
from dugout.importer.teams import ROW_CHECKS
from matches import lifecycle
from matches.models import Aftermath, Dispute, Inducement, Match, MatchTeam, PlayerMatch, Prematch
from teams.models import Player

MATCH_STATUSES = tuple(lifecycle.STATUSES)
SIDE_OUTCOMES = choices_of(MatchTeam.Outcome.choices)
INDUCEMENT_ITEMS = choices_of(Inducement.Item.choices)
DISPUTE_RULINGS = choices_of(Dispute.Ruling.choices)


def read_matches(state: ImportState, chunk: list[tuple[str, Any]]) -> None:
    league, rules = state.league, state.league.rules
    steps = len(rules.postmatch_steps)
    matches, sides, aftermaths, prematches, inducements, disputes = [], [], [], [], [], []
    team, player = state.team_ref(null=False), state.player_ref()
    for path, record in chunk:
        old = field(record, path, "id", integer(None))
        if old in state.matches or any(old == o for o, _ in matches):
            raise bad(f"{path}.id", "Two matches have this id.")
        season = field(record, path, "season", integer(1, 32767), 1)
        state.match_seasons.setdefault(season, f"{path}.season")
        match = Match(
            league=league,
            season=season,
            round=field(record, path, "round", integer(0, 32767, null=True), None),
            scheduled_for=field(record, path, "scheduled_for", timestamp(null=True), None),
            deadline=field(record, path, "deadline", timestamp(null=True), None),
            kind=field(record, path, "kind", text(choices=choices_of(Match.Kind.choices))),
            event=field(record, path, "event", text(choices=choices_of(Match.Event.choices)), ""),
            stadium_id=field(record, path, "stadium", state.ref(state.stadiums, "stadium"), None),
            tests_to_win=field(record, path, "tests_to_win", integer(0, 32767, null=True), None),
            status=field(record, path, "status", text(choices=MATCH_STATUSES)),
            result=state.remap(field(record, path, "result", json_value(dict), {})),
            result_body=state.remap(field(record, path, "result_body", json_value(dict), {})),
            created_by=state.user,
            submitted_by_id=field(record, path, "submitted_by", state.user_ref, None),
            submitted_at=field(record, path, "submitted_at", timestamp(null=True), None),
            confirmed_by_id=field(record, path, "confirmed_by", state.user_ref, None),
            confirmed_at=field(record, path, "confirmed_at", timestamp(null=True), None),
            created_at=field(record, path, "created_at", timestamp(null=True), None) or timezone.now(),
            schedule_round_id=field(record, path, "schedule_round", state.ref(state.rounds, "schedule round"), None),
        )
        if match.schedule_round_id is not None and state.round_seasons[match.schedule_round_id] != season:
            raise bad(f"{path}.schedule_round", "The round is of another season's schedule.")
        matches.append((old, match))
        seen_teams = set()
        for i, side in enumerate(field(record, path, "sides", a_list)):
            here = f"{path}.sides[{i}]"
            side_team = field(side, here, "team", team)
            order = field(side, here, "order", integer(0, 32767))
            if side_team in seen_teams:
                raise bad(f"{here}.team", "A team plays a match once.")
            seen_teams.add(side_team)
            sides.append(
                MatchTeam(
                    match=match,
                    team_id=side_team,
                    order=order,
                    score=field(side, here, "score", integer(0, null=True), None),
                    casualties_inflicted=field(side, here, "casualties_inflicted", integer(0), 0),
                    conceded=field(side, here, "conceded", boolean, False),
                    conceded_early=field(side, here, "conceded_early", boolean, False),
                    fame=field(side, here, "fame", integer(0, 32767), 0),
                    placing=field(side, here, "placing", integer(0, 32767, null=True), None),
                    eliminations=field(side, here, "eliminations", integer(0, 32767), 0),
                    mvp_id=field(side, here, "mvp", player, None),
                    outcome=field(side, here, "outcome", text(choices=SIDE_OUTCOMES), ""),
                    league_points=field(side, here, "league_points", integer(-32768, 32767), 0),
                    snapshot=_snapshot(state, field(side, here, "snapshot", json_value(dict), {})),
                )
            )
        if len({s.order for s in sides if s.match is match}) != len(seen_teams):
            raise bad(f"{path}.sides", "Two sides have the same order.")
        for i, a in enumerate(field(record, path, "postmatch", a_list, [])):
            here = f"{path}.postmatch[{i}]"
            a_team = field(a, here, "team", team)
            if a_team not in seen_teams:
                raise bad(f"{here}.team", "Not a team of this match.")
            aftermaths.append(
                Aftermath(
                    match=match,
                    team_id=a_team,
                    step_index=field(a, here, "step_index", integer(0, steps)),
                    complete=field(a, here, "complete", boolean),
                    pending=state.remap(field(a, here, "pending", json_value(dict), {})),
                    log=state.remap(field(a, here, "log", json_value(list), [])),
                    carry=state.remap(field(a, here, "carry", json_value(dict), {})),
                    journal=state.remap(field(a, here, "journal", json_value(list), [])),
                )
            )
        pre = field(record, path, "prematch", json_value(dict, null=True), None)
        if pre is not None:
            here = f"{path}.prematch"
            prematches.append(
                Prematch(
                    match=match,
                    step_index=field(record, path, "prematch_step", integer(0, 32767), 0),
                    complete=field(pre, here, "complete", boolean),
                    weather=field(pre, here, "weather", text(30, null=True), None) or "",
                    fans=state.remap(field(pre, here, "fans", json_value(dict), {}), "team"),
                    fame=state.remap(field(pre, here, "fame", json_value(dict), {}), "team"),
                    team_values=state.remap(field(pre, here, "team_values", json_value(dict), {}), "team"),
                    induced=state.remap(field(pre, here, "induced", json_value(dict), {}), "team"),
                    superior_id=field(pre, here, "superior", state.team_ref(), None),
                    underdog_id=field(pre, here, "underdog", state.team_ref(), None),
                    aggressor_id=field(pre, here, "aggressor", state.team_ref(), None),
                    terrain=state.remap(field(pre, here, "terrain", json_value(dict), {}), "team"),
                    log=state.remap(field(pre, here, "log", json_value(list), [])),
                )
            )
        for i, ind in enumerate(field(record, path, "inducements", a_list, [])):
            here = f"{path}.inducements[{i}]"
            ind_team = field(ind, here, "team", team)
            position = field(ind, here, "position", text(50, null=True), None)
            found = None
            if position is not None:
                found = next((p[position] for p in state.positions.values() if position in p), None)
                if found is None:
                    raise bad(f"{here}.position", f"{position!r} is not a position of this ruleset.")
            inducements.append(
                Inducement(
                    match=match,
                    team_id=ind_team,
                    item=field(ind, here, "item", text(choices=INDUCEMENT_ITEMS)),
                    quantity=field(ind, here, "quantity", integer(1, 32767), 1),
                    position=found,
                    skill=field(ind, here, "skill", text(40), ""),
                    star=field(ind, here, "star", text(40), ""),
                    price=field(ind, here, "price", integer(0)),
                    created_by=state.user,
                )
            )
        for i, d in enumerate(field(record, path, "disputes", a_list, [])):
            here = f"{path}.disputes[{i}]"
            disputes.append(
                Dispute(
                    match=match,
                    raised_by=state.user,
                    reason=field(d, here, "reason", text()),
                    ruling=field(d, here, "ruling", text(choices=DISPUTE_RULINGS), ""),
                    ruled_by_id=field(d, here, "ruled_by", state.user_ref, None),
                    ruled_at=field(d, here, "ruled_at", timestamp(null=True), None),
                    ruling_reason=field(d, here, "ruling_reason", text(), ""),
                    created_at=field(d, here, "created_at", timestamp(null=True), None) or timezone.now(),
                )
            )
        if sum(1 for d in disputes if d.match is match and d.ruling == "") > 1:
            raise bad(f"{path}.disputes", "A match has one open dispute at a time.")
    created = create_stamped(Match, [m for _, m in matches], ("created_at",))
    state.matches.update((old, m.pk) for (old, _), m in zip(matches, created, strict=True))
    for rows in (sides, aftermaths, prematches, inducements, disputes):
        for row in rows:
            row.match_id = row.match.pk
    MatchTeam.objects.bulk_create(sides)
    Aftermath.objects.bulk_create(aftermaths)
    Prematch.objects.bulk_create(prematches)
    Inducement.objects.bulk_create(inducements)
    create_stamped(Dispute, disputes, ("created_at",))


def write_history(state: ImportState) -> None:
    """The players' per-match rows, held since the teams were read, now that their matches exist."""
    teams = {}
    for team in state.teams.values():
        teams[team.pk] = team
    team_of = dict(Player.objects.filter(team__league=state.league).values_list("pk", "team_id"))
    seen = set()
    for chunk in batches(iter(state.history), state.chunk * 10):
        rows = []
        for path, old_player, row in chunk:
            match = field(row, path, "match_id", state.match_ref(null=False))
            player = state.players[old_player]
            if (match, player) in seen:
                raise bad(f"{path}.match_id", "A player has one row per match.")
            seen.add((match, player))
            values = {name: field(row, path, name, check, None) for name, check in ROW_CHECKS.items()}
            rows.append(
                PlayerMatch(
                    match_id=match,
                    team_id=team_of[player],
                    player_id=player,
                    **{k: v for k, v in values.items() if v is not None},
                )
            )
        PlayerMatch.objects.bulk_create(rows)
    state.history = []


def _snapshot(state, snapshot: dict) -> dict:
    """A side's snapshot with its ids mapped; its coach (another site's user) is the importer, who coaches every
    imported team (dugout/ratings.py counts a match for the snapshot's coach)."""
    out = state.remap(snapshot)
    if out.get("coach") is not None:
        out["coach"] = state.user.pk
    return out
