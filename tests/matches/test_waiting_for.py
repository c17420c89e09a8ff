"""What waits for whom on a match (`matches.waiting.waiting_for`), each kind from real state made by the services:
a result to enter, a pre-match step (shared, then each shopping turn), a result to confirm, a dispute to rule on,
a time to agree, a request for more time, the post-match sequences — and an earlier sequence that holds the
next result up. Then the `your_turn` notifications: one per newly waiting coach and act, never to the actor, none
for a refused step. And the result service's refusal, which names the coach who must act."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from campaigns.errors import NotPermitted, RuleViolation
from matches import aftermath, disputes, services, times
from matches.aftermath import StepConflict
from matches.models import Extension
from matches.prematch import prematch_post
from matches.waiting import waiting_for
from notifications.models import Notification
from tests.factories import UserFactory
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db

#: Blitz Bowl's post-match steps, with the dice they take (tests/matches/test_postmatch_queries.py).
POSTMATCH = [
    ("improvements", None, None),
    ("team_stats", None, None),
    ("fortune", {"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [3], "fan_factor": [1, 1, 1]}),
    ("hire_fire", None, None),
    ("prepare", None, {"expensive_mistakes": [6], "expensive_mistakes_amount": [1]}),
]


@pytest.fixture
def humes(league, coach):
    """Alice's Humes: the higher Team Value."""
    return full_team(league, coach, "Alice's Humes")


@pytest.fixture
def goblins(league, other_coach):
    """Bob's Goblins: the underdog."""
    return full_team(league, other_coach, "Bob's Goblins", roster="goblin", position="goblin")


@pytest.fixture
def match(league, humes, goblins):
    return services.match_schedule(user=humes.coach, league=league, team_ids=[humes.pk, goblins.pk])


def who(match) -> list[tuple[str, str]]:
    return [(w.username, w.kind) for w in waiting_for(match.pk)]


def result(home, away, score=(0, 0)) -> dict:
    return {"teams": [{"team": home.pk, "score": score[0]}, {"team": away.pk, "score": score[1]}]}


def to_shopping(match, humes, goblins, *, by) -> None:
    prematch_post(user=by, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    fans = {"fans": {str(humes.pk): [5, 6], str(goblins.pk): [2, 1]}}
    prematch_post(user=by, match_id=match.pk, step="fans", rolls=fans)


def walk(team, match, user) -> None:
    for step, choices, rolls in POSTMATCH:
        aftermath.aftermath_post(user=user, match_id=match.pk, team_id=team.pk, step=step, choices=choices, rolls=rolls)


def turns_of(user) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind="your_turn").order_by("id"))


def test_a_scheduled_match_waits_for_either_coachs_result(match):
    assert who(match) == [("alice", "enter_result"), ("bob", "enter_result")]


def test_a_started_pre_match_sequence_waits_for_its_step_and_holds_the_result_up(match, humes, goblins):
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    assert who(match) == [("alice", "prematch_step"), ("bob", "prematch_step")]  # the fans: either coach
    assert {w.what for w in waiting_for(match)} == {"Fans and FAME"}

    fans = {"fans": {str(humes.pk): [5, 6], str(goblins.pk): [2, 1]}}
    prematch_post(user=goblins.coach, match_id=match.pk, step="fans", rolls=fans)
    [turn] = waiting_for(match)
    assert (turn.username, turn.kind, turn.team_id, turn.what) == (
        "alice",
        "prematch_step",
        humes.pk,
        "Inducements: the higher Team Value",
    )

    prematch_post(user=humes.coach, match_id=match.pk, step="inducements_superior", choices={"done": True})
    assert who(match) == [("bob", "prematch_step")]

    prematch_post(user=goblins.coach, match_id=match.pk, step="inducements_underdog", choices={"done": True})
    assert who(match) == [("alice", "enter_result"), ("bob", "enter_result")]


def test_a_submitted_result_waits_for_the_other_coach_and_a_dispute_for_the_commissioner(
    match, humes, goblins, commissioner
):
    services.match_submit_result(user=humes.coach, match_id=match.pk, body=result(humes, goblins))
    assert who(match) == [("bob", "confirm_result")]

    disputes.match_dispute(user=goblins.coach, match_id=match.pk, reason="The score was 0-1.")
    assert who(match) == [("commish", "rule_dispute")]

    disputes.match_rule_dispute(user=commissioner, match_id=match.pk, ruling="confirm", reason="Seen it played.")
    assert who(match) == [("alice", "postmatch_step"), ("bob", "postmatch_step")]


def test_a_walked_post_match_sequence_waits_no_more_and_a_final_match_then_waits_for_nobody(match, humes, goblins):
    services.match_submit_result(user=humes.coach, match_id=match.pk, body=result(humes, goblins))
    services.match_confirm(user=goblins.coach, match_id=match.pk)
    walk(humes, match, humes.coach)
    assert who(match) == [("bob", "postmatch_step")]
    walk(goblins, match, goblins.coach)
    assert who(match) == []


