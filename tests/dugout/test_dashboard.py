"""The commissioner's dashboard: members, house rules and stadiums — for commissioners only."""

import pytest
from django.test import Client

from league.models import Invitation, League, Membership


@pytest.fixture
def as_commissioner(client, commissioner):
    client.force_login(commissioner)
    return client


@pytest.fixture
def client_for():
    def make(user) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return make


def url(league):
    return f"/commissioner/{league.pk}/"


def test_only_a_commissioner_opens_the_dashboard(client, league, coach, make_coach):
    assert client.get(url(league)).status_code == 302  # to log in
    client.force_login(make_coach(coach))
    assert client.get(url(league)).status_code == 403


def test_commissioner_invites_a_coach_who_is_a_member_once_he_accepts_on_his_page(
    as_commissioner, client_for, league, coach
):
    response = as_commissioner.post(
        url(league), {"action": "member", "member-username": coach.username, "member-role": "coach"}
    )
    assert response.status_code == 302
    assert not Membership.objects.filter(league=league, user=coach).exists()
    invitation = Invitation.objects.get(league=league, user=coach, role="coach", state="pending")
    assert coach.username in as_commissioner.get(url(league)).content.decode()  # listed as invited

    client_for(coach).post(f"/invitations/{invitation.pk}/accept/")
    assert Membership.objects.filter(league=league, user=coach, role="coach").exists()


def test_commissioner_sets_house_rules_and_bad_keys_change_nothing(as_commissioner, league):
    as_commissioner.post(url(league), {"action": "rules", "rules-overrides": '{"starting_treasury": 150000}'})
    assert League.objects.get(pk=league.pk).house_rules["starting_treasury"] == 150_000
    response = as_commissioner.post(
        url(league), {"action": "rules", "rules-overrides": '{"starting_gold": 1}'}, follow=True
    )
    assert "starting_gold is not a house rule" in response.content.decode()
    assert League.objects.get(pk=league.pk).house_rules_overrides == {"starting_treasury": 150_000}


def test_commissioner_adds_a_stadium_with_a_special_attribute(as_commissioner, league):
    as_commissioner.post(
        url(league), {"action": "stadium", "stadium-name": "Midgar Dome", "stadium-special_attribute": "Mako lights"}
    )
    assert league.stadiums.get().special_attribute == "Mako lights"
    page = as_commissioner.get(url(league)).content.decode()
    assert "Midgar Dome" in page and "Mako lights" in page


def test_failed_web_logins_are_throttled_like_the_api(client, coach, settings):
    """api-v1: repeated failed logins are throttled (429) — the log-in page too (5 per account and address)."""
    for _ in range(settings.LOGIN_THROTTLE["pair_failures"]):
        assert client.post("/login/", {"username": coach.username, "password": "wrong"}).status_code == 400
    assert client.post("/login/", {"username": coach.username, "password": "wrong"}).status_code == 429


def test_an_invalid_dashboard_form_is_answered_400_with_its_error_and_changes_nothing(as_commissioner, league):
    response = as_commissioner.post(url(league), {"action": "stadium", "stadium-name": ""})

    assert response.status_code == 400  # the dashboard again, the form's error in words
    assert "This field is required." in response.content.decode()
    assert not league.stadiums.exists()


@pytest.mark.parametrize(
    ("username", "role", "status", "words"),
    [
        ("nobody-by-that-name", "coach", 400, "No user called"),  # the input
        ("commish", "commissioner", 409, "is already a commissioner of this league"),  # the league as it is
    ],
)
def test_a_refused_dashboard_action_is_answered_with_the_refusals_status_and_changes_nothing(
    as_commissioner, league, username, role, status, words
):
    response = as_commissioner.post(url(league), {"action": "member", "member-username": username, "member-role": role})

    assert response.status_code == status
    assert words in response.content.decode()
    assert not Invitation.objects.filter(league=league).exists()


def test_an_unknown_dashboard_action_is_answered_400_in_words(as_commissioner, league):
    response = as_commissioner.post(url(league), {"action": "wat"})

    assert response.status_code == 400
    assert "Unknown action: nothing was changed." in response.content.decode()
