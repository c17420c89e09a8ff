"""The match report's POST buttons: confirming or rejecting a submitted result (api-v1 "Web pages"), disputing
it with a reason, and the commissioner's ruling on a disputed one (issue 13)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect

from campaigns.errors import NotPermitted, RuleViolation
from matches import disputes, services
from matches.models import Match

from .common import refused


def _match_action(service, done: str):
    """A POST button of the report (confirm, reject); a GET (e.g. back from the log-in page) shows the report."""

    @login_required
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        get_object_or_404(Match, pk=pk)
        if request.method != "POST":
            return redirect("match-detail", pk=pk)
        try:
            service(user=request.user, match_id=pk)
        except NotPermitted as exc:
            return refused(request, exc.message)
        except RuleViolation as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, done)
        return redirect("match-detail", pk=pk)

    return view


match_confirm = _match_action(
    services.match_confirm, "Result confirmed: it is final, and each team's post-match sequence is open."
)
match_reject = _match_action(services.match_reject, "Result rejected: the match is scheduled again.")


@login_required
def match_dispute(request: HttpRequest, pk: int) -> HttpResponse:
    """The other coach disputes the submitted result, with his reason (the commissioner then rules)."""
    get_object_or_404(Match, pk=pk)
    if request.method != "POST":
        return redirect("match-detail", pk=pk)
    try:
        disputes.match_dispute(user=request.user, match_id=pk, reason=request.POST.get("reason", ""))
    except NotPermitted as exc:
        return refused(request, exc.message)
    except RuleViolation as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Result disputed: the commissioner rules on it; his queue shows it.")
    return redirect("match-detail", pk=pk)


#: What each ruling the page offers says once made (a correction is made through the API or the queue).
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
    try:
        if ruling not in RULED:
            raise RuleViolation("Choose a ruling: confirm the result or reject it.")
        disputes.match_rule_dispute(user=request.user, match_id=pk, ruling=ruling, reason=request.POST.get("reason"))
    except NotPermitted as exc:
        return refused(request, exc.message)
    except RuleViolation as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, RULED[ruling])
    return redirect("match-detail", pk=pk)
