"""Bone Cruncher squads: races, Captain and Goalie, support staff (../shared/rules/bonecruncher.md)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from campaigns.errors import RuleViolation
from campaigns.rulesets.base import PlayerState, PositionSpec, Purchase, Ruleset, TeamState, check_position_limit

from . import rules


class BoneCruncher(Ruleset):
    key = "bonecruncher"
    name = "Bone Cruncher"
    economy = "none"
    purchase_items = ("trainer", "coach", "cheerleader")
    player_fields = ("role", "wounds", "armour_used", "matches_survived", "race", "health_template")
    attribute_order = ("move",)
    roles = ("captain", "goalie")
    #: R: Scorchball is two teams; Terminix two or more (H: at most 8, one arena's worth).
    teams_per_match = MappingProxyType({"": (2, 2), "scorchball": (2, 2), "terminix": (2, 8)})

    def check_join(self, team: TeamState, position: PositionSpec, hr: Mapping, *, value: int) -> None:
        check_position_limit(team, position)
        rules.check_squad_room(squad=len(team.on_roster), limit=hr["squad_limit"])

    def check_role(self, team: TeamState, player: PlayerState | None, role: str, hr: Mapping) -> None:
        if role and role not in self.roles:
            raise RuleViolation(f"A role is 'captain' or 'goalie', not '{role}'.", field="role")
        if not role or (player is not None and player.role == role):
            return
        holder = next((p for p in team.on_roster if p.role == role and (player is None or p.id != player.id)), None)
        rules.check_role(
            role=role, current_role=player.role if player else "", holder=f"player #{holder.id}" if holder else None
        )

    def purchase(self, team: TeamState, item: str, quantity: int, hr: Mapping) -> Purchase:
        spec = hr["support_staff"].get(item)
        if spec is None:
            return super().purchase(team, item, quantity, hr)
        rules.check_staff_limit(current=team.staff.get(item, 0), adding=quantity, maximum=spec["max"], what=f"{item}s")
        return Purchase(item, quantity, staff={item: quantity}, description=f"{quantity} {item}(s)")

    def check_ready(self, team: TeamState, hr: Mapping) -> None:
        roles = {p.role for p in team.on_roster}
        missing = [
            title for role, title in (("captain", "a Great Captain"), ("goalie", "a Goalie")) if role not in roles
        ]
        if missing:
            raise RuleViolation(f"A Bone Cruncher squad needs {' and '.join(missing)}.")
