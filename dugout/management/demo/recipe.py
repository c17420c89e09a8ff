"""A demo league's recipe: its league, stadiums and teams as data, and the match it plays (one per ruleset)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from league import services as league_services
from league.models import League, Membership
from teams import services as team_services

#: (coach's username, team name, roster key, [(position, player name, role) …], [(item, quantity) …])
TeamRecipe = tuple[str, str, str, list[tuple[str, str, str]], list[tuple[str, int]]]


@dataclass(frozen=True)
class DemoLeague:
    name: str
    ruleset: str
    #: (stadium name, special attribute)
    stadiums: list[tuple[str, str]]
    teams: list[TeamRecipe]
    #: Plays the league's demo match (and schedules its next fixture): play(league, users).
    play: Callable[[League, dict], None]


def build(demo: DemoLeague, users: dict) -> League | None:
    """The demo league as its commissioner and coaches would make it; None when it exists already."""
    if League.objects.filter(name=demo.name).exists():
        return None
    with transaction.atomic():
        league = league_services.league_create(user=users["commissioner"], name=demo.name, ruleset=demo.ruleset)
        for stadium, attribute in demo.stadiums:
            league_services.stadium_create(
                user=users["commissioner"], league=league, name=stadium, special_attribute=attribute
            )
        for coach, team_name, roster, players, purchases in demo.teams:
            Membership.objects.get_or_create(league=league, user=users[coach], role=Membership.Role.COACH)
            team = team_services.team_create(user=users[coach], league=league, name=team_name, roster_key=roster)
            for number, (position, player_name, role) in enumerate(players, start=1):
                team_services.team_hire_player(
                    team_id=team.pk,
                    user=users[coach],
                    position=position,
                    name=player_name,
                    number=number,
                    role=role,
                )
            for item, quantity in purchases:
                team_services.team_purchase(team_id=team.pk, user=users[coach], item=item, quantity=quantity)
        demo.play(league, users)
    return league
