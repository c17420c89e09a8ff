"""Blitz Bowl league play: gil treasuries, Team Value, staff and re-rolls (../shared/rules/blitzbowl.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.errors import RuleViolation
from campaigns.rulesets.base import (
    PositionSpec,
    Purchase,
    Ruleset,
    TeamState,
    check_position_limit,
    fmt_gil,
)

from . import live, pages, postmatch, prematch, report, results, rules, sheet, words
from .prematch_steps import STEPS as PREMATCH_STEPS
from .steps import STEPS


class BlitzBowl(Ruleset):
    key = "blitzbowl"
    name = "Blitz Bowl"
    words = words
    weekly_report_sections, report_terms = report.SECTIONS, report.TERMS  # the weekly report (report.py)
    report_scorers, report_casualties = report.SCORERS, report.CASUALTIES
    player_stats, headline_stat, casualty_stat = report.PLAYER_STATS, report.HEADLINE_STAT, report.CASUALTY_STAT
    team_leaderboards = report.TEAM_LEADERBOARDS
    live = live
    sheet = sheet
    # presentation: match pages (pages.py)
    pages = pages
    result_form = pages.RESULT_FORM
    result_row_fields = pages.RESULT_ROW_FIELDS
    match_report_sections = pages.REPORT_SECTIONS
    decision_widgets = pages.DECISION_WIDGETS
    option_labels = pages.OPTION_LABELS
    id_labels = pages.ID_LABELS
    prematch_hints = pages.PREMATCH_HINTS
    inducement_items = pages.INDUCEMENT_ITEMS
    economy = "gil"
    team_series = (("team_value", "Team value (gil)"), ("treasury", "Treasury (gil)"), ("fan_factor", "Fan Factor"))
    # I: what the rulebook lets a team keep between matches, it keeps between seasons.
    season_carries = ("treasuries", "rosters", "SPP", "fan factor")
    purchase_items = ("reroll", "assistant_coach", "cheerleader", "white_mage", "fan_factor")
    player_fields = ("spp",)
    attribute_order = ("ma", "st", "ag", "av")

    def starting_treasury(self, hr: Mapping) -> int:
        return hr["starting_treasury"]

    def redraft_treasury(self, hr: Mapping) -> int:
        """H: a redrafted team's treasury is the league's `redraft_budget` (default: the rulebook's
        starting treasury, 100,000 gil), whatever it held; it rebuilds its roster from it."""
        return hr["redraft_budget"]

    def check_join(self, team: TeamState, position: PositionSpec, hr: Mapping, *, value: int) -> None:
        check_position_limit(team, position)
        rules.check_roster_room(on_roster=len(team.on_roster), max_roster=hr["max_roster"])

    def check_hire(self, team: TeamState, position: PositionSpec, hr: Mapping, *, role: str = "") -> int:
        super().check_hire(team, position, hr, role=role)
        rules.check_affordable(cost=position.cost, treasury=team.treasury, what=f"a {position.name}")
        return position.cost

    def purchase(self, team: TeamState, item: str, quantity: int, hr: Mapping) -> Purchase:
        if item == "reroll":
            base = team.roster.extra["reroll_cost"]
            unit = rules.reroll_price(
                base_cost=base, in_creation=team.in_creation, multiplier=hr["reroll_price_multiplier_after_creation"]
            )
            rules.check_count_limit(
                current=team.rerolls, adding=quantity, maximum=hr["max_rerolls"], what="team re-rolls"
            )
            cost = unit * quantity
            note = "" if team.in_creation else f" (double the roster price of {fmt_gil(base)} after creation)"
            purchase = Purchase(
                item, quantity, cost=cost, rerolls=quantity, description=f"{quantity} team re-roll(s){note}"
            )
        elif item == "fan_factor":
            ff = hr["fan_factor"]
            if not team.in_creation:
                raise RuleViolation("Fan Factor can only be bought while the team is in creation.", field="item")
            rules.check_count_limit(
                current=team.fan_factor, adding=quantity, maximum=ff["max_at_creation"], what="Fan Factor at creation"
            )
            purchase = Purchase(
                item,
                quantity,
                cost=ff["price"] * quantity,
                fan_factor=quantity,
                description=f"{quantity} point(s) of Fan Factor",
            )
        elif item in hr["staff"]:
            spec = hr["staff"][item]
            if item == "white_mage" and not team.roster.extra.get("white_mage", False):
                raise RuleViolation(f"{team.roster.name} teams may not hire a White Mage.", field="item")
            label = item.replace("_", " ")
            rules.check_count_limit(
                current=team.staff.get(item, 0), adding=quantity, maximum=spec["max"], what=f"{label}s"
            )
            purchase = Purchase(
                item,
                quantity,
                cost=spec["price"] * quantity,
                staff={item: quantity},
                description=f"{quantity} {label}(s)",
            )
        else:
            return super().purchase(team, item, quantity, hr)
        rules.check_affordable(cost=purchase.cost, treasury=team.treasury, what=purchase.description)
        return purchase

    postmatch_steps = STEPS
    prematch_steps = PREMATCH_STEPS
    fame_from_prematch = True

    def check_inducement(self, item, quantity, *, team, bought, position, skill, star, hr) -> int:
        return prematch.check_inducement(
            item,
            quantity,
            team=prematch.InducementTeam(**team),
            bought=[prematch.Purchase(**b) for b in bought],
            position=position,
            skill=skill,
            star=star,
            hr=hr,
        )

    def check_inducement_affordable(self, *, induced, spent_before, price, treasury) -> None:
        prematch.check_affordable(induced=induced, spent_before=spent_before, price=price, treasury=treasury)

    def inducement_budget(self, *, induced: int, spent: int) -> dict:
        return prematch.budget(induced=induced, spent=spent)

    def roll_catalogue(self, hr: Mapping) -> dict[str, str]:
        """The roll keys; a key whose dice vary (roll_key_variants) admits entered values up to its largest die."""
        catalogue = dict(hr["roll_keys"])
        for key, variants in hr.get("roll_key_variants", {}).items():
            catalogue[key] = max([catalogue[key], *variants.values()], key=lambda e: int(e.split("d")[1]))
        return catalogue

    def parse_result(self, body, *, rosters, event, hr, context=None):
        return results.parse_result(body, rosters=rosters, hr=hr)

    def player_match_row(self, row: Mapping, *, mvp: bool, hr: Mapping) -> dict:
        stats = {k: row.get(k, 0) for k in ("touchdowns", "casualties", "completions", "interceptions")}
        spp = postmatch.spp_earned(**stats, mvp=mvp, hr=hr)
        return {**stats, "mvp": mvp, "spp": spp, "injury": row.get("injury", ""), "injury_detail": row.get("stat", "")}

    injuries_at_confirm = True
    counters = ("spp",)

    def learn_ability(self, team, *, abilities, goal_points, ability, hr) -> int:
        raise RuleViolation(
            "Blitz Bowl skills are earned by improvement rolls and chosen in the post-match sequence's "
            "improvements step.",
            field="ability",
        )

    def league_points(
        self, *, outcome: str, kind: str, hr: Mapping, event: str = "", placing: int | None = None
    ) -> int:
        return postmatch.league_points(outcome=outcome, kind=kind, hr=hr)

    def max_consecutive_meetings(self, hr: Mapping) -> int | None:
        return hr["max_consecutive_matches_vs_same_opponent"]

    # R ("3. Fortune and FAME", Residency): a team may make one of the league's stadiums its home.
    has_residencies = True

    def residency_cancel_cost(self, hr: Mapping) -> int:
        return rules.residency_cancel_cost(hr=hr)

    def check_residency_cancel(self, *, resident: bool, owns_stadium: bool, treasury: int, hr: Mapping) -> int:
        return rules.check_residency_cancel(resident=resident, owns_stadium=owns_stadium, treasury=treasury, hr=hr)

    def team_value(self, team: TeamState, hr: Mapping) -> int:
        return rules.team_value(
            player_values=(p.value for p in team.players if p.can_play),
            staff=team.staff,
            staff_prices={item: spec["price"] for item, spec in hr["staff"].items()},
            rerolls=team.rerolls,
            reroll_cost=team.roster.extra["reroll_cost"],
            fan_factor=team.fan_factor,
            fan_factor_value=hr["fan_factor"]["value"],
        )

    def check_ready(self, team: TeamState, hr: Mapping) -> None:
        playable = sum(1 for p in team.players if p.can_play)
        if playable < hr["min_fielded"]:
            raise RuleViolation(
                f"A Blitz Bowl team needs {hr['min_fielded']} players able to play; this one has {playable}."
            )

    def result_choices(self, hr: Mapping) -> Mapping[str, list[tuple[Any, str]]]:
        return pages.result_choices(hr)

    def weather_words(self, weather: str) -> str:
        return pages.weather_words(weather)
