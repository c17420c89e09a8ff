"""Scheduling matches and entering their results (api-v1 "Matches"; rules/blitzbowl.md "League",
"Post-match sequence", "Injuries recorded on a result", "Conceding").

Scheduling: 201 `{id, status: "scheduled"}`; bad teams or stadium → 400 naming the field; R: a pair may not meet
a third time in a row, counted per team over its own sequence; scheduling closes team creation.
Results: every check of the result body answers 400 naming the field and stores nothing; submit → submitted;
confirm → final with each team's snapshot, the per-player rows and the post-match sequences opened; the
commissioner's rejection puts the match back; standings count 3/1/0 and break ties as the league says.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from league.models import Stadium
from matches.models import Aftermath, Match, MatchTeam, PlayerMatch, Roll
from teams.models import LedgerEntry, Player, Team
from tests.assertions import assert_refused
from tests.factories import LeagueFactory, StadiumFactory, TeamFactory, UserFactory, hire
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db


MATCHES = "/api/v1/matches/"


# --- helpers ------------------------------------------------------------------------------------------------


def schedule(client, league, *teams, **extra):
    return client.post(MATCHES, {"league": league.pk, "teams": [t.pk for t in teams], **extra}, format="json")


def scheduled(client, league, *teams, **extra) -> int:
    response = schedule(client, league, *teams, **extra)
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def line(team, score=0, **extra) -> dict:
    return {"team": team.pk, "score": score, **extra}


def roster(team) -> list[Player]:
    return list(team.players.filter(left_at__isnull=True).order_by("number", "id"))


def team_sheet(team) -> list[tuple]:
    return list(
        Player.objects.filter(team=team).order_by("pk").values_list("pk", "status", "spp", "attributes", "left_at")
    )


def world_state(*teams) -> tuple:
    """Everything a result can change: matches, their sides, rows, rolls, sequences, ledgers and players."""
    return (
        list(Match.objects.order_by("pk").values_list("pk", "status", "result", "submitted_by", "confirmed_by")),
        list(MatchTeam.objects.order_by("pk").values_list("pk", "score", "outcome", "league_points", "snapshot")),
        PlayerMatch.objects.count(),
        Roll.objects.count(),
        list(Aftermath.objects.order_by("pk").values_list("pk", "step_index", "complete", "pending")),
        list(LedgerEntry.objects.order_by("pk").values_list("pk", "amount")),
        [team_sheet(t) for t in teams],
    )


def close_sequences(*teams) -> None:
    """Standings do not depend on the post-match sequence: close it without walking it (set-up only)."""
    Aftermath.objects.filter(team__in=teams).update(complete=True, step_index=5)


# --- scheduling -----------------------------------------------------------------------------------------------


def test_scheduling_answers_201_scheduled_with_kind_and_stadium(api_as, commissioner, league, home, away):
    stadium = StadiumFactory(league=league, name="The Pit")
    response = schedule(api_as(commissioner), league, home, away, kind="playoff", stadium=stadium.pk)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert isinstance(body["id"], int)
    assert body["status"] == "scheduled"
    assert (body["kind"], body["stadium"], body["teams"]) == ("playoff", stadium.pk, [home.pk, away.pk])
    assert [s["order"] for s in body["sides"]] == [0, 1]
    assert body["result"] == {} and body["aftermath"] == []
    match = Match.objects.get(pk=body["id"])
    assert (match.kind, match.stadium_id, match.status, match.created_by_id) == (
        "playoff",
        stadium.pk,
        "scheduled",
        commissioner.pk,
    )
    # The default kind is a league match.
    assert schedule(api_as(commissioner), league, home, away).json()["kind"] == "league"


def _team_of_another_league(w):
    return TeamFactory(league=LeagueFactory(name="Elsewhere"), coach=UserFactory(username="carol"), name="Far")


@pytest.mark.parametrize(
    "teams",
    [
        pytest.param(lambda home, away, far: [home.pk, far.pk], id="a-team-of-another-league"),
        pytest.param(lambda home, away, far: [home.pk, home.pk], id="the-same-team-twice"),
        pytest.param(lambda home, away, far: [home.pk], id="one-team-only"),
        pytest.param(lambda home, away, far: [home.pk, 999_999], id="no-such-team"),
        pytest.param(lambda home, away, far: [], id="no-team"),
    ],
)
def test_scheduling_refuses_bad_teams_naming_teams(api_as, commissioner, league, home, away, teams):
    far = _team_of_another_league(None)
    response = api_as(commissioner).post(MATCHES, {"league": league.pk, "teams": teams(home, away, far)}, format="json")
    assert_refused(response, 400, "teams")
    assert Match.objects.count() == 0
    assert all(t.in_creation for t in Team.objects.all())


def test_scheduling_refuses_a_stadium_of_another_league(api_as, commissioner, league, home, away):
    elsewhere = StadiumFactory(league=LeagueFactory(name="Elsewhere"), name="Foreign Field")
    response = schedule(api_as(commissioner), league, home, away, stadium=elsewhere.pk)
    assert_refused(response, 400, "stadium")
    response = schedule(api_as(commissioner), league, home, away, stadium=999_999)
    assert_refused(response, 400, "stadium")
    assert Match.objects.count() == 0


def test_scheduling_refuses_an_unknown_kind_or_league(api_as, commissioner, league, home, away):
    assert_refused(schedule(api_as(commissioner), league, home, away, kind="exhibition"), 400, "kind")
    response = api_as(commissioner).post(MATCHES, {"league": 999_999, "teams": [home.pk, away.pk]}, format="json")
    assert_refused(response, 400, "league")
    assert Match.objects.count() == 0


@pytest.fixture
def third(league):
    return full_team(league, UserFactory(username="carol"), "Third")


@pytest.fixture
def fourth(league):
    return full_team(league, UserFactory(username="dave"), "Fourth")


def test_the_same_pair_may_not_meet_a_third_time_in_a_row(api_as, commissioner, league, home, away):
    """R: at most two matches in a row against the same opponent; home and away order does not matter."""
    client = api_as(commissioner)
    scheduled(client, league, home, away)
    scheduled(client, league, away, home)
    for pair in ((home, away), (away, home)):
        body = assert_refused(schedule(client, league, *pair), 400, "teams")
        message = " ".join(body["teams"]).lower()
        assert "in a row" in message and "third" in message, body
    assert Match.objects.count() == 2


def test_another_opponent_in_between_allows_the_pair_again(api_as, commissioner, league, home, away, third):
    client = api_as(commissioner)
    scheduled(client, league, home, away)
    scheduled(client, league, home, third)
    scheduled(client, league, home, away)
    # Home met Third in between, but Away did not: Away's own last two were both Home.
    assert_refused(schedule(client, league, away, home), 400, "teams")
    scheduled(client, league, away, third)
    scheduled(client, league, away, home)


def test_consecutive_meetings_are_counted_per_team_over_its_own_sequence(
    api_as, commissioner, league, home, away, third
):
    """Home–Away, Away–Third, Home–Away: Away met someone else, but Home's own last two were both Away, so a
    third Home–Away is refused (the league's match list has no two Home–Away in a row)."""
    client = api_as(commissioner)
    scheduled(client, league, home, away)
    scheduled(client, league, away, third)
    scheduled(client, league, home, away)
    assert_refused(schedule(client, league, home, away), 400, "teams")
    # Away's own sequence (Home, Third, Home) does not stop Away–Third.
    scheduled(client, league, away, third)
    # Home must play someone else first.
    scheduled(client, league, home, third)
    scheduled(client, league, home, away)


def test_scheduling_closes_team_creation(api, api_as, coach, league, home, away, third):
    assert api.get(f"/api/v1/teams/{home.pk}/").json()["in_creation"] is True
    scheduled(api_as(coach), league, home, away)
    for team in (home, away):
        assert api.get(f"/api/v1/teams/{team.pk}/").json()["in_creation"] is False
    assert api.get(f"/api/v1/teams/{third.pk}/").json()["in_creation"] is True
    # H: Fan Factor can only be bought in creation.
    response = api_as(coach).post(
        f"/api/v1/teams/{home.pk}/purchases/", {"item": "fan_factor", "quantity": 1}, format="json"
    )
    assert_refused(response, 400, "item")


# --- result validation ------------------------------------------------------------------------------------------


@dataclass
class Game:
    match_id: int
    home: Team
    away: Team
    scorer: Player  # home #1
    runner: Player  # home #2
    victim: Player  # away #1
    mvp: Player  # away #2
    url: str

    def body(self, **changes) -> dict:
        body = {
            "teams": [
                line(self.home, 1, casualties_inflicted=1, mvp=self.scorer.pk, fame=1),
                line(self.away, 0, casualties_inflicted=0, mvp=self.mvp.pk),
            ],
            "players": [
                {"player": self.scorer.pk, "touchdowns": 1, "casualties": 1, "completions": 1},
                {"player": self.victim.pk, "injury": "miss_next_match"},
            ],
        }
        body.update(changes)
        return body


@pytest.fixture
def game(api_as, coach, league, home, away) -> Game:
    match_id = scheduled(api_as(coach), league, home, away)
    scorer, runner = roster(home)[:2]
    victim, mvp = roster(away)[:2]
    return Game(match_id, home, away, scorer, runner, victim, mvp, f"{MATCHES}{match_id}/result/")


def _with(path: list, value) -> Callable[[Game, dict], None]:
    """Set body[path...] = value(game) (value is called with the game when callable)."""

    def change(g: Game, body: dict) -> None:
        target = body
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value(g) if callable(value) else value

    return change


def _add_player(row: Callable[[Game], dict]) -> Callable[[Game, dict], None]:
    def change(g: Game, body: dict) -> None:
        body["players"].append(row(g))

    return change


def _outsider(g: Game) -> dict:
    far = TeamFactory(league=LeagueFactory(name="Elsewhere"), coach=UserFactory(username="carol"), name="Far")
    return {"player": hire(far, "lineman", name="Outsider").pk}


def _bystander(g: Game) -> dict:
    third = TeamFactory(league=g.home.league, coach=UserFactory(username="dave"), name="Bystanders")
    return {"player": hire(third, "lineman", name="Bystander").pk}


def _status(status: str) -> Callable[[Game], dict]:
    def make(g: Game) -> dict:
        Player.objects.filter(pk=g.runner.pk).update(status=status)
        return {"player": g.runner.pk, "completions": 1}

    return make


def _fired(g: Game) -> dict:
    from teams import services as team_services

    team_services.team_fire_player(team_id=g.home.pk, player_id=g.runner.pk, user=g.home.coach)
    return {"player": g.runner.pk}


INVALID_RESULTS = {
    "score-differs-from-the-touchdowns": (_with(["teams", 0, "score"], 2), "teams[0].score"),
    "touchdowns-without-the-score": (_with(["players", 0, "touchdowns"], 2), "teams[0].score"),
    "away-touchdowns-without-the-score": (
        _with(["players", 1, "touchdowns"], 1),
        "teams[1].score",
    ),
    "negative-score": (_with(["teams", 1, "score"], -1), "teams[1].score"),
    "missing-score": (lambda g, b: b["teams"][1].pop("score"), "teams[1].score"),
    "text-score": (_with(["teams", 1, "score"], "1"), "teams[1].score"),
    "negative-casualties-inflicted": (_with(["teams", 0, "casualties_inflicted"], -2), "teams[0].casualties_inflicted"),
    "negative-touchdowns": (_with(["players", 0, "touchdowns"], -1), "players[0].touchdowns"),
    "negative-casualties": (_with(["players", 0, "casualties"], -1), "players[0].casualties"),
    "negative-completions": (_with(["players", 0, "completions"], -3), "players[0].completions"),
    "negative-interceptions": (_with(["players", 1, "interceptions"], -1), "players[1].interceptions"),
    "player-of-another-league": (_add_player(_outsider), "players[2].player"),
    "player-of-a-team-not-in-the-match": (_add_player(_bystander), "players[2].player"),
    "no-such-player": (_add_player(lambda g: {"player": 999_999}), "players[2].player"),
    "player-missing-this-match": (_add_player(_status("miss_next_match")), "players[2].player"),
    "dead-player": (_add_player(_status("dead")), "players[2].player"),
    "fired-player": (_add_player(_fired), "players[2].player"),
    "the-same-player-twice": (_add_player(lambda g: {"player": g.victim.pk, "casualties": 1}), "players[2].player"),
    "unknown-injury": (_with(["players", 1, "injury"], "broken_heart"), "players[1].injury"),
    "stat-loss-without-a-stat": (_with(["players", 1, "injury"], "stat_loss"), "players[1].stat"),
    "stat-loss-with-an-unknown-stat": (
        _add_player(lambda g: {"player": g.runner.pk, "injury": "stat_loss", "stat": "luck"}),
        "players[2].stat",
    ),
    "fame-3": (_with(["teams", 0, "fame"], 3), "teams[0].fame"),
    "negative-fame": (_with(["teams", 1, "fame"], -1), "teams[1].fame"),
    "mvp-of-the-other-team": (_with(["teams", 0, "mvp"], lambda g: g.victim.pk), "teams[0].mvp"),
    "mvp-missing-this-match": (
        _with(["teams", 0, "mvp"], lambda g: _status("miss_next_match")(g)["player"]),
        "teams[0].mvp",
    ),
    "two-teams-conceding": (
        lambda g, b: (b["teams"][0].update(conceded=True), b["teams"][1].update(conceded_early=True)),
        "teams",
    ),
    "conceded-not-a-boolean": (_with(["teams", 1, "conceded"], "yes"), "teams[1].conceded"),
    "a-team-not-in-the-match": (_with(["teams", 1, "team"], 999_999), "teams[1].team"),
    "a-team-twice": (_with(["teams", 1, "team"], lambda g: g.home.pk), "teams[1].team"),
    "a-team-missing": (lambda g, b: b["teams"].pop(), "teams"),
    "teams-not-a-list": (_with(["teams"], "home won"), "teams"),
    "players-not-a-list": (_with(["players"], {"player": 1}), "players"),
}


@pytest.mark.parametrize(("change", "field"), INVALID_RESULTS.values(), ids=INVALID_RESULTS.keys())
def test_an_invalid_result_is_refused_naming_the_field_and_nothing_is_stored(api_as, coach, game, change, field):
    body = game.body()
    change(game, body)
    before = world_state(game.home, game.away)
    assert_refused(api_as(coach).post(game.url, body, format="json"), 400, field)
    assert world_state(game.home, game.away) == before
    match = Match.objects.get(pk=game.match_id)
    assert (match.status, match.result, match.submitted_by_id) == ("scheduled", {}, None)


def test_the_valid_body_of_the_refusal_cases_is_accepted(api_as, coach, game):
    """The base of INVALID_RESULTS is itself valid: each case fails for its own change only."""
    response = api_as(coach).post(game.url, game.body(), format="json")
    assert response.status_code == 201, response.json()


def test_a_result_body_that_is_not_an_object_is_refused(api_as, coach, game):
    for body in ([], "2-1"):
        response = api_as(coach).post(game.url, body, format="json")
        assert_refused(response, 400)
    assert Match.objects.get(pk=game.match_id).status == "scheduled"


def test_the_named_field_is_the_entry_of_the_body_at_fault(api_as, coach, game):
    """The body lists the away team first: errors name the body's own entries, not the match's order.
    (Regression: the field used to follow the match's order, naming the wrong entry.)"""
    before = world_state(game.home, game.away)
    body = game.body()
    body["teams"] = [line(game.away, 0), line(game.home, 2)]  # home's line is wrong: 2 but 1 touchdown
    response = api_as(coach).post(game.url, body, format="json")
    assert_refused(response, 400, "teams[1].score")
    assert "teams[0].score" not in response.json()
    body["teams"] = [line(game.away, 0, fame=3), line(game.home, 1)]
    assert_refused(api_as(coach).post(game.url, body, format="json"), 400, "teams[0].fame")
    body["teams"] = [line(game.away, 0, mvp=game.scorer.pk), line(game.home, 1)]
    assert_refused(api_as(coach).post(game.url, body, format="json"), 400, "teams[0].mvp")
    assert world_state(game.home, game.away) == before
    # Listed away-first and right, it is accepted and stored in the match's order.
    body["teams"] = [line(game.away, 0), line(game.home, 1)]
    response = api_as(coach).post(game.url, body, format="json")
    assert response.status_code == 201, response.json()
    assert [t["team"] for t in response.json()["result"]["teams"]] == [game.home.pk, game.away.pk]


# --- submit, confirm, reject ----------------------------------------------------------------------------------


def test_submitting_stores_the_result_as_submitted(api, api_as, coach, game):
    response = api_as(coach).post(game.url, game.body(), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "submitted"
    assert body["submitted_by"] == coach.pk and body["submitted_at"]
    assert [t["team"] for t in body["result"]["teams"]] == [game.home.pk, game.away.pk]
    assert [t["outcome"] for t in body["result"]["teams"]] == ["win", "loss"]
    # Nothing applied yet: no rows, no sequence, players unchanged.
    assert PlayerMatch.objects.count() == 0 and Aftermath.objects.count() == 0
    assert Player.objects.get(pk=game.victim.pk).status == "active"
    assert Player.objects.get(pk=game.scorer.pk).spp == 0
    assert api.get(f"{MATCHES}{game.match_id}/").json()["status"] == "submitted"


def test_confirming_makes_the_result_final_with_snapshots_rows_and_open_sequences(
    api, api_as, coach, other_coach, game
):
    home, away = game.home, game.away
    dying, weakened = roster(away)[2:4]
    Player.objects.filter(pk=roster(home)[10].pk).update(status="miss_next_match")  # misses this match
    body = game.body()
    body["players"] += [
        {"player": dying.pk, "injury": "dead"},
        {"player": weakened.pk, "injury": "stat_loss", "stat": "ag"},
        {"player": game.mvp.pk, "interceptions": 1},
    ]
    assert api_as(coach).post(game.url, body, format="json").status_code == 201
    treasuries = {t.pk: 100_000 - 11 * 5000 for t in (home, away)}
    response = api_as(other_coach).post(f"{MATCHES}{game.match_id}/confirm/")
    assert response.status_code == 200, response.json()
    final = response.json()
    assert final["status"] == "final" and final["confirmed_by"] == other_coach.pk

    # Each side: its line of the result and the team as it stood before the match.
    sides = {s["team"]: s for s in final["sides"]}
    assert (sides[home.pk]["score"], sides[home.pk]["outcome"], sides[home.pk]["league_points"]) == (1, "win", 3)
    assert (sides[away.pk]["score"], sides[away.pk]["outcome"], sides[away.pk]["league_points"]) == (0, "loss", 0)
    assert (sides[home.pk]["casualties_inflicted"], sides[home.pk]["fame"], sides[home.pk]["mvp"]) == (
        1,
        1,
        game.scorer.pk,
    )
    home_snapshot, away_snapshot = sides[home.pk]["snapshot"], sides[away.pk]["snapshot"]
    assert home_snapshot["treasury"] == treasuries[home.pk] and away_snapshot["treasury"] == treasuries[away.pk]
    assert home_snapshot["team_value"] == 10 * 5000  # R: the player missing the match does not count
    assert away_snapshot["team_value"] == 11 * 5000  # the dead player still counted before the match
    assert home_snapshot["fan_factor"] == 0 and home_snapshot["rerolls"] == 0
    snapshot_players = {p["id"]: p for p in away_snapshot["players"]}
    assert len(snapshot_players) == 11
    assert snapshot_players[dying.pk]["status"] == "active"
    assert snapshot_players[game.mvp.pk]["spp"] == 0
    assert {p["id"]: p["status"] for p in home_snapshot["players"]}[roster(home)[10].pk] == "miss_next_match"

    # Every player who played has his row, a stat line or not (not the one who missed the match); the rows
    # carry the SPP (H: completion 1, touchdown 3, casualty 2, interception 2, MVP 5).
    rows = {r.player_id: r for r in PlayerMatch.objects.filter(match_id=game.match_id)}
    played = {p.pk: team.pk for team in (home, away) for p in roster(team)}
    del played[roster(home)[10].pk]
    assert set(rows) == set(played)
    quiet = roster(away)[5]
    assert (rows[quiet.pk].spp, rows[quiet.pk].touchdowns, rows[quiet.pk].mvp, rows[quiet.pk].injury) == (
        0,
        0,
        False,
        "",
    )
    assert (rows[game.scorer.pk].spp, rows[game.scorer.pk].mvp) == (3 + 2 + 1 + 5, True)
    assert (rows[game.mvp.pk].spp, rows[game.mvp.pk].mvp) == (2 + 5, True)
    assert rows[game.victim.pk].injury == "miss_next_match" and rows[game.victim.pk].spp == 0
    assert (rows[weakened.pk].injury, rows[weakened.pk].injury_detail) == ("stat_loss", "ag")
    assert all(r.team_id == played[pid] for pid, r in rows.items())
    players = {p["id"]: p for p in api.get(f"/api/v1/teams/{away.pk}/").json()["players"]}
    assert players[game.mvp.pk]["spp"] == 7
    assert players[game.victim.pk]["status"] == "miss_next_match"
    assert players[dying.pk]["status"] == "dead"
    assert players[weakened.pk]["attributes"]["ag"] == 2
    assert Player.objects.get(pk=game.scorer.pk).spp == 11
    # R: the player who missed this match has served it.
    assert Player.objects.get(pk=roster(home)[10].pk).status == "active"

    # Each team's post-match sequence is open at its first step.
    assert sorted(final["aftermath"], key=lambda a: a["team"]) == [
        {"team": home.pk, "step": "improvements", "complete": False, "pending": False},
        {"team": away.pk, "step": "improvements", "complete": False, "pending": False},
    ]
    for team in (home, away):
        state = api.get(f"{MATCHES}{game.match_id}/aftermath/{team.pk}/").json()
        assert state["step"] == "improvements" and state["complete"] is False
        assert state["steps"] == ["improvements", "team_stats", "fortune", "hire_fire", "prepare"]
    # Confirming again is refused and changes nothing.
    before = world_state(home, away)
    assert_refused(api_as(other_coach).post(f"{MATCHES}{game.match_id}/confirm/"), 400)
    assert world_state(home, away) == before


def test_rejection_puts_the_match_back_to_scheduled_with_nothing_applied(
    api, api_as, coach, other_coach, commissioner, game
):
    before = world_state(game.home, game.away)
    assert api_as(coach).post(game.url, game.body(), format="json").status_code == 201
    response = api_as(commissioner).post(f"{MATCHES}{game.match_id}/reject/")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "scheduled" and response.json()["result"] == {}
    assert world_state(game.home, game.away) == before
    # Nothing to confirm or reject any more.
    assert_refused(api_as(other_coach).post(f"{MATCHES}{game.match_id}/confirm/"), 400)
    assert_refused(api_as(commissioner).post(f"{MATCHES}{game.match_id}/reject/"), 400)
    assert world_state(game.home, game.away) == before

    # Re-submitting (a corrected result, by the other coach this time) works and can be confirmed.
    corrected = game.body(teams=[line(game.home, 0), line(game.away, 0)], players=[])
    response = api_as(other_coach).post(game.url, corrected, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["submitted_by"] == other_coach.pk
    response = api_as(coach).post(f"{MATCHES}{game.match_id}/confirm/")
    assert response.status_code == 200, response.json()
    assert [s["outcome"] for s in response.json()["sides"]] == ["draw", "draw"]
    assert [s["league_points"] for s in response.json()["sides"]] == [1, 1]
    # Both teams played, with no stat line: a row each that records nothing (the rejected result left none).
    rows = PlayerMatch.objects.values_list("player_id", "spp", "touchdowns", "mvp", "injury")
    assert sorted(r[0] for r in rows) == sorted(p.pk for t in (game.home, game.away) for p in roster(t))
    assert {r[1:] for r in rows} == {(0, 0, False, "")}
    assert Player.objects.get(pk=game.victim.pk).status == "active"


def test_a_submitted_result_can_be_replaced_before_it_is_confirmed(api_as, coach, other_coach, game):
    assert api_as(coach).post(game.url, game.body(), format="json").status_code == 201
    draw = game.body(teams=[line(game.home, 0), line(game.away, 0)], players=[])
    assert api_as(other_coach).post(game.url, draw, format="json").status_code == 201
    final = api_as(coach).post(f"{MATCHES}{game.match_id}/confirm/").json()
    assert [s["outcome"] for s in final["sides"]] == ["draw", "draw"]


def test_a_final_match_cannot_be_resubmitted_or_rejected(api_as, coach, other_coach, commissioner, game, play):
    play(game.match_id, game.body(), coach, other_coach)
    before = world_state(game.home, game.away)
    for user in (coach, other_coach, commissioner):
        assert_refused(api_as(user).post(game.url, game.body(), format="json"), 400)
    assert_refused(api_as(commissioner).post(f"{MATCHES}{game.match_id}/reject/"), 400)
    assert world_state(game.home, game.away) == before


def test_a_team_with_an_unfinished_post_match_sequence_cannot_have_its_next_result_entered(
    api_as, coach, other_coach, commissioner, league, home, away, third, play
):
    first = scheduled(api_as(commissioner), league, home, away)
    second = scheduled(api_as(commissioner), league, home, third)
    independent = scheduled(api_as(commissioner), league, away, third)
    play(first, {"teams": [line(home), line(away)]}, coach, other_coach)
    before = world_state(home, away, third)
    for user in (coach, commissioner):
        body = assert_refused(
            api_as(user).post(f"{MATCHES}{second}/result/", {"teams": [line(home), line(third)]}, format="json"),
            400,
        )
        assert "post-match" in body["detail"]
        body = assert_refused(
            api_as(other_coach).post(
                f"{MATCHES}{independent}/result/", {"teams": [line(away), line(third)]}, format="json"
            ),
            400,
        )
    assert world_state(home, away, third) == before
    assert Match.objects.get(pk=second).status == "scheduled"


STEPS = [
    {"step": "improvements"},
    {"step": "team_stats"},
    {"step": "fortune", "rolls": {"winnings": [2], "fan_factor": [1, 1]}, "choices": {"seek_sponsor": False}},
    {"step": "hire_fire"},
    {"step": "prepare", "rolls": {"expensive_mistakes": [6]}},
]


def test_once_the_sequence_is_walked_the_next_result_can_be_entered(
    api_as, coach, other_coach, commissioner, league, home, away, third, play
):
    first = scheduled(api_as(commissioner), league, home, away)
    second = scheduled(api_as(commissioner), league, home, third)
    play(first, {"teams": [line(home), line(away)]}, coach, other_coach)
    for step in STEPS:
        response = api_as(coach).post(f"{MATCHES}{first}/aftermath/{home.pk}/", step, format="json")
        assert response.status_code == 200, response.json()
        assert not response.json()["pending"], response.json()
    assert response.json()["complete"] is True
    response = api_as(coach).post(f"{MATCHES}{second}/result/", {"teams": [line(home), line(third)]}, format="json")
    assert response.status_code == 201, response.json()


def _enter_both(api_as, commissioner, league, home, away, third, first_players, second_players):
    """Two matches of Home, both results entered while neither is final (nothing stops that)."""
    first = scheduled(api_as(commissioner), league, home, away)
    second = scheduled(api_as(commissioner), league, home, third)
    client = api_as(commissioner)
    for match_id, teams, players in (
        (first, [line(home), line(away)], first_players),
        (second, [line(home, sum(p.get("touchdowns", 0) for p in second_players)), line(third)], second_players),
    ):
        response = client.post(f"{MATCHES}{match_id}/result/", {"teams": teams, "players": players}, format="json")
        assert response.status_code == 201, response.json()
    return first, second


def test_a_result_cannot_be_confirmed_while_a_team_has_an_unfinished_post_match_sequence(
    api_as, coach, commissioner, league, home, away, third
):
    first, second = _enter_both(api_as, commissioner, league, home, away, third, [], [])
    assert api_as(coach).post(f"{MATCHES}{first}/confirm/").status_code == 200
    before = world_state(home, away, third)
    assert_refused(api_as(coach).post(f"{MATCHES}{second}/confirm/"), 400)
    assert world_state(home, away, third) == before
    assert Match.objects.get(pk=second).status == "submitted"


def test_a_player_killed_in_one_match_cannot_score_in_a_result_confirmed_after_it(
    api_as, coach, commissioner, league, home, away, third
):
    """The first result kills X; the second, entered before the first was final, has X scoring. Once the first
    is final and its post-match sequence walked (X goes to the memorial), confirming the second is refused:
    a dead player never plays. (Regression: the second used to be confirmed, X scoring in it.)"""
    x = roster(home)[0]
    first, second = _enter_both(
        api_as,
        commissioner,
        league,
        home,
        away,
        third,
        [{"player": x.pk, "injury": "dead"}],
        [{"player": x.pk, "touchdowns": 1}],
    )
    assert api_as(coach).post(f"{MATCHES}{first}/confirm/").status_code == 200
    assert Player.objects.get(pk=x.pk).status == "dead"
    for step in STEPS:
        response = api_as(coach).post(f"{MATCHES}{first}/aftermath/{home.pk}/", step, format="json")
        assert response.status_code == 200, response.json()
    assert response.json()["complete"] is True
    before = world_state(home, away, third)
    assert_refused(api_as(coach).post(f"{MATCHES}{second}/confirm/"), 400, "players[0].player")
    assert world_state(home, away, third) == before
    assert not PlayerMatch.objects.filter(match_id=second).exists()
    assert Player.objects.get(pk=x.pk).spp == 0


def test_a_player_who_misses_the_next_match_cannot_play_in_a_result_confirmed_after_the_injury(
    api_as, coach, commissioner, league, home, away, third
):
    y = roster(home)[1]
    first, second = _enter_both(
        api_as,
        commissioner,
        league,
        home,
        away,
        third,
        [{"player": y.pk, "injury": "miss_next_match"}],
        [{"player": y.pk, "completions": 1}],
    )
    assert api_as(coach).post(f"{MATCHES}{first}/confirm/").status_code == 200
    for step in STEPS:
        assert api_as(coach).post(f"{MATCHES}{first}/aftermath/{home.pk}/", step, format="json").status_code == 200
    assert_refused(api_as(coach).post(f"{MATCHES}{second}/confirm/"), 400, "players[0].player")
    assert Player.objects.get(pk=y.pk).status == "miss_next_match"


# --- standings -----------------------------------------------------------------------------------------------


def standings(api, league) -> list[dict]:
    response = api.get(f"/api/v1/leagues/{league.pk}/standings/")
    assert response.status_code == 200
    return response.json()["rows"]


def order(api, league) -> list[str]:
    return [row["name"] for row in standings(api, league)]


@pytest.fixture
def record(api_as, commissioner, coach, league):
    """`record(home, away, home_score, away_score, ...)`: schedule, submit and confirm (as the commissioner, then
    the home coach, or alice when the commissioner coaches neither), and close both post-match sequences."""

    def run(a: Team, b: Team, a_score: int, b_score: int, *, kind="league", cas=(0, 0), conceded=None) -> int:
        match_id = scheduled(api_as(commissioner), league, a, b, kind=kind)
        body = {
            "teams": [
                line(a, a_score, casualties_inflicted=cas[0], conceded=conceded is a),
                line(b, b_score, casualties_inflicted=cas[1], conceded=conceded is b),
            ],
            "players": [
                {"player": roster(t)[0].pk, "touchdowns": score} for t, score in ((a, a_score), (b, b_score)) if score
            ],
        }
        response = api_as(commissioner).post(f"{MATCHES}{match_id}/result/", body, format="json")
        assert response.status_code == 201, response.json()
        response = api_as(a.coach).post(f"{MATCHES}{match_id}/confirm/")
        assert response.status_code == 200, response.json()
        close_sequences(a, b)
        return match_id

    return run


def test_standings_give_3_1_0_and_friendlies_give_none(api, league, home, away, third, record):
    record(home, away, 2, 1)
    record(third, away, 1, 1)
    record(home, third, 3, 0, kind="friendly")
    rows = {row["name"]: row for row in standings(api, league)}
    assert rows["Home"]["points"] == 3  # 3 for the league win, none for the friendly win
    assert (rows["Away"]["drawn"], rows["Away"]["lost"], rows["Away"]["points"]) == (1, 1, 1)
    assert rows["Third"]["points"] == 1  # 1 for the draw, none for the friendly loss
    assert [row["position"] for row in standings(api, league)] == [1, 2, 3]
    expected_keys = {"position", "team", "name", "played", "won", "drawn", "lost", "points", "scored", "conceded"}
    assert expected_keys | {"casualties_inflicted"} <= set(standings(api, league)[0])


def test_a_conceding_team_loses_whatever_the_score(api, league, home, away, record):
    record(home, away, 2, 0, conceded=home)
    rows = {row["name"]: row for row in standings(api, league)}
    assert (rows["Home"]["lost"], rows["Home"]["points"]) == (1, 0)
    assert (rows["Away"]["won"], rows["Away"]["points"]) == (1, 3)


def test_standings_are_ordered_by_points_first(api, league, home, away, third, record):
    record(home, away, 0, 1)  # Away 3
    record(third, home, 0, 0)  # Third 1, Home 1
    assert order(api, league)[0] == "Away"


def test_equal_points_are_broken_by_touchdown_difference(api, league, home, away, third, fourth, record):
    record(home, third, 3, 0)  # Home +3
    record(away, fourth, 1, 0)  # Away +1
    assert order(api, league)[:2] == ["Home", "Away"]
    record(away, third, 4, 0)  # Away +5 on 6 points
    record(home, fourth, 1, 0)  # Home +4 on 6 points
    assert order(api, league)[:2] == ["Away", "Home"]


def test_equal_points_and_difference_are_broken_by_casualties_inflicted(api, league, home, away, third, fourth, record):
    record(home, third, 1, 0, cas=(1, 0))
    record(away, fourth, 1, 0, cas=(3, 0))
    assert order(api, league)[:2] == ["Away", "Home"]
    rows = {row["name"]: row for row in standings(api, league)}
    assert (rows["Away"]["casualties_inflicted"], rows["Home"]["casualties_inflicted"]) == (3, 1)


def test_equal_points_difference_and_casualties_are_broken_by_head_to_head(
    api, commissioner, coach, league, home, away, third, fourth, record
):
    """Zulu beat Alpha; both end on 3 points, difference 0 and no casualties: Zulu ranks above Alpha although the
    name would put Alpha first."""
    Team.objects.filter(pk=home.pk).update(name="Zulu")
    Team.objects.filter(pk=away.pk).update(name="Alpha")
    record(home, away, 1, 0)  # Zulu beats Alpha
    record(away, third, 1, 0)  # Alpha beats Third
    record(home, fourth, 0, 1)  # Zulu loses to Fourth
    names = order(api, league)
    assert names == ["Fourth", "Zulu", "Alpha", "Third"], standings(api, league)


def test_everything_equal_is_ordered_by_name(api, league, home, away, third, fourth, record):
    Team.objects.filter(pk=home.pk).update(name="beta")
    Team.objects.filter(pk=away.pk).update(name="Alpha")
    record(home, away, 1, 1)
    assert order(api, league)[:2] == ["Alpha", "beta"]
    assert order(api, league)[2:] == ["Fourth", "Third"]


def test_the_commissioners_league_points_override_changes_the_points(
    api, api_as, commissioner, league, home, away, third, record
):
    response = api_as(commissioner).patch(
        f"/api/v1/leagues/{league.pk}/",
        {"house_rules": {"league_points": {"win": 2, "draw": 1, "loss": 1}, "friendlies_give_points": True}},
        format="json",
    )
    assert response.status_code == 200, response.json()
    record(home, away, 1, 0)
    record(third, home, 0, 0, kind="friendly")
    rows = {row["name"]: row for row in standings(api, league)}
    assert (rows["Home"]["points"], rows["Away"]["points"], rows["Third"]["points"]) == (3, 1, 1)


def test_the_commissioners_tie_breakers_override_changes_the_order(
    api, api_as, commissioner, league, home, away, third, fourth, record
):
    Team.objects.filter(pk=home.pk).update(name="Aardvarks")
    record(away, third, 3, 0)  # Away: 3 points, +3
    record(home, fourth, 1, 0, cas=(4, 0))  # Aardvarks: 3 points, +1, 4 casualties
    assert order(api, league)[:2] == ["Away", "Aardvarks"]
    patch = api_as(commissioner).patch
    url = f"/api/v1/leagues/{league.pk}/"
    response = patch(url, {"house_rules": {"tie_breakers": ["points", "casualties_inflicted"]}}, format="json")
    assert response.status_code == 200, response.json()
    assert order(api, league)[:2] == ["Aardvarks", "Away"]
    assert patch(url, {"house_rules": {"tie_breakers": ["name"]}}, format="json").status_code == 200
    assert order(api, league) == ["Aardvarks", "Away", "Fourth", "Third"]
    # Only the commissioner sets them.
    response = api_as(home.coach).patch(url, {"house_rules": {"tie_breakers": ["points"]}}, format="json")
    assert_refused(response, 403)


def test_a_stadium_of_the_league_is_accepted(api_as, commissioner, league, home, away):
    stadium = Stadium.objects.create(league=league, name="Home Ground", special_attribute="Astrogranite")
    assert schedule(api_as(commissioner), league, home, away, stadium=stadium.pk).status_code == 201


@pytest.mark.parametrize("bad", [[1], {"id": 1}, True, "1"])
def test_a_team_or_player_given_as_a_list_or_object_is_a_400_not_a_500(api_as, league, home, away, coach, bad):
    """Standard 3: no 500 for any input — ids that are not whole numbers are refused naming the field."""
    mid = api_as(coach).post("/api/v1/matches/", {"league": league.pk, "teams": [home.pk, away.pk]}, format="json")
    mid = mid.json()["id"]
    for body in (
        {"teams": [{"team": bad, "score": 0}, {"team": away.pk, "score": 0}]},
        {
            "teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}],
            "players": [{"player": bad, "touchdowns": 0}],
        },
    ):
        r = api_as(coach).post(f"/api/v1/matches/{mid}/result/", body, format="json")
        assert r.status_code == 400, r.content
