"""Schedules with divisions (issue 13, "Divisions"; decisions: docs/decisions/ "Divisions" — the knockout's
seeds — and "Pure schedule generators"): a round robin per division, rounds aligned by date and no match across
divisions; a knockout drawn from several divisions' tables, division winners seeded first."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.models import Division
from matches.models import Match, MatchTeam, Schedule
from matches.schedules import schedule_generate
from teams.models import Team
from tests.dugout.schedules.helpers import bulk_ready_teams, pairs, ready_teams
from tests.dugout.test_division_standings import final

pytestmark = pytest.mark.django_db

URL = "/api/v1/leagues/{}/schedule/"
START = "2027-01-04"


def divide(league, groups: dict[str, list[int]]) -> dict[str, int]:
    made = {}
    for order, (name, teams) in enumerate(groups.items()):
        made[name] = Division.objects.create(league=league, name=name, order=order).pk
        Team.objects.filter(pk__in=teams).update(division=made[name])
    return made


@pytest.fixture
def seven(league):
    """North A, B, C, D; South E, F, G (founded in that order)."""
    ids = ready_teams(league, 7)
    return ids, divide(league, {"North": ids[:4], "South": ids[4:]})


def test_issue13_divisions_a_per_division_round_robin_pairs_each_division_apart_in_aligned_rounds(
    league, commissioner, api_as, seven
):
    (a, b, c, d, e, f, g), _ = seven
    r = api_as(commissioner).post(
        URL.format(league.pk), {"format": "round_robin", "per_division": True, "start": START}, format="json"
    )
    assert r.status_code == 201, r.json()
    rounds = r.json()["rounds"]
    # Hand-checked (the circle method: round 1 pairs the first with the last); South's odd team rests in turn.
    assert [(x["round"], x["starts"], pairs(x["matches"]), x["byes"]) for x in rounds] == [
        (1, "2027-01-04", [(a, d), (b, c), (e, f)], [g]),
        (2, "2027-01-11", [(c, a), (d, b), (g, e)], [f]),
        (3, "2027-01-18", [(a, b), (c, d), (f, g)], [e]),
    ]
    schedule = Schedule.objects.get(league=league)
    assert schedule.teams == [a, b, c, d, e, f, g]


def test_issue13_divisions_one_divisions_round_robin_leaves_the_other_out(league, commissioner, api_as, seven):
    (a, b, c, d, e, f, g), divisions = seven
    r = api_as(commissioner).post(
        URL.format(league.pk),
        {"format": "round_robin", "division": divisions["South"], "start": START},
        format="json",
    )
    assert r.status_code == 201, r.json()
    assert [pairs(x["matches"]) for x in r.json()["rounds"]] == [[(e, f)], [(g, e)], [(f, g)]]
    assert not MatchTeam.objects.filter(team_id__in=[a, b, c, d]).exists()


def test_issue13_divisions_a_preview_writes_nothing_and_answers_the_same_pairs(league, commissioner, api_as, seven):
    (a, b, c, d, e, f, _g), _ = seven
    body = {"format": "round_robin", "per_division": True, "start": START, "preview": True}
    r = api_as(commissioner).post(URL.format(league.pk), body, format="json")
    assert r.status_code == 200
    assert [m["teams"] for m in r.json()["rounds"][0]["matches"]] == [[a, d], [b, c], [e, f]]
    assert not Match.objects.filter(league=league).exists() and not Schedule.objects.exists()


def test_issue13_divisions_refusals_are_400_naming_the_field_and_change_nothing(league, commissioner, api_as, seven):
    ids, divisions = seven
    client = api_as(commissioner)
    for body, field in [
        ({"format": "round_robin", "per_division": True, "teams": ids[:2]}, "teams"),
        ({"format": "round_robin", "per_division": True, "division": divisions["North"]}, "division"),
        ({"format": "round_robin", "division": 99999999}, "division"),
        ({"format": "swiss", "per_division": True}, "per_division"),
        ({"format": "knockout", "divisions": [divisions["North"]], "top": 9}, "top"),
        ({"format": "knockout", "divisions": [divisions["North"], divisions["North"]], "top": 1}, "divisions"),
        ({"format": "knockout", "divisions": [99999999], "top": 1}, "divisions"),
        ({"format": "knockout", "from_standings": 2, "divisions": [divisions["North"]], "top": 1}, "teams"),
        ({"format": "round_robin", "divisions": [divisions["North"]]}, "divisions"),
    ]:
        r = client.post(URL.format(league.pk), {**body, "start": START}, format="json")
        assert r.status_code == 400 and field in r.json(), (body, r.json())
    assert not Match.objects.filter(league=league).exists()


def test_issue13_divisions_a_league_without_divisions_has_no_per_division_round_robin(league, commissioner, api_as):
    ready_teams(league, 4)
    body = {"format": "round_robin", "per_division": True, "start": START}
    r = api_as(commissioner).post(URL.format(league.pk), body, format="json")
    assert r.status_code == 400 and "per_division" in r.json()


def test_issue13_divisions_a_late_team_cannot_join_a_per_division_round_robin(league, commissioner, api_as, seven):
    client = api_as(commissioner)
    client.post(URL.format(league.pk), {"format": "round_robin", "per_division": True, "start": START}, format="json")
    (late,) = ready_teams(league, 1, prefix="Late")
    count = Match.objects.count()
    r = client.post(f"{URL.format(league.pk)}add/", {"team": late}, format="json")
    assert r.status_code == 409
    assert Match.objects.count() == count


def test_issue13_divisions_h_a_knockout_from_two_divisions_seeds_the_winners_first(league, commissioner, api_as):
    """North: A 6 pts, B 0; South: D 1 (diff 0), C 1 (diff -2). Top 2 of each, North listed first: seeds A (North
    1st), D (South 1st), B (North 2nd), C (South 2nd) — so seed 1 meets seed 4 (A v C), 2 meets 3 (D v B)."""
    a, b, c, d = ready_teams(league, 4)
    divisions = divide(league, {"North": [a, b], "South": [c, d]})
    final(league, a, b, (2, 0))
    final(league, c, d, (1, 1))
    final(league, a, c, (2, 0))
    body = {"format": "knockout", "divisions": [divisions["North"], divisions["South"]], "top": 2, "start": START}
    r = api_as(commissioner).post(URL.format(league.pk), body, format="json")
    assert r.status_code == 201, r.json()
    assert Schedule.objects.get(league=league, format="knockout").teams == [a, d, b, c]
    assert pairs(r.json()["rounds"][0]["matches"]) == [(a, c), (d, b)]
    # Listed the other way round, South's winner is the first seed.
    Match.objects.filter(schedule_round__isnull=False).delete()
    Schedule.objects.all().delete()
    body["divisions"] = [divisions["South"], divisions["North"]]
    preview = api_as(commissioner).post(URL.format(league.pk), {**body, "preview": True}, format="json").json()
    assert [m["teams"] for m in preview["rounds"][0]["matches"]] == [[d, b], [a, c]]


@pytest.fixture
def twelve(league):
    return bulk_ready_teams(league, 12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_issue13_divisions_property_a_per_division_round_robin_never_crosses_divisions(
    league, commissioner, twelve, data
):
    """However the teams are split (2–4 divisions, two teams or more each, some teams in none), every match of
    the per-division round robin is between two teams of one division, every pair of a division meets once, and
    each round's matches start on the same day."""
    Schedule.objects.filter(league=league).delete()
    Match.objects.filter(league=league).delete()
    Division.objects.filter(league=league).delete()
    count = data.draw(st.integers(min_value=2, max_value=4))
    teams = data.draw(st.permutations(twelve))
    sizes = [data.draw(st.integers(min_value=2, max_value=3)) for _ in range(count)]
    groups, at = {}, 0
    for n, size in enumerate(sizes):  # at most 4 × 3 = 12 teams; the rest in no division
        groups[f"D{n}"] = list(teams[at : at + size])
        at += size
    placed = divide(league, groups)
    division_of = {t: placed[name] for name, members in groups.items() for t in members}
    schedule_generate(
        user=commissioner, league_id=league.pk, format="round_robin", per_division=True, start=dt.date(2027, 1, 4)
    )
    sides: dict[int, list[int]] = {}
    for match_id, team_id in MatchTeam.objects.filter(match__league=league).values_list("match_id", "team_id"):
        sides.setdefault(match_id, []).append(team_id)
    assert all(division_of[x] == division_of[y] for x, y in sides.values())
    met = {frozenset(p) for p in sides.values()}
    assert met == {frozenset((x, y)) for m in groups.values() for x in m for y in m if x != y}
    assert len(met) == len(sides)
    starts = {}
    for number, at_day in Match.objects.filter(league=league).values_list("round", "scheduled_for"):
        assert starts.setdefault(number, at_day) == at_day
