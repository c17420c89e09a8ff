"""The pages' one answer to a service's refusal (core/pages.py): the message and the status, by the API's
own table, so a page and the API never disagree; said on the form or flashed; anything else still rises."""

from __future__ import annotations

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.test import RequestFactory

from campaigns.errors import Conflict, NotPermitted, RuleViolation
from core.api.errors import rule_status
from core.pages import refusal_of, refusals
from matches.aftermath import StepConflict


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (NotPermitted("Not yours."), 403),
        (Conflict("Already done."), 409),
        (StepConflict("Step already run."), 409),
        (RuleViolation("Bad score.", field="score"), 400),
        (PermissionDenied("Not yours."), 403),
        (DjangoValidationError({"name": ["Too long."]}), 400),
        (IntegrityError("duplicate key"), 409),
    ],
)
def test_a_refusal_is_answered_with_the_status_the_api_gives_it(error, status):
    refusal = refusal_of(error)
    assert refusal is not None and refusal.status == status and refusal.message
    if isinstance(error, RuleViolation):
        assert status == rule_status(error)
        assert (refusal.message, refusal.field) == (error.message, error.field)


def test_a_django_validation_error_names_its_one_field():
    assert refusal_of(DjangoValidationError({"name": ["Too long."]})).field == "name"


def test_anything_else_is_not_a_refusal_and_still_rises():
    assert refusal_of(ValueError("a bug")) is None
    with pytest.raises(KeyError), refusals():
        raise KeyError("a bug")


def _request():
    request = RequestFactory().post("/")
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    return request


def test_a_refusal_is_flashed_and_kept_for_the_view():
    request = _request()
    with refusals(request) as refused:
        raise Conflict("The season cannot close yet.")
    assert refused and refused.status == 409 and refused.message == "The season cannot close yet."
    assert [str(m) for m in get_messages(request)] == ["The season cannot close yet."]


def test_nothing_refused_is_false_and_a_200():
    with refusals(_request()) as refused:
        pass
    assert not refused and refused.status == 200 and refused.message == "" and refused.error is None


def test_with_forbidden_page_a_403_is_left_to_the_view():
    request = _request()
    with refusals(request, forbidden_page=True) as refused:
        raise NotPermitted("Only the commissioner.")
    assert refused.forbidden and list(get_messages(request)) == []


class _Form(forms.Form):
    name = forms.CharField()


def test_a_refusal_is_said_on_the_form_next_to_the_field_it_names():
    form = _Form({"name": "x"})
    assert form.is_valid()
    with refusals(form=form) as refused:
        raise RuleViolation("That name is taken.", field="name")
    assert refused.status == 400 and form.errors == {"name": ["That name is taken."]}

    form = _Form({"name": "x"})
    form.is_valid()
    with refusals(form=form):
        raise NotPermitted("Not yours.")
    assert form.non_field_errors() == ["Not yours."]


def test_a_form_that_knows_the_services_paths_places_the_refusal_itself():
    class Placing(_Form):
        def add_service_error(self, exc):
            self.add_error("name", f"placed: {exc.message}")

    form = Placing({"name": "x"})
    form.is_valid()
    with refusals(form=form):
        raise RuleViolation("Bad.", field="players[0].name")
    assert form.errors == {"name": ["placed: Bad."]}
