"""Writes to matches: scheduling, result submission, confirmation (the result becomes final and its
effects land), rejection. The post-match sequence itself lives in `matches.aftermath`."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from campaigns.dice import check_entered
from campaigns.errors import NotPermitted, RuleViolation
from league.models import League, Stadium
from teams.models import Player, Team
from teams.selectors import team_queryset, team_state

from . import policy
from .models import Aftermath, Match, MatchTeam, PlayerMatch, Prematch, Roll


def match_schedule(
    *,
    user: AbstractBaseUser,
    league: League,
    team_ids: list[int],
    kind: str = Match.Kind.LEAGUE,
    stadium_id: int | None = None,
    event: str = "",
    tests_to_win: int | None = None,
) -> Match:
    """Schedule a match. The commissioner schedules any; a coach only matches his own team plays in."""
    rules, hr = league.rules, league.house_rules
    if len(set(team_ids)) != len(team_ids):
        raise RuleViolation("A team cannot play itself.", field="teams")
    teams = {t.pk: t for t in Team.objects.filter(pk__in=team_ids, league=league)}
    if len(teams) != len(team_ids):
        raise RuleViolation("Every team must belong to this league.", field="teams")
    bounds = rules.teams_per_match.get(event)
    if bounds is None:
        raise RuleViolation(f"{event!r} is not an event of {rules.name}.", field="event")
    lowest, highest = bounds
    if not lowest <= len(team_ids) <= highest:
        raise RuleViolation(f"This match takes {lowest}–{highest} teams.", field="teams")
    if not policy.may_schedule_match(user, league, teams.values()):
        raise NotPermitted("Only the commissioner or a coach of one of these teams can schedule this match.")
    stadium = None
    if stadium_id is not None:
        stadium = Stadium.objects.filter(pk=stadium_id, league=league).first()
        if stadium is None:
            raise RuleViolation("The stadium must be one of this league's.", field="stadium")
    if tests_to_win is None and "tests_to_win" in hr:
        tests_to_win = hr["tests_to_win"]
    with transaction.atomic():
        # Lock the teams (in id order) so two schedulings at once cannot both pass the consecutive check.
        _lock_teams(team_ids)
        limit = rules.max_consecutive_meetings(hr)
        if limit and len(team_ids) == 2:
            _check_consecutive(league, team_ids, limit)
        match = Match.objects.create(
            league=league, kind=kind, event=event, stadium=stadium, tests_to_win=tests_to_win, created_by=user
        )
        MatchTeam.objects.bulk_create(
            [MatchTeam(match=match, team_id=team_id, order=order) for order, team_id in enumerate(team_ids)]
        )
        # H: a team is in creation until its first match is scheduled.
        Team.objects.filter(pk__in=team_ids, creation_closed_at__isnull=True).update(creation_closed_at=timezone.now())
    return match


def _lock_teams(team_ids) -> None:
    """Row locks on the teams, always in id order so two transactions never wait on each other in a circle."""
    list(Team.objects.select_for_update().filter(pk__in=sorted(team_ids)).order_by("pk").values_list("pk", flat=True))


def _check_consecutive(league: League, pair: list[int], limit: int) -> None:
    """R: a team may not play the same opponent more than `limit` matches in a row, counted per team over its
    own sequence of matches."""
    for team_id in pair:
        other = next(t for t in pair if t != team_id)
        recent = (
            MatchTeam.objects.filter(team_id=team_id, match__league=league)
            .order_by("-match__created_at", "-match_id")
            .values_list("match_id", flat=True)[:limit]
        )
        recent = list(recent)
        if len(recent) < limit:
            continue
        opponents = MatchTeam.objects.filter(match_id__in=recent).exclude(team_id=team_id)
        if all(m.team_id == other for m in opponents) and opponents.count() == limit:
            raise RuleViolation(
                f"These teams have met {limit} times in a row: a third consecutive match is not allowed.",
                field="teams",
            )


def _rosters(match: Match) -> dict[int, dict[int, str]]:
    players = Player.objects.filter(team__match_sides__match=match, left_at__isnull=True).values_list(
        "team_id", "pk", "status"
    )
    rosters: dict[int, dict[int, str]] = {side.team_id: {} for side in match.sides.all()}
    for team_id, player_id, status in players:
        rosters[team_id][player_id] = status
    return rosters


def _result_context(match: Match) -> dict:
    """What a result format needs beyond the rosters: the Tests to win, each team's support stock (ElfBall
    potions) and each player's attributes and abilities (a lasting injury's attribute must be a highest one)."""
    sides = list(match.sides.select_related("team"))
    players = Player.objects.filter(team__match_sides__match=match, left_at__isnull=True).values(
        "pk", "attributes", "abilities", "role", "elite"
    )
    return {
        "tests_to_win": match.tests_to_win,
        "stock": {side.team_id: dict(side.team.staff) for side in sides},
        "players": {
            p["pk"]: {
                "attributes": p["attributes"],
                "abilities": p["abilities"],
                "role": p["role"],
                "elite": p["elite"],
            }
            for p in players
        },
    }


def parse_match_result(match: Match, body: object) -> dict:
    """The result as the league's ruleset validates it against the match's rosters as they stand now, with
    the dice rolled at the table (given in the result's own entries or under `rolls`) checked and gathered."""
    rules, hr = match.league.rules, match.league.house_rules
    result = rules.parse_result(body, rosters=_rosters(match), event=match.event, hr=hr, context=_result_context(match))
    catalogue = rules.roll_catalogue(hr)
    rolls = {key: list(values) for key, values in result.get("rolls", {}).items()}
    for key, values in check_entered(body.get("rolls") if isinstance(body, dict) else None, catalogue).items():
        if key not in rolls:  # a key the format already gathered from its entries is not logged twice
            rolls[key] = values
    result["rolls"] = rolls
    return result


def match_submit_result(*, user: AbstractBaseUser, match_id: int, body: object) -> Match:
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("league").get(pk=match_id)
        teams = [side.team for side in match.sides.select_related("team")]
        if not policy.may_enter_result(user, match):
            raise NotPermitted("Only a coach of a team in this match or the commissioner can enter its result.")
        if match.status == Match.Status.FINAL:
            raise RuleViolation("This match's result is final.")
        match.result = _validated_result(match, teams, body)
        match.result_body = body
        match.status = Match.Status.SUBMITTED
        match.submitted_by = user
        match.submitted_at = timezone.now()
        match.save(update_fields=["result", "result_body", "status", "submitted_by", "submitted_at"])
    return match


def _validated_result(match: Match, teams: list[Team], body: object) -> dict:
    """The result as the league's ruleset validates it against the rosters as they stand now, with any dice
    rolled at the table for it (e.g. weather, fans) checked against the roll catalogue."""
    if Aftermath.objects.filter(team__in=teams, complete=False).exclude(match=match).exists():
        raise RuleViolation("A team of this match has not finished its previous post-match sequence.")
    started = Prematch.objects.filter(match=match, complete=False).first()
    if started is not None and match.league.rules.fame_from_prematch:
        step = match.league.rules.prematch_steps[started.step_index]
        raise RuleViolation(f"Finish the pre-match sequence first: it is at {step.title}.")
    return parse_match_result(match, body)


def match_reject(*, user: AbstractBaseUser, match_id: int) -> Match:
    """The commissioner sends a submitted result back: the match is scheduled again, nothing applied."""
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("league").get(pk=match_id)
        if not policy.may_reject_result(user, match):
            raise NotPermitted("Only the commissioner can reject a result.")
        if match.status != Match.Status.SUBMITTED:
            raise RuleViolation("Only a submitted result can be rejected.")
        match.status = Match.Status.SCHEDULED
        match.result = {}
        match.result_body = {}
        match.submitted_by = None
        match.submitted_at = None
        match.save(update_fields=["status", "result", "result_body", "submitted_by", "submitted_at"])
    return match


def match_confirm(*, user: AbstractBaseUser, match_id: int) -> Match:
    """The other coach (or the commissioner) confirms: the result is final, each team's snapshot is taken,
    per-player rows written, injuries applied, and each team's post-match sequence opens."""
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("league").get(pk=match_id)
        sides = list(match.sides.select_related("team"))
        if match.status != Match.Status.SUBMITTED:
            raise RuleViolation("There is no submitted result to confirm.")
        if user.pk == match.submitted_by_id:
            raise NotPermitted(
                "The coach who entered the result cannot confirm it: the other coach or the commissioner does."
            )
        if not policy.may_confirm_result(user, match):
            raise NotPermitted("Only the other coach or the commissioner can confirm this result.")
        # Check it again, holding the teams: another result may have become final since this one was entered
        # (a player killed there cannot have scored here; a team's next result waits for its sequence).
        _lock_teams([s.team_id for s in sides])
        # (Results entered before the body was kept are checked in their stored, normalised form.)
        match.result = _validated_result(match, [s.team for s in sides], match.result_body or match.result)
        _make_final(match, sides, user)
    return match


def _make_final(match: Match, sides: list[MatchTeam], user: AbstractBaseUser) -> None:
    league = match.league
    rules, hr = league.rules, league.house_rules
    result = match.result
    # Lock the teams in id order, then take each one's snapshot as it stood before the match.
    team_ids = sorted(s.team_id for s in sides)
    _lock_teams(team_ids)
    teams = {t.pk: t for t in team_queryset().filter(pk__in=team_ids)}
    by_team = {t["team"]: t for t in result["teams"]}
    # A completed pre-match sequence settled the FAME (it wins over any entered with the result).
    prematch = Prematch.objects.filter(match=match, complete=True).first()
    fame = prematch.fame if prematch is not None and rules.fame_from_prematch else {}
    conceding_mvp_to = {}
    for line in result["teams"]:
        if line.get("conceded") and not line.get("conceded_early"):
            winner = next((t for t in result["teams"] if t["team"] != line["team"]), None)
            if winner:
                conceding_mvp_to[winner["team"]] = True  # R: the opponent gains the conceding team's MVP
    for side in sides:
        team = teams[side.team_id]
        line = by_team[side.team_id]
        state = team_state(team=team)
        side.snapshot = {
            "team_value": rules.team_value(state, hr),
            "treasury": team.treasury,
            "fan_factor": team.fan_factor,
            "rerolls": team.rerolls,
            "players": [
                {
                    "id": p.pk,
                    "name": p.name,
                    "number": p.number,
                    "position": p.position.name,
                    "status": p.status,
                    "value": p.value,
                    "spp": p.spp,
                    **{key: getattr(p, key) for key in SNAPSHOT_FIELDS if key in rules.player_fields},
                }
                for p in team.players.all()
                if p.left_at is None
            ],
        }
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
        side.save()
    # Per-player rows, SPP and injuries.
    rows_by_player = {r["player"]: r for r in result.get("players", [])}
    mvps = {}
    for side in sides:
        if side.mvp_id:
            mvps[side.mvp_id] = 2 if conceding_mvp_to.get(side.team_id) else 1
    involved = set(rows_by_player) | set(mvps)
    # Remember how every player of the match's teams stood, so a correction can put them back.
    match.journal = {
        "players": {
            str(p.pop("pk")): p
            for p in Player.objects.filter(team_id__in=team_ids, left_at__isnull=True).values(
                "pk", "status", "attributes", *JOURNALED_COUNTERS
            )
        }
    }
    # Players who missed this match have served it (R: miss-next-match lasts exactly one match).
    Player.objects.filter(team_id__in=team_ids, status=Player.Status.MISS_NEXT_MATCH, left_at__isnull=True).update(
        status=Player.Status.ACTIVE
    )
    players = {p.pk: p for p in Player.objects.filter(pk__in=involved)}
    new_rows = []
    for player_id in involved:
        player = players[player_id]
        row = rules.player_match_row(rows_by_player.get(player_id, {}), mvp=player_id in mvps, hr=hr)
        if mvps.get(player_id) == 2 and "spp" in row:
            row["spp"] += hr["spp"]["mvp"]
        new_rows.append(PlayerMatch(match=match, team_id=player.team_id, player=player, **row))
        if rules.injuries_at_confirm:
            _apply_injury(player, row.get("injury", ""), row.get("injury_detail", ""))
        # The player's running totals (SPP, Goal Points) are the sums of his rows.
        totals = {counter: F(counter) + row[counter] for counter in rules.counters if row.get(counter)}
        if totals:
            Player.objects.filter(pk=player_id).update(**totals)
    PlayerMatch.objects.bulk_create(new_rows)
    # Dice rolled at the table for the match itself (e.g. weather, fans) join the roll log.
    Roll.objects.bulk_create(
        [
            Roll(
                league=league,
                match=match,
                step="result",
                key=key,
                expression=rules.roll_catalogue(hr)[key],
                values=values,
                entered=True,
                rolled_by=match.submitted_by,
            )
            for key, values in result.get("rolls", {}).items()
        ]
    )
    Aftermath.objects.bulk_create([Aftermath(match=match, team_id=s.team_id) for s in sides])
    match.status = Match.Status.FINAL
    match.confirmed_by = user
    match.confirmed_at = timezone.now()
    match.save(update_fields=["status", "result", "confirmed_by", "confirmed_at", "journal"])


#: Ruleset-tracked player fields kept in a team's pre-match snapshot.
SNAPSHOT_FIELDS = ("goal_points", "abilities", "role", "wounds", "armour_used", "matches_survived", "elite")

#: Running totals a correction puts back as they stood before the result was final.
JOURNALED_COUNTERS = ("spp", "goal_points")


def _apply_injury(player: Player, injury: str, detail: str) -> None:
    """R/H: miss_next_match → misses exactly the next match; stat_loss → −1 to the stat; dead → dead
    (removed to the memorial at Hire and Fire); badly_hurt and niggling leave no status change."""
    if injury == "miss_next_match":
        Player.objects.filter(pk=player.pk).update(status=Player.Status.MISS_NEXT_MATCH)
    elif injury == "dead":
        Player.objects.filter(pk=player.pk).update(status=Player.Status.DEAD, role="")
    elif injury == "stat_loss" and detail:
        attributes = dict(Player.objects.get(pk=player.pk).attributes)
        attributes[detail] = max(1, attributes.get(detail, 1) - 1)
        Player.objects.filter(pk=player.pk).update(attributes=attributes)
