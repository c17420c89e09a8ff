"""The commissioner corrects a final result: everything the old result did is reversed
(`matches.effects.result_undo`: gil through new ledger entries, never by editing history) and the corrected
result becomes final with fresh post-match sequences. Only a team's latest final match can be corrected (later
matches were played on its outcome).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns.errors import NotPermitted, RuleViolation
from league.audit import audit_record, reason_text
from league.models import league_table_changed

from . import effects, lifecycle, policy
from .locks import lock_teams
from .models import Match, MatchTeam
from .services import parse_match_result


def match_correct(*, user: AbstractBaseUser, match_id: int, body: object, reason: object = "") -> Match:
    """`reason` (optional, at most 500 characters) is kept in the correction's audit entry."""
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("league").get(pk=match_id)
        if not policy.may_correct_result(user, match):
            raise NotPermitted("Only the commissioner can correct a final result.")
        lifecycle.next_status(match.status, lifecycle.Action.CORRECT)
        text = reason_text(reason)
        sides = list(match.sides.select_related("team"))
        team_ids = sorted(s.team_id for s in sides)
        later = MatchTeam.objects.filter(team_id__in=team_ids, match__confirmed_at__gt=match.confirmed_at)
        if (
            later.exists()
            or MatchTeam.objects.filter(team_id__in=team_ids, match__status=Match.Status.SUBMITTED)
            .exclude(match=match)
            .exists()
        ):
            raise RuleViolation("Only a team's latest match can be corrected: a later result already builds on it.")
        lock_teams(team_ids)
        # Undo the old result, then validate the corrected one against the rosters as they stood before the match.
        before = match.result
        undone = effects.result_undo(match, user=user)
        result = parse_match_result(match, body)
        match.corrections = [*match.corrections, {**undone, "by": user.pk, "at": timezone.now().isoformat()}]
        match.result = result
        match.result_body = body
        match.save(update_fields=["result", "result_body", "corrections"])
        lifecycle.transition(match, lifecycle.Action.CORRECT)
        effects.result_apply(match, sides)
        league_table_changed(match.league_id)
        match.confirmed_by = user
        match.confirmed_at = timezone.now()
        match.save(update_fields=["status", "result", "confirmed_by", "confirmed_at", "journal"])
        audit_record(
            league=match.league,
            actor=user,
            action="correction",
            target=f"match {match.pk}",
            before={"result": before},
            after={"result": match.result},
            reason=text,
        )
    return match
