"""The Bone Cruncher pages through Django's test client: scheduling an event, the result form (squads, points or
placings, wounds as a count or on the body diagram, critical wounds), its errors shown next to the fields, the
post-match decisions (Trainers healing, veterans promoted to Elite), the team sheet's wounds, armour, limbs and
equipment, and the match report."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaigns.errors import RuleViolation
from campaigns.rulesets import get_ruleset
from matches import services
from matches.aftermath import aftermath_post
from matches.models import Aftermath, Match
from matches.web.forms.step import StepForm
from teams.models import Player, Team
from teams.services import team_purchase
from tests.factories import LeagueFactory, TeamFactory, UserFactory, hire
from tests.web.pages import (
    HTMX,
    by_number,
    cell,
    element,
    plain,
    player_row,
    report_url,
    result_url,
    sheet_url,
    text,
    walk_url,
)

pytestmark = pytest.mark.django_db

# --- helpers ------------------------------------------------------------------------------------


def squad_team(league, coach, name: str, roster: str, n: int) -> Team:
    """A squad of `n` players: #1 the Great Captain, #2 the Goalie."""
    team = TeamFactory(league=league, coach=coach, name=name, roster=roster)
    for number in range(1, n + 1):
        role = {1: "captain", 2: "goalie"}.get(number, "")
        hire(team, "player", name=f"{name.split()[0]} {number}", number=number, role=role)
    return team


def form_data(lines: dict[Team, dict], wounds: dict[Player, dict] | None = None) -> dict:
    """POST data of the Bone Cruncher result form: per team its line (score or placing and eliminations, and
    `squad`: players), per player his wounds (`wounds` or per area) and `critical`: [(roll, side)]."""
    data: dict[str, object] = {}
    for team, line in lines.items():
        for key, value in line.items():
            if key == "squad":
                data[f"team_{team.pk}_squad"] = [str(p.pk) for p in value]
            else:
                data[f"team_{team.pk}_{key}"] = str(value)
    for player, row in (wounds or {}).items():
        for key, value in row.items():
            if key == "critical":
                for k, (roll, side) in enumerate(value, start=1):
                    data[f"player_{player.pk}_critical_{k}"] = str(roll)
                    data[f"player_{player.pk}_critical_{k}_side"] = side
            else:
                data[f"player_{player.pk}_{key}"] = str(value)
    return data


def step_post(client, match: Match, team: Team, data: dict, htmx: bool = False):
    return client.post(walk_url(match, team), data, headers=HTMX if htmx else {}, follow=not htmx)


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture
def crunch(commissioner):
    return LeagueFactory(created_by=commissioner, name="Crunch League", ruleset="bonecruncher")


@pytest.fixture
def barbarians(crunch, coach):
    """Alice's Humans & Barbarians: nine players and one Trainer."""
    team = squad_team(crunch, coach, "Barb Brawlers", "humans_barbarians", 9)
    team_purchase(team_id=team.pk, user=coach, item="trainer", quantity=1)
    return team


@pytest.fixture
def orcs(crunch, other_coach):
    return squad_team(crunch, other_coach, "Orc Maulers", "orcs_goblins", 8)


@pytest.fixture
def scorch(crunch, barbarians, orcs):
    return services.match_schedule(
        user=barbarians.coach, league=crunch, team_ids=[barbarians.pk, orcs.pk], event="scorchball"
    )


def scorch_body(barbarians: Team, orcs: Team) -> dict:
    """Barbarians 3–1 Orcs: Barb 3 takes 2 wounds and an incapacitated left leg; Orc 4 loses his right arm."""
    b, o = by_number(barbarians), by_number(orcs)
    return {
        "teams": [
            {"team": barbarians.pk, "score": 3, "squad": [b[n].pk for n in range(1, 9)]},
            {"team": orcs.pk, "score": 1, "squad": [o[n].pk for n in range(1, 9)]},
        ],
        "wounds": [
            {"player": b[3].pk, "wounds": 2, "critical": [{"roll": 2, "side": "left"}]},
            {"player": o[4].pk, "wounds": 0, "critical": [{"roll": 6, "side": "right"}, 5]},
        ],
    }


# --- scheduling ---------------------------------------------------------------------------------


