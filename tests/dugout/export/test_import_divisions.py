"""Divisions in the league document (issue 13: "The export covers seasons, schedules, divisions and the audit";
docs/decisions/ 2026-12-02 "Divisions in the league document"): a league split into divisions survives export →
import → export, its teams in the same divisions, and a bad division is refused at its path with nothing
created."""

from __future__ import annotations

import json

import pytest

from league.models import Division
from teams.models import Team
from tests.dugout.export.roundtrip import assert_same, export_bytes, round_trip
from tests.dugout.export.test_export_stream import busy_league
from tests.dugout.export.test_import import refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def divided(api_as, commissioner, coach, other_coach):
    league = busy_league(api_as, commissioner, [coach, other_coach], teams=6, matches=2)
    client = api_as(commissioner)
    teams = list(Team.objects.filter(league=league).order_by("id").values_list("pk", flat=True))
    made = []
    for name, order in (("South", 2), ("North", 1)):
        response = client.post(f"/api/v1/leagues/{league.pk}/divisions/", {"name": name, "order": order}, format="json")
        assert response.status_code == 201, response.content
        made.append(response.json()["id"])
    for division, members in ((made[0], teams[:3]), (made[1], teams[3:5])):  # the sixth team in none
        response = client.post(
            f"/api/v1/leagues/{league.pk}/divisions/assign/", {"division": division, "teams": members}, format="json"
        )
        assert response.status_code == 200, response.content
    return league


def placed(league) -> list[tuple[str, str | None]]:
    return list(Team.objects.filter(league=league).order_by("name").values_list("name", "division__name"))


def test_divisions_and_their_teams_survive_the_round_trip(api, api_as, divided):
    before, after, copy = round_trip(api, api_as, divided)
    assert [d["name"] for d in before["divisions"]] == ["North", "South"]  # in their order
    assert_same(before, after)
    assert placed(copy) == placed(divided)
    assert list(Division.objects.filter(league=copy).values_list("name", "order")) == [("North", 1), ("South", 2)]


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["divisions"][1].update(id=d["divisions"][0]["id"]), "divisions[1].id"),
        (lambda d: d["divisions"][1].update(name=d["divisions"][0]["name"].upper()), "divisions[1].name"),
        (lambda d: d["divisions"][0].update(name="   "), "divisions[0].name"),
        (lambda d: d["divisions"][0].update(order=1000), "divisions[0].order"),
        (lambda d: d["teams"][0].update(division=999_999), "teams[0].division"),
        (lambda d: d["teams"][0].update(division="North"), "teams[0].division"),
    ],
)
def test_a_bad_division_is_refused_at_its_path_and_nothing_is_created(api, api_as, divided, change, path):
    document = json.loads(export_bytes(api, divided.pk))
    change(document)
    refused(api_as(divided.created_by), document, path)


def test_an_export_without_divisions_imports_with_its_teams_in_none(api, api_as, divided):
    document = json.loads(export_bytes(api, divided.pk))
    del document["divisions"]
    for team in document["teams"]:
        team["division"] = None
    response = api_as(divided.created_by).post(
        "/api/v1/leagues/import/", json.dumps(document), content_type="application/json"
    )
    assert response.status_code == 201, response.content
    assert not Team.objects.filter(league_id=response.json()["id"]).exclude(division=None).exists()
