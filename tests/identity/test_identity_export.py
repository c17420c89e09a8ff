"""A league's export carries its teams' colours and an import brings them back (issue 14, team identity; the
import contract: "export equals the original's apart from ids"). The logo is a file and stays behind."""

from __future__ import annotations

import json

import pytest

from teams.identity.services import team_set_colours
from teams.models import Team
from tests.dugout.export.test_import import export_bytes, import_as
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_colours_round_trip_through_export_and_import(api, api_as, team, coach):
    team_set_colours(team_id=team.pk, user=coach, primary="#102030", secondary="#A0B0C0")

    response = import_as(api_as(UserFactory()), export_bytes(api, team.league_id))

    assert response.status_code == 201, response.json()
    copy = Team.objects.get(league_id=response.json()["id"])
    assert (copy.primary_colour, copy.secondary_colour) == ("#102030", "#a0b0c0")


def test_an_import_with_a_bad_colour_is_a_400_naming_it(api, api_as, team):
    document = json.loads(export_bytes(api, team.league_id))
    document["teams"][0]["primary_colour"] = "red"

    response = import_as(api_as(UserFactory()), json.dumps(document).encode())

    assert response.status_code == 400
    assert "primary_colour" in json.dumps(response.json())
