"""One answer on the pages to a service's refusal, as `core/api/errors.py` is the API's: the refusal in words
and the status it is answered with (403 not yours to do, 409 not in the state the thing is in now, 400 the input),
by the same table the API maps the rules' refusals with — so a page and the API never disagree on a refusal.

A page view runs its service call inside `refusals(...)`; a refusal is caught there (nothing was applied: the
services write in one transaction), said where the page says things (a flashed message, or the form next to the
field it names) and kept for the view to choose its status or its page. Anything else — a bug — still rises.

    with refusals(request) as refused:
        notice = service(...)
        messages.success(request, notice)
    return redirect(...)

Shared by every app's pages (league, teams, matches): a toolkit module, placed so in dugout/layers.py.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, IntegrityError
from django.utils.translation import gettext as _

from campaigns.errors import RuleViolation
from core.api.errors import rule_status

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Refusal:
    """A refused action in words: the message, the status a page answers it with, the input it names (if any)
    and the refusal itself (for a view that tells one kind from another, say a step already run)."""

    message: str
    status: int
    field: str | None = None
    error: BaseException | None = None

    @property
    def forbidden(self) -> bool:
        """Not this user's to do (403): a page shows the refusal page rather than the form again."""
        return self.status == 403


def refusal_of(exc: BaseException) -> Refusal | None:
    """The refusal an exception is, or None when it is not one (a bug: let it rise)."""
    if isinstance(exc, RuleViolation):
        return Refusal(exc.message, rule_status(exc), exc.field, exc)
    if isinstance(exc, PermissionDenied):
        message = str(exc) or _("That belongs to someone else: nothing was changed.")
        return Refusal(message, 403, None, exc)
    if isinstance(exc, DjangoValidationError):
        fields = list(exc.message_dict) if hasattr(exc, "error_dict") else []
        field = fields[0] if len(fields) == 1 and fields[0] != "__all__" else None
        return Refusal(" ".join(exc.messages), 400, field, exc)
    if isinstance(exc, IntegrityError):
        # A constraint caught what a service check should have: someone else changed the same thing at the same
        # moment. Nothing was applied; the person may try again.
        log.warning("integrity error answered as 409 on a page: %s", exc)
        message = _("That conflicts with a change made at the same moment; nothing was applied. Please try again.")
        return Refusal(message, 409, None, exc)
    if isinstance(exc, DataError):
        log.warning("data error answered as 400 on a page: %s", exc)
        return Refusal(_("A value is out of the range Dugout can store."), 400, None, exc)
    return None


def show_on_form(form, refusal: Refusal) -> None:
    """Put a refusal on a form: the form's own `add_service_error` (which knows the service's field paths) for a
    rule's refusal, else next to the field it names when the form has one, else on the whole form."""
    if isinstance(refusal.error, RuleViolation) and not refusal.forbidden and hasattr(form, "add_service_error"):
        form.add_service_error(refusal.error)
        return
    field = refusal.field if refusal.field in form.fields else None
    form.add_error(field, refusal.message)


class refusals:
    """Catch a refusal of the service calls in the block and say it on the page: on `form` when given, else as a
    flashed error on `request` when given, else nowhere (the view says it). With `forbidden_page`, a refusal
    that is not the user's to do (403) is left to the view, which answers it with the refusal page.

    After the block the object is true when refused, with the `refusal` (message, status, field, error)."""

    def __init__(self, request=None, *, form=None, forbidden_page: bool = False) -> None:
        self.request = request
        self.form = form
        self.forbidden_page = forbidden_page
        self.refusal: Refusal | None = None

    def __enter__(self) -> refusals:
        return self

    def __exit__(self, kind, exc, traceback) -> bool:
        if exc is None:
            return False
        refusal = refusal_of(exc)
        if refusal is None:
            return False
        self.refusal = refusal
        if refusal.forbidden and self.forbidden_page:
            return True
        if self.form is not None:
            show_on_form(self.form, refusal)
        elif self.request is not None:
            messages.error(self.request, refusal.message)
        return True

    def __bool__(self) -> bool:
        return self.refusal is not None

    @property
    def message(self) -> str:
        return self.refusal.message if self.refusal else ""

    @property
    def status(self) -> int:
        """The status to answer with: the refusal's, or 200 when nothing was refused."""
        return self.refusal.status if self.refusal else 200

    @property
    def forbidden(self) -> bool:
        return self.refusal is not None and self.refusal.forbidden

    @property
    def error(self) -> BaseException | None:
        return self.refusal.error if self.refusal else None
