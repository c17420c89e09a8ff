"""What a result does to the teams and players, and what undoes it — side by side, so the two cannot drift.

- A result becoming final (`result_apply`): each team's snapshot and line of the result, the players' match
  rows and running totals (SPP, Goal Points), injuries at confirmation (rulesets with `injuries_at_confirm`),
  a served miss-next-match, the dice rolled at the table, each team's post-match sequence opened.
  Its inverse, `result_undo`: the players put back from the journal taken just before, the rows and sequences
  gone (kept in the match's correction history).
- A post-match step's effects (`step_effects_apply`: gil through the ledger, fan factor, staff, players,
  new players, sponsorships, residency, notes on a match row), each journalled with what undoes it; their
  inverse, `step_effects_undo`, replays the journals backwards (gil by new ledger entries, never by editing one).

A rejection undoes nothing: a submitted result has applied nothing yet. The callers hold the locks
(`services.lock_teams`, `teams.services.team_locked`) and the transaction.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from campaigns import engine
from campaigns.errors import RuleViolation
from campaigns.rulesets.base import PlayerState
from teams.models import Player, Position, Sponsorship, Team
from teams.selectors import team_step_queryset
from teams.services import Posting, ledger_post, ledger_post_many

from .changes import changes_write, field_changes
from .models import Aftermath, Match, MatchTeam, PlayerMatch
from .result_parts import injury_apply, team_snapshot
from .rolls import entered_records, record_rolls
from .tally import tally_add

#: A side's fields a final result sets.
SIDE_FIELDS = ["snapshot", "score", "casualties_inflicted", "conceded", "conceded_early", "fame", "placing"]
SIDE_FIELDS += ["eliminations", "mvp", "outcome", "league_points"]
SIDE_ATTNAMES = tuple("mvp_id" if f == "mvp" else f for f in SIDE_FIELDS)

#: The player fields a PlayerUpdate may change (beyond its own `fields`).
PLAYER_UPDATE_FIELDS = ("status", "skills", "attributes", "value", "abilities", "left_at", "role")

#: Running totals a correction puts back as they stood before the result was final.
JOURNALED_COUNTERS = COUNTERS = ("spp", "goal_points")

#: The player fields a result becoming final may change (a served miss, an injury, the running totals).
CONFIRM_PLAYER_FIELDS = ("status", "role", "attributes", *JOURNALED_COUNTERS)

#: A player's match row as the correction history keeps it.
ROW_FIELDS = (
    "player_id",
    "touchdowns",
    "casualties",
    "completions",
    "interceptions",
    "mvp",
    "spp",
    "injury",
    "injury_detail",
    "goal_points",
    "wounds",
    "detail",
)


# --- a result becoming final, and its undo ----------------------------------------------------------------


def result_apply(match: Match, sides: list[MatchTeam], teams: dict[int, Team] | None = None) -> None:
    """Everything `match.result` does to its teams and players when it becomes final (teams locked by the caller,
    `teams`: as it read them, by id; the match row is saved by the caller with its new status and `journal`)."""
    league = match.league
    rules, hr = league.rules, league.house_rules
    result = match.result
    team_ids = sorted(s.team_id for s in sides)
    teams = teams or {t.pk: t for t in team_step_queryset(sponsorships=False).filter(pk__in=team_ids)}
    by_team = {t["team"]: t for t in result["teams"]}
    # A completed pre-match sequence settled the FAME (it wins over any entered with the result).
    prematch = getattr(match, "prematch", None)  # (None when it has none: that error is an AttributeError)
    fame = prematch.fame if prematch is not None and prematch.complete and rules.fame_from_prematch else {}
    conceding_mvp_to = {}
    for line in result["teams"]:
        if line.get("conceded") and not line.get("conceded_early"):
            winner = next((t for t in result["teams"] if t["team"] != line["team"]), None)
            if winner:
                conceding_mvp_to[winner["team"]] = True  # R: the opponent gains the conceding team's MVP
    sides_read = {side.pk: {f: getattr(side, f) for f in SIDE_ATTNAMES} for side in sides}
    for side in sides:
        team = teams[side.team_id]
        line = by_team[side.team_id]
        side.snapshot = team_snapshot(team, rules, hr)
        side.score = line.get("score")
        side.casualties_inflicted = line.get("casualties_inflicted", 0)
        side.conceded = line.get("conceded", False)
        side.conceded_early = line.get("conceded_early", False)
        side.fame = fame.get(str(side.team_id), line.get("fame", 0))
        side.placing = line.get("placing")
        side.eliminations = line.get("eliminations", 0)
        side.mvp_id = None if side.conceded and not side.conceded_early else line.get("mvp")
        side.outcome = line.get("outcome", "")
        side.league_points = rules.league_points(
            outcome=side.outcome, kind=match.kind, hr=hr, event=match.event, placing=side.placing
        )
    changes_write(MatchTeam, {side.pk: field_changes(side, sides_read[side.pk]) for side in sides})
    # Per-player rows, SPP and injuries.
    rows_by_player = {r["player"]: r for r in result.get("players", [])}
    mvps = {}
    for side in sides:
        if side.mvp_id:
            mvps[side.mvp_id] = 2 if conceding_mvp_to.get(side.team_id) else 1
    # The players of both teams as loaded with them (rows locked with their teams), changed in memory and
    # written in one update: the journal first, so `result_undo` can put them back.
    roster = {p.pk: p for t in teams.values() for p in t.players.all() if p.left_at is None}
    # Every player who played gets his row, a stat line or not (the ruleset says who played, from the players
    # as they stood before a served miss-next-match is cleared below); and so does anyone the result names.
    involved = set(rows_by_player) | set(mvps) | played_by(rules, hr, team_ids, by_team, roster)
    match.journal = {
        "players": {
            str(p.pk): {"status": p.status, "attributes": dict(p.attributes), **{c: getattr(p, c) for c in COUNTERS}}
            for p in roster.values()
        }
    }
    others = set(involved) - set(roster)
    players = {**roster, **({p.pk: p for p in Player.objects.filter(pk__in=others)} if others else {})}
    # The fields the result may change, as read: only those it changed are written back (`changes_write`).
    read = {pk: {f: getattr(p, f) for f in CONFIRM_PLAYER_FIELDS} for pk, p in players.items()}
    # Players who missed this match have served it (R: miss-next-match lasts exactly one match).
    changed = {}
    for player in roster.values():
        if player.status == Player.Status.MISS_NEXT_MATCH:
            player.status = Player.Status.ACTIVE
            changed[player.pk] = player
    new_rows = []
    for player_id in sorted(involved):
        player = players[player_id]
        row = rules.player_match_row(rows_by_player.get(player_id, {}), mvp=player_id in mvps, hr=hr)
        if mvps.get(player_id) == 2 and "spp" in row:
            row["spp"] += hr["spp"]["mvp"]
        new_rows.append(PlayerMatch(match=match, team_id=player.team_id, player=player, **row))
        if rules.injuries_at_confirm:
            injury_apply(player, row.get("injury", ""), row.get("injury_detail", ""))
        # The player's running totals (SPP, Goal Points) are the sums of his rows.
        for counter in rules.counters:
            if row.get(counter):
                setattr(player, counter, getattr(player, counter) + row[counter])
        changed[player.pk] = player
    changes_write(Player, {pk: field_changes(player, read[pk]) for pk, player in changed.items()})
    PlayerMatch.objects.bulk_create(new_rows)
    tally_add(league_id=match.league_id, season=match.season, rows=new_rows)
    # Dice rolled at the table for the match itself (e.g. weather, fans) join the roll log.
    record_rolls(
        league=league,
        match=match,
        step="result",
        records=entered_records(result.get("rolls", {}), rules.roll_catalogue(hr)),
        rolled_by_id=match.submitted_by_id,
    )
    Aftermath.objects.bulk_create([Aftermath(match=match, team_id=s.team_id) for s in sides])


def played_by(rules, hr, team_ids: list[int], lines: dict[int, dict], roster: dict[int, Player]) -> set[int]:
    """The players of the match's teams who played it, as the ruleset reads each team's roster and result line."""
    played: set[int] = set()
    for team_id in team_ids:
        states = tuple(
            PlayerState(id=p.pk, position=p.position.key, status=p.status, value=p.value, role=p.role)
            for p in roster.values()
            if p.team_id == team_id
        )
        played |= rules.match_players(states, line=lines.get(team_id, {}), hr=hr)
    return played


def result_undo(match: Match, *, user: AbstractBaseUser) -> dict:
    """The inverse of `result_apply` and of every post-match step run since: the steps' effects replayed
    backwards, the players as they stood before the result was final, the match rows and sequences gone.
    Returns what was undone — the result, its body, the rows and the sequences' logs — for the match's
    correction history."""
    step_effects_undo(match, user=user)
    for player_id, before in match.journal.get("players", {}).items():
        Player.objects.filter(pk=int(player_id)).update(
            status=before["status"],
            attributes=before["attributes"],
            **{counter: before[counter] for counter in JOURNALED_COUNTERS if counter in before},
        )
    undone = {
        "result": match.result,
        "body": match.result_body,
        "player_rows": list(PlayerMatch.objects.filter(match=match).values(*ROW_FIELDS)),
        "logs": {str(a.team_id): a.log for a in match.aftermaths.all()},
    }
    PlayerMatch.objects.filter(match=match).delete()
    tally_add(league_id=match.league_id, season=match.season, rows=undone["player_rows"], sign=-1)
    Aftermath.objects.filter(match=match).delete()
    return undone


# --- a post-match step's effects, and their undo -----------------------------------------------------------


def step_effects_apply(effects: list, *, team: Team, match: Match, user: AbstractBaseUser, heads=None) -> list[dict]:
    """Apply a post-match step's effects in order; return the journal that undoes them (`step_effects_undo`).
    Gil only through the ledger (`heads`: its accounts' last entries, when read under the team's lock);
    a refusal rolls the whole step back.

    Applied in order to the rows in memory (the locked team and its players as the step loaded them), then
    written in bulk: players, new players, ledger entries (`ledger_post_many`: balances as one post each)."""
    now = timezone.now()
    journal: list[dict] = []
    postings: list[Posting] = []
    team_fields: set[str] = set()
    players_read: dict[int, dict] = {}  # each changed player's fields as read, before the first update
    changed: dict[int, Player] = {}
    new_players: list[tuple[dict, Player]] = []
    notes = [e.player_id for e in effects if isinstance(e, engine.MatchRowNote)]
    rows = {r.player_id: r for r in PlayerMatch.objects.filter(match=match, player_id__in=notes)} if notes else {}
    players = {p.pk: p for p in team.players.all()} if any(isinstance(e, engine.PlayerUpdate) for e in effects) else {}
    for effect in effects:
        if isinstance(effect, engine.Gil):
            postings.append(Posting(effect.amount, effect.kind, effect.reason, effect.account, match.pk))
            journal.append({"type": "gil", "amount": effect.amount, "account": effect.account, "reason": effect.reason})
        elif isinstance(effect, engine.MatchRowNote):
            row = rows.get(effect.player_id)
            if row is None:
                raise PlayerMatch.DoesNotExist(f"player {effect.player_id} has no row in match {match.pk}")
            journal.append({"type": "row", "player": effect.player_id, "before": dict(row.detail)})
            row.detail = {**row.detail, **effect.detail}
        elif isinstance(effect, engine.Staff):
            staff = dict(team.staff)
            count = staff.get(effect.item, 0) + effect.delta
            if count < 0:
                raise RuleViolation(f"The team has no {effect.item.replace('_', ' ')} left to use.")
            staff[effect.item] = count
            team.staff = staff
            team_fields.add("staff")
            journal.append({"type": "staff", "item": effect.item, "delta": effect.delta})
        elif isinstance(effect, engine.FanFactor):
            before = team.fan_factor
            team.fan_factor = max(0, team.fan_factor + effect.delta)
            team_fields.add("fan_factor")
            journal.append({"type": "fan_factor", "delta": team.fan_factor - before})
        elif isinstance(effect, engine.PlayerUpdate):
            player = players.get(effect.player_id)
            if player is None:
                raise Player.DoesNotExist(f"player {effect.player_id} is not on {team.name}")
            journal.append({"type": "player", "id": player.pk, "before": _player_state(player)})
            read = players_read.setdefault(player.pk, {})
            for name in (*PLAYER_UPDATE_FIELDS, *effect.fields):
                read.setdefault(name, getattr(player, name))
            _player_update(player, effect, now)
            changed[player.pk] = player
        elif isinstance(effect, engine.NewPlayer):
            position = _position(team, effect.position)
            entry = {"type": "new_player", "id": None}
            journal.append(entry)
            new_players.append(
                (
                    entry,
                    Player(
                        team=team,
                        position=position,
                        name=effect.name,
                        status=effect.status,
                        attributes=dict(position.attributes),
                        skills=list(position.skills) + [s for s in effect.skills_add if s not in position.skills],
                        value=position.cost,
                    ),
                )
            )
        elif isinstance(effect, engine.SponsorshipGained):
            created = Sponsorship.objects.create(team=team, name=effect.name)
            journal.append({"type": "sponsorship_gained", "id": created.pk})
        elif isinstance(effect, engine.SponsorshipEnded):
            Sponsorship.objects.filter(pk=effect.sponsorship_id, team=team, ended_at__isnull=True).update(ended_at=now)
            journal.append({"type": "sponsorship_ended", "id": effect.sponsorship_id})
        elif isinstance(effect, engine.Residency):
            journal.append({"type": "residency", "before": [team.home_stadium_id, team.owns_stadium]})
            team.home_stadium_id = effect.stadium_id
            team.owns_stadium = effect.owned if effect.stadium_id else False
            team_fields.update(("home_stadium", "owns_stadium"))
        else:  # pragma: no cover - a new effect type must be taught here
            raise TypeError(f"unknown effect {effect!r}")
    changes_write(Player, {pk: field_changes(player, players_read[pk]) for pk, player in changed.items()})
    if new_players:
        created = Player.objects.bulk_create([p for _, p in new_players])
        for (entry, _), player in zip(new_players, created, strict=True):
            entry["id"] = player.pk
    if rows:
        PlayerMatch.objects.bulk_update(rows.values(), ["detail"])
    if team_fields:
        team.save(update_fields=sorted(team_fields))
    for entry in ledger_post_many(team=team, postings=postings, user=user, heads=heads):
        setattr(team, entry.account, entry.balance_after)  # the annotated balances stay true for the step's caller
    return journal


def _player_update(player: Player, effect: engine.PlayerUpdate, now) -> None:
    if effect.status:
        player.status = effect.status
    skills = [s for s in player.skills if s not in effect.skills_remove]
    player.skills = skills + [s for s in effect.skills_add if s not in skills]
    attributes = dict(player.attributes)
    for key, delta in effect.attribute_deltas.items():
        attributes[key] = attributes.get(key, 0) + delta
    player.attributes = attributes
    player.value += effect.value_delta
    player.abilities = list(player.abilities) + [a for a in effect.abilities_add if a not in player.abilities]
    for key, value in effect.fields.items():
        setattr(player, key, value)
    if effect.leaves:
        player.left_at = now
        player.role = ""


def _position(team: Team, key: str) -> Position:
    position = {p.key: p for p in team.roster.positions.all()}.get(key)
    if position is None:
        raise Position.DoesNotExist(f"{key!r} is not a position of {team.roster.key}")
    return position


def _player_state(player: Player) -> dict:
    return {
        "status": player.status,
        "skills": list(player.skills),
        "attributes": dict(player.attributes),
        "value": player.value,
        "role": player.role,
        "abilities": list(player.abilities),
        "wounds": player.wounds,
        "armour_used": player.armour_used,
        "wound_areas": dict(player.wound_areas),
        "conditions": list(player.conditions),
        "elite": player.elite,
        "matches_survived": player.matches_survived,
        "left_at": player.left_at.isoformat() if player.left_at else None,
    }


def step_effects_undo(match: Match, *, user: AbstractBaseUser) -> None:
    """Replay every post-match sequence's journal of `match` backwards: the inverse of `step_effects_apply`
    (gil by new ledger entries of kind `correction`, never by editing history)."""
    for aftermath in match.aftermaths.select_related("team").order_by("team_id"):
        team = aftermath.team
        for entry in reversed(aftermath.journal):
            kind = entry["type"]
            if kind == "gil":
                ledger_post(
                    team=team,
                    amount=-entry["amount"],
                    kind="correction",
                    user=user,
                    match_id=match.pk,
                    account=entry["account"],
                    reason=f"Correction of match #{match.pk}: {entry['reason']}",
                )
            elif kind == "fan_factor":
                Team.objects.filter(pk=team.pk).update(fan_factor=max(0, team.fan_factor - entry["delta"]))
                team.refresh_from_db(fields=["fan_factor"])
            elif kind == "player":
                before = dict(entry["before"])
                left_at = before.pop("left_at")
                Player.objects.filter(pk=entry["id"]).update(
                    **before, left_at=parse_datetime(left_at) if left_at else None
                )
            elif kind == "row":
                PlayerMatch.objects.filter(match=match, player_id=entry["player"]).update(detail=entry["before"])
            elif kind == "staff":
                team.refresh_from_db(fields=["staff"])
                staff = dict(team.staff)
                staff[entry["item"]] = staff.get(entry["item"], 0) - entry["delta"]
                Team.objects.filter(pk=team.pk).update(staff=staff)
                team.staff = staff
            elif kind == "new_player":
                Player.objects.filter(pk=entry["id"]).delete()
            elif kind == "sponsorship_gained":
                Sponsorship.objects.filter(pk=entry["id"]).delete()
            elif kind == "sponsorship_ended":
                Sponsorship.objects.filter(pk=entry["id"]).update(ended_at=None)
            elif kind == "residency":
                stadium_id, owned = entry["before"]
                Team.objects.filter(pk=team.pk).update(home_stadium_id=stadium_id, owns_stadium=owned)
            else:  # pragma: no cover
                raise TypeError(f"unknown journal entry {entry!r}")
