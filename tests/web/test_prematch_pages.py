"""The pre-match pages through Django's test client: walking the pre-match sequence with the dice rolled at the
table (Blitz Bowl weather and fans, Bone Cruncher Aggressor and terrain), a team's inducement shopping (budget,
list, Star Players, Mercenaries, the countdown, giving back, the turn), and what the match report shows of it —
who may use each page, what it stores, and that a refusal changes nothing."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches import services
from matches.models import Inducement, Match, Prematch, Roll
from matches.prematch import inducement_add, prematch_post
from teams.models import LedgerEntry, Team
from teams.selectors import team_treasury
from tests.factories import LeagueFactory, TeamFactory, UserFactory, hire
from tests.matches.conftest import full_team
from tests.web.pages import HTMX, element, plain, report_url, text

pytestmark = pytest.mark.django_db


# --- helpers ------------------------------------------------------------------------------------


def prematch_url(match: Match) -> str:
    return reverse("match-prematch", args=[match.pk])


def shop_url(match: Match, team: Team) -> str:
    return reverse("match-inducements", args=[match.pk, team.pk])


def data_value(page: str, element_id: str) -> int:
    found = re.search(rf'id="{element_id}" data-value="(-?\d+)"', page)
    assert found, f"#{element_id} with a data-value is not on the page"
    return int(found.group(1))


def log_lines(match: Match) -> list[str]:
    return [line for entry in Prematch.objects.get(match=match).log for line in entry["lines"]]


def record(match: Match) -> dict:
    """What a refused POST must leave alone."""
    prematch = Prematch.objects.filter(match=match).first()
    return {
        "step": prematch and (prematch.step_index, prematch.complete, prematch.log),
        "rolls": Roll.objects.filter(match=match).count(),
        "inducements": sorted(Inducement.objects.filter(match=match).values_list("id", "item", "quantity", "price")),
        "ledger": LedgerEntry.objects.count(),
    }


def post(client, url, data, *, htmx=False):
    return client.post(url, data, headers=HTMX if htmx else {}, follow=not htmx)


# --- fixtures -----------------------------------------------------------------------------------


def run_weather_and_fans(match: Match, humes: Team, goblins: Team) -> None:
    """Weather 3 + 4; fans Humes 5 + 6, Goblins 2 + 1 — through the service."""
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    prematch_post(
        user=humes.coach,
        match_id=match.pk,
        step="fans",
        rolls={"fans": {str(humes.pk): [5, 6], str(goblins.pk): [2, 1]}},
    )


@pytest.fixture
def superior_turn(match, humes, goblins):
    run_weather_and_fans(match, humes, goblins)
    return match


@pytest.fixture
def underdog_turn(superior_turn, humes):
    """The Humes closed their shopping without buying: the Goblins' turn."""
    prematch_post(user=humes.coach, match_id=superior_turn.pk, step="inducements_superior", choices={"done": True})
    return superior_turn


def induced(match: Match, team: Team) -> int:
    return Prematch.objects.get(match=match).induced[str(team.pk)]


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

    page = text(post(client, prematch_url(match), {"step": "weather", **data}))

    row = re.search(rf'<tr class="invalid"><th scope="row"><label for="id_{field}">.*?</tr>', page, flags=re.S)
    assert row and message in row.group(0)
    assert record(match) == before


def test_a_bad_team_roll_is_shown_next_to_that_teams_dice(client, match, humes, goblins):
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    client.force_login(humes.coach)
    before = record(match)

    page = text(
        post(
            client,
            prematch_url(match),
            {"step": "fans", f"roll_fans_{humes.pk}": "3, 4", f"roll_fans_{goblins.pk}": "5"},
        )
    )

    row = re.search(rf'<tr class="invalid"><th scope="row"><label for="id_roll_fans_{goblins.pk}">.*?</tr>', page, re.S)
    assert row and f"{goblins.name}: Fans: this roll takes 2 dice (2d6) — enter 2 dice, e.g. 3, 4" in row.group(0)
    assert record(match) == before


def test_a_step_already_run_is_refused_and_changes_nothing(client, match, humes):
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    client.force_login(humes.coach)
    before = record(match)

    page = text(post(client, prematch_url(match), {"step": "weather", "roll_weather": "6, 6"}))

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

    page = text(post(client, prematch_url(match), {"step": "weather", "roll_weather": "3, 4"}, htmx=True))

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


# --- the match report ---------------------------------------------------------------------------


def test_match_report_shows_weather_gate_fame_team_values_and_inducements(client, underdog_turn, humes, goblins):
    match = underdog_turn
    inducement_add(user=goblins.coach, match_id=match.pk, team_id=goblins.pk, item="keg", quantity=2)
    inducement_add(user=goblins.coach, match_id=match.pk, team_id=goblins.pk, item="mercenary", position="goblin")
    prematch = Prematch.objects.get(match=match)

    page = text(client.get(report_url(match)))

    section = element(page, "prematch-section")
    assert "at Inducements: the underdog" in element(section, "prematch-progress")
    assert element(section, "weather").endswith(">Perfect Conditions</dd>")
    gate = sum(prematch.fans.values())
    assert data_value(section, "gate") == gate and f"{gate:,} fans" in section
    humes_row = plain(element(section, f"prematch-team-{humes.pk}"))
    goblins_row = plain(element(section, f"prematch-team-{goblins.pk}"))
    tv_h, tv_g = prematch.team_values[str(humes.pk)], prematch.team_values[str(goblins.pk)]
    fame_h, fame_g = prematch.fame[str(humes.pk)], prematch.fame[str(goblins.pk)]
    assert humes_row.startswith(
        f"Alice's Humes (shops first) {prematch.fans[str(humes.pk)]:,} {fame_h} {tv_h:,} gil 0 gil"
    )
    assert goblins_row.startswith(f"Bob's Goblins (underdog) {prematch.fans[str(goblins.pk)]:,} {fame_g} {tv_g:,} gil")
    assert "11,000 gil" in goblins_row
    assert "2 × Blitzweiser Keg (10,000 gil)" in goblins_row and "Mercenary Goblin (7,000 gil)" in goblins_row
    assert "17,000 gil in all" in goblins_row
    assert 'id="prematch-link"' not in page  # anonymous
    client.force_login(humes.coach)
    assert 'id="prematch-link" href="' + prematch_url(match) + '">Walk the pre-match sequence' in text(
        client.get(report_url(match))
    )


