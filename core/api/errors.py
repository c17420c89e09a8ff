"""One error shape for the API: `{"field": ["message"]}` or `{"detail": "message"}`, never a 500 for input."""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from campaigns.errors import Conflict, NotPermitted, RuleViolation

log = logging.getLogger(__name__)


#: The rules' refusals by type, most specific first: every subclass answers as its base does (a pre- or
#: post-match `StepConflict`, an `InvitationConflict` are `Conflict`s; a lifecycle `TransitionRefused` is a
#: `RuleViolation`). Never matched by class name.
RULE_STATUS: tuple[tuple[type[RuleViolation], int], ...] = (
    (NotPermitted, status.HTTP_403_FORBIDDEN),
    (Conflict, status.HTTP_409_CONFLICT),
    (RuleViolation, status.HTTP_400_BAD_REQUEST),
)


def rule_status(exc: RuleViolation) -> int:
    return next(code for kind, code in RULE_STATUS if isinstance(exc, kind))


def exception_handler(exc, context):
    if isinstance(exc, RuleViolation):
        set_rollback()
        return Response(exc.as_dict(), status=rule_status(exc))
    if isinstance(exc, DjangoValidationError):
        set_rollback()
        body = exc.message_dict if hasattr(exc, "error_dict") else {"detail": " ".join(exc.messages)}
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, IntegrityError):
        # A constraint caught what a service check should have: someone else changed the same thing
        # at the same moment. Nothing was applied; the client may retry.
        log.warning("integrity error answered as 409: %s", exc)
        set_rollback()
        return Response(
            {"detail": "That conflicts with a change made at the same moment; nothing was applied. Please try again."},
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, DataError):
        # The database refused a value the serializers let through (a number past a column's range, text
        # PostgreSQL cannot store): the input's fault, and nothing was applied.
        log.warning("data error answered as 400: %s", exc)
        set_rollback()
        return Response({"detail": "A value is out of the range Dugout can store."}, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    return response


def validated(serializer_class, data, *, partial: bool = False) -> dict:
    """Validate a request body with an input serializer; a bad field raises the usual 400. `partial` (a PATCH)
    leaves out what the body does not name — a form-encoded body's missing checkbox is not a `false`."""
    serializer = serializer_class(data=data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
