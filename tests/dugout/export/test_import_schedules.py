"""Generated schedules in the league document (issue 13: "the export covers seasons, schedules, divisions and
the audit"; docs/decisions/ 2026-12-02 "Schedules in the league document"): a round robin, a knockout and a
Swiss survive export → import → export, the imported league's bracket and fixtures show the same rounds, and a
bad schedule field is refused at its path with nothing created."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from matches.models import Match, Schedule, ScheduleRound
from matches.schedules import league_schedules
from tests.dugout.export.roundtrip import assert_same, export_bytes, round_trip
from tests.dugout.export.test_export_stream import busy_league
from tests.dugout.export.test_import import refused
from tests.dugout.schedules.helpers import three_schedules

pytestmark = pytest.mark.django_db


@pytest.fixture
def scheduled(api_as, commissioner, coach, other_coach):
    league = busy_league(api_as, commissioner, [coach, other_coach], teams=6, matches=3)
    three_schedules(league, commissioner)
    league.refresh_from_db()  # its open season: 2
    return league


@pytest.fixture
def document(api, scheduled) -> dict:
    return json.loads(export_bytes(api, scheduled.pk))


def named_schedules(league) -> list:
    """The open season's schedules as the fixtures and schedule pages read them, teams by name, matches by
    their teams (ids differ between the two leagues)."""
    out = []
    for schedule in league_schedules(league=league):
        names = {t["id"]: t["name"] for r in schedule["rounds"] for m in r["matches"] for t in m["teams"]}
        names |= {b["id"]: b["name"] for r in schedule["rounds"] for b in r["byes"]}
        out.append(
            {
                **{k: schedule[k] for k in ("format", "legs", "days_per_round")},
                "teams": [names.get(t, t) for t in schedule["teams"]],
                "withdrawn": len(schedule["withdrawn"]),
                "rounds": [
                    (
                        r["round"],
                        r["starts"],
                        r["deadline"],
                        r["kind"],
                        [(m["status"], [(t["name"], t["outcome"]) for t in m["teams"]]) for m in r["matches"]],
                        [b["name"] for b in r["byes"]],
                    )
                    for r in schedule["rounds"]
                ],
            }
        )
    return out


def named_bracket(api, league) -> dict:
    """The bracket as `GET /leagues/{id}/bracket/` answers it, teams by name, matches by their teams."""
    bracket = api.get(f"/api/v1/leagues/{league.pk}/bracket/").json()
    name = lambda team: bracket["names"].get(str(team))  # noqa: E731
    rounds = [
        {
            **{k: r[k] for k in ("round", "kind", "starts", "deadline")},
            "byes": [name(b) for b in r["byes"]],
            "matches": [(m["status"], [name(t) for t in m["teams"]], name(m["winner"])) for m in r["matches"]],
        }
        for r in bracket["rounds"]
    ]
    return {"champion": name(bracket["champion"]), "seeds": [name(t) for t in bracket["seeds"]], "rounds": rounds}


def page_text(path: str) -> str:
    """A public page's text without its markup and links (which name ids)."""
    response = Client().get(path)
    assert response.status_code == 200, path
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_round_robin_a_knockout_and_a_swiss_survive_the_round_trip_and_show_the_same_rounds(api, api_as, scheduled):
    """Export → import → export is the same document apart from ids, timestamps and people (issue 13), the
    rows behind it came back, and the imported league's bracket, fixtures and schedules read the same rounds:
    the byes, the withdrawn team, the knockout's slots and its second round, the matches in their rounds."""
    first, second, copy = round_trip(api, api_as, scheduled)
    assert [s["format"] for s in first["schedules"]] == ["round_robin", "knockout", "swiss"]
    assert_same(first, second)
    for model, lookup in ((Schedule, "league"), (ScheduleRound, "schedule__league")):
        assert model.objects.filter(**{lookup: copy}).count() == model.objects.filter(**{lookup: scheduled}).count()
    for league in (scheduled, copy):
        assert Match.objects.filter(league=league, schedule_round__isnull=False).count() == 9
    assert named_schedules(copy) == named_schedules(scheduled)
    bracket = named_bracket(api, copy)
    assert bracket == named_bracket(api, scheduled)
    assert [r["kind"] for r in bracket["rounds"]] == ["playoff", "final"] and bracket["rounds"][0]["byes"] == ["Team 0"]
    knockout = Schedule.objects.get(league=copy, format="knockout").rounds.get(number=1)
    assert knockout.slots[0] in [t.pk for t in copy.teams.all()]  # the bye's slot names the new team
    for page, shown in (("bracket", "Team 0 (bye)"), ("fixtures", "Round 1: 2027-01-04")):
        text = page_text(f"/leagues/{copy.pk}/{page}/")
        assert shown in text and text == page_text(f"/leagues/{scheduled.pk}/{page}/"), page


