"""The web pages for people, through Django's test client: what each page shows, the forms that change a
team (plain posts and htmx), and who may use them."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league import services as league_services
from league.models import League, Membership
from teams.models import LedgerEntry, Player, Position, Team
from teams.selectors import team_treasury
from teams.services import team_fire_player, team_purchase
from tests.factories import PASSWORD, LeagueFactory, TeamFactory, UserFactory, hire

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
ON_POSTGRESQL = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
STARTING_TREASURY = 100_000


# --- helpers ------------------------------------------------------------------------------------


def text(response) -> str:
    return response.content.decode()


def row_of(page: str, needle: str) -> str:
    """The table row (<tr>…</tr>) of `page` that contains `needle`."""
    rows = [row for row in re.findall(r"<tr\b.*?</tr>", page, flags=re.S) if needle in row]
    assert len(rows) == 1, f"expected one row with {needle!r}, found {len(rows)}"
    return rows[0]


def roster_table(page: str) -> str:
    """The team sheet's roster table (not the ledger below it)."""
    match = re.search(r'<table class="grid" id="roster">.*?</table>', page, flags=re.S)
    assert match, "the roster table is not on the page"
    return match.group(0)


def cells(row: str) -> list[str]:
    """The cells of a table row as plain text."""
    found = re.findall(r"<t[dh]\b[^>]*>(.*?)</t[dh]>", row, flags=re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", cell)).split()) for cell in found]


def player_row(page: str, name: str) -> list[str]:
    """A player's cells on the team sheet, the attributes cell as "KEY value" pairs sorted by key: the order
    is checked on its own (test_team_sheet_lists_attributes_in_rulebook_order)."""
    row = cells(row_of(roster_table(page), name))
    pairs = re.findall(r"([A-Z]+) (\d+)", row[3])
    row[3] = " ".join(f"{key} {value}" for key, value in sorted(pairs))
    return row


def data_value(page: str, element_id: str) -> int:
    match = re.search(rf'id="{element_id}" data-value="(-?\d+)"', page)
    assert match, f"#{element_id} with a data-value is not on the page"
    return int(match.group(1))


def on_roster(team: Team) -> list[Player]:
    return list(Player.objects.filter(team=team, left_at__isnull=True).order_by("id"))


def snapshot(team: Team) -> dict:
    """What a write could change on a team: money, players (and their status), purchases."""
    team.refresh_from_db()
    return {
        "treasury": team_treasury(team=team),
        "ledger": LedgerEntry.objects.filter(team=team).count(),
        "players": sorted(Player.objects.filter(team=team).values_list("id", "status", "left_at")),
        "rerolls": team.rerolls,
        "fan_factor": team.fan_factor,
        "staff": dict(team.staff),
    }


def cost_of(team: Team, position: str) -> int:
    return Position.objects.get(roster=team.roster, key=position).cost


def hire_url(team: Team) -> str:
    return reverse("team-hire", args=[team.pk])


def buy_url(team: Team) -> str:
    return reverse("team-buy", args=[team.pk])


def fire_url(team: Team, player: Player) -> str:
    return reverse("team-fire", args=[team.pk, player.pk])


def sheet_url(team: Team) -> str:
    return reverse("team-detail", args=[team.pk])


def league_url(league: League) -> str:
    return reverse("league-detail", args=[league.pk])


# --- home ---------------------------------------------------------------------------------------


def test_home_lists_every_league_with_its_game_team_count_and_commissioner(client, league, team, other_team):
    LeagueFactory(name="Treetop Cup", ruleset="elfball", created_by=UserFactory(username="oakley"))

    response = client.get("/")

    assert response.status_code == 200
    page = text(response)
    assert cells(row_of(page, "Gil Cup")) == ["Gil Cup", "Blitz Bowl", "2", "commish"]
    assert cells(row_of(page, "Treetop Cup")) == ["Treetop Cup", "ElfBall", "0", "oakley"]
    assert f'href="{league_url(league)}"' in page


def test_home_says_so_when_there_are_no_leagues(client, db):
    assert "No leagues yet." in text(client.get("/"))


def test_home_offers_create_league_only_to_signed_in_users(client, coach):
    create = reverse("league-create")
    assert create not in text(client.get("/"))
    client.force_login(coach)
    assert create in text(client.get("/"))


# --- league page --------------------------------------------------------------------------------


def test_league_page_shows_each_team_with_roster_coach_players_tv_and_treasury(client, league, team, other_team):
    hire(team, "blitzer", name="Brick")
    hire(team, "lineman", name="Lenny")

    response = client.get(league_url(league))

    assert response.status_code == 200
    page = text(response)
    assert "Team value" in page and "Treasury" in page
    # Team, roster, coach, players, TV, treasury.
    assert cells(row_of(page, "Alice&#x27;s Humes")) == ["Alice's Humes", "Hume", "alice", "2", "14,000", "86,000"]
    assert cells(row_of(page, "Bob&#x27;s Goblins")) == ["Bob's Goblins", "Goblin", "bob", "0", "0", "100,000"]
    assert f'href="{sheet_url(team)}"' in page


def test_league_page_without_teams_says_so(client, league):
    assert "No teams yet." in text(client.get(league_url(league)))


def test_league_page_counts_only_players_still_on_the_roster(client, league, team):
    kept = hire(team, "lineman", name="Kept")
    fired = hire(team, "lineman", name="Fired")
    team_fire_player(team_id=team.pk, player_id=fired.pk, user=team.coach)
    assert on_roster(team) == [kept]

    page = text(client.get(league_url(league)))

    assert cells(row_of(page, "Alice&#x27;s Humes"))[3] == "1"


def test_league_page_offers_join_to_signed_in_visitors_and_create_team_to_coaches(client, league, coach, stranger):
    join, create = reverse("league-join", args=[league.pk]), reverse("team-create", args=[league.pk])
    anonymous = text(client.get(league_url(league)))
    assert join not in anonymous and create not in anonymous

    client.force_login(stranger)
    page = text(client.get(league_url(league)))
    assert join in page and "Join as a coach" in page and create not in page

    Membership.objects.create(league=league, user=coach, role=Membership.Role.COACH)
    client.force_login(coach)
    page = text(client.get(league_url(league)))
    assert create in page and join not in page


# --- team sheet ---------------------------------------------------------------------------------


def test_team_sheet_shows_roster_with_attributes_skills_value_and_the_treasury_and_tv(client, team):
    hire(team, "catcher", name="Hugo Hands", number=7)
    hire(team, "ogre", name="Grub", number=99)
    spent = cost_of(team, "catcher") + cost_of(team, "ogre")

    response = client.get(sheet_url(team))

    assert response.status_code == 200
    page = text(response)
    assert "<h1>Alice&#x27;s Humes" in page and "Gil Cup" in page
    catcher = player_row(page, "Hugo Hands")
    assert catcher[:5] == ["7", "Hugo Hands", "Catcher", "AG 3 AV 7 MA 8 ST 2", "Catch, Dodge"]
    assert "7,000" in catcher and "Active" in catcher
    ogre = player_row(page, "Grub")
    assert ogre[:4] == ["99", "Grub", "Ogre", "AG 2 AV 9 MA 5 ST 5"]
    assert ogre[4] == "Loner, Bone-Head, Mighty Blow, Thick Skull, Throw Team-Mate"
    assert "14,000" in ogre
    assert data_value(page, "treasury") == STARTING_TREASURY - spent
    assert "79,000 gil" in page
    assert data_value(page, "team-value") == spent
    assert "21,000 gil" in page
    # The ledger shows the opening treasury and both hires, newest first.
    assert page.index("Hired Grub (Ogre)") < page.index("Hired Hugo Hands (Catcher)") < page.index("Starting treasury")


@pytest.mark.parametrize(
    ("ruleset", "roster", "position", "shown"),
    [
        ("blitzbowl", "hume", "catcher", "MA 8 ST 2 AG 3 AV 7"),
        ("elfball", "black_widows", "striker", "JOG 5 MIGHT 3 TACKLE 2 DODGE 4 SKILL 4 GRIT 2 BASE 25"),
    ],
)
def test_team_sheet_lists_attributes_in_rulebook_order(client, coach, ruleset, roster, position, shown):
    team = TeamFactory(league=LeagueFactory(ruleset=ruleset), coach=coach, roster=roster)
    hire(team, position, name="Ordered")

    page = text(client.get(sheet_url(team)))

    assert cells(row_of(roster_table(page), "Ordered"))[3] == shown


def test_team_sheet_of_a_new_team_has_no_players_full_treasury_and_no_value(client, team):
    page = text(client.get(sheet_url(team)))

    assert "No players yet." in page
    assert data_value(page, "treasury") == STARTING_TREASURY
    assert data_value(page, "team-value") == 0


def test_team_sheet_of_an_unknown_team_is_not_found(client, db):
    assert client.get("/teams/987654/").status_code == 404


@pytest.mark.parametrize("viewer", ["anonymous", "other_coach", "commissioner"])
def test_team_sheet_shows_hire_fire_and_buy_forms_only_to_its_coach(client, team, request, viewer):
    hire(team, "lineman", name="Lenny")
    if viewer != "anonymous":
        client.force_login(request.getfixturevalue(viewer))
    page = text(client.get(sheet_url(team)))
    assert "Lenny" in page
    assert 'id="hire-form"' not in page and 'id="buy-form"' not in page and "/fire/" not in page

    client.force_login(team.coach)
    page = text(client.get(sheet_url(team)))
    assert 'id="hire-form"' in page and 'id="buy-form"' in page and "/fire/" in page


# --- sign up and log in -------------------------------------------------------------------------


def test_sign_up_creates_the_user_and_logs_them_in(client, db):
    response = client.post(
        "/signup/",
        {"username": "newbie", "email": "newbie@example.com", "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )

    user = get_user_model().objects.get(username="newbie")
    assert user.email == "newbie@example.com" and user.check_password(PASSWORD)
    assert response.redirect_chain == [(reverse("home"), 302)]
    assert response.context["user"] == user
    assert "Welcome to Dugout, newbie!" in text(response)
    assert int(client.session["_auth_user_id"]) == user.pk


def test_sign_up_with_mismatched_passwords_creates_nobody(client, db):
    response = client.post("/signup/", {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD + "x"})

    assert response.status_code == 400
    assert "didn’t match" in html.unescape(text(response))
    assert not get_user_model().objects.filter(username="newbie").exists()
    assert "_auth_user_id" not in client.session


def test_sign_up_is_refused_when_registration_is_closed(client, db, settings):
    settings.OPEN_REGISTRATION = False

    client.post("/signup/", {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD})

    assert not get_user_model().objects.filter(username="newbie").exists()


def test_log_in_with_username_and_password(client, coach):
    response = client.post("/login/", {"username": "alice", "password": PASSWORD}, follow=True)

    assert response.redirect_chain == [(reverse("home"), 302)]
    assert response.context["user"] == coach
    assert "Log out" in text(response)


def test_log_in_with_a_wrong_password_is_refused(client, coach):
    response = client.post("/login/", {"username": "alice", "password": "not-it"})

    assert response.status_code == 400
    assert "Please enter a correct username and password" in text(response)
    assert "_auth_user_id" not in client.session


# --- leagues and teams --------------------------------------------------------------------------


def test_create_league_makes_the_user_commissioner_and_redirects_to_the_league(client, coach):
    client.force_login(coach)

    response = client.post(reverse("league-create"), {"name": "Moot Bowl", "ruleset": "blitzbowl"}, follow=True)

    league = League.objects.get(name="Moot Bowl")
    assert league.ruleset == "blitzbowl" and league.created_by == coach
    assert Membership.objects.filter(league=league, user=coach, role=Membership.Role.COMMISSIONER).exists()
    assert response.redirect_chain == [(league_url(league), 302)]
    assert "Moot Bowl is open. You are its commissioner." in text(response)


def test_create_league_with_an_incomplete_form_is_answered_400_and_opens_nothing(client, coach):
    client.force_login(coach)

    response = client.post(reverse("league-create"), {"name": "", "ruleset": "blitzbowl"})

    assert response.status_code == 400  # the form again with its error in words
    assert "This field is required." in text(response)
    assert not League.objects.exists()


def test_create_league_asks_anonymous_visitors_to_log_in(client, db):
    response = client.post(reverse("league-create"), {"name": "Moot Bowl", "ruleset": "blitzbowl"})

    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not League.objects.exists()


def test_joining_as_coach_then_creating_a_team_opens_its_treasury(client, league, stranger):
    client.force_login(stranger)

    response = client.post(reverse("league-join", args=[league.pk]), follow=True)

    assert Membership.objects.filter(league=league, user=stranger, role=Membership.Role.COACH).exists()
    assert "You coach in Gil Cup now: create your team." in text(response)

    response = client.post(
        reverse("team-create", args=[league.pk]), {"name": "Stranger Things", "roster": "hume"}, follow=True
    )

    team = Team.objects.get(league=league, name="Stranger Things")
    assert team.coach == stranger and team.roster.key == "hume"
    assert response.redirect_chain == [(sheet_url(team), 302)]
    page = text(response)
    assert "Stranger Things is founded. Hire your first players." in page
    assert data_value(page, "treasury") == STARTING_TREASURY
    assert data_value(page, "team-value") == 0


def test_creating_a_team_before_joining_the_league_is_refused(client, league, stranger):
    client.force_login(stranger)

    response = client.post(
        reverse("team-create", args=[league.pk]), {"name": "Gatecrashers", "roster": "hume"}, follow=True
    )

    assert response.redirect_chain == [(league_url(league), 302)]
    assert "Join the league as a coach before creating a team." in text(response)
    assert not Team.objects.filter(name="Gatecrashers").exists()


def test_a_second_team_for_the_same_coach_is_refused_on_the_form(client, team):
    client.force_login(team.coach)

    response = client.post(reverse("team-create", args=[team.league_id]), {"name": "Spare Humes", "roster": "hume"})

    assert response.status_code == 400
    assert "This league allows one team per coach" in text(response)
    assert not Team.objects.filter(name="Spare Humes").exists()


def test_joining_an_invite_only_league_is_refused(client, league, stranger):
    league_services.league_update(user=league.created_by, league_id=league.pk, open_registration=False)
    client.force_login(stranger)

    response = client.post(reverse("league-join", args=[league.pk]), follow=True)

    assert "This league is invite-only" in text(response)
    assert not Membership.objects.filter(league=league, user=stranger).exists()


# --- hiring -------------------------------------------------------------------------------------


def test_hire_by_plain_post_redirects_to_the_sheet_with_the_new_player(client, team):
    client.force_login(team.coach)

    response = client.post(hire_url(team), {"position": "blitzer", "name": "Brick", "number": "4"})

    assert response.status_code == 302 and response.url == sheet_url(team)
    [player] = on_roster(team)
    assert (player.name, player.number, player.position.key, player.value) == ("Brick", 4, "blitzer", 9000)
    page = text(client.get(response.url))
    assert player_row(page, "Brick")[:5] == ["4", "Brick", "Blitzer", "AG 3 AV 8 MA 7 ST 3", "Block"]
    assert data_value(page, "treasury") == STARTING_TREASURY - 9000
    assert data_value(page, "team-value") == 9000


def test_hire_by_htmx_returns_the_sheet_fragment_with_the_new_player_and_treasury(client, team):
    client.force_login(team.coach)

    response = client.post(hire_url(team), {"position": "catcher", "name": "Hugo Hands"}, headers=HTMX)

    assert response.status_code == 200
    templates = [t.name for t in response.templates]
    assert templates[0] == "teams/_sheet.html" and "base.html" not in templates
    page = text(response)
    assert "<html" not in page and "<body" not in page  # a fragment for #sheet, not a page
    assert 'id="roster"' in page and 'id="hire-form"' in page
    assert "Hired Hugo Hands." in page
    assert player_row(page, "Hugo Hands")[1:5] == ["Hugo Hands", "Catcher", "AG 3 AV 7 MA 8 ST 2", "Catch, Dodge"]
    assert data_value(page, "treasury") == STARTING_TREASURY - 7000
    assert data_value(page, "team-value") == 7000
    assert [p.name for p in on_roster(team)] == ["Hugo Hands"]


@pytest.mark.parametrize("via_htmx", [False, True], ids=["plain", "htmx"])
def test_hire_over_a_position_limit_is_refused_with_the_reason_and_changes_nothing(client, team, via_htmx):
    hire(team, "ogre", name="Grub")
    before = snapshot(team)
    client.force_login(team.coach)

    response = client.post(
        hire_url(team),
        {"position": "ogre", "name": "Second Ogre"},
        headers=HTMX if via_htmx else {},
        follow=not via_htmx,
    )

    page = text(response)
    # By htmx, the sheet again with the reason, answered as refused (the sheet swaps it in by data-swap-refusals).
    assert response.status_code == (400 if via_htmx else 200)
    assert "The roster allows at most 1 Ogre player(s); the team already has them." in page
    assert "Second Ogre" not in roster_table(page)
    assert snapshot(team) == before
    assert data_value(page, "treasury") == before["treasury"]
    assert len(on_roster(team)) == 1


@pytest.mark.parametrize("via_htmx", [False, True], ids=["plain", "htmx"])
def test_hire_without_enough_gil_is_refused_with_the_reason_and_changes_nothing(client, commissioner, coach, via_htmx):
    league = LeagueFactory(created_by=commissioner, house_rules_overrides={"starting_treasury": 8000})
    team = TeamFactory(league=league, coach=coach, roster="hume")
    before = snapshot(team)
    assert before["treasury"] == 8000
    client.force_login(coach)

    response = client.post(
        hire_url(team), {"position": "blitzer", "name": "Pricey"}, headers=HTMX if via_htmx else {}, follow=not via_htmx
    )

    page = text(response)
    assert response.status_code == (400 if via_htmx else 200)
    assert "Not enough gil: a Blitzer costs 9,000 gil and the treasury holds 8,000 gil." in page
    assert snapshot(team) == before
    assert on_roster(team) == []
    assert data_value(page, "treasury") == 8000


def test_hire_with_an_incomplete_form_names_the_field_and_changes_nothing(client, team):
    before = snapshot(team)
    client.force_login(team.coach)

    response = client.post(hire_url(team), {"position": "wizard", "name": ""}, headers=HTMX)

    page = html.unescape(text(response))
    assert response.status_code == 400
    assert "position: Select a valid choice. wizard is not one of the available choices." in page
    assert "name: This field is required." in page
    assert snapshot(team) == before


def test_hire_with_a_shirt_number_already_taken_is_refused(client, team):
    hire(team, "lineman", name="First Seven", number=7)
    before = snapshot(team)
    client.force_login(team.coach)

    response = client.post(hire_url(team), {"position": "lineman", "name": "Second Seven", "number": "7"}, follow=True)

    assert "Shirt number 7 is already taken on this team." in text(response)
    assert snapshot(team) == before


# --- firing and buying --------------------------------------------------------------------------


@pytest.mark.parametrize("via_htmx", [False, True], ids=["plain", "htmx"])
def test_fire_takes_the_player_off_the_sheet_without_a_refund(client, team, via_htmx):
    keeper = hire(team, "lineman", name="Keeper")
    goner = hire(team, "blitzer", name="Goner")
    treasury = team_treasury(team=team)
    client.force_login(team.coach)

    response = client.post(fire_url(team, goner), headers=HTMX if via_htmx else {}, follow=not via_htmx)

    assert response.status_code == 200
    page = text(response)
    roster = roster_table(page)
    assert "Goner" not in roster and "Keeper" in roster
    goner.refresh_from_db()
    assert goner.status == Player.Status.RETIRED and goner.left_at is not None
    assert on_roster(team) == [keeper]
    assert team_treasury(team=team) == treasury  # no refund
    assert data_value(page, "treasury") == treasury
    assert data_value(page, "team-value") == cost_of(team, "lineman")


def test_buying_a_reroll_in_creation_costs_the_roster_price_and_adds_it_to_the_tv(client, team):
    price = team.roster.extra["reroll_cost"]
    client.force_login(team.coach)

    response = client.post(buy_url(team), {"item": "reroll", "quantity": "1"}, follow=True)

    page = text(response)
    team.refresh_from_db()
    assert team.rerolls == 1
    assert team_treasury(team=team) == STARTING_TREASURY - price
    assert data_value(page, "treasury") == STARTING_TREASURY - price
    assert data_value(page, "team-value") == price
    assert re.search(r"<dt>Re-rolls</dt><dd>1</dd>", page)


@pytest.mark.parametrize("kind", ["hire", "fire", "buy"])
def test_a_plain_post_that_succeeds_confirms_it_on_the_sheet(client, team, kind):
    player = hire(team, "blitzer", name="Brick")
    client.force_login(team.coach)
    url, data = _action(kind, team, player)
    notice = {"hire": "Hired Intruder.", "fire": "Brick is fired.", "buy": "Bought."}[kind]

    response = client.post(url, data, follow=True)

    assert response.redirect_chain == [(sheet_url(team), 302)]
    assert notice in text(response)


def test_buying_by_htmx_returns_the_updated_sheet_fragment(client, team):
    client.force_login(team.coach)

    response = client.post(buy_url(team), {"item": "fan_factor", "quantity": "2"}, headers=HTMX)

    page = text(response)
    assert "<html" not in page and "Bought." in page
    assert re.search(r"<dt>Fan Factor</dt><dd>2</dd>", page)
    assert data_value(page, "treasury") == STARTING_TREASURY - 2000
    assert data_value(page, "team-value") == 2000


def test_buying_past_the_reroll_limit_is_refused_and_changes_nothing(client, team):
    before = snapshot(team)
    client.force_login(team.coach)

    response = client.post(buy_url(team), {"item": "reroll", "quantity": "9"}, follow=True)

    assert "A team may have at most 8 team re-rolls; it has 0 and cannot add 9." in text(response)
    assert snapshot(team) == before


def test_bought_staff_is_labelled_in_words_on_the_sheet(client, team):
    team_purchase(team_id=team.pk, user=team.coach, item="assistant_coach", quantity=2)

    page = text(client.get(sheet_url(team)))

    assert "Assistantcoach" not in page
    assert re.search(r"<dt>Assistant coach</dt><dd>2</dd>", page, flags=re.I)


# --- who may change a team ----------------------------------------------------------------------


def _action(kind: str, team: Team, player: Player) -> tuple[str, dict]:
    return {
        "hire": (hire_url(team), {"position": "lineman", "name": "Intruder"}),
        "fire": (fire_url(team, player), {}),
        "buy": (buy_url(team), {"item": "reroll", "quantity": "1"}),
    }[kind]


@pytest.mark.parametrize("via_htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize("kind", ["hire", "fire", "buy"])
def test_another_coach_cannot_change_someone_elses_team(client, team, other_team, kind, via_htmx):
    player = hire(team, "blitzer", name="Brick")
    before = snapshot(team)
    client.force_login(other_team.coach)
    url, data = _action(kind, team, player)

    response = client.post(url, data, headers=HTMX if via_htmx else {})

    assert response.status_code == 403
    assert snapshot(team) == before


@pytest.mark.parametrize("kind", ["hire", "fire", "buy"])
def test_anonymous_visitors_are_sent_to_log_in_and_change_nothing(client, team, kind):
    player = hire(team, "blitzer", name="Brick")
    before = snapshot(team)
    url, data = _action(kind, team, player)

    response = client.post(url, data)

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={url}"
    assert snapshot(team) == before


def test_a_coach_cannot_fire_another_teams_player_through_his_own_team(client, team, other_team):
    victim = hire(other_team, "goblin", name="Sneaky")
    before = snapshot(other_team)
    client.force_login(team.coach)

    response = client.post(fire_url(team, victim), follow=True)

    assert "No such player on this team." in text(response)
    assert snapshot(other_team) == before


def test_team_write_urls_reached_by_get_show_the_sheet_and_change_nothing(client, team):
    """After logging in from an anonymous hire, `next` lands on the hire URL by GET: the sheet, not a 405."""
    client.force_login(team.coach)
    before = snapshot(team)
    for url in (hire_url(team), buy_url(team)):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"] == f"/teams/{team.pk}/"
    assert snapshot(team) == before


# --- the other rulesets -------------------------------------------------------------------------


def test_elfball_team_sheet_shows_its_points_value_against_the_150_point_budget(client, commissioner, coach):
    league = LeagueFactory(created_by=commissioner, name="Treetop Cup", ruleset="elfball")
    team = TeamFactory(league=league, coach=coach, name="Widowmakers", roster="black_widows")
    for i, position in enumerate(["hunter"] * 2 + ["midfielder"] * 4 + ["striker"] * 4):
        hire(team, position, name=f"Widow {i + 1}", number=i + 1)

    page = text(client.get(sheet_url(team)))

    assert data_value(page, "team-value") == 150
    assert "150 of 150 points" in page
    assert 'id="treasury"' not in page and "gil" not in page.split("<footer")[0].split("</h1>", 1)[1]
    row = player_row(page, "Widow 7")
    assert row[:4] == ["7", "Widow 7", "Striker", "BASE 25 DODGE 4 GRIT 2 JOG 5 MIGHT 3 SKILL 4 TACKLE 2"]
    assert "GP" in page and "SPP" not in page
    league_page = text(client.get(league_url(league)))
    assert cells(row_of(league_page, "Widowmakers")) == ["Widowmakers", "Black Widows", "alice", "10", "150"]
    assert "Treasury" not in league_page


def test_elfball_hire_past_the_points_budget_is_refused(client, commissioner, coach):
    league = LeagueFactory(created_by=commissioner, ruleset="elfball")
    team = TeamFactory(league=league, coach=coach, roster="night_elves")
    for i in range(8):
        hire(team, "imp", name=f"Imp {i + 1}")
    hire(team, "striker", name="Striker 1")
    hire(team, "striker", name="Striker 2")
    before = snapshot(team)
    client.force_login(coach)

    response = client.post(hire_url(team), {"position": "striker", "name": "One Too Many"}, headers=HTMX)

    page = text(response)
    assert "A Striker costs 15 points: the team is worth 150 of its 150-point budget." in page
    assert snapshot(team) == before
    assert data_value(page, "team-value") == 150


def test_bone_cruncher_team_sheet_shows_racial_traits_and_player_roles(client, commissioner, coach):
    league = LeagueFactory(created_by=commissioner, name="Crunch League", ruleset="bonecruncher")
    team = TeamFactory(league=league, coach=coach, name="Barbarian Brawlers", roster="humans_barbarians")
    client.force_login(coach)

    response = client.post(hire_url(team), {"position": "player", "name": "Conan", "role": "captain"}, headers=HTMX)
    assert "Hired Conan." in text(response)
    page = text(client.get(sheet_url(team)))

    assert "Racial traits" in page
    for trait in team.roster.extra["traits"]:
        assert html.escape(trait) in page
    # The Position column names his place in the squad; no Attributes, Skills or Value column (rulesets/
    # bonecruncher/sheet.py: his one attribute is the Move column, he has no skills and the game no values).
    assert cells(row_of(roster_table(page), "Conan")) == [
        "",
        "Conan",
        "Great Captain",
        "Humans & Barbarians",
        "—",
        "0 / 10",
        "0 / 2",
        "—",
        "0",
        "5",
        "Active",
        "Fire",
    ]
    assert 'name="role"' in page  # the hire form offers Captain / Goalie
    assert 'id="treasury"' not in page and 'id="team-value"' not in page
    league_page = text(client.get(league_url(league)))
    assert cells(row_of(league_page, "Barbarian Brawlers")) == [
        "Barbarian Brawlers",
        "Humans & Barbarians",
        "alice",
        "1",
    ]


def test_bone_cruncher_second_captain_is_refused(client, commissioner, coach):
    league = LeagueFactory(created_by=commissioner, ruleset="bonecruncher")
    team = TeamFactory(league=league, coach=coach, roster="humans_barbarians")
    captain = hire(team, "player", name="Conan", role="captain")
    before = snapshot(team)
    client.force_login(coach)

    response = client.post(hire_url(team), {"position": "player", "name": "Kull", "role": "captain"}, follow=True)

    assert f"The team already has a Great Captain (player #{captain.pk})." in text(response)
    assert "Kull" not in roster_table(text(response))
    assert snapshot(team) == before


# --- queries ------------------------------------------------------------------------------------


def _league_of(size: tuple[int, int]) -> tuple[League, Team]:
    """A Blitz Bowl league of `teams` Hume teams with `players` linemen each (and some purchases)."""
    n_teams, n_players = size
    league = LeagueFactory(name=f"League {n_teams}x{n_players}")
    teams = [TeamFactory(league=league, name=f"Team {i + 1}", roster="hume") for i in range(n_teams)]
    for team in teams:
        for n in range(n_players):
            hire(team, "lineman", name=f"Lineman {n + 1}", number=n + 1)
        team_purchase(team_id=team.pk, user=team.coach, item="cheerleader", quantity=1)
    team_fire_player(team_id=teams[0].pk, player_id=teams[0].players.first().pk, user=teams[0].coach)
    return league, teams[0]


def _queries(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return [q["sql"] for q in captured.captured_queries]


def _repeats(small: list[str], large: list[str]) -> str:
    """The queries the large league runs more often than the small one, for the failure message."""
    shape = lambda sql: re.sub(r"\b\d+\b", "N", sql)  # noqa: E731
    counts = {}
    for sql in large:
        counts[shape(sql)] = counts.get(shape(sql), 0) + 1
    for sql in small:
        counts[shape(sql)] = counts.get(shape(sql), 0) - 1
    return "\n".join(f"+{n}: {sql[:300]}" for sql, n in counts.items() if n > 0)


@pytest.mark.parametrize("viewer", ["anonymous", "coach"])
def test_league_page_and_team_sheet_queries_do_not_grow_with_the_league(client, db, viewer):
    counts = {}
    for size in [(2, 3), (8, 11)]:
        league, first_team = _league_of(size)
        client.logout()
        if viewer == "coach":
            client.force_login(first_team.coach)
        counts[size] = {
            "league": _queries(client, league_url(league)),
            "sheet": _queries(client, sheet_url(first_team)),
        }
        page = text(client.get(league_url(league)))
        # Every team listed; a coach also has his own team linked above the list ("Your team: …").
        assert page.count('href="/teams/') == size[0] + (viewer == "coach")

    small, large = counts[(2, 3)], counts[(8, 11)]
    for page in ("league", "sheet"):
        assert len(large[page]) == len(small[page]), (
            f"the {page} page ran {len(small[page])} queries for 2 teams x 3 players and {len(large[page])} for "
            f"8 x 11; repeated:\n{_repeats(small[page], large[page])}"
        )


def test_bone_cruncher_sheet_shows_each_players_race_and_wounds_out_of_his_template(client, commissioner, coach):
    """R: basic wounds are 10 boxes for everyone; advanced ones the race's template (an Elite Elf keeps the Elves')."""
    league = LeagueFactory(created_by=commissioner, ruleset="bonecruncher")
    team = TeamFactory(league=league, coach=coach, roster="halflings")
    hire(team, "player", name="Pip")
    hire(team, "elite_elf", name="Legolas")
    page = text(client.get(sheet_url(team)))
    assert "Halflings" in page and "Elves" in page
    assert "0 / 10" in page
    advanced = LeagueFactory(
        created_by=commissioner, ruleset="bonecruncher", house_rules_overrides={"advanced_wounds": True}
    )
    team = TeamFactory(league=advanced, coach=coach, roster="halflings")
    hire(team, "player", name="Pip")
    hire(team, "elite_elf", name="Legolas")
    page = text(client.get(sheet_url(team)))
    assert "0 / 27" in page and "0 / 36" in page


def test_coach_declares_a_full_team_ready_and_creation_prices_end(client, team):
    """H: a team is in creation until declared ready; then re-rolls cost double (R)."""
    for n in range(11):
        hire(team, "lineman", name=f"L{n}")
    client.force_login(team.coach)
    response = client.post(f"/teams/{team.pk}/ready/", follow=True)
    assert "The team is ready" in text(response)
    team.refresh_from_db()
    assert not team.in_creation


def test_a_team_short_of_eleven_cannot_be_declared_ready(client, team):
    hire(team, "lineman")
    client.force_login(team.coach)
    response = client.post(f"/teams/{team.pk}/ready/", follow=True)
    assert "needs 11 players" in text(response)
    team.refresh_from_db()
    assert team.in_creation