def test_schedule_page_offers_the_events_and_a_terminix_of_three_teams(client, crunch, barbarians, orcs, commissioner):
    third = squad_team(crunch, UserFactory(username="carol"), "Lizard Lurkers", "lizardmen", 6)
    client.force_login(commissioner)
    url = f"{reverse('match-schedule')}?league={crunch.pk}"

    page = text(client.get(url))
    assert '<option value="terminix">Terminix</option>' in page and "More teams (Terminix only)" in page

    response = client.post(
        url, {"home": barbarians.pk, "away": orcs.pk, "more": [third.pk], "kind": "league", "event": "terminix"}
    )

    match = Match.objects.get()
    assert response.status_code == 302
    assert (match.event, [s.team_id for s in match.sides.order_by("order")]) == (
        "terminix",
        [barbarians.pk, orcs.pk, third.pk],
    )
    response = client.post(
        url, {"home": barbarians.pk, "away": orcs.pk, "more": [third.pk], "kind": "league", "event": "scorchball"}
    )
    assert "This match takes 2–2 teams." in text(response) and Match.objects.count() == 1


# --- the result form ----------------------------------------------------------------------------


def test_scorchball_result_page_asks_points_squads_wounds_and_critical_wounds(client, scorch, barbarians, orcs):
    client.force_login(orcs.coach)

    page = text(client.get(result_url(scorch)))

    assert 'data-event="scorchball"' in page
    b = by_number(barbarians)
    for team in (barbarians, orcs):
        assert f'for="id_team_{team.pk}_score">Points' in page
        squad = element(page, f"squad-{team.pk}")
        assert "Squad (up to 8)" in squad
        assert all(f'value="{p.pk}"' in squad for p in Player.objects.filter(team=team))
    card = element(page, f"wounds-{b[3].pk}")
    assert f'aria-label="Wounds: {b[3].name}"' in card
    assert f'aria-label="Critical wound 1: {b[3].name}"' in card and f'name="player_{b[3].pk}_critical_3"' in card
    assert '<option value="2">2: Incapacitated leg</option>' in card and '<option value="6">2: Severed arm' not in card
    assert '<option value="left">Left</option>' in card
    assert "body-diagram" not in page and "placing" not in page


def test_the_result_form_builds_the_scorchball_body_and_the_match_is_submitted(
    client, scorch, barbarians, orcs, monkeypatch
):
    sent = []
    submit = services.match_submit_result
    monkeypatch.setattr(services, "match_submit_result", lambda **kw: sent.append(kw["body"]) or submit(**kw))
    b, o = by_number(barbarians), by_number(orcs)
    client.force_login(barbarians.coach)

    response = client.post(
        result_url(scorch),
        form_data(
            {
                barbarians: {"score": 3, "squad": [b[n] for n in range(1, 9)]},
                orcs: {"score": 1, "squad": list(o.values())},
            },
            {b[3]: {"wounds": 2, "critical": [(2, "left")]}, o[4]: {"critical": [(6, "right"), (5, "")]}},
        ),
        follow=True,
    )

    assert response.redirect_chain == [(report_url(scorch), 302)]
    expected = scorch_body(barbarians, orcs)
    expected["wounds"][1]["critical"] = [{"roll": 6, "side": "right"}, 5]
    assert sent == [expected]
    scorch.refresh_from_db()
    assert scorch.status == Match.Status.SUBMITTED
    rows = {r["player"]: r for r in scorch.result["players"]}
    assert rows[b[3].pk]["critical"] == [{"roll": 2, "key": "incapacitated_leg", "side": "left"}]
    assert len(rows) == 16

    page = text(client.get(report_url(scorch)))
    assert "Event: Scorchball" in plain(page)
    wounds = plain(element(page, "wounds"))
    assert "Barb Brawlers #3 Barb 3 2 Incapacitated leg (left)" in wounds
    assert "Orc Maulers #4 Orc 4 0 Severed arm (right), Head wound" in wounds
    assert "#8 Barb 8" in plain(element(page, "squads")) and "#9 Barb 9" not in plain(element(page, "squads"))

    # Correcting it: the form comes back filled in.
    page = text(client.get(result_url(scorch)))
    assert re.search(
        rf'name="player_{o[4].pk}_critical_1"[^>]*>(?:(?!</select>).)*<option value="6" selected>', page, re.S
    )
    assert re.search(
        rf'name="player_{o[4].pk}_critical_1_side"[^>]*>(?:(?!</select>).)*<option value="right" selected>', page, re.S
    )


