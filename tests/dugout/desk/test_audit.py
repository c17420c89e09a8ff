"""The audit of every commissioner action (issue 13, "Audit"): house-rule changes with the overrides before and
after, invitations, corrections (before/after result), shown on the dashboard (the latest) and on a page of
its own (all, paginated), read by the commissioner only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.audit import audit_record
from league.models import AuditEntry
from league.services import invitation_create, league_replace_overrides, league_update
from matches import corrections
from tests.dugout.desk.conftest import result_body
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_house_rule_change_through_the_api_is_audited_with_before_and_after(api_as, league, commissioner):
    response = api_as(commissioner).patch(
        f"/api/v1/leagues/{league.pk}/", {"house_rules": {"max_roster": 14}}, format="json"
    )
    assert response.status_code == 200, response.json()
    entry = AuditEntry.objects.get(league=league, action="house_rules")
    assert entry.before == {"max_roster": 16} and entry.after == {"max_roster": 14} and entry.actor == commissioner


def test_a_house_rule_change_records_the_values_in_force_not_the_overrides(api_as, league, commissioner):
    """The first change of a rule shows the default it replaced; a later one the value set before; a nested rule
    only the part that changed; a set that changes no value in force writes no entry."""
    url = f"/api/v1/leagues/{league.pk}/"
    client = api_as(commissioner)
    for house_rules in (
        {"starting_treasury": 120000},
        {"starting_treasury": 90000, "staff": {"cheerleader": {"price": 2000}}},
        {"starting_treasury": 90000},
    ):
        assert client.patch(url, {"house_rules": house_rules}, format="json").status_code == 200

    first, second = AuditEntry.objects.filter(league=league, action="house_rules").order_by("id")
    assert (first.before, first.after) == ({"starting_treasury": 100000}, {"starting_treasury": 120000})
    assert second.before == {"starting_treasury": 120000, "staff": {"cheerleader": {"price": 1000}}}
    assert second.after == {"starting_treasury": 90000, "staff": {"cheerleader": {"price": 2000}}}


def test_the_audit_page_shows_a_house_rule_change_in_words(client, api_as, league, commissioner):
    api_as(commissioner).patch(
        f"/api/v1/leagues/{league.pk}/",
        {"house_rules": {"starting_treasury": 120000, "friendlies_give_points": True}, "reason": "Richer start"},
        format="json",
    )
    client.force_login(commissioner)

    for url in (reverse("desk-audit", args=[league.pk]), reverse("desk-audit", args=[league.pk]) + "?latest"):
        html = client.get(url, HTTP_HX_REQUEST="true").content.decode()
        assert "Starting treasury</span>: 100,000 → 120,000" in html
        assert "Friendlies give points</span>: no → yes" in html
        assert "{&#x27;" not in html and "{'" not in html  # no Python text of a dict


def test_the_audit_page_shows_nested_rules_and_other_entries_in_words(client, league, commissioner):
    audit_record(
        league=league,
        actor=commissioner,
        action="house_rules",
        target="house rules",
        before={"staff": {"cheerleader": {"price": 1000}}, "tie_breakers": ["points", "casualties_inflicted"]},
        after={"staff": {"cheerleader": {"price": 2000}}, "tie_breakers": ["points"]},
    )
    audit_record(
        league=league,
        actor=commissioner,
        action="member_removed",
        target="user 9 (zed)",
        before={"roles": ["coach"], "teams": [{"id": 3, "name": "Zed's Zeros"}]},
        after={"roles": [], "teams_without_coach": [3]},
    )
    client.force_login(commissioner)

    html = client.get(reverse("desk-audit", args=[league.pk])).content.decode()

    assert "Staff › Cheerleader › Price</span>: 1,000 → 2,000" in html
    assert "Tie breakers</span>: points, casualties_inflicted → points" in html
    assert "Roles</span>: coach → none" in html and "Teams without coach</span>: — → 3" in html
    assert "Id 3, Name Zed&#x27;s Zeros → —" in html


def test_the_dashboards_house_rules_are_audited_and_an_unchanged_set_is_no_entry(league, commissioner):
    league_replace_overrides(user=commissioner, league_id=league.pk, overrides={"max_roster": 14})
    league_replace_overrides(user=commissioner, league_id=league.pk, overrides={"max_roster": 14})
    league_update(user=commissioner, league_id=league.pk, name="Renamed")
    entries = list(AuditEntry.objects.filter(league=league, action="house_rules"))
    assert len(entries) == 1 and entries[0].after == {"max_roster": 14}


def test_an_invitation_is_audited(league, commissioner):
    invitation_create(user=commissioner, league=league, username=UserFactory(username="carol").username, role="coach")
    entry = AuditEntry.objects.get(league=league, action="invitation")
    assert entry.target.endswith("(carol)") and entry.after["role"] == "coach"


def test_a_correction_is_audited_with_the_result_before_and_after(league, commissioner, desk):
    from matches import services as match_services

    match = desk.submitted()
    match_services.match_confirm(user=desk.away.coach, match_id=match.pk)
    corrected = result_body(desk.home, desk.away, score=(2, 0))

    corrections.match_correct(user=commissioner, match_id=match.pk, body=corrected)

    entry = AuditEntry.objects.get(league=league, action="correction")
    assert entry.target == f"match {match.pk}"
    assert [t["score"] for t in entry.before["result"]["teams"]] == [1, 0]
    assert [t["score"] for t in entry.after["result"]["teams"]] == [2, 0]


def test_the_dashboard_shows_the_latest_entries_and_links_to_all(client, league, commissioner):
    for n in range(12):
        audit_record(league=league, actor=commissioner, action="test", target=f"thing {n}", reason=f"why {n}")
    client.force_login(commissioner)
    latest = client.get(reverse("desk-audit", args=[league.pk]) + "?latest", HTTP_HX_REQUEST="true")
    html = latest.content.decode()
    assert "thing 11" in html and "thing 2" in html and "thing 1<" not in html  # ten newest
    assert f'href="{reverse("desk-audit", args=[league.pk])}"' in html


def test_the_whole_audit_is_paginated_newest_first(client, league, commissioner):
    for n in range(30):
        audit_record(league=league, actor=commissioner, action="test", target=f"thing {n:02d}")
    client.force_login(commissioner)
    url = reverse("desk-audit", args=[league.pk])
    first = client.get(url).content.decode()
    second = client.get(url + "?page=2").content.decode()
    assert "thing 29" in first and "thing 05" in first and "thing 04" not in first
    assert "thing 04" in second and "thing 00" in second
    assert client.get(url + "?page=9").status_code == 404


def test_only_a_commissioner_reads_the_audit_page(client, league, coach, make_coach):
    make_coach(coach)
    client.force_login(coach)
    assert client.get(reverse("desk-audit", args=[league.pk])).status_code == 403
