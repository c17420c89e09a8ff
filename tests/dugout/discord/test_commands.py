"""The four commands a league's Discord answers: `/table`, `/next`, `/link code:`, `/confirm match:`; linking and
confirming as the linked user, under the same service and policy as `POST /matches/{id}/confirm/`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from league.models import DiscordApplication, DiscordLink, DiscordLinkCode
from matches.models import Aftermath, Match
from teams.models import Team
from teams.selectors import team_balance
from tests.bulk_league import bulk_league
from tests.dugout.discord.conftest import command, link, submitted_match
from tests.factories import LeagueFactory, UserFactory
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db

KICKOFF = datetime(2031, 3, 4, 19, 30, tzinfo=UTC)


def content(response) -> str:
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["type"] == 4
    return body["data"]["content"]


def ephemeral(response) -> bool:
    return response.json()["data"].get("flags") == 64


# --- /table ------------------------------------------------------------------------------------------------------


def test_table_lists_the_open_seasons_standings_in_order(discord, connected, league, commissioner, home, away):
    match = submitted_match(league, commissioner, away, home)  # Away wins 1–0
    from matches import services

    services.match_confirm(user=home.coach, match_id=match.pk)

    response = discord(command("table"))
    text = content(response)

    assert not ephemeral(response)
    assert text.index("Away") < text.index("Home")
    away_line = next(line for line in text.splitlines() if "Away" in line)
    assert away_line.split()[-5:] == [
        "1",
        "1",
        "0",
        "0",
        str(Match.objects.get(pk=match.pk).sides.get(team=away).league_points),
    ]
    assert f"/leagues/{league.pk}/table/" in text


def test_table_of_a_league_without_teams_says_so(discord, connected):
    assert "no teams yet" in content(discord(command("table")))


def test_table_of_a_big_league_fits_a_discord_message(discord, key):
    big = bulk_league(teams=90, fixtures=0)
    DiscordApplication.objects.create(league=big, application_id="77", public_key=key.verify_key.encode().hex())

    text = content(discord(command("table"), league_id=big.pk))

    assert len(text) <= 2000
    assert "more teams" in text
    assert text.count("\n") > 20


# --- /next -------------------------------------------------------------------------------------------------------


def test_next_answers_an_unlinked_user_the_leagues_next_fixtures(discord, connected, league, commissioner, home, away):
    from matches import services

    match = services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    Match.objects.filter(pk=match.pk).update(scheduled_for=KICKOFF)

    text = content(discord(command("next")))

    assert "next fixtures" in text
    assert "Home v Away" in text
    assert f"<t:{int(KICKOFF.timestamp())}:f>" in text  # every reader's client shows it in his own time zone
    assert f"/matches/{match.pk}/" in text


def test_next_answers_a_linked_coach_his_own_next_match(discord, connected, league, commissioner, coach, home, away):
    from matches import services

    third = full_team(league, UserFactory(username="carol"), "Third")
    services.match_schedule(user=commissioner, league=league, team_ids=[third.pk, away.pk])  # not alice's
    mine = services.match_schedule(user=commissioner, league=league, team_ids=[away.pk, home.pk])
    link(coach)

    text = content(discord(command("next")))

    assert text.startswith("Your next match:")
    assert "Away v Home" in text and f"/matches/{mine.pk}/" in text
    assert "Third" not in text


def test_next_tells_a_linked_coach_with_no_match_and_shows_the_leagues(discord, connected, league, commissioner, coach):
    link(coach)

    text = content(discord(command("next")))

    assert "No match waits for you" in text and "no fixtures" in text


# --- /link -------------------------------------------------------------------------------------------------------


def test_link_ties_the_discord_user_to_the_codes_account_once(discord, connected, api_as, coach, other_coach):
    made = api_as(coach).post("/api/v1/account/discord/code/")
    assert made.status_code == 201
    code = made.json()["code"]
    assert not DiscordLinkCode.objects.filter(code_hash__contains=code).exists()  # only its hash is kept

    response = discord(command("link", code=code.lower(), user_id="4242"))

    assert ephemeral(response)
    assert "alice" in content(response)
    assert DiscordLink.objects.get(discord_user_id="4242").user == coach

    again = discord(command("link", code=code, user_id="5555"))
    assert ephemeral(again) and "used already" in content(again)
    assert not DiscordLink.objects.filter(discord_user_id="5555").exists()
    assert DiscordLink.objects.get(user=coach).discord_user_id == "4242"


def test_an_expired_or_unknown_code_is_refused_in_words(discord, connected, api_as, coach):
    code = api_as(coach).post("/api/v1/account/discord/code/").json()["code"]
    DiscordLinkCode.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    expired = discord(command("link", code=code))
    unknown = discord(command("link", code="NOTACODE00"))
    empty = discord(command("link"))

    assert ephemeral(expired) and "expired" in content(expired)
    assert ephemeral(unknown) and "not one Dugout gave" in content(unknown)
    assert ephemeral(empty) and "not one Dugout gave" in content(empty)
    assert not DiscordLink.objects.exists()


def test_a_new_code_replaces_the_unspent_one(discord, connected, api_as, coach):
    first = api_as(coach).post("/api/v1/account/discord/code/").json()["code"]
    second = api_as(coach).post("/api/v1/account/discord/code/").json()["code"]

    assert "not one Dugout gave" in content(discord(command("link", code=first)))
    assert "alice" in content(discord(command("link", code=second)))


def test_linking_moves_a_discord_user_and_an_account_unique_both_ways(discord, connected, api_as, coach, other_coach):
    link(other_coach, "4242")
    code = api_as(coach).post("/api/v1/account/discord/code/").json()["code"]

    content(discord(command("link", code=code, user_id="4242")))

    assert list(DiscordLink.objects.values_list("user__username", "discord_user_id")) == [("alice", "4242")]


def test_link_without_a_discord_user_is_refused(discord, connected, api_as, coach):
    code = api_as(coach).post("/api/v1/account/discord/code/").json()["code"]

    response = discord(command("link", code=code, user_id=None))

    assert ephemeral(response) and not DiscordLink.objects.exists()


# --- /confirm ----------------------------------------------------------------------------------------------------


def _named(value, names: dict):
    """The result with its team and player ids put as names (twin leagues' rows have different ids)."""
    if isinstance(value, dict):
        return {
            k: names.get((k, v), _named(v, names)) if k in ("team", "player", "mvp") else _named(v, names)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_named(v, names) for v in value]
    return value


def _state(match: Match) -> dict:
    match.refresh_from_db()
    names = {}
    for side in match.sides.select_related("team"):
        names[("team", side.team_id)] = side.team.name
        for player in side.team.players.all():
            names[("player", player.pk)] = names[("mvp", player.pk)] = player.name
    sides = {s.team.name: (s.score, s.outcome, s.league_points) for s in match.sides.select_related("team")}
    teams = {
        t.name: (team_balance(team=t), t.fan_factor, sorted(t.players.values_list("name", "spp")))
        for t in Team.objects.filter(match_sides__match=match)
    }
    aftermaths = sorted(Aftermath.objects.filter(match=match).values_list("team__name", "complete"))
    return {
        "status": match.status,
        "result": _named(match.result, names),
        "confirmed_by": match.confirmed_by.username,
        "sides": sides,
        "teams": teams,
        "aftermaths": aftermaths,
    }


def test_confirm_as_the_linked_coach_does_exactly_what_the_api_confirm_does(
    discord, connected, league, commissioner, coach, other_coach, api_as
):
    by_discord = submitted_match(
        league, commissioner, full_team(league, coach, "Home"), full_team(league, other_coach, "Away")
    )
    twin = LeagueFactory(created_by=commissioner, name="Twin Cup", ruleset="blitzbowl")
    by_api = submitted_match(twin, commissioner, full_team(twin, coach, "Home"), full_team(twin, other_coach, "Away"))
    link(other_coach)

    response = discord(command("confirm", match=by_discord.pk))
    assert api_as(other_coach).post(f"/api/v1/matches/{by_api.pk}/confirm/").status_code == 200

    assert not ephemeral(response)
    assert "Result confirmed by bob: Home 1 – Away 0" in content(response)
    assert _state(by_discord) == _state(by_api)
    assert _state(by_discord)["status"] == Match.Status.FINAL


@pytest.mark.parametrize("who", ["alice", "stranger"])
def test_confirm_by_a_user_who_may_not_is_refused_in_words_and_changes_nothing(
    discord, connected, league, commissioner, home, away, coach, stranger, who
):
    match = submitted_match(league, commissioner, home, away)  # alice entered it: only bob or the commissioner confirm
    link({"alice": coach, "stranger": stranger}[who])
    before = Match.objects.filter(pk=match.pk).values().get()

    response = discord(command("confirm", match=match.pk))

    assert ephemeral(response)
    assert content(response).startswith("Not confirmed:")
    assert Match.objects.filter(pk=match.pk).values().get() == before


def test_confirm_by_an_unlinked_user_asks_him_to_link_first(discord, connected, league, commissioner, home, away):
    match = submitted_match(league, commissioner, home, away)

    response = discord(command("confirm", match=match.pk))

    assert ephemeral(response) and "/link" in content(response)
    assert Match.objects.get(pk=match.pk).status == Match.Status.SUBMITTED


def test_confirm_of_another_leagues_match_or_no_match_is_refused(
    discord, connected, league, commissioner, other_coach, coach
):
    other = LeagueFactory(created_by=commissioner, name="Elsewhere", ruleset="blitzbowl")
    theirs = submitted_match(other, commissioner, full_team(other, coach, "H"), full_team(other, other_coach, "A"))
    link(other_coach)

    for value in (theirs.pk, 0, -3, "abc", 2**80, True, None):
        response = discord(command("confirm", match=value))
        assert ephemeral(response) and "has no match" in content(response), value
    assert Match.objects.get(pk=theirs.pk).status == Match.Status.SUBMITTED


def test_confirm_twice_is_refused_the_second_time(discord, connected, league, commissioner, home, away, other_coach):
    match = submitted_match(league, commissioner, home, away)
    link(other_coach)

    content(discord(command("confirm", match=str(match.pk))))
    second = discord(command("confirm", match=match.pk))

    assert ephemeral(second) and content(second).startswith("Not confirmed:")
