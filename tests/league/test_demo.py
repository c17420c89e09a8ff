"""`make run`'s demo: a league per ruleset, logins, and a Blitz Bowl match already played — idempotent."""

from django.core.management import call_command

from league.models import League
from matches.models import Aftermath, Match


def test_load_demo_creates_three_leagues_and_a_played_match_and_runs_twice(db):
    call_command("load_demo", verbosity=0)
    call_command("load_demo", verbosity=0)
    assert sorted(League.objects.values_list("ruleset", flat=True)) == ["blitzbowl", "bonecruncher", "elfball"]
    played = Match.objects.get(status="final")
    assert Aftermath.objects.filter(match=played, complete=True).count() == 2
    assert Match.objects.filter(status="scheduled").count() == 1