def test_an_earlier_post_match_sequence_holds_the_next_result_up(league, match, humes, goblins):
    services.match_submit_result(user=humes.coach, match_id=match.pk, body=result(humes, goblins))
    services.match_confirm(user=goblins.coach, match_id=match.pk)
    walk(humes, match, humes.coach)
    carol = full_team(league, UserFactory(username="carol"), "Carol's side")
    nxt = services.match_schedule(user=humes.coach, league=league, team_ids=[humes.pk, carol.pk])

    assert who(nxt) == [("alice", "enter_result"), ("carol", "enter_result")]  # Alice's is walked
    later = services.match_schedule(user=carol.coach, league=league, team_ids=[carol.pk, goblins.pk])
    [held] = waiting_for(later)
    assert (held.username, held.kind, held.match_id, held.team_id) == ("bob", "postmatch_step", match.pk, goblins.pk)


def test_an_open_time_proposal_waits_for_the_opponent(match, humes, goblins):
    times.match_time_propose(user=goblins.coach, match_id=match.pk, at=timezone.now() + dt.timedelta(days=2))
    assert ("alice", "agree_time") in who(match)
    assert ("bob", "agree_time") not in who(match)


def test_a_pending_request_for_more_time_waits_for_the_commissioner(match, humes, commissioner):
    Extension.objects.create(
        match=match, requested_by=humes.coach, until=timezone.now() + dt.timedelta(days=9), reason="Holidays."
    )
    assert ("commish", "decide_extension") in who(match)


def test_a_void_match_waits_for_nobody(match, commissioner):
    disputes.match_void(user=commissioner, match_id=match.pk, reason="Not to be played.")
    assert who(match) == []


# -- the result service names who must act -----------------------------------------------------------------


def test_the_refused_result_names_the_coach_whose_step_holds_it_up(match, humes, goblins):
    to_shopping(match, humes, goblins, by=humes.coach)
    prematch_post(user=humes.coach, match_id=match.pk, step="inducements_superior", choices={"done": True})

    with pytest.raises(RuleViolation) as refused:
        services.match_submit_result(user=humes.coach, match_id=match.pk, body=result(humes, goblins))
    assert str(refused.value) == (
        "Finish the pre-match sequence first: it is at Inducements: the underdog, waiting for bob."
    )


# -- your_turn -----------------------------------------------------------------------------------------------


def test_your_turn_tells_each_newly_waiting_coach_once_and_never_the_actor(match, humes, goblins):
    to_shopping(match, humes, goblins, by=humes.coach)
    assert turns_of(humes.coach) == []  # his turn came by his own act
    assert turns_of(goblins.coach) == []  # the fans step waited for him already; the shopping is not his

    prematch_post(user=humes.coach, match_id=match.pk, step="inducements_superior", choices={"done": True})
    [told] = turns_of(goblins.coach)
    assert told.url == f"/matches/{match.pk}/inducements/{goblins.pk}/"
    assert (told.match_id, told.team_id, told.league_id) == (match.pk, goblins.pk, match.league_id)
    assert "Inducements: the underdog" in told.text
    assert turns_of(humes.coach) == []

    prematch_post(user=goblins.coach, match_id=match.pk, step="inducements_underdog", choices={"done": True})
    [result_turn] = turns_of(humes.coach)  # the result, held up by the sequence, now waits for him
    assert result_turn.url == f"/matches/{match.pk}/result/"
    assert len(turns_of(goblins.coach)) == 1


def test_a_refused_step_tells_nobody(match, humes, goblins):
    with pytest.raises(StepConflict):
        prematch_post(user=humes.coach, match_id=match.pk, step="fans", rolls={})
    to_shopping(match, humes, goblins, by=humes.coach)
    with pytest.raises(NotPermitted):  # the Goblins' coach may not close the Humes' shopping
        prematch_post(user=goblins.coach, match_id=match.pk, step="inducements_superior", choices={"done": True})
    assert Notification.objects.filter(kind="your_turn").count() == 0


def test_the_end_of_a_post_match_sequence_tells_the_next_matchs_coaches_the_result_waits(league, match, humes, goblins):
    services.match_submit_result(user=humes.coach, match_id=match.pk, body=result(humes, goblins))
    services.match_confirm(user=goblins.coach, match_id=match.pk)
    carol = full_team(league, UserFactory(username="carol"), "Carol's side")
    nxt = services.match_schedule(user=carol.coach, league=league, team_ids=[carol.pk, humes.pk])

    for step, choices, rolls in POSTMATCH[:-1]:
        aftermath.aftermath_post(
            user=humes.coach, match_id=match.pk, team_id=humes.pk, step=step, choices=choices, rolls=rolls
        )
    assert Notification.objects.filter(kind="your_turn").count() == 0  # nothing changes before the last step
    step, choices, rolls = POSTMATCH[-1]
    aftermath.aftermath_post(
        user=humes.coach, match_id=match.pk, team_id=humes.pk, step=step, choices=choices, rolls=rolls
    )

    [told] = Notification.objects.filter(kind="your_turn")
    assert (told.user_id, told.match_id, told.url) == (carol.coach.pk, nxt.pk, f"/matches/{nxt.pk}/result/")
