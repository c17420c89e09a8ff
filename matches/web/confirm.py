"""The match report's POST buttons: confirming or rejecting a submitted result (api-v1 "Web pages")."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect

from campaigns.errors import NotPermitted, RuleViolation
from matches import services
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
