"""factory-boy factories for the domain. Leagues and teams are built through the services where the
services do more than insert a row (a league's creator becomes commissioner; a Blitz Bowl team opens its
treasury), so tests start from the same state the product creates."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from knox.models import AuthToken

from league import services as league_services
from league.models import League, Membership, Stadium
from league.tokens import token_issue
from teams import services as team_services
from teams.models import Player, Team

PASSWORD = "Dugout-test-pass-1"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"coach{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class LeagueFactory(factory.Factory):
    """A league made by `league_create` (its creator is commissioner)."""

    class Meta:
        model = League

    name = factory.Sequence(lambda n: f"League {n}")
    ruleset = "blitzbowl"
    created_by = factory.SubFactory(UserFactory)
    house_rules_overrides = factory.LazyFunction(dict)

    @classmethod
    def _create(cls, model_class, *, name, ruleset, created_by, house_rules_overrides, **kwargs):
        return league_services.league_create(
            user=created_by, name=name, ruleset=ruleset, overrides=house_rules_overrides
        )


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    league = factory.SubFactory(LeagueFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.COACH


class StadiumFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Stadium

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Stadium {n}")
    special_attribute = ""


DEFAULT_ROSTER = {"blitzbowl": "hume", "elfball": "black_widows", "bonecruncher": "humans_barbarians"}


class TeamFactory(factory.Factory):
    """A team made by `team_create`; its coach is made a coach member of the league first."""

    class Meta:
        model = Team

    league = factory.SubFactory(LeagueFactory)
    coach = factory.SubFactory(UserFactory)
    name = factory.Sequence(lambda n: f"Team {n}")
    roster = None

    @classmethod
    def _create(cls, model_class, *, league, coach, name, roster, **kwargs):
        Membership.objects.get_or_create(league=league, user=coach, role=Membership.Role.COACH)
        return team_services.team_create(
            user=coach, league=league, name=name, roster_key=roster or DEFAULT_ROSTER[league.ruleset]
        )


def hire(team: Team, position: str, *, name: str = "Rookie", number: int | None = None, role: str = "") -> Player:
    """Hire through the service, as the team's coach."""
    return team_services.team_hire_player(
        team_id=team.pk, user=team.coach, position=position, name=name, number=number, role=role
    )


def token_for(user) -> str:
    """`user`'s API token for a test client: the same one for the same user object while it lasts (one token
    per persona, as a client keeps the token of its log-in), a newly issued one once it has ended. Only a hash
    is stored, so the text is kept on the object."""
    token = getattr(user, "_test_api_token", None)
    if token is None or not AuthToken.objects.filter(user=user, token_key=token[:15]).exists():
        token = token_issue(user=user)[1]
        user._test_api_token = token
    return token


def new_token_for(user) -> str:
    """Another API token for `user`, as a second log-in would issue."""
    return token_issue(user=user)[1]
