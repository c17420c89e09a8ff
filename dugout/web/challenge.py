"""The ElfBall Challenge roller page (`/leagues/<id>/challenge/`, rules/elfball.md "Challenges")."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from core.pages import refusals
from league.models import League
from matches import challenges
from matches.models import Match
from matches.selectors import match_queryset
from matches.web.forms.challenge import ChallengeForm


@login_required
def league_challenge(request: HttpRequest, pk: int) -> HttpResponse:
    """`/leagues/<id>/challenge/`: the Challenge roller (rules/elfball.md) — the server rolls, or scores the dice
    rolled at the table; every Challenge is logged like any other roll."""
    league = get_object_or_404(League, pk=pk)
    matches = list(match_queryset().filter(league=league).exclude(status=Match.Status.FINAL).order_by("-id")[:50])
    form = ChallengeForm(request.POST or None, matches=matches)
    rolled, status = None, 200
    if request.method == "POST" and not form.is_valid():
        status = 400  # the form again with its errors: nothing was rolled
    elif request.method == "POST":
        data = form.cleaned_data
        with refusals(form=form, forbidden_page=True) as refused:
            roll, result = challenges.challenge_roll(
                user=request.user,
                league=league,
                dice_count=data["dice"],
                threshold=data["threshold"],
                values=data["values"] or None,
                match_id=data["match"],
            )
            threshold = data["threshold"]
            faces = [
                {"value": v, "kind": "flop" if v == 1 else ("success" if v >= threshold or v == 6 else "")}
                for v in roll.values
            ]
            if threshold >= 7:  # successes are the 6s less the flops
                faces = [{**f, "kind": "success" if f["value"] == 6 else f["kind"]} for f in faces]
            rolled = {"roll": roll, "result": result, "faces": faces, "threshold": threshold}
        if refused.forbidden:
            return render(request, "matches/refused.html", {"message": refused.message}, status=403)
        status = refused.status  # 200 with the roll, else the refusal's (400 the input, 409 the match's state)
    context = {
        "league": league,
        "form": form,
        "rolled": rolled,
        "recent": challenges.recent_challenges(league=league),
    }
    return render(request, "league/challenge.html", context, status=status)
