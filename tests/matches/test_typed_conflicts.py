"""Conflicts are typed: every "not in the state it is in now" refusal is a `campaigns.errors.Conflict`, and the
API's one error handler (core/api/errors.py) maps the rules' refusals by type — never by class name — to
403 / 409 / 400 with the one error shape (docs/api-v1-extensions.md "Errors")."""

from __future__ import annotations

import inspect

import pytest

from campaigns.errors import Conflict, NotPermitted, RuleViolation
from core.api import errors
from league.services import InvitationConflict
from matches.aftermath import StepConflict
from matches.lifecycle import TransitionRefused
from matches.models import Aftermath, Roll
from tests.assertions import assert_refused

pytestmark = pytest.mark.django_db


def test_the_handler_answers_each_refusal_by_its_type():
    assert errors.rule_status(NotPermitted("no")) == 403
    assert errors.rule_status(StepConflict("not now")) == 409
    assert errors.rule_status(InvitationConflict("already")) == 409
    assert errors.rule_status(Conflict("not now")) == 409
    assert errors.rule_status(TransitionRefused("final", status="final", action="submit")) == 400
    assert errors.rule_status(RuleViolation("bad")) == 400


def test_a_conflict_of_a_new_kind_is_a_409_without_teaching_the_handler():
    class SomethingMovedMeanwhile(Conflict):
        pass

    response = errors.exception_handler(SomethingMovedMeanwhile("It moved."), {})
    assert (response.status_code, response.data) == (409, {"detail": "It moved."})


def test_the_handler_matches_no_class_by_name():
    assert ".__name__" not in inspect.getsource(errors)


def test_a_post_match_step_out_of_turn_is_a_409_in_the_error_shape_and_changes_nothing(
    api_as, league, home, away, coach, other_coach, play
):
    """api-v1: `POST /matches/{id}/aftermath/{team_id}/` — 409 if `step` is not the current step."""
    match_id = api_as(coach).post("/api/v1/matches/", {"league": league.pk, "teams": [home.pk, away.pk]}).json()["id"]
    play(match_id, {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}]}, coach, other_coach)
    before = (list(Aftermath.objects.values()), Roll.objects.count())
    response = api_as(coach).post(f"/api/v1/matches/{match_id}/aftermath/{home.pk}/", {"step": "fortune"})
    body = assert_refused(response, 409)
    assert body == {"detail": "The current step is improvements, not fortune."}
    assert (list(Aftermath.objects.values()), Roll.objects.count()) == before


def test_a_pre_match_step_out_of_turn_is_a_409_in_the_error_shape(api_as, league, home, away, coach):
    """api-v1-extensions: `POST /matches/{id}/prematch/` — 409 if `step` is not the current step."""
    match_id = api_as(coach).post("/api/v1/matches/", {"league": league.pk, "teams": [home.pk, away.pk]}).json()["id"]
    response = api_as(coach).post(f"/api/v1/matches/{match_id}/prematch/", {"step": "fans"}, format="json")
    body = assert_refused(response, 409)
    assert body == {"detail": "The pre-match sequence is at Weather, not at fans."}
