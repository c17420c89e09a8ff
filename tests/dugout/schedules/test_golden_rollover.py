"""Golden season turn through the API (issue 13: seasons, schedules and the rollover; docs/decisions/ 2026-12-02
"The season turn").

A 4-team Blitz Bowl league plays a generated round robin (R: win 3, draw 1, loss 0), then a knockout seeded from
the table (semi-finals `playoff`, then the final `kind: final`), every post-match sequence walked. The season
closes: its champion is the final's winner (not the table's first), its table frozen. Season 2 opens with an
empty table and, by the house rule `season_rollover`:

- `carry` (I: "Unspent gil stays in the treasury"): each treasury is the team's season-1 ledger balance, summed
  by hand from its entries, and the turn writes no entry;
- `redraft` (H, set "from next season" during season 1): each treasury is the redraft budget (the rulebook's
  starting treasury, 100,000 gil) by one `redraft` entry of (budget − season-1 balance), every player released
  and every team back in creation.
"""

from __future__ import annotations

import pytest

from league.models import Season
from teams.models import LedgerEntry, Player, Team
from teams.services import ledger_audit
from tests.dugout.schedules.helpers import pairs
from tests.factories import UserFactory
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db

SCHEDULE = "/api/v1/leagues/{}/schedule/"


class Season1:
    """Plays the season: results by the better letter (A > B > C > D), scorers rotated so nobody reaches an
    improvement, both sides' post-match sequences walked through the API."""

    def __init__(self, api_as, league, teams):
        self.api_as, self.league, self.teams = api_as, league, teams
        self.scored = {t.pk: 0 for t in teams}

    def _scorer(self, team) -> int:
        players = list(Player.objects.filter(team=team).order_by("number").values_list("pk", flat=True))
        self.scored[team.pk] += 1
        return players[self.scored[team.pk] % len(players)]

    def play(self, mid: int, winner, loser, *, home_first: bool) -> None:
        home, away = (winner, loser) if home_first else (loser, winner)
        body = {
            "teams": [{"team": home.pk, "score": int(home is winner)}, {"team": away.pk, "score": int(away is winner)}],
            "players": [{"player": self._scorer(winner), "touchdowns": 1}],
        }
        r = self.api_as(home.coach).post(f"/api/v1/matches/{mid}/result/", body, format="json")
        assert r.status_code == 201, r.json()
        r = self.api_as(away.coach).post(f"/api/v1/matches/{mid}/confirm/")
        assert r.status_code == 200, r.json()
        for team in (winner, loser):
            self._walk(mid, team, won=team is winner)

    def _walk(self, mid: int, team, *, won: bool) -> None:
        fortune_rolls = {"winnings": [4], "fan_factor": [2, 2, 2] if won else [2, 2]}
        steps = [
            ("improvements", {}, {}),
            ("team_stats", {}, {}),
            ("fortune", {"reroll_winnings": False, "seek_sponsor": False}, fortune_rolls),
            ("hire_fire", {}, {}),
            ("prepare", {}, {"expensive_mistakes": [6]}),
        ]
        client = self.api_as(team.coach)
        for step, choices, rolls in steps:
            r = client.post(
                f"/api/v1/matches/{mid}/aftermath/{team.pk}/",
                {"step": step, "choices": choices, "rolls": rolls},
                format="json",
            )
            assert r.status_code == 200, (step, r.json())
        assert r.json()["complete"] is True, r.json()

    def play_round(self, match_ids: list[int]) -> None:
        order = {t.pk: i for i, t in enumerate(self.teams)}
        by_id = {t.pk: t for t in self.teams}
        for mid, (home, away) in zip(match_ids, pairs(match_ids), strict=True):
            winner, loser = sorted((home, away), key=order.__getitem__)
            self.play(mid, by_id[winner], by_id[loser], home_first=home == winner)


def _balances_by_hand(teams) -> dict[int, int]:
    """Each team's treasury summed from its ledger entries (not the running balance the writer keeps)."""
    sums = {t.pk: 0 for t in teams}
    for team_id, amount in LedgerEntry.objects.filter(team__in=teams, account="treasury").values_list(
        "team_id", "amount"
    ):
        sums[team_id] += amount
    return sums


