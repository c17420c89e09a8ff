"""The pre-match page (rules/blitzbowl.md "Pre-match sequence", rules/bonecruncher.md "Pre-game"): who may walk
it, the dice entered at the table or rolled by the server, refusals beside their field, and closing a shopping
turn."""

from __future__ import annotations

import re

import pytest

from matches import services
from matches.models import Prematch, Roll
from matches.prematch import prematch_post
from tests.factories import LeagueFactory, TeamFactory, UserFactory, hire
from tests.web.pages import element, plain, report_url, text
from tests.web.prematchpages.helpers import (
    data_value,
    post,
    prematch_url,
    record,
    shop_url,
)

pytestmark = pytest.mark.django_db


# --- the pre-match page -------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", ["coach", "other_coach", "commissioner"])
def test_prematch_page_renders_for_the_matchs_coaches_and_the_commissioner(client, match, request, viewer):
    client.force_login(request.getfixturevalue(viewer))

    response = client.get(prematch_url(match))

    assert response.status_code == 200
    page = text(response)
    assert "<h1>Pre-match sequence" in page and "Alice's Humes v Bob's Goblins" in page
    assert 'id="step-title">Step 1 of 4: Weather</h2>' in page
    assert '<li class="current" aria-current="step">Weather' in page
    assert '<li class="todo">Inducements: the underdog' in page
    assert '<label for="id_roll_weather">Weather (2d6)</label>' in page
    assert 'placeholder="roll for me"' in page
    assert ">Run this step</button>" in page
    assert "No step has been run yet." in page


@pytest.mark.parametrize("viewer", ["stranger", "league_coach"])
def test_prematch_page_refuses_everyone_else(client, league, match, stranger, request, viewer):
    url = prematch_url(match)
    assert client.get(url).status_code == 302  # anonymous: log in first
    user = stranger if viewer == "stranger" else TeamFactory(league=league, roster="orc").coach
    before = record(match)
    client.force_login(user)

    assert client.get(url).status_code == 403
    response = client.post(url, {"step": "weather", "roll_weather": "6, 6"})

    assert response.status_code == 403
    assert "Only a coach of this match or the commissioner can run its pre-match sequence." in text(response)
    assert record(match) == before


def test_prematch_page_of_a_game_without_one_sends_back_to_the_report(client, commissioner):
    elves = LeagueFactory(created_by=commissioner, name="Elf League", ruleset="elfball")
    a = TeamFactory(league=elves, coach=UserFactory(username="carol"), name="Widows A")
    b = TeamFactory(league=elves, coach=UserFactory(username="dave"), name="Widows B")
    elf_match = services.match_schedule(user=commissioner, league=elves, team_ids=[a.pk, b.pk])
    client.force_login(commissioner)

    response = client.get(prematch_url(elf_match), follow=True)

    assert response.redirect_chain == [(report_url(elf_match), 302)]
    assert "has no pre-match sequence." in text(response)
    assert "Walk the pre-match sequence" not in text(response)


@pytest.mark.parametrize("via_htmx", [False, True], ids=["plain", "htmx"])
def test_weather_and_fans_forms_post_the_entered_dice_and_the_log_says_them(client, match, humes, goblins, via_htmx):
    client.force_login(humes.coach)
    url = prematch_url(match)

    response = post(client, url, {"step": "weather", "roll_weather": "3, 4"}, htmx=via_htmx)

    page = text(response)
    assert response.status_code == 200
    assert ("<h1>Pre-match sequence" in page) and (("<!doctype html>" in page) is not via_htmx)
    assert "Weather: 3 + 4 = 7: Perfect Conditions." in page
    assert element(page, "weather").endswith(">Perfect Conditions</dd>")
    assert 'id="step-title">Step 2 of 4: Fans and FAME</h2>' in page
    assert f'<label for="id_roll_fans_{humes.pk}">Alice\'s Humes: Fans (2d6)</label>' in page
    assert f'<label for="id_roll_fans_{goblins.pk}">Bob\'s Goblins: Fans (2d6)</label>' in page

    response = post(
        client,
        url,
        {"step": "fans", f"roll_fans_{humes.pk}": "5, 6", f"roll_fans_{goblins.pk}": "2 1"},
        htmx=via_htmx,
    )

    page = text(response)
    # Fan Factor of a new team: 0 — fans (5 + 6) × 1,000 and (2 + 1) × 1,000; 11,000 is more than double 3,000.
    ff_h, ff_g = humes.fan_factor, goblins.fan_factor
    fans_h, fans_g = (11 + ff_h) * 1000, (3 + ff_g) * 1000
    assert f"Alice's Humes: 5 + 6 + Fan Factor {ff_h} → {fans_h:,} fans." in page
    assert f"Bob's Goblins: 2 + 1 + Fan Factor {ff_g} → {fans_g:,} fans." in page
    assert data_value(page, "gate") == fans_h + fans_g
    assert "Bob's Goblins receives 11,000 gil of inducement gil." in page
    assert 'id="step-title">Step 3 of 4: Inducements: the higher Team Value</h2>' in page
    assert f'href="{shop_url(match, humes)}">Shop for Alice\'s Humes</a>' in page
    assert ">Done shopping</button>" in page
    rolls = list(
        Roll.objects.filter(match=match).order_by("id").values_list("step", "key", "team", "values", "entered")
    )
    assert rolls == [
        ("weather", "weather", None, [3, 4], True),
        ("fans", "fans", humes.pk, [5, 6], True),
        ("fans", "fans", goblins.pk, [2, 1], True),
    ]
    prematch = Prematch.objects.get(match=match)
    assert prematch.weather == "perfect_conditions"
    assert prematch.fans == {str(humes.pk): fans_h, str(goblins.pk): fans_g}
    assert prematch.superior_id == humes.pk and prematch.underdog_id == goblins.pk


