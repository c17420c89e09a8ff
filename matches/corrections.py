"""The commissioner corrects a final result: everything the old result did is reversed — gil through new
ledger entries, never by editing history — and the corrected result becomes final with fresh post-match
sequences. Only a team's latest final match can be corrected (later matches were played on its outcome).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from campaigns.errors import NotPermitted, RuleViolation
from teams.models import Player, Sponsorship, Team
from teams.services import ledger_post

from . import policy
from .models import Aftermath, Match, MatchTeam, PlayerMatch
from .services import JOURNALED_COUNTERS, _make_final, parse_match_result


def match_correct(*, user: AbstractBaseUser, match_id: int, body: object) -> Match:
    with transaction.atomic():
        match = Match.objects.select_for_update(of=("self",)).select_related("league").get(pk=match_id)
        if not policy.may_correct_result(user, match):
            raise NotPermitted("Only the commissioner can correct a final result.")
        if match.status != Match.Status.FINAL:
            raise RuleViolation("Only a final result can be corrected; a submitted one can be rejected.")
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
        list(Team.objects.select_for_update().filter(pk__in=team_ids).order_by("pk").values_list("pk", flat=True))
        # Validate the corrected result against the rosters as they stood before the match.
        _undo_aftermaths(match, user)
        _restore_players(match)
        result = parse_match_result(match, body)
        match.corrections = [
            *match.corrections,
            {
                "result": match.result,
                "body": match.result_body,
                "player_rows": list(
                    PlayerMatch.objects.filter(match=match).values(
                        "player_id",
                        "touchdowns",
                        "casualties",
                        "completions",
                        "interceptions",
                        "mvp",
                        "spp",
                        "injury",
                        "injury_detail",
                        "goal_points",
                        "wounds",
                        "detail",
                    )
                ),
                "logs": {str(a.team_id): a.log for a in match.aftermaths.all()},
                "by": user.pk,
                "at": timezone.now().isoformat(),
            },
        ]
        PlayerMatch.objects.filter(match=match).delete()
        Aftermath.objects.filter(match=match).delete()
        match.result = result
        match.result_body = body
        match.save(update_fields=["result", "result_body", "corrections"])
        _make_final(match, sides, user)
    return match


def _undo_aftermaths(match: Match, user: AbstractBaseUser) -> None:
    for aftermath in match.aftermaths.select_related("team").order_by("team_id"):
        team = aftermath.team
        for entry in reversed(aftermath.journal):
            kind = entry["type"]
            if kind == "gil":
                ledger_post(
                    team=team,
                    amount=-entry["amount"],
                    kind="correction",
                    user=user,
                    match_id=match.pk,
                    account=entry["account"],
                    reason=f"Correction of match #{match.pk}: {entry['reason']}",
                )
            elif kind == "fan_factor":
                Team.objects.filter(pk=team.pk).update(fan_factor=max(0, team.fan_factor - entry["delta"]))
                team.refresh_from_db(fields=["fan_factor"])
            elif kind == "player":
                before = dict(entry["before"])
                left_at = before.pop("left_at")
                Player.objects.filter(pk=entry["id"]).update(
                    **before, left_at=parse_datetime(left_at) if left_at else None
                )
            elif kind == "row":
                PlayerMatch.objects.filter(match=match, player_id=entry["player"]).update(detail=entry["before"])
            elif kind == "staff":
                team.refresh_from_db(fields=["staff"])
                staff = dict(team.staff)
                staff[entry["item"]] = staff.get(entry["item"], 0) - entry["delta"]
                Team.objects.filter(pk=team.pk).update(staff=staff)
                team.staff = staff
            elif kind == "new_player":
                Player.objects.filter(pk=entry["id"]).delete()
            elif kind == "sponsorship_gained":
                Sponsorship.objects.filter(pk=entry["id"]).delete()
            elif kind == "sponsorship_ended":
                Sponsorship.objects.filter(pk=entry["id"]).update(ended_at=None)
            elif kind == "residency":
                stadium_id, owned = entry["before"]
                Team.objects.filter(pk=team.pk).update(home_stadium_id=stadium_id, owns_stadium=owned)
            else:  # pragma: no cover
                raise TypeError(f"unknown journal entry {entry!r}")


def _restore_players(match: Match) -> None:
    """Players back as they stood before the result was final: status, attributes, SPP."""
    for player_id, before in match.journal.get("players", {}).items():
        Player.objects.filter(pk=int(player_id)).update(
            status=before["status"],
            attributes=before["attributes"],
            **{counter: before[counter] for counter in JOURNALED_COUNTERS if counter in before},
        )