def test_a_star_induced_by_both_teams_plays_for_neither_on_the_report(client, league, commissioner):
    """R: a Star Player both teams induce plays for neither and keeps both fees."""
    orcs = full_team(league, UserFactory(username="carol"), "Carol's Orcs", roster="orc", position="lineman")
    gobs = full_team(league, UserFactory(username="dave"), "Dave's Goblins", roster="goblin", position="goblin")
    match = services.match_schedule(user=commissioner, league=league, team_ids=[orcs.pk, gobs.pk])
    prematch_post(user=commissioner, match_id=match.pk, step="weather")
    prematch_post(user=commissioner, match_id=match.pk, step="fans")
    prematch = Prematch.objects.get(match=match)
    first, second = prematch.superior_id, prematch.underdog_id
    inducement_add(user=commissioner, match_id=match.pk, team_id=first, item="star_player", star="gizzik_quickfingers")
    prematch_post(user=commissioner, match_id=match.pk, step="inducements_superior", choices={"done": True})
    client.force_login(commissioner)

    page = text(client.get(shop_url(match, Team.objects.get(pk=second))))
    assert "induced by the other team" in element(page, "star-gizzik_quickfingers")
    post(
        client,
        shop_url(match, Team.objects.get(pk=second)),
        {"item": "star_player", "star": "gizzik_quickfingers", "quantity": "1"},
    )

    page = text(client.get(report_url(match)))
    for team_id in (first, second):
        row = plain(element(page, f"prematch-team-{team_id}"))
        assert "Star Player Gizzik Quickfingers (10,000 gil) — plays for neither; both fees kept" in row
    assert "Induced by both teams, so playing for neither (he keeps both fees): Gizzik Quickfingers." in page


def test_match_report_of_a_scheduled_match_links_the_prematch_page_to_its_coaches_and_the_commissioner(
    client, match, commissioner, stranger
):
    page = text(client.get(report_url(match)))
    assert "Pre-match sequence" in page and "not started" in element(page, "prematch-progress")
    assert 'id="prematch-link"' not in page
    for viewer in (match.created_by, commissioner):
        client.force_login(viewer)
        assert 'id="prematch-link"' in text(client.get(report_url(match)))
    client.force_login(stranger)
    assert 'id="prematch-link"' not in text(client.get(report_url(match)))


def test_after_the_result_the_report_keeps_the_prematch_without_the_link(client, underdog_turn, humes, goblins):
    match = underdog_turn
    prematch_post(user=goblins.coach, match_id=match.pk, step="inducements_underdog", choices={"done": True})
    body = {"teams": [{"team": humes.pk, "score": 1}, {"team": goblins.pk, "score": 0}], "players": []}
    h1 = humes.players.get(number=1)
    body["players"] = [{"player": h1.pk, "touchdowns": 1}]
    services.match_submit_result(user=humes.coach, match_id=match.pk, body=body)
    client.force_login(humes.coach)

    page = text(client.get(report_url(match)))

    assert "complete" in element(page, "prematch-progress")
    assert element(page, "weather").endswith(">Perfect Conditions</dd>")
    assert 'id="prematch-link"' not in page
    closed = text(client.get(prematch_url(match)))
    assert 'id="complete"' in closed


@pytest.mark.parametrize("viewer", ["anonymous", "commissioner"])
def test_match_report_queries_do_not_grow_with_the_prematch_and_inducements(
    client, league, humes, goblins, commissioner, viewer
):
    plain_match = services.match_schedule(user=commissioner, league=league, team_ids=[humes.pk, goblins.pk])
    shopped = services.match_schedule(user=commissioner, league=league, team_ids=[goblins.pk, humes.pk])
    run_weather_and_fans(shopped, goblins, humes)
    prematch_post(user=humes.coach, match_id=shopped.pk, step="inducements_superior", choices={"done": True})
    for item, extra in (
        ("keg", {}),
        ("bribe", {"quantity": 2}),
        ("mercenary", {"position": "goblin", "skill": "Catch"}),
    ):
        inducement_add(user=goblins.coach, match_id=shopped.pk, team_id=goblins.pk, item=item, **extra)
    inducement_add(
        user=goblins.coach, match_id=shopped.pk, team_id=goblins.pk, item="star_player", star="ragnash_the_hungry"
    )
    assert Inducement.objects.filter(match=shopped).count() == 4
    if viewer == "commissioner":
        client.force_login(commissioner)

    counts = []
    for m in (plain_match, shopped):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(report_url(m)).status_code == 200
        counts.append(len(captured))

    assert counts[0] == counts[1], f"{counts[0]} queries without a pre-match sequence, {counts[1]} with inducements"


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