def test_a_team_left_empty_is_rolled_for_by_the_server(client, match, humes, goblins):
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    client.force_login(goblins.coach)

    post(client, prematch_url(match), {"step": "fans", f"roll_fans_{goblins.pk}": "6, 6"})

    rolls = {r.team_id: r for r in Roll.objects.filter(match=match, step="fans")}
    assert rolls[goblins.pk].entered is True and rolls[goblins.pk].values == [6, 6]
    assert rolls[humes.pk].entered is False and len(rolls[humes.pk].values) == 2


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"roll_weather": "7, 1"}, "roll_weather", "Weather: 7 is not on a d6 — enter 1, 2, 3, 4, 5 or 6"),
        ({"roll_weather": "3"}, "roll_weather", "Weather: this roll takes 2 dice (2d6) — enter 2 dice, e.g. 3, 4"),
        ({"roll_weather": "three"}, "roll_weather", "Enter the dice as whole numbers separated by commas"),
    ],
)
def test_bad_dice_are_shown_next_to_their_field_and_change_nothing(client, match, humes, data, field, message):
    client.force_login(humes.coach)
    before = record(match)

    response = post(client, prematch_url(match), {"step": "weather", **data}, htmx=True)
    page = text(response)

    assert response.status_code == 400  # the panel again with the error, swapped in by data-swap-refusals
    row = re.search(rf'<tr class="invalid"><th scope="row"><label for="id_{field}">.*?</tr>', page, flags=re.S)
    assert row and message in row.group(0)
    assert record(match) == before


def test_a_bad_team_roll_is_shown_next_to_that_teams_dice(client, match, humes, goblins):
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    client.force_login(humes.coach)
    before = record(match)

    response = post(
        client, prematch_url(match), {"step": "fans", f"roll_fans_{humes.pk}": "3, 4", f"roll_fans_{goblins.pk}": "5"}
    )
    page = text(response)

    assert response.status_code == 400
    row = re.search(rf'<tr class="invalid"><th scope="row"><label for="id_roll_fans_{goblins.pk}">.*?</tr>', page, re.S)
    assert row and f"{goblins.name}: Fans: this roll takes 2 dice (2d6) — enter 2 dice, e.g. 3, 4" in row.group(0)
    assert record(match) == before


def test_a_step_already_run_is_refused_and_changes_nothing(client, match, humes):
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    client.force_login(humes.coach)
    before = record(match)

    response = post(client, prematch_url(match), {"step": "weather", "roll_weather": "6, 6"})
    page = text(response)

    assert response.status_code == 409  # the sequence is no longer at that step
    assert "That step was already run: the sequence is now at Fans and FAME. Nothing was changed." in page
    assert 'id="step-title">Step 2 of 4: Fans and FAME' in page
    assert record(match) == before


