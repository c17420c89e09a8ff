"""Query budgets of the desk (issue 13; the budgets of tests/web/test_query_counts.py and
tests/dugout/api/test_api_query_counts.py): the queue's API and pages, the audit page and the dashboard cost the
same number of queries for a league of 4 teams as for one of 400, with every kind of queue item present in
proportion to the league (a quarter of its fixtures overdue, waiting or disputed; a transfer, a request to
join and a request for more time per ten teams)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from dugout.queue import league_queue
from league.audit import audit_record
from league.models import InviteLink, JoinRequest, ReportDelivery
from matches.models import Dispute, Extension, Match
from teams.models import Player, Transfer
from tests.bulk_league import bulk_league
from tests.dugout.api.test_api_query_counts import READ, TOKEN
from tests.factories import token_for
from tests.web.test_query_counts import PAGE, SIGNED_IN

pytestmark = pytest.mark.django_db

#: The queue itself: its matches (sides, open dispute and waiting request for more time folded in), its
#: transfers, its requests to join (with its lost report mails).
QUEUE = 3


@pytest.fixture(autouse=True)
def _json_feature_known():
    assert connection.features.supports_json_field


@pytest.fixture(params=[4, 400], ids=["4-teams", "400-teams"])
def big(request):
    league = bulk_league(teams=request.param, fixtures=max(20, request.param // 2))
    now = timezone.now()
    fixtures = list(league.matches.filter(status="scheduled").order_by("id"))
    for i, match in enumerate(fixtures):
        match.deadline = now - dt.timedelta(days=1 + i % 5)
        if i % 4 == 1:
            match.status, match.submitted_at = "submitted", now - dt.timedelta(days=2)
        elif i % 4 == 2:
            match.status, match.submitted_at = "disputed", now - dt.timedelta(days=2)
    Match.objects.bulk_update(fixtures, ["deadline", "status", "submitted_at"])
    coach = league.bulk_coach
    Dispute.objects.bulk_create(
        [Dispute(match=m, raised_by=coach, reason=f"Wrong {m.pk}") for m in fixtures if m.status == "disputed"]
    )
    teams = list(league.teams.order_by("id"))
    players = {p.team_id: p for p in Player.objects.filter(team__league=league).order_by("-id")}
    Transfer.objects.bulk_create(
        [
            Transfer(player=players[a.pk], from_team=a, to_team=b, status="accepted", proposed_by=coach)
            for a, b in zip(teams[::10], teams[1::10], strict=False)
        ]
    )
    Extension.objects.bulk_create(  # requests for more time, on overdue matches and on ones not yet due
        [
            Extension(match=m, requested_by=coach, until=now + dt.timedelta(days=3), reason=f"Exams {m.pk}")
            for m in fixtures[::10]
        ]
    )
    User = get_user_model()
    askers = User.objects.bulk_create([User(username=f"asker{i}") for i in range(max(1, len(teams) // 10))])
    JoinRequest.objects.bulk_create([JoinRequest(league=league, user=u) for u in askers])
    ReportDelivery.objects.bulk_create(  # report mails a killed worker left `sending` a day ago: lost
        [
            ReportDelivery(league=league, week="2026-W48", user=u, state="sending", claimed_at=now - dt.timedelta(1))
            for u in askers
        ]
    )
    made = timezone.now().replace(microsecond=0)
    InviteLink.objects.bulk_create(
        [
            InviteLink(league=league, created_by=league.bulk_commissioner, created_at=made, expires_at=made, uses=n)
            for n in range(max(2, len(teams) // 10))
        ]
    )
    for n in range(30):
        audit_record(league=league, actor=league.bulk_commissioner, action="test", target=f"thing {n}")
    return league


def test_the_queue_holds_every_kind(big):
    kinds = {item.kind for item in league_queue(league=big)}
    assert kinds == {
        "awaiting_confirmation",
        "disputed",
        "overdue",
        "extension",
        "transfer",
        "join_request",
        "undelivered_report",
    }


def test_the_queue_is_three_queries(big, django_assert_num_queries):
    with django_assert_num_queries(QUEUE):
        league_queue(league=big)


def test_the_queue_api_stays_within_five_queries_plus_the_token(big, django_assert_max_num_queries):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(big.bulk_commissioner)}")
    with django_assert_max_num_queries(READ + TOKEN):
        response = client.get(f"/api/v1/leagues/{big.pk}/queue/")
    assert response.status_code == 200 and len(response.json()) > 5


def test_the_invite_links_api_stays_within_five_queries_plus_the_token(big, django_assert_max_num_queries):
    """Issue 13 (invite links listed): the list's queries do not grow with the league or its links."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(big.bulk_commissioner)}")
    with django_assert_max_num_queries(READ + TOKEN):
        response = client.get(f"/api/v1/leagues/{big.pk}/invite-links/")
    assert response.status_code == 200 and response.json()["count"] >= 2


@pytest.mark.parametrize(
    ("name", "htmx"),
    [
        ("desk-queue", True),
        ("desk-queue", False),
        ("desk-audit", False),
        ("desk-audit-latest", True),
        ("commissioner-dashboard", False),
        ("desk-invite-links", True),
        ("desk-invite-links", False),
    ],
)
def test_the_desks_pages_stay_within_the_budget(client, big, name, htmx, django_assert_max_num_queries):
    client.force_login(big.bulk_commissioner)
    url = reverse(name.removesuffix("-latest"), args=[big.pk]) + ("?latest" if name.endswith("-latest") else "")
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    with django_assert_max_num_queries(PAGE + SIGNED_IN):
        response = client.get(url, **headers)
    assert response.status_code == 200
    if name == "desk-invite-links":
        assert 'id="invite-links"' in response.content.decode()


def test_the_team_sheet_with_the_commissioners_adjustment_form_stays_within_the_budget(
    client, big, django_assert_max_num_queries
):
    client.force_login(big.bulk_commissioner)
    team = big.teams.order_by("id").first()
    with django_assert_max_num_queries(PAGE + SIGNED_IN):
        response = client.get(reverse("team-detail", args=[team.pk]))
    assert 'id="adjust-gil"' in response.content.decode()
