"""Every audited commissioner action takes a reason (issue 13, "Audit": "recorded with who, when and a reason";
docs/decisions/ 2026-12-02 "A reason for every commissioner action"): the reason given is in the action's
audit entry — after the service's own words where it writes some — and a bad reason (not a string, or longer
than allowed) is a 400 that changes nothing."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from league.models import AuditEntry, League, Membership, Season
from matches import services as match_services
from matches.models import Match, Schedule
from tests.dugout.desk.conftest import result_body

pytestmark = pytest.mark.django_db

#: Not a string, and one character too many (500: league/audit.py REASON_MAX).
BAD_REASONS = [5, True, {"a": 1}, "x" * 501]


def _entry(league, action) -> AuditEntry:
    return AuditEntry.objects.filter(league=league, action=action).latest("id")


def _final(desk) -> Match:
    match = desk.submitted()
    match_services.match_confirm(user=desk.away.coach, match_id=match.pk)
    return Match.objects.get(pk=match.pk)


def _corrected(desk) -> dict:
    return result_body(desk.home, desk.away, score=(2, 0))


def test_a_correction_keeps_its_reason_in_the_audit_issue_13(api_as, desk, commissioner, league):
    match = _final(desk)
    body = {**_corrected(desk), "reason": "The second touchdown was not entered."}

    response = api_as(commissioner).post(f"/api/v1/matches/{match.pk}/correct/", body, format="json")

    assert response.status_code == 200, response.json()
    entry = _entry(league, "correction")
    assert entry.reason == "The second touchdown was not entered." and entry.actor == commissioner
    assert entry.after["result"] == Match.objects.get(pk=match.pk).result
    assert "reason" not in Match.objects.get(pk=match.pk).result_body  # the reason is no part of the result


def test_a_correction_without_a_reason_still_works(api_as, desk, commissioner, league):
    match = _final(desk)
    response = api_as(commissioner).post(f"/api/v1/matches/{match.pk}/correct/", _corrected(desk), format="json")
    assert response.status_code == 200 and _entry(league, "correction").reason == ""


@pytest.mark.parametrize("reason", BAD_REASONS)
def test_a_correction_with_a_bad_reason_is_a_400_and_changes_nothing(api_as, desk, commissioner, league, reason):
    match = _final(desk)
    before = Match.objects.get(pk=match.pk).result
    body = {**_corrected(desk), "reason": reason}

    response = api_as(commissioner).post(f"/api/v1/matches/{match.pk}/correct/", body, format="json")

    assert response.status_code == 400 and "reason" in response.json()
    assert Match.objects.get(pk=match.pk).result == before
    assert not AuditEntry.objects.filter(league=league, action="correction").exists()


def test_a_rejection_keeps_its_reason_and_a_bad_one_is_a_400(api_as, desk, commissioner, league):
    match = desk.submitted()
    path = f"/api/v1/matches/{match.pk}/reject/"
    assert api_as(commissioner).post(path, {"reason": 5}, format="json").status_code == 400
    assert Match.objects.get(pk=match.pk).status == "submitted"

    assert api_as(commissioner).post(path, {"reason": "Entered twice."}, format="json").status_code == 200
    assert _entry(league, "rejection").reason == "Entered twice."


def test_the_match_page_rejects_and_corrects_with_a_reason(client, desk, commissioner, league):
    client.force_login(commissioner)
    submitted = desk.submitted()
    page = client.get(reverse("match-detail", args=[submitted.pk])).content.decode()
    assert 'id="reject-form"' in page
    client.post(reverse("match-reject", args=[submitted.pk]), {"reason": "Wrong teams"})
    assert _entry(league, "rejection").reason == "Wrong teams"

    final = _final(desk)
    page = client.get(reverse("match-detail", args=[final.pk])).content.decode()
    assert 'id="correct-form"' in page
    client.post(
        reverse("match-correct", args=[final.pk]),
        {"result": json.dumps(_corrected(desk)), "reason": "Score misread"},
    )
    assert _entry(league, "correction").reason == "Score misread"
    assert Match.objects.get(pk=final.pk).result_body == _corrected(desk)


def test_the_match_page_refuses_a_bad_correction_in_words(client, desk, commissioner, league):
    client.force_login(commissioner)
    final = _final(desk)
    response = client.post(reverse("match-correct", args=[final.pk]), {"result": "{not json"}, follow=True)
    assert "not valid JSON" in response.content.decode()
    assert not AuditEntry.objects.filter(league=league, action="correction").exists()


def test_house_rules_patch_keeps_its_reason_and_a_bad_one_changes_nothing(api_as, league, commissioner):
    path = f"/api/v1/leagues/{league.pk}/"
    bad = api_as(commissioner).patch(path, {"house_rules": {"starting_treasury": 150000}, "reason": 5}, format="json")
    assert bad.status_code == 400 and "reason" in bad.json()
    assert League.objects.get(pk=league.pk).house_rules_overrides == {}

    body = {"house_rules": {"starting_treasury": 150000}, "reason": "Richer start, voted at the table."}
    assert api_as(commissioner).patch(path, body, format="json").status_code == 200

    entry = _entry(league, "house_rules")
    assert entry.reason == "Richer start, voted at the table." and entry.after == {"starting_treasury": 150000}


def test_the_dashboard_saves_house_rules_with_a_reason(client, league, commissioner):
    client.force_login(commissioner)
    client.post(
        reverse("commissioner-dashboard", args=[league.pk]),
        {"action": "rules", "rules-overrides": '{"starting_treasury": 150000}', "rules-reason": "Table vote"},
    )
    assert _entry(league, "house_rules").reason == "Table vote"


def test_next_season_rules_keep_the_reason_after_their_own_words(api_as, league, commissioner):
    path = f"/api/v1/leagues/{league.pk}/house-rules/next-season/"
    body = {"house_rules": {"starting_treasury": 150000}, "reason": "Agreed for next year"}
    assert api_as(commissioner).put(path, body, format="json").status_code == 200
    assert _entry(league, "house_rules_next_season").reason == "To apply when season 2 opens: Agreed for next year"
    assert api_as(commissioner).put(path, {**body, "reason": "x" * 501}, format="json").status_code == 400


def test_removing_a_member_keeps_its_reason_and_a_bad_one_changes_nothing(api_as, league, commissioner, coach):
    Membership.objects.create(league=league, user=coach, role=Membership.Role.COACH)
    path = f"/api/v1/leagues/{league.pk}/members/{coach.pk}/remove/"
    assert api_as(commissioner).post(path, {"reason": ["no"]}, format="json").status_code == 400
    assert Membership.objects.filter(league=league, user=coach).exists()

    assert api_as(commissioner).post(path, {"reason": "Left the club"}, format="json").status_code == 200
    assert _entry(league, "member_removed").reason == "Left the club"


def test_an_invitation_keeps_its_reason(api_as, league, commissioner, coach):
    path = f"/api/v1/leagues/{league.pk}/members/"
    body = {"username": coach.username, "role": "coach", "reason": "Asked at the club night"}
    assert api_as(commissioner).post(path, {**body, "reason": 7}, format="json").status_code == 400
    assert api_as(commissioner).post(path, body, format="json").status_code == 201
    assert _entry(league, "invitation").reason == "Asked at the club night"


def test_publishing_and_withdrawing_from_a_schedule_keep_the_reason(api_as, desk, league, commissioner):
    teams = [t.pk for t in desk.teams]
    path = f"/api/v1/leagues/{league.pk}/schedule/"
    body = {"format": "round_robin", "teams": teams, "start": "2027-01-04", "reason": "Spring league"}
    assert api_as(commissioner).post(path, {**body, "reason": 3}, format="json").status_code == 400
    assert not Schedule.objects.exists()

    response = api_as(commissioner).post(path, body, format="json")
    assert response.status_code == 201, response.json()
    assert _entry(league, "schedule").reason == "Round robin generated: Spring league"

    withdraw = {"team": teams[0], "reason": "The coach moved away"}
    response = api_as(commissioner).post(f"{path}withdraw/", withdraw, format="json")
    assert response.status_code == 200, response.json()
    assert _entry(league, "schedule").reason == f"Team {teams[0]} withdrew: The coach moved away"


def test_the_season_turn_keeps_its_reason_and_a_bad_one_opens_no_season(api_as, league, commissioner):
    path = f"/api/v1/leagues/{league.pk}/seasons/"
    assert api_as(commissioner).post(path, {"reason": "x" * 501}, format="json").status_code == 400
    assert Season.objects.filter(league=league).count() == 1

    assert api_as(commissioner).post(path, {"reason": "Summer break"}, format="json").status_code == 201
    assert _entry(league, "season").reason == "Season 1 closed; season 2 opened: Summer break"
