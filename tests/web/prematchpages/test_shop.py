"""The inducement page (rules/blitzbowl.md "Inducements"): the budget, the list, Star Players and Mercenaries,
buying and giving back in the team's turn, refusals beside the item, and who may shop."""

from __future__ import annotations

import re

import pytest

from matches import services
from matches.models import Inducement, Prematch
from matches.prematch import inducement_add, prematch_post
from teams.selectors import team_treasury
from tests.factories import TeamFactory, UserFactory
from tests.matches.conftest import full_team
from tests.web.pages import element, plain, text
from tests.web.prematchpages.helpers import (
    data_value,
    induced,
    post,
    prematch_url,
    record,
    shop_url,
)

pytestmark = pytest.mark.django_db


# --- the inducement page ------------------------------------------------------------------------


def test_inducement_page_shows_the_budget_list_stars_mercenaries_and_the_countdown(client, underdog_turn, goblins):
    client.force_login(goblins.coach)

    response = client.get(shop_url(underdog_turn, goblins))

    assert response.status_code == 200
    page = text(response)
    assert "<h1>Inducements: Bob's Goblins" in page
    assert data_value(page, "induced") == induced(underdog_turn, goblins) == 11_000
    assert data_value(page, "spent") == 0
    assert data_value(page, "remaining") == 11_000
    assert data_value(page, "treasury") == team_treasury(team=goblins) == 56_000
    assert data_value(page, "from-treasury") == 0
    assert data_value(page, "spendable") == 67_000
    # The four-minute countdown: a local script, not enforced by the server.
    assert re.search(r'<strong id="countdown"[^>]*>4:00</strong>', page)
    assert 'data-seconds="240"' in page and "/static/js/countdown.js" in page
    assert "the server does not enforce it" in page
    # The list with limits and prices: the Goblin roster's Bribes at 5,000; a Wandering White Mage allowed.
    items = plain(element(page, "items"))
    assert "Blitzweiser Kegs 0–2 0 5,000 gil" in items
    assert "Bribes 0–3 0 5,000 gil (roster price)" in items
    assert "Qu Master Chef 0–1 0 30,000 gil" in items
    assert "Wandering White Mages 0–2 0 10,000 gil" in items
    assert "Black Mage 0–1 0 15,000 gil" in items
    # Star Players who play for Goblin teams only.
    stars = plain(element(page, "stars"))
    assert "Gizzik Quickfingers 10,000 gil" in stars and "Ragnash the Hungry 25,000 gil" in stars
    assert "Rolf Stormhand" not in stars
    # Mercenaries: a position of the roster at its cost + 3,000; an extra skill + 5,000.
    assert '<option value="goblin">Goblin — 7,000 gil</option>' in page
    assert '<option value="troll">Troll — 14,000 gil</option>' in page
    assert "Extra skill (optional, + 5,000 gil)" in page
    # A mercenary's extra skill: one of his position's Normal access he does not have.
    goblin_skills = re.search(r'<optgroup label="Goblin \(Agility\)">(.*?)</optgroup>', page, flags=re.S).group(1)
    assert '<option value="Catch">' in goblin_skills and '<option value="Dodge">' not in goblin_skills
    assert '<option value="Block">' not in goblin_skills
    assert '<optgroup label="Troll (Strength)">' in page
    assert 'name="step" value="inducements_underdog"' in element(page, "done-form")
    assert ">Done shopping</button>" in page
    assert "It is not your turn to shop" not in page


def test_no_white_mage_for_a_roster_that_may_not_buy_one(client, league, commissioner, humes):
    undead = full_team(league, UserFactory(username="carol"), "Carol's Dead", roster="undead", position="zombie")
    match = services.match_schedule(user=commissioner, league=league, team_ids=[humes.pk, undead.pk])
    client.force_login(commissioner)

    page = text(client.get(shop_url(match, undead)))

    assert "Wandering White Mages" not in element(page, "items")
    assert "Count Lazarus" in element(page, "stars")


