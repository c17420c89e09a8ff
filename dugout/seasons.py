"""Seasons: a league runs in seasons numbered from 1, one open at a time. Closing the open season
freezes its final table and champion (`Season.final_table`, `Season.champion`) and opens the next; matches,
standings and weekly reports are of a season, while teams, players, treasuries, the ledger and the memorial
carry over (what carries is the ruleset's to declare: `Ruleset.season_carries`), unless house rule
`season_rollover` is `redraft`: then the turn rebuilds every team (`Ruleset.season_turn`, applied by
teams/season_turn.py inside the turn's transaction).

Services (writes, each taking the acting user) and the few reads the API and pages ask.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns import house_rules
from campaigns.errors import Conflict, NotPermitted, RuleViolation
from campaigns.rulesets import season
from league import policy
from league.audit import audit_house_rules, audit_record, reason_text, reason_with
from league.models import League, Season, league_table_changed
from teams.season_turn import season_turn_apply


class SeasonConflict(Conflict):
    """The open season cannot close yet (answered 409, in words): something of it is still waiting."""


def league_seasons(*, league: League) -> list[Season]:
    """The league's seasons, oldest first, with their champions (one query)."""
    return list(Season.objects.filter(league=league).select_related("champion").order_by("number"))


def season_of(*, league: League, number: int | None) -> Season | None:
    """The league's season `number` (default: the open one), or None when it has no such season."""
    number = league.season if number is None else number
    return Season.objects.filter(league=league, number=number).select_related("champion").first()


def next_turn(*, league: League) -> dict:
    """What the next turn will do, as the seasons page says it: {rollover, budget} under the house rules the
    opening season will have (those set "from next season" included); `budget` is a redraft's treasury (None:
    no treasury, or no redraft). No query."""
    rules = league.rules
    hr = house_rules.merge(league.house_rules, league.house_rules_next_season)
    rollover = season.rollover(hr)
    return {"rollover": rollover, "budget": rules.redraft_treasury(hr) if rollover == "redraft" else None}


def _waiting(league: League) -> str | None:
    """Why the open season cannot close now, in words, or None: a result submitted or disputed, or a final one
    whose post-match sequence is unfinished (each would change the table or a team after it froze)."""
    from matches.lifecycle import WAITING
    from matches.models import Aftermath, Match

    open_matches = Match.objects.filter(league=league, season=league.season)
    waiting = open_matches.filter(status__in=WAITING).order_by("pk").values_list("pk", "status").first()
    if waiting is not None:
        return f"Match {waiting[0]} has a result {waiting[1]}: confirm, correct or reject it before the season closes."
    unfinished = (
        Aftermath.objects.filter(match__in=open_matches, complete=False).order_by("match_id").values("match_id").first()
    )
    if unfinished is not None:
        return (
            f"Match {unfinished['match_id']}'s post-match sequence is unfinished: its coaches finish it before the "
            "season closes."
        )
    return None


def _champion(league: League, table: list[dict]) -> int | None:
    """R/H: the final's winner when the season had a final, else the table's first (None before any
    result)."""
    from matches.models import Match, MatchTeam

    final = (
        MatchTeam.objects.filter(
            match__league=league,
            match__season=league.season,
            match__kind=Match.Kind.FINAL,
            match__status=Match.Status.FINAL,
            outcome=MatchTeam.Outcome.WIN,
        )
        .order_by("-match__confirmed_at", "-match_id")
        .values_list("team_id", flat=True)
        .first()
    )
    if final is not None:
        return final
    return table[0]["team"] if table and table[0]["played"] else None


def _turn_words(turn: dict, voided: list[int]) -> str:
    if turn["rollover"] != "redraft":
        return ""
    void = f", {len(voided)} unplayed match(es) void" if voided else ""
    return (
        f" with a redraft ({len(turn['teams'])} team(s) rebuilt, {turn['players_released']} player(s) released{void})"
    )


def _void_rebuilt_fixtures(*, user: AbstractBaseUser, league: League, season: int, team_ids: list[int]) -> list[int]:
    """The closing season's unplayed matches that a team the turn rebuilt plays in become void, in the turn's
    transaction; their ids (oldest first). A rebuilt team is another team (its players released, back in
    creation, maybe none hired yet): the fixture made for the old one is not carried for the new one to play,
    and no coach is asked for its result. It stays in its closed season, marked void; matches of teams the turn
    left as they were still carry (docs/decisions.md, "Unplayed matches at a redraft"). The commissioner's
    (`matches.policy.may_void_match`), moved as the lifecycle moves one (`scheduled --void--> void`)."""
    from matches import lifecycle
    from matches import policy as match_policy
    from matches.models import Match

    if not team_ids:
        return []
    if not match_policy.may_void_match(user, league):
        raise NotPermitted("Only the league's commissioner can make its unplayed matches void.")
    scheduled = lifecycle.Status.SCHEDULED
    void = lifecycle.next_status(scheduled, lifecycle.Action.VOID)
    unplayed = Match.objects.filter(league=league, season=season, status=scheduled, sides__team_id__in=team_ids)
    ids = sorted(set(unplayed.values_list("pk", flat=True)))
    if ids:
        Match.objects.filter(pk__in=ids, status=scheduled).update(status=void)
    return ids


