"""The Bone Cruncher Trainer's healing on the post-match page (rules/bonecruncher.md "Wounds"): the conditions a
Trainer may remove are the ruleset's own under the league's house rules (`trainer_healing.severed_arm_heals`), each
listed under its own player, and a condition of another player is refused for the chosen one."""

from __future__ import annotations

import re

import pytest

from matches import services
from matches.models import Aftermath, Match
from teams.models import Player, Team
from teams.services import team_purchase
from tests.factories import LeagueFactory
from tests.web.pages import by_number, element, text
from tests.web.test_bonecruncher_pages import squad_team, step_post

pytestmark = pytest.mark.django_db


def crunch_league(commissioner, severed_arm_heals: bool):
    overrides = {"trainer_healing": {"severed_arm_heals": True}} if severed_arm_heals else {}
    return LeagueFactory(
        created_by=commissioner, name="Crunch League", ruleset="bonecruncher", house_rules_overrides=overrides
    )


def final_with_trainer(league, coach, other_coach) -> tuple[Match, Team]:
    """Barbarians 3–1 Orcs, final: Orc 4 loses his right arm, Orc 5 has an incapacitated left leg; the Orcs have
    a Trainer."""
    barbarians = squad_team(league, coach, "Barb Brawlers", "humans_barbarians", 9)
    orcs = squad_team(league, other_coach, "Orc Maulers", "orcs_goblins", 8)
    team_purchase(team_id=orcs.pk, user=other_coach, item="trainer", quantity=1)
    b, o = by_number(barbarians), by_number(orcs)
    match = services.match_schedule(user=coach, league=league, team_ids=[barbarians.pk, orcs.pk], event="scorchball")
    body = {
        "teams": [
            {"team": barbarians.pk, "score": 3, "squad": [b[n].pk for n in range(1, 9)]},
            {"team": orcs.pk, "score": 1, "squad": [o[n].pk for n in range(1, 9)]},
        ],
        "wounds": [
            {"player": o[4].pk, "wounds": 0, "critical": [{"roll": 6, "side": "right"}]},
            {"player": o[5].pk, "wounds": 0, "critical": [{"roll": 2, "side": "left"}]},
        ],
    }
    services.match_submit_result(user=coach, match_id=match.pk, body=body)
    services.match_confirm(user=other_coach, match_id=match.pk)
    return match, orcs


def _group(decision: str, name: str) -> str:
    """The options listed under one player in Trainer 1's "remove a condition" select."""
    select = re.search(r'<select name="heal_0_remove".*?</select>', decision, re.S)
    assert select, "Trainer 1 has no condition to remove"
    found = re.search(rf'<optgroup label="{re.escape(name)}">(.*?)</optgroup>', select.group(0), re.S)
    return found.group(1) if found else ""


def test_with_severed_arm_heals_the_trainer_may_remove_a_severed_arm(client, commissioner, coach, other_coach):
    """H `trainer_healing.severed_arm_heals: true` (rules/bonecruncher.md "Wounds"): the page offers what the API
    allows — the severed arm — and removing it heals it."""
    match, orcs = final_with_trainer(crunch_league(commissioner, severed_arm_heals=True), coach, other_coach)
    o = by_number(orcs)
    client.force_login(other_coach)

    decision = element(text(step_post(client, match, orcs, {"step": "wounds"})), "decision")

    assert '<option value="severed_arm:right">Severed right arm</option>' in _group(decision, "Orc 4")
    assert "or removes one incapacitated arm or leg (or a severed arm)." in decision
    step_post(client, match, orcs, {"step": "wounds", "heal_0_player": o[4].pk, "heal_0_remove": "severed_arm:right"})
    # The step ran: its records are written, Orc 4's arm healed and Orc 5's leg (untreated) kept.
    assert Aftermath.objects.get(match=match, team=orcs).step_index == 1
    assert Player.objects.get(pk=o[4].pk).conditions == []
    assert Player.objects.get(pk=o[5].pk).conditions == [{"key": "incapacitated_leg", "side": "left"}]


def test_by_default_a_severed_arm_is_not_offered_to_a_trainer(client, commissioner, coach, other_coach):
    """R: a severed arm never heals (rules/bonecruncher.md "Wounds"): it is not among the conditions to remove."""
    match, orcs = final_with_trainer(crunch_league(commissioner, severed_arm_heals=False), coach, other_coach)
    client.force_login(other_coach)

    decision = element(text(step_post(client, match, orcs, {"step": "wounds"})), "decision")

    assert "severed_arm:right" not in decision
    hint = "A Trainer heals up to 3 wound boxes (never armour) on one player, or removes one incapacitated arm or leg"
    assert f"{hint} (a severed arm never heals)." in decision
    assert "Orc 4 (4 wound(s); Severed right arm (never heals))" in decision
    assert 'value="incapacitated_leg:left"' in _group(decision, "Orc 5")


def test_a_trainer_is_offered_only_the_chosen_players_conditions(client, commissioner, coach, other_coach):
    """Each player's conditions are listed under him alone, and another player's is refused for him beside the
    field, with nothing changed."""
    match, orcs = final_with_trainer(crunch_league(commissioner, severed_arm_heals=True), coach, other_coach)
    o = by_number(orcs)
    client.force_login(other_coach)

    decision = element(text(step_post(client, match, orcs, {"step": "wounds"})), "decision")
    before = list(Player.objects.filter(team=orcs).order_by("pk").values_list("wounds", "conditions"))
    assert "severed_arm" not in _group(decision, "Orc 5") and "incapacitated_leg" not in _group(decision, "Orc 4")

    page = text(
        step_post(
            client,
            match,
            orcs,
            {"step": "wounds", "heal_0_player": o[5].pk, "heal_0_remove": "severed_arm:right"},
            htmx=True,
        )
    )

    row = re.search(r'<tr class="invalid"><th scope="row">1</th>.*?</tr>', page, re.S)
    assert row and "Orc 5 has no such condition to remove: choose one listed under his name." in row.group(0)
    assert list(Player.objects.filter(team=orcs).order_by("pk").values_list("wounds", "conditions")) == before
    assert Aftermath.objects.get(match=match, team=orcs).pending["decision"] == "heal"