def test_the_rounds_are_in_the_document_with_their_slots_and_the_matches_name_them(document):
    knockout = next(s for s in document["schedules"] if s["format"] == "knockout")
    first, final = knockout["rounds"]
    assert (first["kind"], final["kind"]) == ("playoff", "final")
    assert isinstance(first["slots"][0], int) and len(first["slots"][1]) == 2  # seed 1 on a bye, then a match
    # Every round has a match here (the withdrawn team's matches are gone, the others play on), and a match names
    # a round of the document or none (the busy league's own matches, scheduled by hand).
    rounds = {r["id"] for s in document["schedules"] for r in s["rounds"]}
    assert {m["schedule_round"] for m in document["matches"]} == rounds | {None}


# --- Bad schedule fields: 400 at the path, nothing created -------------------------------------------------------


def test_a_round_whose_deadline_is_before_its_start_is_refused_at_its_path(api_as, document, stranger):
    rnd = document["schedules"][0]["rounds"][2]
    rnd["deadline"] = "2020-01-01"
    refused(api_as(stranger), document, "schedules[0].rounds[2].deadline")


def test_a_date_that_is_no_date_is_refused(api_as, document, stranger):
    document["schedules"][1]["start"] = "2027-02-30"
    refused(api_as(stranger), document, "schedules[1].start")


def test_a_second_schedule_of_a_format_in_a_season_is_refused(api_as, document, stranger):
    document["schedules"][2]["format"] = "knockout"
    refused(api_as(stranger), document, "schedules[2].format")


def test_a_slot_or_a_bye_of_a_team_outside_the_schedule_is_refused(api_as, document, stranger):
    client = api_as(stranger)
    outsider = document["teams"][5]["id"]  # not in the knockout of the first three
    bad = json.loads(json.dumps(document))
    bad["schedules"][1]["rounds"][0]["slots"][1][1] = outsider
    refused(client, bad, "schedules[1].rounds[0].slots[1][1]")
    bad = json.loads(json.dumps(document))
    bad["schedules"][1]["rounds"][0]["byes"] = [999_999]
    refused(client, bad, "schedules[1].rounds[0].byes[0]")
    bad = json.loads(json.dumps(document))
    bad["schedules"][1]["rounds"][0]["slots"][1] = [bad["schedules"][1]["teams"][1]]
    refused(client, bad, "schedules[1].rounds[0].slots[1]")


def test_a_team_both_in_a_schedule_and_withdrawn_from_it_is_refused(api_as, document, stranger):
    schedule = document["schedules"][0]
    schedule["withdrawn"].append(schedule["teams"][0])
    refused(api_as(stranger), document, f"schedules[0].withdrawn[{len(schedule['withdrawn']) - 1}]")


def test_two_rounds_of_the_same_number_or_id_are_refused(api_as, document, stranger):
    client = api_as(stranger)
    bad = json.loads(json.dumps(document))
    bad["schedules"][0]["rounds"][1]["number"] = 1
    refused(client, bad, "schedules[0].rounds[1].number")
    bad = json.loads(json.dumps(document))
    bad["schedules"][2]["rounds"][0]["id"] = bad["schedules"][0]["rounds"][0]["id"]
    refused(client, bad, "schedules[2].rounds[0].id")


def test_a_match_of_an_unknown_round_or_of_another_seasons_round_is_refused(api_as, document, stranger):
    client = api_as(stranger)
    i = next(i for i, m in enumerate(document["matches"]) if m["schedule_round"])
    bad = json.loads(json.dumps(document))
    bad["matches"][i]["schedule_round"] = 999_999
    refused(client, bad, f"matches[{i}].schedule_round")
    bad = json.loads(json.dumps(document))
    bad["matches"][i]["season"] = 1  # its round is of season 2's schedule
    refused(client, bad, f"matches[{i}].schedule_round")


def test_a_schedule_of_a_season_the_document_does_not_hold_is_refused(api_as, document, stranger):
    swiss = document["schedules"][2]
    swiss["season"] = 7
    rounds = {r["id"] for r in swiss["rounds"]}
    for match in document["matches"]:
        if match["schedule_round"] in rounds:
            match["season"] = 7
    refused(api_as(stranger), document, "schedules[2].season")


def test_an_export_from_before_the_schedules_still_imports(api_as, document, stranger):
    """An older document has no `schedules` section and no match names a round: nothing is scheduled."""
    document.pop("schedules")
    for match in document["matches"]:
        match.pop("schedule_round")
    body = json.dumps(document).encode()
    response = api_as(stranger).post("/api/v1/leagues/import/", body, content_type="application/json")
    assert response.status_code == 201, response.json()
    assert not Schedule.objects.filter(league=response.json()["id"]).exists()