def test_a_squad_too_big_and_a_wounded_player_outside_it_are_refused_on_their_fields(client, scorch, barbarians, orcs):
    b, o = by_number(barbarians), by_number(orcs)
    client.force_login(barbarians.coach)

    page = text(
        client.post(
            result_url(scorch),
            form_data(
                {barbarians: {"score": 1, "squad": list(b.values())}, orcs: {"score": 1, "squad": list(o.values())}}
            ),
        )
    )
    squad = element(page, f"squad-{barbarians.pk}")
    assert 'class="squad invalid"' in squad
    assert "Barb Brawlers — squad lists 9 players; a squad has at most 8." in squad

    page = text(
        client.post(
            result_url(scorch),
            form_data(
                {barbarians: {"score": 1, "squad": [b[n] for n in range(1, 9)]}, orcs: {"score": 0, "squad": [o[1]]}},
                {b[9]: {"wounds": 1}},
            ),
        )
    )
    card = element(page, f"wounds-{b[9].pk}")
    assert f"Barb 9: player {b[9].pk} was not in his team's squad." in card
    assert 'class="field invalid"' in card
    scorch.refresh_from_db()
    assert (scorch.status, scorch.result) == (Match.Status.SCHEDULED, {})


def test_a_side_for_a_critical_wound_to_the_torso_is_refused_by_the_form(client, scorch, barbarians, orcs):
    b, o = by_number(barbarians), by_number(orcs)
    client.force_login(barbarians.coach)

    page = text(
        client.post(
            result_url(scorch),
            form_data(
                {barbarians: {"score": 1, "squad": [b[1]]}, orcs: {"score": 0, "squad": [o[1]]}},
                {b[1]: {"critical": [(4, "left")]}},
            ),
        )
    )

    assert "Only a critical wound to an arm or a leg has a side." in element(page, f"wounds-{b[1].pk}")
    assert Match.objects.get(pk=scorch.pk).status == Match.Status.SCHEDULED


def test_advanced_wounds_are_entered_on_the_body_diagram(client, commissioner, coach, other_coach, monkeypatch):
    league = LeagueFactory(
        created_by=commissioner, ruleset="bonecruncher", house_rules_overrides={"advanced_wounds": True}
    )
    humans = squad_team(league, coach, "Human Host", "humans_barbarians", 6)
    dwarves = squad_team(league, other_coach, "Dwarf Hold", "dwarves", 6)
    match = services.match_schedule(user=coach, league=league, team_ids=[humans.pk, dwarves.pk])
    sent = []
    submit = services.match_submit_result
    monkeypatch.setattr(services, "match_submit_result", lambda **kw: sent.append(kw["body"]) or submit(**kw))
    h, d = by_number(humans), by_number(dwarves)
    client.force_login(coach)

    page = text(client.get(result_url(match)))
    diagram = element(page, f"wounds-{h[3].pk}")
    assert 'class="body-diagram"' in diagram
    for area, label, boxes in [
        ("head", "Head", 5),
        ("torso", "Torso", 10),
        ("left_arm", "Left arm", 4),
        ("right_leg", "Right leg", 6),
    ]:
        assert f'class="area area-{area}"' in diagram and f'aria-label="{label}: {h[3].name}"' in diagram
        assert re.search(rf"{label} <span class=\"hint\">/{boxes}</span>", diagram)
    assert 'Head <span class="hint">/6</span>' in element(page, f"wounds-{d[3].pk}")  # a Dwarf's head
    assert f'aria-label="Wounds: {h[3].name}"' not in page

    client.post(
        result_url(match),
        form_data(
            {humans: {"score": 2, "squad": list(h.values())}, dwarves: {"score": 2, "squad": list(d.values())}},
            {h[3]: {"head": 1, "left_leg": 2, "critical": [(3, "right")]}},
        ),
    )

    areas = dict.fromkeys(("head", "torso", "left_arm", "right_arm", "left_leg", "right_leg"), 0)
    assert sent[0]["wounds"] == [
        {"player": h[3].pk, "areas": {**areas, "head": 1, "left_leg": 2}, "critical": [{"roll": 3, "side": "right"}]}
    ]
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED
    row = next(r for r in match.result["players"] if r["player"] == h[3].pk)
    assert row["areas"] == {"head": 1, "left_leg": 2}
    assert "Head 1, Left leg 2" in plain(element(text(client.get(report_url(match))), "wounds"))


