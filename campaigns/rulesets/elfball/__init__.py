"""ElfBall campaigns (Advanced Rules): 150-point teams and team support (../shared/rules/elfball.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.errors import RuleViolation
from campaigns.rulesets.base import PlayerState, PositionSpec, Purchase, Ruleset, TeamState, check_position_limit

from . import live, pages, postmatch, report, results, rules, sheet, words
from .steps import STEPS


class ElfBall(Ruleset):
    key = "elfball"
    name = "ElfBall"
    words = words
    weekly_report_sections, report_terms = report.SECTIONS, report.TERMS  # the weekly report (report.py)
    report_scorers, report_casualties = report.SCORERS, report.CASUALTIES
    player_stats, headline_stat, casualty_stat = report.PLAYER_STATS, report.HEADLINE_STAT, report.CASUALTY_STAT
    team_leaderboards = report.TEAM_LEADERBOARDS
    live = live
    sheet = sheet
    has_challenge_roller = True
    # presentation: match pages (pages.py)
    pages = pages
    result_form = pages.RESULT_FORM
    result_row_fields = pages.RESULT_ROW_FIELDS
    match_report_sections = pages.REPORT_SECTIONS
    decision_widgets = pages.DECISION_WIDGETS
    economy = "points"
    team_series = (("team_value", "Team value (points)"),)
    # I: what the rulebook lets a team keep between matches, it keeps between seasons.
    season_carries = ("rosters", "Goal Points")
    purchase_items = ("magic_potion", "beer_garden_beauty", "cheerleader", "hired_gun_wizard")
    player_fields = ("goal_points", "abilities")
    attribute_order = ("jog", "might", "tackle", "dodge", "skill", "grit", "base")

    def initial_player_value(self, position: PositionSpec, hr: Mapping) -> int:
        return hr["rookie_cost"]

    def validate_house_rules(self, overrides: Any) -> dict:
        """R: the league's default Tests to win is a whole number of at least 1 (no upper limit in the rulebook,
        I: `rules.MAX_TESTS_TO_WIN` refuses absurd input)."""
        overrides = super().validate_house_rules(overrides)
        if "tests_to_win" in overrides:
            rules.check_tests_to_win(overrides["tests_to_win"])
        return overrides

    def check_join(self, team: TeamState, position: PositionSpec, hr: Mapping, *, value: int) -> None:
        check_position_limit(team, position)
        if hr["basic_mode"] and len(team.on_roster) >= hr["basic_roster_size"]:
            raise RuleViolation(f"Basic-rules teams are exactly {hr['basic_roster_size']} players.", field="position")
        rules.check_budget(
            current=self.team_value(team, hr), adding=value, budget=hr["points_budget"], what=f"A {position.name}"
        )

    def check_fire(self, team: TeamState, player: PlayerState, hr: Mapping) -> None:
        rules.check_minimum_players(
            players=len(team.on_roster), minimum=hr["min_players"], in_creation=team.in_creation
        )

    def purchase(self, team: TeamState, item: str, quantity: int, hr: Mapping) -> Purchase:
        spec = hr["support"].get(item)
        if spec is None:
            return super().purchase(team, item, quantity, hr)
        label = item.replace("_", " ")
        rules.check_support_limit(
            current=team.staff.get(item, 0), adding=quantity, maximum=spec["max"], what=f"{label}s"
        )
        rules.check_budget(
            current=self.team_value(team, hr),
            adding=spec["points"] * quantity,
            budget=hr["points_budget"],
            what=f"{quantity} {label}(s)",
        )
        return Purchase(item, quantity, staff={item: quantity}, description=f"{quantity} {label}(s)")

    def team_value(self, team: TeamState, hr: Mapping) -> int:
        return rules.team_points(
            player_values=(p.value for p in team.on_roster),
            support=team.staff,
            support_points={item: spec["points"] for item, spec in hr["support"].items()},
        )

    def points_budget(self, hr: Mapping) -> int:
        return hr["points_budget"]

    def check_ready(self, team: TeamState, hr: Mapping) -> None:
        if hr["basic_mode"] and len(team.on_roster) != hr["basic_roster_size"]:
            raise RuleViolation(f"Basic-rules teams are exactly {hr['basic_roster_size']} players.")
        if len(team.on_roster) < hr["min_players"]:
            raise RuleViolation(f"An ElfBall team needs at least {hr['min_players']} players.")

    # --- matches ---------------------------------------------------------------------------------------
    postmatch_steps = STEPS
    #: R: Goal Points are the sum of the player's match rows, added when a result becomes final.
    counters = ("goal_points",)

    def parse_result(self, body, *, rosters, event, hr, context=None):
        return results.parse_result(body, rosters=rosters, hr=hr, context=context)

    def player_match_row(self, row: Mapping, *, mvp: bool, hr: Mapping) -> dict:
        """The PlayerMatch fields of a normalised result row (ElfBall has no MVP)."""
        return {
            "goal_points": row.get("goal_points", 0),
            "injury": row.get("injury") or "",
            "injury_detail": row.get("attribute") or "",
            "mvp": False,
            "detail": {
                "goals": row.get("goals"),
                "concession_gp": row.get("concession_gp", 0),
                "potion": row.get("potion"),
                "potion_ability": row.get("potion_ability"),
                "potion_attribute": row.get("potion_attribute"),
                "potions": [dict(d) for d in row.get("potions", [])],
                "infirmary": bool(row.get("infirmary", False)),
            },
        }

    def challenge(
        self, *, dice_count: int, threshold: int, values: Any, roller: Any, hr: Mapping
    ) -> tuple[tuple[int, ...], postmatch.ChallengeResult]:
        """R ("Challenges"): the server rolls `dice_count` d6 (every 6 rolled again, repeating while 6s) with
        `roller(sides)`, or scores the dice entered at the table (`values`: exactly one complete Challenge).
        A RuleViolation names the API's fields (`dice`, `threshold`, `rolls`); nothing is rolled when refused."""
        rule = hr["challenge_roller"]
        try:
            postmatch.check_challenge(dice_count=dice_count, threshold=threshold, hr=hr)
            if values is None:
                values = postmatch.roll_challenge(
                    lambda: roller(rule["die_sides"]), dice_count, max_dice=rule["max_dice"]
                )
            result = postmatch.score_challenge(values, dice_count=dice_count, threshold=threshold, hr=hr)
        except RuleViolation as refused:
            if refused.field == "dice_count":
                raise RuleViolation(refused.message, field="dice") from None
            raise
        return result.dice, result

    def learn_ability(
        self, team: TeamState, *, abilities: tuple[str, ...], goal_points: int, ability: str, hr: Mapping
    ) -> int:
        """R: an entitled player learns an ability (Basic before Advanced, each once), +5 points; if that takes
        the team above 150 points, the coach must cut something or someone first. H: Basic-rules leagues track no
        abilities. Returns the points the ability adds."""
        if not postmatch.abilities_tracked(hr):
            raise RuleViolation("Basic-rules leagues track no abilities.", field="ability")
        postmatch.check_learn(tuple(abilities), goal_points, ability, hr)
        cost = hr["ability_cost"]
        rules.check_budget(
            current=self.team_value(team, hr), adding=cost, budget=hr["points_budget"], what=f"Learning {ability}"
        )
        return cost

    def player_summary(self, player: Any, hr: Mapping) -> dict:
        """The team sheet: unused ability entitlements and, when there are any, the abilities he may learn."""
        if not postmatch.abilities_tracked(hr):
            return {"entitlements": 0, "learnable": []}
        n = postmatch.entitlements(player.goal_points, len(player.abilities), hr)
        return {"entitlements": n, "learnable": postmatch.learnable(tuple(player.abilities), hr) if n else []}

    def result_choices(self, hr: Mapping) -> Mapping[str, list[tuple[Any, str]]]:
        return pages.result_choices(hr)