@pytest.mark.parametrize("via_htmx", [False, True], ids=["plain", "htmx"])
def test_buying_a_keg_and_a_mercenary_through_the_page(client, underdog_turn, goblins, via_htmx):
    match, url = underdog_turn, shop_url(underdog_turn, goblins)
    client.force_login(goblins.coach)

    response = post(client, url, {"item": "keg", "quantity": "1"}, htmx=via_htmx)

    assert response.status_code == 200
    page = text(response)
    assert "Bought: Blitzweiser Keg for 5,000 gil." in page
    response = post(
        client, url, {"item": "mercenary", "position": "goblin", "skill": "Catch", "quantity": "1"}, htmx=via_htmx
    )

    page = text(response)
    assert "Bought: Mercenary Goblin with Catch for 12,000 gil." in page
    bought = plain(element(page, "bought"))
    assert "Blitzweiser Keg 5,000 gil" in bought and "Mercenary Goblin with Catch 12,000 gil" in bought
    assert page.count(">Give back</button>") == 2
    # 17,000 spent: the 11,000 of inducement gil first, 6,000 from the treasury when the shopping closes.
    assert data_value(page, "spent") == 17_000
    assert data_value(page, "remaining") == 0
    assert data_value(page, "from-treasury") == 6_000
    assert "Blitzweiser Kegs 0–2 1 5,000 gil" in plain(element(page, "items"))
    rows = sorted(Inducement.objects.filter(match=match).values_list("team", "item", "position__key", "skill", "price"))
    assert rows == [(goblins.pk, "keg", None, "", 5000), (goblins.pk, "mercenary", "goblin", "Catch", 12000)]
    assert team_treasury(team=goblins) == 56_000  # charged when the turn closes


def test_an_over_limit_purchase_is_refused_next_to_the_item_and_buys_nothing(client, underdog_turn, goblins):
    client.force_login(goblins.coach)
    before = record(underdog_turn)

    response = client.post(shop_url(underdog_turn, goblins), {"item": "keg", "quantity": "3"})

    assert response.status_code == 400
    page = text(response)
    row = element(page, "item-keg")
    assert 'class="invalid"' in row
    assert "A team may induce at most 2 Blitzweiser Kegs; it has 0 and cannot add 3." in row
    assert "Nothing was bought." in element(page, "shop-errors")
    assert record(underdog_turn) == before


def test_a_mercenary_over_the_position_limit_is_refused_next_to_the_position(client, underdog_turn, goblins):
    client.force_login(goblins.coach)
    before = record(underdog_turn)

    response = client.post(
        shop_url(underdog_turn, goblins), {"item": "mercenary", "position": "troll", "quantity": "3"}
    )

    assert response.status_code == 400
    form = element(text(response), "mercenary-form")
    assert re.search(r'<div class="field invalid">\s*<label for="id_position">', form)
    assert "The roster allows at most 2 Troll player(s)" in form
    assert '<option value="troll" selected>' in form
    assert record(underdog_turn) == before


def test_a_mercenary_skill_outside_his_normal_access_is_refused_next_to_the_skill(client, underdog_turn, goblins):
    client.force_login(goblins.coach)
    data = {"item": "mercenary", "position": "goblin", "skill": "Block", "quantity": "1"}

    response = client.post(shop_url(underdog_turn, goblins), data)

    assert response.status_code == 400
    form = element(text(response), "mercenary-form")
    assert re.search(r'<div class="field invalid">\s*<label for="id_skill">', form)
    assert "A mercenary Goblin may take a skill of his Normal access (agility skills), not Block." in form
    assert not Inducement.objects.exists()


def test_a_mercenary_needs_a_position(client, underdog_turn, goblins):
    client.force_login(goblins.coach)

    response = client.post(shop_url(underdog_turn, goblins), {"item": "mercenary", "position": "", "quantity": "1"})

    assert response.status_code == 400
    assert "Choose the position of the mercenary." in element(text(response), "mercenary-form")
    assert not Inducement.objects.exists()


def test_giving_back_an_inducement(client, underdog_turn, goblins):
    keg = inducement_add(user=goblins.coach, match_id=underdog_turn.pk, team_id=goblins.pk, item="keg", quantity=2)
    client.force_login(goblins.coach)

    page = text(post(client, shop_url(underdog_turn, goblins), {"remove": str(keg.pk)}))

    assert "Given back: 2 × Blitzweiser Keg." in page
    assert not Inducement.objects.filter(pk=keg.pk).exists()
    assert data_value(page, "spent") == 0


