"""The team sheet's identity form: colours and logo by a plain multipart POST (no JavaScript)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from campaigns.errors import NotPermitted, RuleViolation
from teams.models import Team
from teams.web.sheet import team_page_context

from . import services


@require_POST
@login_required
def team_identity(request: HttpRequest, pk: int) -> HttpResponse:
    """Colours, then the logo (an upload replaces it, the box removes it), all or nothing."""
    team = get_object_or_404(Team, pk=pk)
    reason = request.POST.get("reason", "")[:500]
    upload = request.FILES.get("logo")
    try:
        with transaction.atomic():
            services.team_set_colours(
                team_id=team.pk,
                user=request.user,
                primary=request.POST.get("primary_colour") or None,
                secondary=request.POST.get("secondary_colour") or None,
                reason=reason,
            )
            if upload is not None:
                data = upload.read(settings.TEAM_LOGO_MAX_BYTES + 1)
                services.team_set_logo(team_id=team.pk, user=request.user, data=data, reason=reason)
            elif request.POST.get("remove_logo"):
                services.team_remove_logo(team_id=team.pk, user=request.user, reason=reason)
    except NotPermitted as exc:
        return HttpResponse(exc.message, status=403, content_type="text/plain; charset=utf-8")
    except RuleViolation as exc:
        return identity_refused(request, team.pk, exc)
    messages.success(request, "The team's colours and logo are saved.")
    return redirect("team-detail", pk=pk)


def identity_refused(request: HttpRequest, pk: int, exc: RuleViolation) -> HttpResponse:
    """The team page again, answered 400, with the refusal beside the field at fault (the logo, a colour) or
    above the form; nothing was saved, so the page shows the team as it is."""
    fields = ("primary_colour", "secondary_colour", "logo")
    context = team_page_context(request, pk)
    if exc.field in fields:
        context["identity_errors"] = {exc.field: [exc.message]}
    else:
        context["identity_form_errors"] = [exc.message]
    return render(request, "teams/team_detail.html", context, status=400)
