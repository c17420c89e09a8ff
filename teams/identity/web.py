"""The team sheet's identity form: colours and logo by a plain multipart POST (no JavaScript)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from campaigns.errors import NotPermitted, RuleViolation
from teams.models import Team

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
        messages.error(request, exc.message)
        return redirect("team-detail", pk=pk)
    messages.success(request, "The team's colours and logo are saved.")
    return redirect("team-detail", pk=pk)