def test_a_star_player_is_induced_once(client, underdog_turn, goblins):
    client.force_login(goblins.coach)
    url = shop_url(underdog_turn, goblins)

    page = text(post(client, url, {"item": "star_player", "star": "gizzik_quickfingers", "quantity": "1"}))

    assert "Bought: Star Player Gizzik Quickfingers for 10,000 gil." in page
    assert "Star Player Gizzik Quickfingers 10,000 gil" in plain(element(page, "bought"))
    assert "<td>induced<" in element(page, "star-gizzik_quickfingers")
    response = client.post(url, {"item": "star_player", "star": "gizzik_quickfingers", "quantity": "1"})
    assert response.status_code == 400
    assert "Gizzik Quickfingers is already induced for this match." in element(
        text(response), "star-gizzik_quickfingers"
    )


def test_outside_its_turn_the_page_is_read_only_and_a_post_is_a_conflict(client, match, superior_turn, humes, goblins):
    # The Goblins while the Humes shop.
    client.force_login(goblins.coach)
    page = text(client.get(shop_url(match, goblins)))
    assert "It is not your turn to shop: Alice's Humes shops first." in page
    assert 'id="countdown"' not in page and ">Buy</button>" not in page and ">Done shopping</button>" not in page
    before = record(match)

    response = client.post(shop_url(match, goblins), {"item": "keg", "quantity": "1"})

    assert response.status_code == 409
    page = text(response)
    assert "It is not your turn to shop: nothing was changed." in element(page, "shop-errors")
    assert "It is not your turn to shop: Alice's Humes shops first." in element(page, "not-your-turn")
    assert record(match) == before

    # The Humes after closing their turn.
    prematch_post(user=humes.coach, match_id=match.pk, step="inducements_superior", choices={"done": True})
    client.force_login(humes.coach)
    page = text(client.get(shop_url(match, humes)))
    assert "It is not your turn to shop: its shopping turn is over; Bob's Goblins is shopping now." in page
    assert client.post(shop_url(match, humes), {"item": "keg", "quantity": "1"}).status_code == 409
    assert not Inducement.objects.exists()


def test_before_the_fans_step_shopping_is_not_open(client, match, goblins):
    client.force_login(goblins.coach)

    page = text(client.get(shop_url(match, goblins)))

    assert "It is not your turn to shop: the pre-match sequence is at Weather; shopping opens after it." in page
    assert "known once the fans step has run" in page
    assert client.post(shop_url(match, goblins), {"item": "keg", "quantity": "1"}).status_code == 409


def test_the_other_coach_sees_the_shopping_read_only_and_may_not_buy(client, underdog_turn, humes, goblins):
    client.force_login(humes.coach)
    url = shop_url(underdog_turn, goblins)

    page = text(client.get(url))

    assert "Bob's Goblins is shopping: only its coach or the commissioner buys for it." in page
    assert ">Buy</button>" not in page and 'id="countdown"' not in page
    response = client.post(url, {"item": "keg", "quantity": "1"})
    assert response.status_code == 403
    assert "Only this team's coach or the commissioner can shop for its inducements." in text(response)
    assert not Inducement.objects.exists()


def test_the_commissioner_shops_for_a_team(client, underdog_turn, goblins, commissioner):
    client.force_login(commissioner)

    page = text(post(client, shop_url(underdog_turn, goblins), {"item": "bribe", "quantity": "2"}))

    assert "Bought: 2 × Bribe for 10,000 gil." in page


def test_inducement_page_refuses_strangers_and_knows_only_the_matchs_teams(client, league, match, goblins, stranger):
    url = shop_url(match, goblins)
    assert client.get(url).status_code == 302
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert client.post(url, {"item": "keg", "quantity": "1"}).status_code == 403
    outsider = TeamFactory(league=league, roster="orc")
    client.force_login(league.created_by)
    assert client.get(shop_url(match, outsider)).status_code == 404


def test_done_shopping_charges_the_treasury_and_completes_the_sequence(client, underdog_turn, goblins):
    match = underdog_turn
    for item, extra in (("keg", {}), ("mercenary", {"position": "goblin"})):
        inducement_add(user=goblins.coach, match_id=match.pk, team_id=goblins.pk, item=item, **extra)
    client.force_login(goblins.coach)

    page = text(post(client, prematch_url(match), {"step": "inducements_underdog", "done": "True"}))

    assert 'id="complete">The pre-match sequence is complete.' in page
    assert "1,000 gil of it comes from the treasury." in page  # 5,000 + 7,000 − 11,000
    assert team_treasury(team=goblins) == 55_000
    assert Prematch.objects.get(match=match).complete
