"""The team sheet as each ruleset declares it (campaigns/rulesets/<key>/sheet.py): its columns, its hint and
its labels — and the Bone Cruncher sheet's labels reading right (issue 11): no "Coach 1" beside the coach's
name, a position on every row, a value in every cell."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.rulesets import get_ruleset
from league.models import League
from teams.models import Player, Team
from teams.services import team_purchase
from tests.factories import LeagueFactory, TeamFactory, hire
from tests.web.pages import element, plain, player_row, sheet_url, text

pytestmark = pytest.mark.django_db


def headers(page: str) -> list[str]:
    head = re.search(r"<thead>(.*?)</thead>", element(page, "roster"), flags=re.S).group(1)
    return [plain(h) for h in re.findall(r"<th\b[^>]*>(.*?)</th>", head, flags=re.S)]


def row_cells(page: str, name: str) -> list[str]:
    return [plain(c) for c in re.findall(r"<td\b[^>]*>(.*?)</td>", player_row(page, name), flags=re.S)]


def facts(page: str) -> list[tuple[str, str]]:
    found = re.search(r'<dl class="facts">(.*?)</dl>', page, flags=re.S).group(1)
    return [(plain(dt), plain(dd)) for dt, dd in re.findall(r"<dt>(.*?)</dt><dd\b[^>]*>(.*?)</dd>", found, re.S)]


@pytest.fixture
def squad(commissioner, coach):
    """A Bone Cruncher squad: its Great Captain, its Goalie and a player, and a support coach and a trainer."""
    league = LeagueFactory(created_by=commissioner, ruleset="bonecruncher")
    team = TeamFactory(league=league, coach=coach, name="Iron Legion", roster="humans_barbarians")
    hire(team, "player", name="Conan", number=1, role="captain")
    hire(team, "player", name="Gatekeeper", number=2, role="goalie")
    hire(team, "player", name="Legionary", number=3)
    team_purchase(team_id=team.pk, user=coach, item="coach", quantity=1)
    team_purchase(team_id=team.pk, user=coach, item="trainer", quantity=2)
    return team


@pytest.mark.parametrize(
    ("ruleset", "roster", "house_rules"),
    [
        ("blitzbowl", "hume", {}),
        ("elfball", "black_widows", {}),
        ("bonecruncher", "humans_barbarians", {}),
        ("bonecruncher", "humans_barbarians", {"bloody_blades": True}),
    ],
)
def test_the_roster_table_has_the_columns_its_ruleset_declares(
    client, commissioner, coach, ruleset, roster, house_rules
):
    league = LeagueFactory(created_by=commissioner, ruleset=ruleset, house_rules_overrides=house_rules)
    team = TeamFactory(league=league, coach=coach, roster=roster)

    page = text(client.get(sheet_url(team)))

    declared = [c.header for c in get_ruleset(ruleset).sheet_columns(league.house_rules)]
    assert headers(page) == declared
    assert ("Equipment" in declared) == bool(house_rules.get("bloody_blades"))  # rules/bonecruncher.md Bloody Blades


def test_the_skills_column_is_called_abilities_in_elfball(client, commissioner, coach):
    """rules/elfball.md "Abilities": ElfBall players learn abilities, Blitz Bowl players skills."""
    elf = TeamFactory(league=LeagueFactory(created_by=commissioner, ruleset="elfball"), roster="black_widows")
    bowl = TeamFactory(league=LeagueFactory(created_by=commissioner), roster="hume")

    assert headers(text(client.get(sheet_url(elf))))[4] == "Abilities"
    assert headers(text(client.get(sheet_url(bowl))))[4] == "Skills"


@pytest.mark.parametrize(("advanced", "hint"), [(False, "Basic wounds: 10 wound boxes"), (True, "Advanced wounds:")])
def test_the_bone_cruncher_sheet_explains_the_wound_rules_the_league_plays(client, commissioner, coach, advanced, hint):
    """rules/bonecruncher.md "Wounds": basic (10 boxes) or advanced (a health template per race)."""
    league = LeagueFactory(
        created_by=commissioner, ruleset="bonecruncher", house_rules_overrides={"advanced_wounds": advanced}
    )
    team = TeamFactory(league=league, coach=coach, roster="humans_barbarians")

    assert plain(element(text(client.get(sheet_url(team))), "sheet-hint")).startswith(hint)


def test_a_blitz_bowl_sheet_has_no_wound_hint(client, team):
    assert 'id="sheet-hint"' not in text(client.get(sheet_url(team)))


def test_the_bone_cruncher_support_coaches_are_not_a_second_coach_beside_the_coachs_name(client, squad):
    """rules/bonecruncher.md "Squad": support staff are Cheerleaders, Coaches, Trainers."""
    shown = facts(text(client.get(sheet_url(squad))))

    assert ("Coach", squad.coach.username) in shown
    assert ("Support coaches", "1") in shown and ("Trainers", "2") in shown
    assert [label for label, _ in shown].count("Coach") == 1


def test_every_bone_cruncher_row_names_the_players_position(client, squad, commissioner, coach):
    """rules/bonecruncher.md "Squad": one Great Captain, one Goalie; a Halfling team's Elite Elf (one Elite
    Elf or Human at most) keeps his race."""
    page = text(client.get(sheet_url(squad)))

    assert [row_cells(page, n)[2] for n in ("Conan", "Gatekeeper", "Legionary")] == [
        "Great Captain",
        "Goalie",
        "Player",
    ]
    assert "Role" not in headers(page)
    halflings = TeamFactory(league=squad.league, coach=commissioner, roster="halflings")
    hire(halflings, "elite_elf", name="Elrond", number=1, role="captain")
    hire(halflings, "player", name="Bilbo", number=2)
    page = text(client.get(sheet_url(halflings)))
    assert row_cells(page, "Elrond")[2:4] == ["Great Captain (Elite Elf)", "Elves"]
    assert row_cells(page, "Bilbo")[2:4] == ["Player", "Halflings"]


def test_every_bone_cruncher_cell_shows_a_value(client, squad):
    """No empty Skills or Elite cell, no Value column of zeros: a Bone Cruncher player has no skills and no
    value; his movement is the Move column (the base in its tooltip)."""
    Player.objects.filter(team=squad, number=3).update(matches_survived=5)  # H: Elite after 5 matches survived
    page = text(client.get(sheet_url(squad)))

    for name in ("Conan", "Gatekeeper", "Legionary"):
        assert all(value not in ("", "0 / —") for value in row_cells(page, name)), row_cells(page, name)
    assert not {"Attributes", "Skills", "Value"} & set(headers(page))
    assert row_cells(page, "Conan")[4:7] == ["—", "0 / 10", "0 / 2"]  # not Elite; wound and armour boxes (Captain +2)
    assert row_cells(page, "Legionary")[4] == "qualifies"
    assert 'title="base 5"' in player_row(page, "Legionary")


def test_the_demo_bone_cruncher_sheet_reads_right(client, db):
    """The demo as `make run` serves it: Iron Legion's sheet (issue 11's labels)."""
    call_command("load_demo", verbosity=0)
    team = Team.objects.get(name="Iron Legion")

    page = text(client.get(sheet_url(team)))

    shown = facts(page)
    assert ("Coach", "coach_cid") in shown and ("Support coaches", "1") in shown and ("Coach", "1") not in shown
    positions = {name: row_cells(page, name)[2] for name in team.players.values_list("name", flat=True)}
    assert positions["Conan"] == "Great Captain" and positions["Gatekeeper"] == "Goalie"
    assert set(positions.values()) == {"Great Captain", "Goalie", "Player"}
    for name in positions:
        assert "" not in row_cells(page, name)
    assert row_cells(page, "Legionary 3")[7] == "Incapacitated left leg (movement −2 until healed)"  # words.conditions


def test_the_league_page_offers_the_challenge_roller_where_the_ruleset_has_one(client, commissioner):
    """rules/elfball.md "Challenges": only ElfBall has the Challenge roller."""
    for ruleset in ("blitzbowl", "elfball", "bonecruncher"):
        league = LeagueFactory(created_by=commissioner, ruleset=ruleset)
        page = text(client.get(reverse("league-detail", args=[league.pk])))
        assert ('id="challenge-link"' in page) == get_ruleset(ruleset).has_challenge_roller
    assert [r for r in ("blitzbowl", "elfball", "bonecruncher") if get_ruleset(r).has_challenge_roller] == ["elfball"]
    assert League.objects.count() == 3