@pytest.mark.parametrize("rollover", ["carry", "redraft"])
def test_golden_a_blitz_bowl_season_to_its_final_then_the_turn_issue_13(api_as, league, commissioner, rollover):
    teams = [full_team(league, UserFactory(), f"Seed {x}") for x in "ABCD"]
    A, B, C, D = teams
    client = api_as(commissioner)
    if rollover == "redraft":
        r = client.put(
            f"/api/v1/leagues/{league.pk}/house-rules/next-season/",
            {"house_rules": {"season_rollover": "redraft"}},
            format="json",
        )
        assert r.status_code == 200, r.json()
    season = Season1(api_as, league, teams)

    rr = client.post(
        SCHEDULE.format(league.pk),
        {"format": "round_robin", "start": "2027-01-04", "teams": [t.pk for t in teams]},
        format="json",
    )
    assert rr.status_code == 201, rr.json()
    for rnd in rr.json()["rounds"]:
        season.play_round(rnd["matches"])
    table = api_as(None).get(f"/api/v1/leagues/{league.pk}/standings/").json()["rows"]
    assert [(row["team"], row["points"]) for row in table] == [(A.pk, 9), (B.pk, 6), (C.pk, 3), (D.pk, 0)]

    ko = client.post(
        SCHEDULE.format(league.pk), {"format": "knockout", "from_standings": 4, "start": "2027-02-01"}, format="json"
    )
    assert ko.status_code == 201, ko.json()
    [semis] = ko.json()["rounds"]
    assert semis["kind"] == "playoff"
    semi_ad, semi_bc = semis["matches"]
    assert pairs([semi_ad, semi_bc]) == [(A.pk, D.pk), (B.pk, C.pk)]
    season.play(semi_ad, A, D, home_first=True)
    season.play(semi_bc, B, C, home_first=True)
    final = api_as(None).get(f"/api/v1/leagues/{league.pk}/bracket/").json()["rounds"][1]
    assert final["kind"] == "final" and final["matches"][0]["teams"] == [A.pk, B.pk]
    season.play(final["matches"][0]["id"], B, A, home_first=False)  # the table's second wins the final
    table = api_as(None).get(f"/api/v1/leagues/{league.pk}/standings/").json()["rows"]
    by_hand = _balances_by_hand(teams)
    # Winnings and expensive mistakes moved every treasury away from its 100,000 − 11 × 5,000 after hiring.
    assert len(set(by_hand.values())) > 1 and 45_000 not in by_hand.values()
    entries = LedgerEntry.objects.count()

    turned = client.post(f"/api/v1/leagues/{league.pk}/seasons/", {"name": "Season two"}, format="json")

    assert turned.status_code == 201, turned.json()
    assert (turned.json()["number"], turned.json()["status"]) == (2, "open")
    seasons = api_as(None).get(f"/api/v1/leagues/{league.pk}/seasons/").json()
    assert [(s["number"], s["status"], s["champion"]) for s in seasons] == [(1, "closed", B.pk), (2, "open", None)]
    frozen = api_as(None).get(f"/api/v1/leagues/{league.pk}/standings/?season=1").json()["rows"]
    assert frozen == Season.objects.get(league=league, number=1).final_table
    assert [(row["team"], row["points"], row["played"]) for row in frozen] == [
        (row["team"], row["points"], row["played"]) for row in table
    ]
    open_table = api_as(None).get(f"/api/v1/leagues/{league.pk}/standings/").json()["rows"]
    assert all(row["played"] == 0 and row["points"] == 0 for row in open_table)

    sheets = {t.pk: api_as(None).get(f"/api/v1/teams/{t.pk}/").json() for t in teams}
    if rollover == "carry":
        assert {pk: sheet["treasury"] for pk, sheet in sheets.items()} == by_hand
        assert LedgerEntry.objects.count() == entries  # the turn wrote nothing
        assert not Player.objects.filter(team__in=teams, left_at__isnull=False).exists()
        assert not any(Team.objects.get(pk=t.pk).in_creation for t in teams)
    else:
        assert {pk: sheet["treasury"] for pk, sheet in sheets.items()} == {t.pk: 100_000 for t in teams}
        redrafts = dict(LedgerEntry.objects.filter(kind="redraft").values_list("team_id", "amount"))
        assert redrafts == {t.pk: 100_000 - by_hand[t.pk] for t in teams}
        assert LedgerEntry.objects.count() == entries + 4
        assert ledger_audit() == []  # the bulk writer's running balances and sequences add up
        assert set(Player.objects.filter(team__in=teams).values_list("status", flat=True)) == {"retired"}
        assert all(Team.objects.get(pk=t.pk).in_creation for t in teams)
