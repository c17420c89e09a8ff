"""ElfBall campaigns (Advanced Rules): 150-point teams and team support (../shared/rules/elfball.md)."""

from __future__ import annotations

from collections.abc import Mapping

from campaigns.errors import RuleViolation
from campaigns.rulesets.base import PlayerState, PositionSpec, Purchase, Ruleset, TeamState, check_position_limit

from . import rules


class ElfBall(Ruleset):
    key = "elfball"
    name = "ElfBall"
    economy = "points"
    purchase_items = ("magic_potion", "beer_garden_beauty", "cheerleader", "hired_gun_wizard")
    player_fields = ("goal_points", "abilities")
    attribute_order = ("jog", "might", "tackle", "dodge", "skill", "grit", "base")

    def initial_player_value(self, position: PositionSpec, hr: Mapping) -> int:
        return hr["rookie_cost"]

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
