"""The season turn applied to a league's teams: the ruleset's pure answer
(`Ruleset.season_turn`, campaigns/rulesets/season.py) read from plain team data and written back in bulk —
a fixed number of queries whatever the league's size — inside the caller's transaction
(dugout/seasons.py `season_start_next`, after its commissioner check).

Released players are marked (status `retired`, `left_at`), never deleted: their history and pages stay. A
treasury set to a redraft budget moves through the ledger writer (`ledger_post_teams`), one `redraft` entry per
team whose balance differs. The turn runs once per season under the league's lock (the season number moves
with it), so a repeated request cannot apply it twice.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from campaigns.rulesets.base import PlayerState
from campaigns.rulesets.season import SeasonTeam, TeamTurn
from league.models import League
from teams.models import LedgerEntry, Player, Team
from teams.selectors import latest_balance
from teams.services import Posting, ledger_post_teams

#: The ledger kind of a treasury set to the redraft budget.
REDRAFT_KIND = "redraft"


def _season_teams(league: League) -> list[SeasonTeam]:
    """The league's teams as plain data, their rows locked (two queries: teams with treasuries, players)."""
    teams = list(
        Team.objects.select_for_update(of=("self",))
        .filter(league=league)
        .annotate(treasury=latest_balance(LedgerEntry.Account.TREASURY)["balance"])
        .order_by("pk")
        .values("pk", "treasury", "rerolls", "fan_factor", "staff")
    )
    players: dict[int, list[PlayerState]] = {}
    for pk, team_id, status in (
        Player.objects.filter(team__league=league, left_at__isnull=True)
        .order_by("pk")
        .values_list("pk", "team_id", "status")
    ):
        players.setdefault(team_id, []).append(PlayerState(id=pk, position="", status=status))
    return [
        SeasonTeam(
            id=t["pk"],
            players=tuple(players.get(t["pk"], ())),
            treasury=t["treasury"],
            rerolls=t["rerolls"],
            fan_factor=t["fan_factor"],
            staff=t["staff"] or {},
        )
        for t in teams
    ]


def season_turn_apply(*, user: AbstractBaseUser, league: League, hr: dict, season: int) -> dict:
    """Ask the league's ruleset what the turn to `season` changes (under the house rules `hr` of that season)
    and apply it; answer a summary for the audit: {rollover, teams, rebuilt, players_released, treasuries} —
    `rebuilt` the teams whose players were released or that are back in creation (their unplayed matches are not
    theirs to play any more: dugout/seasons.py makes them void)."""
    teams = _season_teams(league)
    turns: tuple[TeamTurn, ...] = league.rules.season_turn(tuple(teams), hr)
    summary = {
        "rollover": hr.get("season_rollover", "carry"),
        "teams": [],
        "rebuilt": [],
        "players_released": 0,
        "treasuries": {},
    }
    if not turns:
        return summary
    now = timezone.now()
    released = [pk for turn in turns for pk in turn.release]
    if released:
        Player.objects.filter(pk__in=released).update(status=Player.Status.RETIRED, role="", left_at=now)
    _reset_teams(turns)
    balances = {team.id: team.treasury for team in teams}
    postings = {
        turn.team: Posting(
            amount=turn.treasury_change(balances[turn.team]),
            kind=REDRAFT_KIND,
            reason=f"Redraft for season {season}: the treasury set to the redraft budget",
        )
        for turn in turns
        if turn.treasury_change(balances[turn.team])
    }
    ledger_post_teams(postings=postings, user=user)
    summary.update(
        teams=[turn.team for turn in turns],
        rebuilt=[turn.team for turn in turns if turn.release or turn.back_in_creation],
        players_released=len(released),
        treasuries={str(t.team): t.treasury for t in turns if t.treasury is not None},
    )
    return summary


def _reset_teams(turns: tuple[TeamTurn, ...]) -> None:
    """The teams' counts and creation, one UPDATE per distinct change (a redraft makes them all the same)."""
    groups: dict[tuple[tuple[str, ...], bool], list[int]] = {}
    for turn in turns:
        if turn.reset or turn.back_in_creation:
            groups.setdefault((turn.reset, turn.back_in_creation), []).append(turn.team)
    for (reset, back_in_creation), team_ids in groups.items():
        changes: dict = {name: {} if name == "staff" else 0 for name in reset}
        if back_in_creation:
            changes["creation_closed_at"] = None
        Team.objects.filter(pk__in=team_ids).update(**changes)
