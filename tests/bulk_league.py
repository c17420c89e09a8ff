"""A league of any size built in bulk (a few `bulk_create`s, not the services), for the query-count tests:
`bulk_league(teams=400)` makes the teams, their coaches' memberships, a few players each, an opening
treasury entry each and a history of final matches plus a few fixtures — in a second or two."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone

from league.models import Division, League, Membership, Stadium
from matches.models import Match, MatchTeam
from teams.models import LedgerEntry, Player, Roster, Team

from .factories import PASSWORD, LeagueFactory, UserFactory

PLAYERS_PER_TEAM = 4


def bulk_league(
    *, teams: int, finals: int | None = None, fixtures: int = 20, prefix: str = "b", divisions: int = 0
) -> League:
    """A Blitz Bowl league of `teams` Hume teams, `finals` final matches (3 a team by default, at least 12)
    and `fixtures` scheduled ones; with `divisions`, that many divisions (issue 13) holding the teams in turn,
    the last team in none. Every coach's password is PASSWORD; the commissioner is `<prefix>-commish`."""
    User = get_user_model()
    commish = UserFactory(username=f"{prefix}-commish")
    league = LeagueFactory(created_by=commish, name=f"{prefix.upper()} League", ruleset="blitzbowl")
    Stadium.objects.create(league=league, name=f"{prefix} Bowl")
    hashed = commish.password
    coaches = User.objects.bulk_create(
        [User(username=f"{prefix}-coach{i}", email=f"{prefix}{i}@example.com", password=hashed) for i in range(teams)]
    )
    Membership.objects.bulk_create([Membership(league=league, user=c, role=Membership.Role.COACH) for c in coaches])
    roster = Roster.objects.get(ruleset="blitzbowl", key="hume")
    position = roster.positions.order_by("order", "id").first()
    split = Division.objects.bulk_create(
        [Division(league=league, name=f"Division {n + 1}", order=n) for n in range(divisions)]
    )
    made = Team.objects.bulk_create(
        [
            Team(
                league=league,
                coach=c,
                name=f"{prefix} Team {i:03d}",
                roster=roster,
                division=split[i % divisions] if split and i < teams - 1 else None,
            )
            for i, c in enumerate(coaches)
        ]
    )
    Player.objects.bulk_create(
        [
            Player(team=t, position=position, name=f"P{n}", number=n + 1, attributes=dict(position.attributes))
            for t in made
            for n in range(PLAYERS_PER_TEAM)
        ]
    )
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(team=t, sequence=1, amount=100_000, balance_after=100_000, kind="opening", reason="Opening")
            for t in made
        ]
    )
    finals = max(12, 3 * teams) if finals is None else finals
    start = timezone.now() - dt.timedelta(days=finals + 1)
    matches = Match.objects.bulk_create(
        [
            Match(
                league=league,
                created_by=commish,
                status=Match.Status.FINAL if i < finals else Match.Status.SCHEDULED,
                confirmed_at=start + dt.timedelta(hours=i) if i < finals else None,
                result={"teams": []},
            )
            for i in range(finals + fixtures)
        ]
    )
    sides = []
    for i, m in enumerate(matches):
        home, away = made[i % teams], made[(i + 1 + i // teams) % teams]
        if home.pk == away.pk:
            away = made[(i + 2) % teams]
        final = m.status == Match.Status.FINAL
        sides += [
            MatchTeam(
                match=m,
                team=home,
                order=0,
                score=2 if final else None,
                outcome="win" if final else "",
                league_points=3 if final else 0,
            ),
            MatchTeam(match=m, team=away, order=1, score=1 if final else None, outcome="loss" if final else ""),
        ]
    MatchTeam.objects.bulk_create(sides)
    league.bulk_commissioner, league.bulk_coach = commish, coaches[0]
    return league


__all__ = ["PASSWORD", "bulk_league"]
