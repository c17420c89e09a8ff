"""The match report's POST buttons: confirming or rejecting a submitted result (api-v1 "Web pages"), disputing
it with a reason, and the commissioner's ruling on a disputed one."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect

from campaigns.errors import RuleViolation
from core.pages import refusals
from matches import corrections, disputes, services
from matches.models import Match
from matches.web.common import refused


def _match_action(service, done: str, *, reason: bool = False):
    """A POST button of the report (confirm, reject — with the form's optional reason); a GET (e.g. back from the
    log-in page) shows the report."""

    @login_required
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        get_object_or_404(Match, pk=pk)
        if request.method != "POST":
            return redirect("match-detail", pk=pk)
        with refusals(request, forbidden_page=True) as outcome:
            extra = {"reason": request.POST.get("reason", "")} if reason else {}
            service(user=request.user, match_id=pk, **extra)
            messages.success(request, done)
        return refused(request, outcome.message) if outcome.forbidden else redirect("match-detail", pk=pk)

    return view


match_confirm = _match_action(
    services.match_confirm, "Result confirmed: it is final, and each team's post-match sequence is open."
)
match_reject = _match_action(services.match_reject, "Result rejected: the match is scheduled again.", reason=True)


@login_required
def match_dispute(request: HttpRequest, pk: int) -> HttpResponse:
    """The other coach disputes the submitted result, with his reason (the commissioner then rules)."""
    get_object_or_404(Match, pk=pk)
    if request.method != "POST":
        return redirect("match-detail", pk=pk)
    with refusals(request, forbidden_page=True) as outcome:
        disputes.match_dispute(user=request.user, match_id=pk, reason=request.POST.get("reason", ""))
        messages.success(request, "Result disputed: the commissioner rules on it; his queue shows it.")
    return refused(request, outcome.message) if outcome.forbidden else redirect("match-detail", pk=pk)


#: What each ruling the page offers says once made (a disputed result is corrected through the API or the queue).
RULED = {
    "confirm": "Ruling made: the result stands and is final; each team's post-match sequence is open.",
    "reject": "Ruling made: the result is rejected and the match is to be played again.",
}


@login_required
def match_ruling(request: HttpRequest, pk: int) -> HttpResponse:
    """The commissioner's ruling on a disputed result from its page: confirm it as is or reject it, with a
    reason (kept in the audit)."""
    get_object_or_404(Match, pk=pk)
    if request.method != "POST":
        return redirect("match-detail", pk=pk)
    ruling = request.POST.get("ruling", "")
    with refusals(request, forbidden_page=True) as outcome:
        if ruling not in RULED:
            raise RuleViolation("Choose a ruling: confirm the result or reject it.")
        disputes.match_rule_dispute(user=request.user, match_id=pk, ruling=ruling, reason=request.POST.get("reason"))
        messages.success(request, RULED[ruling])
    return refused(request, outcome.message) if outcome.forbidden else redirect("match-detail", pk=pk)


@login_required
def match_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """The commissioner corrects a final result from its page: the corrected result body (JSON, as the API takes
    it) and an optional reason, kept in the audit."""
    get_object_or_404(Match, pk=pk)
    if request.method != "POST":
        return redirect("match-detail", pk=pk)
    with refusals(request, forbidden_page=True) as outcome:
        try:
            body = json.loads(request.POST.get("result", ""))
        except ValueError as exc:
            raise RuleViolation("The corrected result is not valid JSON.", field="result") from exc
        corrections.match_correct(user=request.user, match_id=pk, body=body, reason=request.POST.get("reason", ""))
        messages.success(request, "Result corrected: the old one's effects are reversed and the new one applied.")
    return refused(request, outcome.message) if outcome.forbidden else redirect("match-detail", pk=pk)
