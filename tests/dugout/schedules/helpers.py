"""Shared by the schedule tests: teams ready to play, pairs of a round read back from the database."""

from __future__ import annotations

from django.utils import timezone

from matches.models import MatchTeam
from teams.models import Team
from tests.factories import TeamFactory, UserFactory


def ready_teams(league, n: int, *, roster: str = "hume", prefix: str = "Team") -> list[int]:
    """`n` teams of `league` that have left creation (each its own coach), ids in founding order."""
    ids = [
        TeamFactory(league=league, coach=UserFactory(), name=f"{prefix} {chr(65 + i)}", roster=roster).pk
        for i in range(n)
    ]
    Team.objects.filter(pk__in=ids).update(creation_closed_at=timezone.now())  # as their coaches declared them ready
    return ids


def five_teams(league) -> list[int]:
    return ready_teams(league, 5)


def pairs(match_ids: list[int]) -> list[tuple[int, int]]:
    """(home, away) of each match, in the order given."""
    sides: dict[int, list[int]] = {}
    for match_id, team_id in (
        MatchTeam.objects.filter(match__in=match_ids).order_by("order").values_list("match_id", "team_id")
    ):
        sides.setdefault(match_id, []).append(team_id)
    return [tuple(sides[m]) for m in match_ids]


def bulk_ready_teams(league, n: int) -> list[int]:
    """`n` Hume teams of `league` made in two inserts (no players: a schedule needs none), out of creation."""
    from django.contrib.auth import get_user_model

    from teams.models import Roster

    User = get_user_model()
    tag = f"{league.pk}-{Team.objects.count()}"
    coaches = User.objects.bulk_create([User(username=f"bulk-{tag}-{i}") for i in range(n)])
    roster = Roster.objects.get(ruleset="blitzbowl", key="hume")
    made = Team.objects.bulk_create(
        [
            Team(league=league, coach=c, name=f"Bulk {tag} {i:03d}", roster=roster, creation_closed_at=timezone.now())
            for i, c in enumerate(coaches)
        ]
    )
    return [t.pk for t in made]


def three_schedules(league, commissioner) -> dict:
    """The open season of `league` (six teams or more) given one schedule of each format through the services
    (issue 13, "Schedules"): a round robin of its first five teams (by name) from which the fifth withdraws (its
    opponents rest those rounds), a knockout of the first three (seed 1 on a bye; the semi-final forfeited by
    seed 3, so the final is made) and a Swiss' first round of three (a bye). Answers the three schedules' ids."""
    import datetime as dt

    from matches.disputes import match_forfeit
    from matches.schedules import schedule_generate, schedule_withdraw

    teams = list(Team.objects.filter(league=league).order_by("name", "id").values_list("pk", flat=True))
    start = dt.date(2027, 1, 4)
    made = {}
    made["round_robin"] = schedule_generate(
        user=commissioner, league_id=league.pk, format="round_robin", start=start, teams=teams[:5], days_per_round=5
    )["id"]
    schedule_withdraw(user=commissioner, league_id=league.pk, team=teams[4])
    knockout = schedule_generate(
        user=commissioner, league_id=league.pk, format="knockout", start=start + dt.timedelta(weeks=6), teams=teams[:3]
    )
    made["knockout"] = knockout["id"]
    (semi,) = knockout["rounds"][0]["matches"]
    match_forfeit(user=commissioner, match_id=semi, team_id=teams[2], reason="Bracket.")
    made["swiss"] = schedule_generate(
        user=commissioner,
        league_id=league.pk,
        format="swiss",
        start=start + dt.timedelta(weeks=10),
        teams=[teams[3], teams[4], teams[5]],
    )["id"]
    return made
