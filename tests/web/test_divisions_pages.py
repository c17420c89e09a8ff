"""The commissioner's divisions panel (issue 13, "Divisions"; decision: docs/decisions/ "Divisions"): loaded
into the dashboard by htmx, a page of its own without it; create, rename, place teams and delete, each through
the audited services; the forms only for whom the policy lets manage divisions."""

from __future__ import annotations

import pytest

from league.models import AuditEntry, Division
from teams.models import Team
from tests.dugout.schedules.helpers import ready_teams

pytestmark = pytest.mark.django_db


def url(league) -> str:
    return f"/commissioner/{league.pk}/divisions/"


def test_issue13_divisions_the_dashboard_loads_the_divisions_panel(client, league, commissioner):
    client.force_login(commissioner)
    page = client.get(f"/commissioner/{league.pk}/").content.decode()
    assert f'hx-get="{url(league)}"' in page
    panel = client.get(url(league), HTTP_HX_REQUEST="true").content.decode()
    assert (
        panel.startswith('<section class="panel" id="divisions" data-swap-refusals>')
        and 'id="division-create"' in panel
    )
    assert "<html" not in panel  # the panel only, for htmx to swap in


def test_issue13_divisions_the_commissioner_creates_renames_places_and_deletes(client, league, commissioner):
    a, b = ready_teams(league, 2)
    client.force_login(commissioner)
    r = client.post(url(league), {"action": "create", "name": "North"})
    assert r.status_code == 302 and r["Location"] == f"/commissioner/{league.pk}/"
    north = Division.objects.get(league=league)
    client.post(url(league), {"action": "rename", "division": north.pk, "name": "Northern"})
    assert Division.objects.get(pk=north.pk).name == "Northern"
    client.post(url(league), {"action": "assign", "division": north.pk, "teams": [a, b]})
    assert set(Team.objects.filter(pk__in=[a, b]).values_list("division", flat=True)) == {north.pk}
    panel = client.get(url(league), HTTP_HX_REQUEST="true").content.decode()
    assert "<strong>Northern</strong>: 2 teams" in panel and "Team A (Northern)" in panel
    client.post(url(league), {"action": "assign", "division": "none", "teams": [b]})
    assert Team.objects.get(pk=b).division_id is None
    client.post(url(league), {"action": "delete", "division": north.pk})
    assert not Division.objects.exists() and Team.objects.get(pk=a).division_id is None
    assert AuditEntry.objects.filter(league=league, action="division").count() == 5


def test_issue13_divisions_bad_input_is_said_in_words_and_changes_nothing(client, league, commissioner):
    Division.objects.create(league=league, name="North")
    client.force_login(commissioner)
    for body, status in (
        ({"action": "create", "name": ""}, 400),
        ({"action": "create", "name": "north"}, 409),  # the name is taken: a conflict with the league as it is
        ({"action": "rename", "division": "abc", "name": "X"}, 400),
        ({"action": "assign", "division": "", "teams": ["1"]}, 400),
        ({"action": "assign", "division": "none"}, 400),
        ({"action": "wat"}, 400),
    ):
        r = client.post(url(league), body, HTTP_HX_REQUEST="true")
        # The panel again with the refusal in words, answered as refused (the panel swaps it in by
        # data-swap-refusals), never as a success.
        assert r.status_code == status and 'class="messages"' in r.content.decode(), body
        assert "data-swap-refusals" in r.content.decode()
    assert list(Division.objects.values_list("name", flat=True)) == ["North"]


def test_issue13_divisions_a_coach_is_refused_and_a_visitor_sent_to_log_in(client, league, coach):
    assert client.get(url(league))["Location"].startswith("/login/")
    client.force_login(coach)
    assert client.get(url(league)).status_code == 403
    assert client.post(url(league), {"action": "create", "name": "North"}).status_code == 403
    assert not Division.objects.exists()
