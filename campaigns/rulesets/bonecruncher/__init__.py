"""Bone Cruncher squads, events, wounds and veterans (../shared/rules/bonecruncher.md).

The pure rules live in `rules.py` (squad), `results.py` (events, league points), `wounds.py` (wounds, healing,
Elite, equipment) and `steps.py` (the post-match sequence: wounds, veterans, team_stats).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from campaigns.errors import RuleViolation
from campaigns.rulesets.base import PlayerState, PositionSpec, Purchase, Ruleset, TeamState, check_position_limit

from . import live, pages, report, results, rules, sheet, words, wounds
from .pregame_steps import STEPS as PREGAME_STEPS
from .steps import STEPS


class BoneCruncher(Ruleset):
    key = "bonecruncher"
    name = "Bone Cruncher"
    words = words
    weekly_report_sections, report_terms = report.SECTIONS, report.TERMS  # the weekly report (report.py)
    report_scorers, report_casualties = report.SCORERS, report.CASUALTIES
    player_stats, headline_stat, casualty_stat = report.PLAYER_STATS, report.HEADLINE_STAT, report.CASUALTY_STAT
    live = live
    sheet = sheet
    # presentation: match pages (pages.py)
    pages = pages
    result_form = pages.RESULT_FORM
    match_report_sections = pages.REPORT_SECTIONS
    decision_widgets = pages.DECISION_WIDGETS
    prematch_hints = pages.PREMATCH_HINTS

    def result_choices(self, hr: Mapping) -> Mapping[str, list[tuple[Any, str]]]:
        return pages.result_choices(hr)

    def terrain_words(self, terrain: Mapping[str, int]) -> str:
        return pages.terrain_words(terrain)

    economy = "none"
    # I: what the rulebook lets a team keep between matches, it keeps between seasons.
    season_carries = ("rosters", "wounds", "conditions")
    purchase_items = ("trainer", "coach", "cheerleader")
    player_fields = (
        "role",
        "wounds",
        "armour_used",
        "matches_survived",
        "elite",
        "wound_areas",
        "conditions",
        "equipment",
        "race",
        "health_template",
    )
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

    # --- matches ---------------------------------------------------------------------------------------------
    postmatch_steps = STEPS
    prematch_steps = PREGAME_STEPS

    def roll_catalogue(self, hr: Mapping) -> dict[str, str]:
        """The roll keys of rules/bonecruncher.md (aggressor, terrain, critical_wound, …): hr["rolls"]."""
        return dict(hr.get("rolls", {}))

    def parse_result(self, body, *, rosters, event, hr, context=None):
        return results.parse_result(body, rosters=rosters, event=event, hr=hr, context=context)

    def player_match_row(self, row: Mapping, *, mvp: bool, hr: Mapping) -> dict:
        """The PlayerMatch fields: `wounds` = hits taken this match, the critical wounds' chart wounds included
        (armour hits too: the row records the match, the player's record keeps the boxes); `detail` keeps the
        areas, the critical results and the plain wounds, and that the player was in the squad."""
        critical = [dict(c) for c in row.get("critical", [])]
        plain = int(row.get("wounds", 0))
        return {
            "wounds": plain + wounds.critical_wounds(critical, hr),
            "detail": {
                "areas": dict(row.get("areas", {})),
                "critical": critical,
                "plain_wounds": plain,
                "squad": bool(row),
            },
        }

    def match_players(self, players: tuple[PlayerState, ...], *, line: Mapping, hr: Mapping) -> frozenset[int]:
        """R: the squad named with the result played (up to 8 of the team's 12), not the whole roster."""
        return frozenset(line.get("squad") or ())

    def league_points(
        self, *, outcome: str, kind: str, hr: Mapping, event: str = "", placing: int | None = None
    ) -> int:
        return results.league_points(outcome=outcome, kind=kind, hr=hr, event=event, placing=placing)

    # --- the team sheet -----------------------------------------------------------------------------------------
    def player_summary(self, player: Any, hr: Mapping) -> dict:
        """What the team sheet shows of a player's wounds (player: an engine.PlayerView)."""
        template = player.health_template or wounds.race_template(player.race, hr)
        base = player.attributes.get("move")
        if base is None:
            base = _race_movement(player.race, hr)
        advanced = bool(hr.get("advanced_wounds", False))
        return {
            "armour_boxes": wounds.armour_capacity(role=player.role, elite=player.elite, template=template, hr=hr),
            "wound_limit": wounds.wound_limit(template=template, hr=hr) if template or not advanced else None,
            "movement": wounds.movement(
                base=base,
                conditions=player.conditions,
                weapon=wounds.carried_weapon(player.equipment, hr),
                race=player.race,
                hr=hr,
            ),
            "elite": player.elite,
            "conditions": words.conditions(player.conditions, hr=hr),
            "qualifies_for_elite": wounds.qualifies_for_elite(
                matches_survived=player.matches_survived, elite=player.elite, hr=hr
            ),
        }

    def check_equipment(self, *, weapon: str = "none", shield: bool = False, hr: Mapping) -> None:
        wounds.check_equipment(weapon=weapon, shield=shield, hr=hr)


def _race_movement(race: str, hr: Mapping) -> int:
    """R: speedsters (Amazons, Elves) 6, slow races (Dwarves, Halflings, Undead) 4, the others 5."""
    table = hr["movement"]
    if race in table["speedster_races"]:
        return int(table["speedster"])
    if race in table["slow_races"]:
        return int(table["slow"])
    return int(table["standard"])
