"""The match lifecycle is declared (matches/lifecycle.py): a walk of its table through the public API — every
allowed move works through its service, every other (status, action) pair is refused with the typed
`TransitionRefused` and changes nothing — and the database knows exactly the table's statuses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.db import IntegrityError, transaction

from matches import lifecycle
from matches.lifecycle import Action, Status, TransitionRefused
from matches.models import Match
from tests.assertions import assert_refused

pytestmark = pytest.mark.django_db

MATCHES = "/api/v1/matches/"


@dataclass
class Table:
    """A Blitz Bowl match between alice's and bob's teams, brought to any status of the lifecycle."""

    api_as: Callable
    league: object
    home: object
    away: object
    coach: object
    other_coach: object
    commissioner: object

    def body(self, home_score: int = 1) -> dict:
        scorer = self.home.players.order_by("number").first()
        return {
            "teams": [{"team": self.home.pk, "score": home_score}, {"team": self.away.pk, "score": 0}],
            "players": [{"player": scorer.pk, "touchdowns": home_score}],
        }

    def match_in(self, status: str) -> int:
        response = self.api_as(self.coach).post(
            MATCHES, {"league": self.league.pk, "teams": [self.home.pk, self.away.pk]}, format="json"
        )
        assert response.status_code == 201, response.json()
        match_id = response.json()["id"]
        if status in (Status.SUBMITTED, Status.DISPUTED, Status.FINAL):
            self.act(match_id, Action.SUBMIT, expect=201)
        if status == Status.DISPUTED:
            self.act(match_id, Action.DISPUTE, expect=200)
        if status == Status.FINAL:
            self.act(match_id, Action.CONFIRM, expect=200)
        if status == Status.VOID:
            self.act(match_id, Action.VOID, expect=200)
        assert Match.objects.get(pk=match_id).status == status
        return match_id

    def call(self, match_id: int, action: str):
        """The API door of each action, knocked by a user the policy lets through (so only the state refuses)."""
        url = f"{MATCHES}{match_id}/"
        doors = {
            Action.SUBMIT: lambda: self.api_as(self.coach).post(f"{url}result/", self.body(), format="json"),
            Action.REJECT: lambda: self.api_as(self.commissioner).post(f"{url}reject/"),
            # A disputed result is the commissioner's to confirm; a submitted one the other coach's.
            Action.CONFIRM: lambda: self.api_as(
                self.commissioner if Match.objects.get(pk=match_id).status == Status.DISPUTED else self.other_coach
            ).post(f"{url}confirm/"),
            Action.CORRECT: lambda: self.api_as(self.commissioner).post(f"{url}correct/", self.body(2), format="json"),
            Action.DISPUTE: lambda: self.api_as(self.other_coach).post(
                f"{url}dispute/", {"reason": "The touchdown was scored after the final whistle."}, format="json"
            ),
            Action.FORFEIT: lambda: self.api_as(self.commissioner).post(
                f"{url}forfeit/", {"team": self.away.pk, "reason": "No show by the deadline."}, format="json"
            ),
            Action.VOID: lambda: self.api_as(self.commissioner).post(
                f"{url}void/", {"reason": "The away team left the league."}, format="json"
            ),
            # rules/blitzbowl.md "Pre-match sequence": the weather is its first step.
            Action.PREMATCH: lambda: self.api_as(self.coach).post(
                f"{url}prematch/", {"step": "weather", "rolls": {"weather": [3, 4]}}, format="json"
            ),
        }
        return doors[action]()

    def act(self, match_id: int, action: str, *, expect: int):
        response = self.call(match_id, action)
        assert response.status_code == expect, response.json()
        return response


#: What each allowed move answers through its API door.
ANSWERS = {
    Action.SUBMIT: 201,
    Action.REJECT: 200,
    Action.CONFIRM: 200,
    Action.CORRECT: 200,
    Action.PREMATCH: 200,
    Action.DISPUTE: 200,
    Action.FORFEIT: 200,
    Action.VOID: 200,
}


def _ids(pairs) -> list[str]:
    return [f"{status}-{action}" for status, action in pairs]


REFUSED = [(s, a) for s in lifecycle.STATUSES for a in Action.values if not lifecycle.allowed(s, a)]


@pytest.fixture
def table(api_as, league, home, away, coach, other_coach, commissioner) -> Table:
    return Table(api_as, league, home, away, coach, other_coach, commissioner)


def test_the_table_knows_every_status_and_every_action_has_a_door():
    assert set(lifecycle.STATUSES) == set(Match.Status.values)
    assert {action for _, action in lifecycle.TRANSITIONS} == set(ANSWERS) == set(Action.values)
    assert set(lifecycle.REFUSALS) == set(Action.values)


@pytest.mark.parametrize(("before", "action"), list(lifecycle.TRANSITIONS), ids=_ids(lifecycle.TRANSITIONS))
def test_every_allowed_move_works_through_its_service(table, before, action):
    match_id = table.match_in(before)
    response = table.act(match_id, action, expect=ANSWERS[action])
    after = lifecycle.TRANSITIONS[(before, action)]
    assert Match.objects.get(pk=match_id).status == after
    if "status" in response.json():  # the match itself (the pre-match answers with its sequence)
        assert response.json()["status"] == after


@pytest.mark.parametrize(("before", "action"), REFUSED, ids=_ids(REFUSED))
def test_every_other_move_is_refused_in_words_and_changes_nothing(table, before, action):
    match_id = table.match_in(before)
    row = Match.objects.filter(pk=match_id).values().get()
    body = assert_refused(table.call(match_id, action), 400)
    assert body == {"detail": lifecycle.refusal(before, action)}
    assert Match.objects.filter(pk=match_id).values().get() == row


def test_transition_moves_the_match_by_the_table_and_refuses_with_a_typed_error():
    match = Match(status=Status.SUBMITTED)
    assert lifecycle.transition(match, Action.CONFIRM) == Status.FINAL == match.status
    with pytest.raises(TransitionRefused) as refused:
        lifecycle.transition(match, Action.REJECT)
    assert (refused.value.status, refused.value.action) == (Status.FINAL, Action.REJECT)
    assert match.status == Status.FINAL  # nothing moved


def test_the_database_refuses_a_status_the_table_does_not_know(table):
    match_id = table.match_in(Status.SCHEDULED)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.filter(pk=match_id).update(status="abandoned")
    constraint = next(c for c in Match._meta.constraints if c.name == "match_status_known")
    assert constraint.condition.children == [("status__in", list(lifecycle.STATUSES))]
