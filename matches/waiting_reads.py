"""The facts `matches.waiting` reads, as one query: a match's sides with their coaches, the unfinished post-match
sequences of its teams, its league's commissioners, its open time proposal, its pending request for more time
and its open dispute — correlated subqueries annotated on the `Match` queryset, so any number of matches costs
the one query that reads them; and which matches may wait for a given user."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import OuterRef, Q, QuerySet, Subquery

from league.models import Membership
from league.selectors import json_rows

from . import lifecycle
from .models import Aftermath, Dispute, Extension, Match, MatchTeam, TimeProposal


def waiting_annotations() -> dict[str, Subquery]:
    """What `match_waiting` reads, as annotations of a `Match` queryset (select `league` and `prematch` with
    it): correlated subqueries, so any number of matches costs the one query that reads them."""
    sides = MatchTeam.objects.filter(match=OuterRef("pk"))
    in_match = MatchTeam.objects.filter(match=OuterRef(OuterRef("pk"))).values("team_id")
    # Grouped on `complete` (false for every row): one array of the sequences of every team of the match.
    unfinished = Aftermath.objects.filter(team_id__in=in_match, complete=False)
    commissioners = Membership.objects.filter(league=OuterRef("league_id"), role=Membership.Role.COMMISSIONER)
    proposal = TimeProposal.objects.filter(match=OuterRef("pk"), state=TimeProposal.State.OPEN)
    extension = Extension.objects.filter(match=OuterRef("pk"), state=Extension.State.PENDING)
    dispute = Dispute.objects.filter(match=OuterRef("pk"), ruling="").order_by("id")
    return {
        "w_sides": json_rows(
            sides,
            "match",
            team="team_id",
            name="team__name",
            order="order",
            coach="team__coach_id",
            username="team__coach__username",
        ),
        "w_unfinished": json_rows(
            unfinished,
            "complete",
            match="match_id",
            team="team_id",
            step="step_index",
            coach="team__coach_id",
            username="team__coach__username",
        ),
        "w_commissioners": json_rows(commissioners, "league", user="user_id", username="user__username"),
        "w_proposal_team": Subquery(proposal.values("team_id")[:1]),
        "w_proposal_at": Subquery(proposal.values("created_at")[:1]),
        "w_extension_at": Subquery(extension.values("created_at")[:1]),
        "w_dispute_at": Subquery(dispute.values("created_at")[:1]),
    }


def waiting_queryset() -> QuerySet[Match]:
    """Matches with what `match_waiting` reads: their league, pre-match sequence and the annotations."""
    return Match.objects.select_related("league", "prematch").annotate(**waiting_annotations())


def user_matches(user: AbstractBaseUser) -> QuerySet[Match]:
    """The matches where something may wait for `user` (subqueries: no query of their own): the open matches
    his teams play in, those whose post-match sequence of his team is unfinished, and in the leagues he runs
    the disputed matches and those with a pending request for more time."""
    played = MatchTeam.objects.filter(team__coach=user).values("match_id")
    sequences = Aftermath.objects.filter(team__coach=user, complete=False).values("match_id")
    runs = Membership.objects.filter(user=user, role=Membership.Role.COMMISSIONER).values("league_id")
    asked = Extension.objects.filter(state=Extension.State.PENDING).values("match_id")
    return waiting_queryset().filter(
        Q(pk__in=played, status__in=lifecycle.OPEN)
        | Q(pk__in=sequences)
        | Q(league_id__in=runs, status=Match.Status.DISPUTED)
        | Q(league_id__in=runs, pk__in=asked, status__in=lifecycle.OPEN)
    )
