"""Generated round robins through the API (issue 13, "Schedules"; contract: docs api-v1 "Contract additions
(v1.1)"; rules: ../shared/rules/blitzbowl.md "League")."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from league.models import AuditEntry
from matches.models import Match, MatchTeam, Schedule, ScheduleRound
from tests.dugout.schedules.helpers import five_teams, pairs
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/leagues/{}/schedule/"


def test_golden_r_a_five_team_blitz_bowl_double_round_robin_every_round_by_hand(api_as, league, commissioner):
    """Five teams A–E (seeded in the order they were founded): the circle method with the phantom bye on the
    fixed seat, worked by hand (campaigns/scheduling/round_robin.py). Round r (0-based) seats the moving teams
    A B C D E turned r places on; the team opposite the phantom rests, the next pair puts its upper seat at home:

        r=0  circle A B C D E   A–D  B–C   bye E
        r=1  circle E A B C D   E–C  A–B   bye D
        r=2  circle D E A B C   D–B  E–A   bye C
        r=3  circle C D E A B   C–A  D–E   bye B
        r=4  circle B C D E A   B–E  C–D   bye A

    and the second leg is the first again, home and away swapped. Every pair meets once per leg, every team
    plays 2 home and 2 away each leg, and no pair meets three times in a row (R)."""
    A, B, C, D, E = five_teams(league)
    r = api_as(commissioner).post(
        URL.format(league.pk), {"format": "round_robin", "legs": 2, "start": "2027-01-04"}, format="json"
    )
    assert r.status_code == 201, r.json()
    rounds = r.json()["rounds"]
    leg1 = [
        ([(A, D), (B, C)], E),
        ([(E, C), (A, B)], D),
        ([(D, B), (E, A)], C),
        ([(C, A), (D, E)], B),
        ([(B, E), (C, D)], A),
    ]
    leg2 = [([(away, home) for home, away in ps], bye) for ps, bye in leg1]
    assert [(pairs(rnd["matches"]), rnd["bye"]) for rnd in rounds] == leg1 + leg2
    assert [rnd["round"] for rnd in rounds] == list(range(1, 11))
    # Round k starts (k-1)·7 days after the start; its last day is the day before the next starts.
    assert [(rnd["starts"], rnd["deadline"]) for rnd in rounds[:2]] == [
        ("2027-01-04", "2027-01-10"),
        ("2027-01-11", "2027-01-17"),
    ]
    assert rounds[-1]["starts"] == "2027-03-08"
    # Every match is of the open season, with its round, its start and its deadline (start + days_per_round).
    m = Match.objects.get(pk=rounds[1]["matches"][0])
    assert (m.season, m.round, m.kind, m.status) == (1, 2, "league", "scheduled")
    assert timezone.localtime(m.scheduled_for).date() == dt.date(2027, 1, 11)
    assert m.deadline - m.scheduled_for == dt.timedelta(days=7)
    assert Match.objects.filter(league=league).count() == 20
    # The answer is stored: GET shows the same rounds; the audit has the schedule.
    listed = api_as(None).get(URL.format(league.pk)).json()
    assert [rnd["round"] for rnd in listed[0]["rounds"]] == list(range(1, 11))
    assert [b["id"] for b in listed[0]["rounds"][0]["byes"]] == [E]
    entry = AuditEntry.objects.get(league=league, action="schedule")
    assert entry.actor == commissioner and entry.after["matches"] == 20


def test_a_preview_answers_200_and_creates_nothing(api_as, league, commissioner):
    A, B, C, D, _E = five_teams(league)
    r = api_as(commissioner).post(
        URL.format(league.pk), {"format": "round_robin", "start": "2027-01-04", "preview": True}, format="json"
    )
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["preview"] is True and body["id"] is None
    assert body["rounds"][0]["matches"] == [{"teams": [A, D]}, {"teams": [B, C]}]
    assert not Match.objects.exists() and not Schedule.objects.exists() and not AuditEntry.objects.exists()


def test_default_teams_are_those_that_left_creation_and_listed_teams_in_creation_are_closed(
    api_as, league, commissioner
):
    A, *_others = five_teams(league)
    from tests.factories import TeamFactory

    fresh = TeamFactory(league=league, name="Fresh")
    assert fresh.in_creation
    r = api_as(commissioner).post(
        URL.format(league.pk), {"format": "round_robin", "start": "2027-01-04"}, format="json"
    )
    assert r.status_code == 201
    assert fresh.pk not in Schedule.objects.get().teams
    Schedule.objects.all().delete()
    Match.objects.all().delete()
    r = api_as(commissioner).post(
        URL.format(league.pk), {"format": "round_robin", "start": "2027-01-04", "teams": [A, fresh.pk]}, format="json"
    )
    assert r.status_code == 201, r.json()
    fresh.refresh_from_db()
    assert not fresh.in_creation


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"format": "league"}, "format"),
        ({"format": "round_robin"}, "start"),
        ({"format": "round_robin", "start": "someday"}, "start"),
        ({"format": "round_robin", "start": "2027-01-04", "legs": 3}, "legs"),
        ({"format": "round_robin", "start": "2027-01-04", "days_per_round": 0}, "days_per_round"),
        ({"format": "round_robin", "start": "2027-01-04", "teams": [999999, 999998]}, "teams"),
        ({"format": "round_robin", "start": "2027-01-04", "teams": "all"}, "teams"),
        ({"format": "knockout", "start": "2027-01-04"}, "teams"),
        ({"format": "knockout", "start": "2027-01-04", "from_standings": 9}, "from_standings"),
    ],
)
def test_bad_input_is_400_naming_the_field_and_changes_nothing(api_as, league, commissioner, body, field):
    five_teams(league)
    r = api_as(commissioner).post(URL.format(league.pk), body, format="json")
    assert r.status_code == 400, r.content
    assert field in r.json(), r.json()
    assert not Match.objects.exists() and not Schedule.objects.exists()


def test_only_the_commissioner_generates_a_schedule(api_as, league, coach):
    five_teams(league)
    body = {"format": "round_robin", "start": "2027-01-04", "preview": True}
    assert api_as(coach).post(URL.format(league.pk), body, format="json").status_code == 403
    assert api_as(None).post(URL.format(league.pk), body, format="json").status_code == 401
    assert api_as(UserFactory()).post(URL.format(league.pk), body, format="json").status_code == 403


def test_a_second_round_robin_in_the_season_is_409(api_as, league, commissioner):
    five_teams(league)
    body = {"format": "round_robin", "start": "2027-01-04"}
    assert api_as(commissioner).post(URL.format(league.pk), body, format="json").status_code == 201
    r = api_as(commissioner).post(URL.format(league.pk), body, format="json")
    assert r.status_code == 409 and "detail" in r.json()
    assert Schedule.objects.count() == 1


def test_r_a_pair_that_met_twice_in_a_row_cannot_open_the_schedule_against_each_other(api_as, league, commissioner):
    """R (blitzbowl.md "League"): the teams' recent opponents count; A and B have just met twice, so round 1 of a
    two-team schedule (A v B) would be their third meeting in a row: refused in words, nothing created."""
    A, B, *_ = five_teams(league)
    client = api_as(commissioner)
    for _ in range(2):
        mid = client.post("/api/v1/matches/", {"league": league.pk, "teams": [A, B]}, format="json").json()["id"]
        client.post(f"/api/v1/matches/{mid}/forfeit/", {"team": B, "reason": "No show."}, format="json")
    r = client.post(
        URL.format(league.pk), {"format": "round_robin", "start": "2027-01-04", "teams": [A, B]}, format="json"
    )
    assert r.status_code == 400 and "teams" in r.json()
    assert "in a row" in r.json()["teams"][0]
    assert Match.objects.count() == 2


def test_a_team_withdraws_its_unplayed_matches_become_byes(api_as, league, commissioner):
    """Four teams A–D, one leg: A v D, B v C / C v A... A withdraws after round 1 is played: its two unplayed
    matches go, each of its opponents rests that round instead; the played match stands."""
    A, B, C, D = five_teams(league)[:4]
    client = api_as(commissioner)
    body = {"format": "round_robin", "start": "2027-01-04", "teams": [A, B, C, D]}
    rounds = client.post(URL.format(league.pk), body, format="json").json()["rounds"]
    first = next(m for m in rounds[0]["matches"] if A in Match.objects.get(pk=m).sides.values_list("team", flat=True))
    client.post(f"/api/v1/matches/{first}/forfeit/", {"team": A, "reason": "No show."}, format="json")
    r = client.post(URL.format(league.pk) + "withdraw/", {"team": A}, format="json")
    assert r.status_code == 200, r.json()
    after = r.json()["rounds"]
    assert first in after[0]["matches"]
    for rnd in after[1:]:
        teams = set(MatchTeam.objects.filter(match__in=rnd["matches"]).values_list("team_id", flat=True))
        assert A not in teams and len(rnd["matches"]) == 1 and len(rnd["byes"]) == 1
        assert A not in rnd["byes"]
    assert Schedule.objects.get().withdrawn == [A]
    assert AuditEntry.objects.filter(action="schedule").count() == 2
    assert client.post(URL.format(league.pk) + "withdraw/", {"team": A}, format="json").status_code == 400


def test_a_late_team_is_added_to_the_remaining_rounds(api_as, league, commissioner):
    """Five teams, one leg (a bye each round): a sixth joins from round 1 — it plays the resting team of each
    round (the team it owes most, best seed first), so no published fixture moves and no round is added."""
    A, B, C, D, E = five_teams(league)
    from tests.factories import TeamFactory

    late = TeamFactory(league=league, name="Late")
    client = api_as(commissioner)
    client.post(URL.format(league.pk), {"format": "round_robin", "start": "2099-01-04"}, format="json")
    before = set(Match.objects.values_list("pk", flat=True))
    r = client.post(URL.format(league.pk) + "add/", {"team": late.pk}, format="json")
    assert r.status_code == 201, r.json()
    rounds = r.json()["rounds"]
    assert len(rounds) == 5 and all(rnd["bye"] is None for rnd in rounds)
    assert before <= set(Match.objects.values_list("pk", flat=True))
    added = Match.objects.exclude(pk__in=before)
    assert added.count() == 5
    opponents = [next(s.team_id for s in m.sides.all() if s.team_id != late.pk) for m in added.order_by("round")]
    assert opponents == [E, D, C, B, A]  # each round's resting team
    late.refresh_from_db()
    assert not late.in_creation and ScheduleRound.objects.count() == 5
    assert client.post(URL.format(league.pk) + "add/", {"team": late.pk}, format="json").status_code == 400


def test_in_a_swiss_a_withdrawn_teams_match_becomes_a_bye_and_a_late_team_is_paired_next_round(
    api_as, league, commissioner
):
    """Four teams A–D: round 1 A–B, C–D. D withdraws before playing: its match goes and C rests instead. A late
    team E joins: it is in the Swiss' teams from the next round on (A, B, C, E: four again, no bye)."""
    A, B, C, D, E = five_teams(league)
    client = api_as(commissioner)
    body = {"format": "swiss", "start": "2027-01-04", "teams": [A, B, C, D]}
    (r1,) = client.post(URL.format(league.pk), body, format="json").json()["rounds"]
    assert pairs(r1["matches"]) == [(A, B), (C, D)]
    r = client.post(URL.format(league.pk) + "withdraw/", {"team": D, "format": "swiss"}, format="json")
    assert r.status_code == 200, r.json()
    (after,) = r.json()["rounds"]
    assert after["matches"] == [r1["matches"][0]] and after["byes"] == [C]
    r = client.post(URL.format(league.pk) + "add/", {"team": E, "format": "swiss"}, format="json")
    assert r.status_code == 201, r.json()
    client.post(f"/api/v1/matches/{r1['matches'][0]}/forfeit/", {"team": B, "reason": "No show."}, format="json")
    (r2,) = client.post(URL.format(league.pk), {"format": "swiss"}, format="json").json()["rounds"]
    teams = {t for pair in pairs(r2["matches"]) for t in pair}
    assert teams == {A, B, C, E} and r2["bye"] is None
    r = client.post(URL.format(league.pk) + "withdraw/", {"team": A, "format": "knockout"}, format="json")
    assert r.status_code == 400 and "format" in r.json()


def test_a_withdrawal_is_409_while_an_unplayed_matchs_pre_match_has_moved_gil(api_as, league, commissioner):
    """The ledger keeps its entries and the match each belongs to: such a match is forfeited, not deleted."""
    from teams.models import LedgerEntry

    A, B, *_ = five_teams(league)
    client = api_as(commissioner)
    body = {"format": "round_robin", "start": "2027-01-04", "teams": [A, B]}
    (rnd,) = client.post(URL.format(league.pk), body, format="json").json()["rounds"]
    last = LedgerEntry.objects.filter(team_id=A).order_by("-sequence").first()
    LedgerEntry.objects.create(
        team_id=A,
        sequence=last.sequence + 1,
        amount=-1000,
        balance_after=last.balance_after - 1000,
        kind=last.kind,
        reason="Inducement",
        match_id=rnd["matches"][0],
    )
    r = client.post(URL.format(league.pk) + "withdraw/", {"team": A}, format="json")
    assert r.status_code == 409 and "forfeit" in r.json()["detail"]
    assert Match.objects.filter(pk=rnd["matches"][0]).exists()