def test_terminix_result_gives_each_team_its_placing_and_eliminations(client, crunch, barbarians, orcs, commissioner):
    third = squad_team(crunch, UserFactory(username="carol"), "Lizard Lurkers", "lizardmen", 6)
    match = services.match_schedule(
        user=commissioner, league=crunch, team_ids=[barbarians.pk, orcs.pk, third.pk], event="terminix"
    )
    client.force_login(commissioner)

    page = text(client.get(result_url(match)))
    assert 'data-event="terminix"' in page and "Squad (up to 12)" in page
    for team in (barbarians, orcs, third):
        assert f'name="team_{team.pk}_placing"' in page and f'name="team_{team.pk}_eliminations"' in page
    assert 'max="3"' in page

    response = client.post(
        result_url(match),
        form_data(
            {
                barbarians: {"placing": 2, "eliminations": 3},
                orcs: {"placing": 1, "eliminations": 5},
                third: {"placing": 3, "eliminations": 0},
            }
        ),
        follow=True,
    )

    assert "Result entered." in text(response)
    match.refresh_from_db()
    assert {line["team"]: line["placing"] for line in match.result["teams"]} == {
        barbarians.pk: 2,
        orcs.pk: 1,
        third.pk: 3,
    }
    services.match_confirm(user=orcs.coach, match_id=match.pk)
    result = plain(element(text(client.get(report_url(match))), "result"))
    assert "Event: Terminix" in plain(text(client.get(report_url(match))))
    assert "Barb Brawlers 2 3 1" in result and "Orc Maulers 1 5 3" in result and "Lizard Lurkers 3 0 0" in result
    assert "This match's result is final." in text(client.get(result_url(match), follow=True))


# --- the post-match decisions -------------------------------------------------------------------


@pytest.fixture
def final(scorch, barbarians, orcs):
    """The Scorchball match, final: Barb 3 wounded (2 + incapacitated left leg), Barb 4 a veteran of 4 matches."""
    Player.objects.filter(pk=by_number(barbarians)[4].pk).update(matches_survived=4)
    services.match_submit_result(user=barbarians.coach, match_id=scorch.pk, body=scorch_body(barbarians, orcs))
    services.match_confirm(user=orcs.coach, match_id=scorch.pk)
    return scorch


def test_walking_asks_each_trainer_whom_he_heals_and_which_veterans_become_elite(client, final, barbarians):
    b = by_number(barbarians)
    client.force_login(barbarians.coach)

    page = text(step_post(client, final, barbarians, {"step": "wounds"}))

    decision = element(page, "decision")
    assert "Each of your 1 Trainer(s) may heal" in element(page, "current-step")
    assert 'aria-label="Trainer 1: player"' in decision and 'name="heal_1_player"' not in decision
    leg = "Incapacitated left leg (movement −2 until healed)"  # words.condition, the one wording of a condition
    assert f'<option value="{b[3].pk}">Barb 3 (4 wound(s); {leg})</option>' in decision
    # Under Barb 3 only his own condition a Trainer may remove.
    own = rf'<optgroup label="Barb 3">\s*<option value="incapacitated_leg:left">{re.escape(leg)}</option>\s*</optgroup>'
    assert re.search(own, decision)

    # Boxes and a condition at once: the form refuses, nothing changes.
    both = {"step": "wounds", "heal_0_player": b[3].pk, "heal_0_boxes": 2, "heal_0_remove": "incapacitated_leg:left"}
    page = text(step_post(client, final, barbarians, both, htmx=True))
    assert "A Trainer heals wound boxes or removes a condition, not both." in page
    assert Player.objects.get(pk=b[3].pk).wounds == 0

    page = text(step_post(client, final, barbarians, {"step": "wounds", "heal_0_player": b[3].pk, "heal_0_boxes": 3}))
    barb3 = Player.objects.get(pk=b[3].pk)
    assert barb3.wounds == 1 and barb3.conditions == [{"key": "incapacitated_leg", "side": "left"}]

    assert "Step 2 of 3: Veterans and Elite" in page
    page = text(step_post(client, final, barbarians, {"step": "veterans"}))
    decision = element(page, "decision")
    assert "Promote to Elite (up to 1)" in decision
    assert f'name="decision" value="{b[4].pk}"' in decision and "Barb 4 — survived 5" in decision
    step_post(client, final, barbarians, {"step": "veterans", "decision": [b[4].pk]})
    assert Player.objects.get(pk=b[4].pk).elite

    page = text(step_post(client, final, barbarians, {"step": "team_stats"}))
    assert 'id="complete"' in page and Aftermath.objects.get(match=final, team=barbarians).complete


