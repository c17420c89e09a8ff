"""`/me/`: a user's home — everything waiting for him (`dugout.actions`) with a link to act on it, and his
teams; and `/favicon.ico`."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static

from dugout.actions import user_actions
from teams.models import Team


@login_required
def me(request: HttpRequest) -> HttpResponse:
    teams = Team.objects.filter(coach=request.user).select_related("league").order_by("league__name", "name")
    waiting = user_actions(user=request.user)
    # The header's badge counts the same list: hand it over rather than have it read again.
    context = {"teams": list(teams), "waiting": waiting, "waiting_count": len(waiting)}
    return render(request, "me.html", context)


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links: send them to the one icon (static/favicon.svg).
    Resolved per request, so the static storage's hashed name is used once collectstatic has run."""
    return redirect(static("favicon.svg"), permanent=True)