def season_start_next(*, user: AbstractBaseUser, league_id: int, name: str = "", reason: object = "") -> Season:
    """Close the league's open season (its final table and champion kept) and open the next one, named `name`.
    Refused with a `SeasonConflict` (409) while a result of the season waits or a post-match sequence is
    unfinished; only a commissioner may. `reason` (optional) follows the audit's own words."""
    from matches.models import Match
    from matches.selectors import league_standings

    name = (name or "").strip()
    if len(name) > Season._meta.get_field("name").max_length:
        raise RuleViolation("A season's name is at most 100 characters.", field="name")
    with transaction.atomic():
        league = League.objects.select_for_update().filter(pk=league_id).first()
        if league is None or not policy.may_run_league(user, league):
            raise NotPermitted("Only the league's commissioner can close a season and open the next.")
        reason = reason_text(reason)
        why = _waiting(league)
        if why is not None:
            raise SeasonConflict(why)
        now = timezone.now()
        table = league_standings(league=league)
        closing = Season.objects.select_for_update().get(league=league, number=league.season)
        closing.status, closing.closed_at = Season.Status.CLOSED, now
        closing.final_table = table if any(row["played"] for row in table) else []
        closing.champion_id = _champion(league, table)
        closing.save(update_fields=["status", "closed_at", "final_table", "champion"])
        league.season += 1
        pending = league.house_rules_next_season
        if pending:
            before = league.house_rules_overrides
            league.house_rules_overrides = house_rules.merge(before, pending)
            league.house_rules_next_season = {}
            audit_house_rules(
                league=league,
                actor=user,
                before=before,
                target="house rules",
                reason=f"Set for season {league.season}, applied as it opens.",
            )
        league.save(update_fields=["season", "house_rules_overrides", "house_rules_next_season"])
        opened = Season.objects.create(league=league, number=league.season, name=name, started_at=now)
        # I: a match scheduled and not played is still to be played: it moves to the season that opens (a closed
        # season's table is frozen, so a result there would count nowhere) — unless a team of it was rebuilt by
        # the turn: then it is void, and stays in the closed season.
        # The turn is the opening season's: under its house rules, "from next season" ones included (the
        # league's cached `house_rules` were read before the merge).
        opening_rules = house_rules.merge(league.rules.default_house_rules(), league.house_rules_overrides)
        turn = season_turn_apply(user=user, league=league, hr=opening_rules, season=opened.number)
        voided = _void_rebuilt_fixtures(user=user, league=league, season=closing.number, team_ids=turn["rebuilt"])
        carried = Match.objects.filter(league=league, season=closing.number, status=Match.Status.SCHEDULED).update(
            season=opened.number
        )
        # The league's table is the open season's: a new season starts it empty.
        league_table_changed(league.pk)
        audit_record(
            league=league,
            actor=user,
            action="season",
            target=f"season {closing.number}",
            before={"season": closing.number, "champion": closing.champion_id},
            after={
                "season": opened.number,
                "name": opened.name,
                "fixtures_carried": carried,
                "fixtures_void": voided,
                "turn": turn,
            },
            reason=reason_with(
                f"Season {closing.number} closed; season {opened.number} opened" + _turn_words(turn, voided) + ".",
                reason,
            ),
        )
    return opened


def league_set_next_season_rules(
    *, user: AbstractBaseUser, league_id: int, overrides: object, reason: object = ""
) -> League:
    """House-rule overrides "from next season": validated now against the ruleset, kept on the league, and
    merged into its overrides when the open season closes (`season_start_next`). Replaces any set before; `{}`
    withdraws them. Only a commissioner may; the change is in the audit."""
    with transaction.atomic():
        league = League.objects.select_for_update().filter(pk=league_id).first()
        if league is None or not policy.may_run_league(user, league):
            raise NotPermitted("Only a commissioner of this league may set its house rules.")
        reason = reason_text(reason)
        validated = league.rules.validate_house_rules(overrides)
        before = league.house_rules_next_season
        league.house_rules_next_season = validated
        league.save(update_fields=["house_rules_next_season"])
        audit_record(
            league=league,
            actor=user,
            action="house_rules_next_season",
            target="house rules from next season",
            before=before,
            after=validated,
            reason=reason_with(f"To apply when season {league.season + 1} opens.", reason),
        )
    return league
