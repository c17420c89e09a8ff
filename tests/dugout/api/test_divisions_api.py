"""A league's divisions through the API (issue 13, "Divisions"; decision: docs/decisions/ "Divisions"): the
list is public, the writes are the commissioner's, audited, and each gives the league a new table version."""

from __future__ import annotations

import pytest

from league.models import AuditEntry, Division, League
from teams.models import Team
from tests.dugout.schedules.helpers import ready_teams

pytestmark = pytest.mark.django_db

URL = "/api/v1/leagues/{}/divisions/"


def test_issue13_divisions_commissioner_creates_renames_and_deletes_a_division_audited(league, commissioner, api_as):
    client = api_as(commissioner)
    version = league.table_version
    r = client.post(URL.format(league.pk), {"name": " North ", "reason": "Two conferences"}, format="json")
    assert r.status_code == 201, r.json()
    north = r.json()
    assert north == {"id": north["id"], "name": "North", "order": 0, "teams": []}
    r = client.post(URL.format(league.pk), {"name": "South"}, format="json")
    assert r.json()["order"] == 1  # after the others
    assert League.objects.get(pk=league.pk).table_version != version

    r = client.patch(f"{URL.format(league.pk)}{north['id']}/", {"name": "Northern"}, format="json")
    assert r.status_code == 200 and r.json()["name"] == "Northern"
    r = client.delete(f"{URL.format(league.pk)}{north['id']}/")
    assert r.status_code == 204
    assert [d["name"] for d in client.get(URL.format(league.pk)).json()] == ["South"]
    reasons = list(AuditEntry.objects.filter(league=league, action="division").order_by("pk").values_list("reason"))
    assert [r[0] for r in reasons] == [
        "Two conferences",
        "Division South created",
        "Division North renamed Northern",
        "Division Northern deleted",
    ]


def test_issue13_divisions_a_duplicate_name_is_409_and_bad_input_400_nothing_changed(league, commissioner, api_as):
    client = api_as(commissioner)
    client.post(URL.format(league.pk), {"name": "North"}, format="json")
    assert client.post(URL.format(league.pk), {"name": "north"}, format="json").status_code == 409
    assert client.post(URL.format(league.pk), {"name": ""}, format="json").status_code == 400
    assert client.post(URL.format(league.pk), {"name": 5}, format="json").status_code == 400
    assert client.post(URL.format(league.pk), {"name": "x" * 61}, format="json").status_code == 400
    assert client.post(URL.format(league.pk), {"name": "East", "order": -1}, format="json").status_code == 400
    assert Division.objects.filter(league=league).count() == 1


def test_issue13_divisions_a_coach_or_anonymous_may_read_but_not_write(league, commissioner, coach, api, api_as):
    division = Division.objects.create(league=league, name="North")
    assert api.get(URL.format(league.pk)).status_code == 200
    assert api_as(coach).post(URL.format(league.pk), {"name": "South"}, format="json").status_code == 403
    assert api.post(URL.format(league.pk), {"name": "South"}, format="json").status_code in (401, 403)
    detail = f"{URL.format(league.pk)}{division.pk}/"
    assert api_as(coach).patch(detail, {"name": "X"}, format="json").status_code == 403
    assert api_as(coach).delete(detail).status_code == 403
    assert list(Division.objects.values_list("name", flat=True)) == ["North"]


def test_issue13_divisions_unknown_league_or_another_leagues_division_is_404(league, commissioner, api_as):
    other = League.objects.create(name="Other", ruleset="blitzbowl", created_by=commissioner)
    theirs = Division.objects.create(league=other, name="North")
    client = api_as(commissioner)
    assert client.get(URL.format(999999)).status_code == 404
    assert client.patch(f"{URL.format(league.pk)}{theirs.pk}/", {"name": "X"}, format="json").status_code == 404
    assert client.delete(f"{URL.format(league.pk)}{theirs.pk}/").status_code == 404
    assert Division.objects.filter(pk=theirs.pk).exists()


def test_issue13_divisions_assign_teams_shows_on_the_team_and_deleting_falls_back_to_none(league, commissioner, api_as):
    a, b, c = ready_teams(league, 3)
    client = api_as(commissioner)
    north = client.post(URL.format(league.pk), {"name": "North"}, format="json").json()["id"]
    r = client.post(f"{URL.format(league.pk)}assign/", {"division": north, "teams": [a, b]}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json() == [{"id": north, "name": "North", "order": 0, "teams": [a, b]}]
    assert client.get(f"/api/v1/teams/{a}/").json()["division"] == north
    assert client.get(f"/api/v1/teams/{c}/").json()["division"] is None
    r = client.post(f"{URL.format(league.pk)}assign/", {"division": None, "teams": [b]}, format="json")
    assert r.json()[0]["teams"] == [a]
    client.delete(f"{URL.format(league.pk)}{north}/")
    assert set(Team.objects.filter(pk__in=[a, b, c]).values_list("division", flat=True)) == {None}


def test_issue13_divisions_assign_refuses_a_team_of_another_league_and_changes_nothing(league, commissioner, api_as):
    other = League.objects.create(name="Other", ruleset="blitzbowl", created_by=commissioner)
    (mine,) = ready_teams(league, 1)
    (theirs,) = ready_teams(other, 1, prefix="Their")
    north = Division.objects.create(league=league, name="North")
    client = api_as(commissioner)
    body = {"division": north.pk, "teams": [mine, theirs]}
    r = client.post(f"{URL.format(league.pk)}assign/", body, format="json")
    assert r.status_code == 400 and "teams" in r.json()
    assert (
        client.post(f"{URL.format(league.pk)}assign/", {"division": 999999, "teams": [mine]}, format="json").status_code
        == 400
    )
    assert (
        client.post(f"{URL.format(league.pk)}assign/", {"division": north.pk, "teams": []}, format="json").status_code
        == 400
    )
    assert (
        client.post(
            f"{URL.format(league.pk)}assign/", {"division": north.pk, "teams": [mine, mine]}, format="json"
        ).status_code
        == 400
    )
    assert Team.objects.get(pk=mine).division_id is None