def test_a_trainer_removes_an_incapacitation(client, final, barbarians):
    b = by_number(barbarians)
    client.force_login(barbarians.coach)
    step_post(client, final, barbarians, {"step": "wounds"})

    step_post(
        client,
        final,
        barbarians,
        {"step": "wounds", "heal_0_player": b[3].pk, "heal_0_remove": "incapacitated_leg:left"},
    )

    barb3 = Player.objects.get(pk=b[3].pk)
    assert barb3.conditions == [] and barb3.wounds == 4


def test_a_refused_healing_is_shown_on_the_trainers_row(client, final, barbarians):
    b = by_number(barbarians)
    client.force_login(barbarians.coach)
    step_post(client, final, barbarians, {"step": "wounds"})

    page = text(
        step_post(
            client,
            final,
            barbarians,
            {"step": "wounds", "heal_0_player": b[3].pk, "heal_0_remove": "incapacitated_arm:right"},
            True,
        )
    )

    # Barb 3 has no incapacitated arm: the form offers only the conditions the players have.
    assert re.search(r'<tr class="invalid"><th scope="row">1</th>.*?Select a valid choice', page, flags=re.S)
    assert Player.objects.get(pk=b[3].pk).wounds == 0  # nothing applied yet
    assert Aftermath.objects.get(match=final, team=barbarians).pending["decision"] == "heal"


def test_the_services_refusals_of_a_decision_land_on_its_fields():
    heal = {
        "decision": "heal",
        "options": {"trainers": 2, "players": {"7": {"name": "Ann", "wounds": 3, "conditions": []}}},
        "message": "Heal?",
    }
    bonecruncher, elfball = get_ruleset("bonecruncher"), get_ruleset("elfball")
    form = StepForm({"step": "wounds"}, step="wounds", pending=heal, roll_keys=(), names={}, rules=bonecruncher)
    assert form.is_valid()
    form.add_service_error(
        RuleViolation("choices.heal[1].player: 7 cannot be treated.", field="choices.heal[1].player")
    )
    assert form.errors == {"heal_1_player": ["7 cannot be treated."]}  # beside Trainer 2's player, no JSON path

    promote = {"decision": "promote", "options": {"eligible": [{"player": 7, "name": "Ann"}], "slots": 1}}
    form = StepForm({"step": "veterans"}, step="veterans", pending=promote, roll_keys=(), names={}, rules=bonecruncher)
    assert form.is_valid() and form.choices() == {"promote": []}
    form.add_service_error(RuleViolation("no", field="choices.promote[0]"))
    assert form.errors == {"decision": ["no"]}

    abilities = {"decision": "abilities", "options": {"7": {"name": "Ann", "entitlements": 1, "learnable": ["push"]}}}
    form = StepForm({"step": "abilities"}, step="abilities", pending=abilities, roll_keys=(), names={}, rules=elfball)
    assert form.is_valid() and form.choices() == {"abilities": {"7": []}}
    form.add_service_error(RuleViolation("too many", field="choices.abilities.7"))
    assert form.errors == {"ability_7": ["too many"]}


# --- the team sheet -----------------------------------------------------------------------------


def test_team_sheet_shows_wounds_armour_limbs_veterans_and_movement(client, final, barbarians, orcs):
    aftermath_post(user=orcs.coach, match_id=final.pk, team_id=orcs.pk, step="wounds")  # no Trainer: no decision
    b = by_number(barbarians)
    for step, choices in [("wounds", {"heal": []}), ("veterans", {"promote": [b[4].pk]}), ("team_stats", None)]:
        record = aftermath_post(user=barbarians.coach, match_id=final.pk, team_id=barbarians.pk, step=step)
        if record.pending:
            aftermath_post(user=barbarians.coach, match_id=final.pk, team_id=barbarians.pk, step=step, choices=choices)

    page = text(client.get(sheet_url(barbarians)))

    barb3 = player_row(page, "Barb 3")
    assert cell(barb3, "wounds") == "4 / 10" and cell(barb3, "armour") == "0 / 0"
    assert cell(barb3, "conditions").startswith("Incapacitated left leg")
    assert cell(barb3, "movement") == "3" and cell(barb3, "survived") == "1"
    assert cell(player_row(page, "Barb 1"), "armour") == "0 / 2"  # the Great Captain
    assert cell(player_row(page, "Barb 2"), "armour") == "0 / 1"  # the Goalie
    barb4 = player_row(page, "Barb 4")
    assert cell(barb4, "elite") == "Elite" and cell(barb4, "survived") == "5" and cell(barb4, "armour") == "0 / 1"
    assert cell(player_row(page, "Barb 9"), "survived") == "0"
    assert "Humans & Barbarians" in barb3 and "Great Captain" in player_row(page, "Barb 1")
    assert 'id="traits"' in page and "Equipment" not in page
    orc4 = player_row(text(client.get(sheet_url(orcs))), "Orc 4")
    assert "Severed right arm (never heals)" in cell(orc4, "conditions")


