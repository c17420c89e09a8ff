"""The league's, the teams' and the schedules' events tell their recipients (contract v1.2 "Notifications"), from
the real event, through the API and through the service: exactly one notification per recipient, none to the
user who acted, none when the event is refused; the recipient's choices decide the e-mail. Kinds: invitation,
join_request, transfer_offer, round_published."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from campaigns.errors import NotPermitted
from league import joining
from league import services as league_services
from matches.models import Match
from matches.schedules import schedule_generate
from notifications.models import Notification, NotificationSettings
from teams.models import Team
from teams.transfers import transfer_propose
from tests.assertions import assert_refused
from tests.dugout.schedules.helpers import pairs
from tests.factories import LeagueFactory, TeamFactory, UserFactory, hire
from tests.notifications.conftest import emailed, the, told

pytestmark = pytest.mark.django_db


# --- invitations and requests to join ------------------------------------------------------------------------


def invite(api_as, user, league, username, role="coach"):
    return api_as(user).post(
        f"/api/v1/leagues/{league.pk}/members/", {"username": username, "role": role}, format="json"
    )


def test_an_invitation_through_the_api_tells_the_invited_user_once_even_when_asked_again(
    api_as, league, commissioner, stranger
):
    assert invite(api_as, commissioner, league, "stranger").status_code == 201
    assert invite(api_as, commissioner, league, "stranger").status_code == 201  # the same one: no second event
    assert told() == ["stranger"]
    note = the("invitation", "stranger")
    assert note.text == "commish invites you to coach in Gil Cup: accept or decline it."
    assert (note.league, note.match, note.team, note.url) == (league, None, None, "/invitations/")


def test_an_invitation_through_the_service_as_commissioner_says_so_and_respects_the_mail_choice(
    league, commissioner, stranger
):
    NotificationSettings.objects.create(user=stranger, kinds={"invitation": {"email": False, "push": True}})
    league_services.invitation_create(user=commissioner, league=league, username="stranger", role="commissioner")
    assert the("invitation", "stranger").text == (
        "commish invites you to be a commissioner of Gil Cup: accept or decline it."
    )
    assert emailed("invitation") == []


def test_a_refused_invitation_tells_nobody(api_as, league, coach, commissioner, make_coach):
    make_coach(coach)
    assert_refused(invite(api_as, coach, league, "stranger"), 403)
    assert_refused(invite(api_as, commissioner, league, "nobody-at-all"), 400, "username")
    assert_refused(invite(api_as, commissioner, league, "alice"), 409)  # already a coach
    assert not Notification.objects.exists()


@pytest.fixture
def invite_only(league):
    league.open_registration = False
    league.save(update_fields=["open_registration"])
    return league


def test_a_request_to_join_through_the_api_tells_every_commissioner_once(api_as, invite_only, deputy, stranger):
    url = f"/api/v1/leagues/{invite_only.pk}/join-requests/"
    assert api_as(stranger).post(url, {"message": "I play Humes"}, format="json").status_code == 201
    assert api_as(stranger).post(url, {}, format="json").status_code == 201  # asked again: the same request
    assert told() == ["commish", "deputy"]
    note = the("join_request", "deputy")
    assert note.text == "Gil Cup: stranger asks to coach in your league: approve or refuse the request."
    assert (note.league, note.url) == (invite_only, f"/commissioner/{invite_only.pk}/queue/")


def test_a_request_to_join_through_the_service_tells_the_commissioners(invite_only, stranger):
    joining.join_request_create(user=stranger, league=invite_only)
    assert told("join_request") == ["commish"]


def test_a_refused_request_to_join_tells_nobody(api_as, league, invite_only, coach, make_coach, stranger):
    make_coach(coach)
    url = f"/api/v1/leagues/{league.pk}/join-requests/"
    assert_refused(api_as(coach).post(url, {}, format="json"), 409)  # already coaches here
    assert_refused(api_as(stranger).post(url, {"message": "x" * 501}, format="json"), 400, "message")
    league.open_registration = True
    league.save(update_fields=["open_registration"])
    assert_refused(api_as(stranger).post(url, {}, format="json"), 400)  # open: he joins, no request
    assert not Notification.objects.exists()


# --- transfers -----------------------------------------------------------------------------------------------


@pytest.fixture
def seller(league, coach):
    return TeamFactory(league=league, coach=coach, name="Sellers", roster="hume")


@pytest.fixture
def buyer(league, other_coach):
    return TeamFactory(league=league, coach=other_coach, name="Buyers", roster="hume")


def test_a_transfer_offer_through_the_api_tells_the_buying_coach_only(api_as, seller, buyer, coach, league):
    player = hire(seller, "blitzer", name="Star")
    response = api_as(coach).post(
        "/api/v1/transfers/", {"player": player.pk, "to_team": buyer.pk, "price": 12_000}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert told() == ["bob"]
    note = the("transfer_offer", "bob")
    assert note.text == "Gil Cup: alice offers Star of Sellers to your Buyers for 12,000 gil: accept or refuse."
    assert (note.league, note.team, note.url) == (league, buyer, f"/players/{player.pk}/")


def test_a_transfer_offer_through_the_service_for_nothing_says_so(seller, buyer, coach):
    player = hire(seller, "lineman", name="Spare")
    transfer_propose(user=coach, player_id=player.pk, to_team_id=buyer.pk)
    assert the("transfer_offer", "bob").text.endswith(
        "offers Spare of Sellers to your Buyers for nothing: accept or refuse."
    )


def test_a_refused_transfer_offer_tells_nobody(api_as, seller, buyer, coach, other_coach):
    player = hire(seller, "lineman")
    body = {"player": player.pk, "to_team": buyer.pk, "price": 0}
    assert_refused(api_as(other_coach).post("/api/v1/transfers/", body, format="json"), 403, "player")
    assert_refused(
        api_as(coach).post("/api/v1/transfers/", {**body, "to_team": seller.pk}, format="json"), 400, "to_team"
    )
    assert not Notification.objects.exists()


# --- published rounds ----------------------------------------------------------------------------------------


@pytest.fixture
def several(commissioner):
    """A league where a coach may run several teams: carol runs two of its five ready teams, the commissioner
    one, alice and bob one each."""
    league = LeagueFactory(
        created_by=commissioner, name="Round Cup", house_rules_overrides={"coach_may_run_several_teams": True}
    )
    alice, bob, carol = (UserFactory(username=n) for n in ("alice", "bob", "carol"))
    coaches = [alice, bob, carol, carol, commissioner]
    teams = [TeamFactory(league=league, coach=c, name=f"Team {i}") for i, c in enumerate(coaches)]
    Team.objects.filter(league=league).update(creation_closed_at=timezone.now())
    return league, [t.pk for t in teams]


def test_a_round_robin_through_the_api_tells_every_coach_once_but_the_commissioner_who_published_it(
    api_as, several, commissioner
):
    league, teams = several
    body = {"format": "round_robin", "start": "2027-01-04", "teams": teams}
    response = api_as(commissioner).post(f"/api/v1/leagues/{league.pk}/schedule/", body, format="json")
    assert response.status_code == 201, response.json()
    assert told() == ["alice", "bob", "carol"]  # carol's two teams: one line; commish published it
    note = the("round_published", "carol")
    assert note.text == (
        "Round Cup: commish published 5 rounds, from Monday 4 January to Sunday 7 February: your matches are on "
        "the fixtures page."
    )
    assert (note.league, note.match, note.url) == (league, None, f"/leagues/{league.pk}/fixtures/")


def test_a_preview_or_a_refused_schedule_tells_nobody(api_as, several, commissioner):
    league, teams = several
    url = f"/api/v1/leagues/{league.pk}/schedule/"
    body = {"format": "round_robin", "start": "2027-01-04", "teams": teams}
    assert api_as(commissioner).post(url, {**body, "preview": True}, format="json").status_code == 200
    assert_refused(api_as(Team.objects.get(pk=teams[0]).coach).post(url, body, format="json"), 403)
    assert_refused(api_as(commissioner).post(url, {**body, "format": "ladder"}, format="json"), 400, "format")
    assert not Notification.objects.exists() and not Match.objects.filter(league=league).exists()


def test_a_swiss_round_through_the_service_tells_the_coaches_of_its_matches(several, commissioner):
    league, teams = several
    schedule_generate(
        user=commissioner, league_id=league.pk, format="swiss", teams=teams[:4], start=dt.date(2027, 1, 4)
    )
    assert told("round_published") == ["alice", "bob", "carol"]
    assert the("round_published", "alice").text == (
        "Round Cup: commish published round 1, from Monday 4 January to Sunday 10 January: your match is on the "
        "fixtures page."
    )


def test_a_knockouts_next_round_drawn_by_the_bracket_tells_its_coaches_as_nobodys_act(api_as, several, commissioner):
    """Teams 0–3 (alice, bob, carol twice): the semi-finals are forfeited by the later seed, so the final is drawn
    between alice's and bob's teams — both told, though the commissioner's forfeit drew it."""
    league, teams = several
    client = api_as(commissioner)
    body = {"format": "knockout", "start": "2027-01-04", "teams": teams[:4]}
    response = client.post(f"/api/v1/leagues/{league.pk}/schedule/", body, format="json")
    assert response.status_code == 201, response.json()
    Notification.objects.all().delete()
    semis = response.json()["rounds"][0]["matches"]
    for mid, (home, away) in zip(semis, pairs(semis), strict=True):
        loser = max(home, away, key=teams.index)
        r = client.post(f"/api/v1/matches/{mid}/forfeit/", {"team": loser, "reason": "No show."}, format="json")
        assert r.status_code == 200, r.json()
    final = Match.objects.get(league=league, kind=Match.Kind.FINAL)
    assert sorted(s.team.coach.username for s in final.sides.select_related("team__coach")) == ["alice", "bob"]
    assert told() == ["alice", "bob"]
    assert the("round_published", "bob").text == (
        "Round Cup: round 2 of the knockout is drawn, from Monday 11 January to Sunday 17 January: your match is "
        "on the fixtures page."
    )


def test_a_schedule_generated_by_a_coach_through_the_service_is_refused_and_tells_nobody(several):
    league, teams = several
    coach = Team.objects.get(pk=teams[0]).coach
    with pytest.raises(NotPermitted):
        schedule_generate(user=coach, league_id=league.pk, format="round_robin", teams=teams)
    assert not Notification.objects.exists()
