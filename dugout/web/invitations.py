"""`/invitations/`: the signed-in user's invitations to leagues, each accepted or declined by him alone."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.pages import refusals
from league import services
from league.models import Invitation
from league.policy import may_answer_invitation
from league.selectors import invitations_pending


@login_required
def invitation_list(request: HttpRequest) -> HttpResponse:
    invitations = [
        (invitation, may_answer_invitation(user=request.user, invitation=invitation))
        for invitation in invitations_pending(user=request.user)
    ]
    return render(request, "league/invitations.html", {"invitations": invitations})


def _answer(request: HttpRequest, pk: int, answer, words: str) -> HttpResponse:
    # Someone else's invitation is not there for this user (404), as in the API.
    if not Invitation.objects.filter(pk=pk, user=request.user).exists():
        raise Http404("No such invitation.")
    with refusals(request) as refused:
        result = answer(user=request.user, invitation_id=pk)
    if refused:
        return redirect("invitations")
    league = result.league
    messages.success(request, words.format(league=league.name))
    return redirect("league-detail", pk=league.pk) if answer is services.invitation_accept else redirect("invitations")


@login_required
@require_POST
def invitation_accept(request: HttpRequest, pk: int) -> HttpResponse:
    return _answer(request, pk, services.invitation_accept, "Welcome to {league}.")


@login_required
@require_POST
def invitation_decline(request: HttpRequest, pk: int) -> HttpResponse:
    return _answer(request, pk, services.invitation_decline, "You declined the invitation to {league}.")