def test_team_sheet_shows_equipment_with_bloody_blades(client, commissioner, coach):
    league = LeagueFactory(
        created_by=commissioner, ruleset="bonecruncher", house_rules_overrides={"bloody_blades": True}
    )
    team = squad_team(league, coach, "Blade Band", "humans_barbarians", 3)
    Player.objects.filter(team=team, number=1).update(equipment={"weapon": "blade", "shield": True})
    Player.objects.filter(team=team, number=2).update(equipment={"weapon": "polearm", "shield": False})

    page = text(client.get(sheet_url(team)))

    assert "<th>Equipment</th>" in page
    assert cell(player_row(page, "Blade 1"), "equipment") == "Blade + Shield"
    assert cell(player_row(page, "Blade 2"), "equipment") == "Polearm"
    assert cell(player_row(page, "Blade 3"), "equipment") == "—"


def test_halfling_and_undead_polearm_carriers_move_one_less_on_the_sheet_and_in_the_api(
    client, api_as, commissioner, coach, other_coach
):
    """R Bloody Blades: "Halfling and Undead Team Players with polearms move at one less allowable maneuver point
    per turn": the team sheet's Move column and the API's `movement` count it; a Blade does not, nor a polearm
    carried by a Halfling team's Elite Elf (an Elf keeps his race's traits)."""
    league = LeagueFactory(
        created_by=commissioner, ruleset="bonecruncher", house_rules_overrides={"bloody_blades": True}
    )
    halflings = squad_team(league, coach, "Pip Pack", "halflings", 3)
    hire(halflings, "elite_elf", name="Pip Elf", number=4)
    undead = squad_team(league, other_coach, "Bone Band", "undead_zombies", 1)
    polearm = {"weapon": "polearm", "shield": False}
    Player.objects.filter(team=halflings, number__in=(1, 4)).update(equipment=polearm)
    Player.objects.filter(team=halflings, number=2).update(equipment={"weapon": "blade", "shield": True})
    Player.objects.filter(team=undead, number=1).update(equipment=polearm)

    page = text(client.get(sheet_url(halflings)))

    moves = {name: cell(player_row(page, name), "movement") for name in ("Pip 1", "Pip 2", "Pip 3", "Pip Elf")}
    assert moves == {"Pip 1": "3", "Pip 2": "4", "Pip 3": "4", "Pip Elf": "6"}
    assert cell(player_row(text(client.get(sheet_url(undead))), "Bone 1"), "movement") == "3"
    api = api_as(coach)
    players = {p["number"]: p for p in api.get(f"/api/v1/teams/{halflings.pk}/").json()["players"]}
    assert {n: players[n]["movement"] for n in (1, 2, 3, 4)} == {1: 3, 2: 4, 3: 4, 4: 6}
    assert api.get(f"/api/v1/teams/{undead.pk}/").json()["players"][0]["movement"] == 3


def test_report_of_a_final_match_shows_the_event_squads_and_wounds(client, final, barbarians, orcs):
    page = text(client.get(report_url(final)))

    assert "Event: Scorchball" in plain(page)
    result = plain(element(page, "result"))
    assert "Barb Brawlers 3 Won 3" in result and "Orc Maulers 1 Lost 0" in result
    wounds = plain(element(page, "wounds"))
    assert "Barb Brawlers #3 Barb 3 4 Incapacitated leg (left)" in wounds
    assert "Orc Maulers #4 Orc 4 6 Severed arm (right), Head wound" in wounds
    squads = plain(element(page, "squads"))
    assert "Barb Brawlers : #1 Barb 1 , #2 Barb 2" in squads  # each name a link
    first = barbarians.players.get(name="Barb 1")
    assert f'href="/players/{first.pk}/"' in element(page, "squads")  # issue 14: every player name links