def test_a_step_run_meanwhile_elsewhere_is_reported_from_the_service(client, match, humes, monkeypatch):
    """Another tab runs the step between the form and this POST's service call: the service answers 409."""
    from matches.web import prematch as web

    def run_elsewhere_first(**kwargs):
        prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [6, 6]})
        return prematch_post(**kwargs)

    monkeypatch.setattr(web, "prematch_post", run_elsewhere_first)
    client.force_login(humes.coach)

    response = post(client, prematch_url(match), {"step": "weather", "roll_weather": "3, 4"}, htmx=True)
    page = text(response)

    assert response.status_code == 409
    assert "That step was already run: the sequence is now at Fans and FAME. Nothing was changed." in page
    assert Prematch.objects.get(match=match).weather == "blizzard"
    assert Roll.objects.filter(match=match).count() == 1


def test_the_shopping_team_closes_its_turn_and_only_its_coach_sees_done_shopping(client, superior_turn, humes, goblins):
    match, url = superior_turn, prematch_url(superior_turn)
    client.force_login(goblins.coach)
    page = text(client.get(url))
    assert f'href="{shop_url(match, humes)}">See the inducements of Alice\'s Humes</a>' in page
    assert ">Done shopping</button>" not in page
    assert "The coach of Alice's Humes (or the commissioner) closes the turn with “Done shopping”." in page
    before = record(match)
    assert client.post(url, {"step": "inducements_superior", "done": "True"}).status_code == 403
    assert record(match) == before

    client.force_login(humes.coach)
    page = text(post(client, url, {"step": "inducements_superior", "done": "True"}))

    assert "Alice's Humes buys no inducements." in page
    assert 'id="step-title">Step 4 of 4: Inducements: the underdog</h2>' in page
    assert f'href="{shop_url(match, goblins)}">See the inducements of Bob\'s Goblins</a>' in page
    assert "It is the turn of <strong>Bob's Goblins</strong> to buy inducements: 11,000 gil of inducement gil" in page


# --- Bone Cruncher ------------------------------------------------------------------------------


@pytest.fixture
def scorch(commissioner, coach, other_coach):
    crunch = LeagueFactory(created_by=commissioner, name="Crunch League", ruleset="bonecruncher")
    teams = []
    for user, name, roster, n in (
        (coach, "Barb Brawlers", "humans_barbarians", 9),
        (other_coach, "Orc Maulers", "orcs_goblins", 8),
    ):
        team = TeamFactory(league=crunch, coach=user, name=name, roster=roster)
        for number in range(1, n + 1):
            role = {1: "captain", 2: "goalie"}.get(number, "")
            hire(team, "player", name=f"{name.split()[0]} {number}", number=number, role=role)
        teams.append(team)
    return services.match_schedule(user=coach, league=crunch, team_ids=[t.pk for t in teams], event="scorchball"), teams


def test_bone_cruncher_aggressor_and_terrain_with_entered_dice(client, scorch):
    match, (barbs, orcs) = scorch
    client.force_login(barbs.coach)
    url = prematch_url(match)

    page = text(client.get(url))
    assert 'id="step-title">Step 1 of 2: The Aggressor</h2>' in page
    assert f'<label for="id_roll_aggressor_{barbs.pk}">Barb Brawlers: Aggressor (2d6)</label>' in page
    assert "On a tie, type the re-roll's dice after the first two" in page

    page = text(
        post(
            client,
            url,
            {
                "step": "aggressor",
                f"roll_aggressor_{barbs.pk}": "3, 4, 6, 6",
                f"roll_aggressor_{orcs.pk}": "5, 2, 1, 1",
            },
        )
    )

    assert "Aggressor roll: Barb Brawlers 7, Orc Maulers 7." in page
    assert "Re-roll of the tie: Barb Brawlers 12, Orc Maulers 2." in page
    assert "Barb Brawlers is the Aggressor" in page
    assert f'<label for="id_roll_terrain_{orcs.pk}">Orc Maulers: Terrain (2d6)</label>' in page

    page = text(
        post(client, url, {"step": "terrain", f"roll_terrain_{barbs.pk}": "6, 6", f"roll_terrain_{orcs.pk}": "1, 1"})
    )

    assert "Barb Brawlers rolls 6 + 6. Terrain roll 12: 12 terrain pieces; no Death trap; at most two Delay" in page
    assert "Orc Maulers rolls 1 + 1. Terrain roll 2: 2 terrain pieces" in page
    assert 'id="complete"' in page

    report = text(client.get(report_url(match)))
    section = element(report, "prematch-section")
    assert "Barb Brawlers" in element(section, "aggressor")
    terrain = plain(element(section, "terrain"))
    assert "Barb Brawlers Terrain roll 12: 12 terrain pieces" in terrain
    assert "Orc Maulers Terrain roll 2: 2 terrain pieces" in terrain
    assert "Inducement" not in section
