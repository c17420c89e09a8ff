"""`make run`'s demo: a league per ruleset, logins, and a Blitz Bowl match already played — idempotent."""

from django.core.management import call_command

from league.models import League
from matches.models import Aftermath, Match


def test_load_demo_creates_three_leagues_and_a_played_match_and_runs_twice(db):
    call_command("load_demo", verbosity=0)
    call_command("load_demo", verbosity=0)
    assert sorted(League.objects.values_list("ruleset", flat=True)) == ["blitzbowl", "bonecruncher", "elfball"]
    # A played match in each league whose result format is in (its both post-match sequences walked) and a
    # fixture to come.
    for ruleset in ("blitzbowl", "elfball", "bonecruncher"):
        played = Match.objects.get(status="final", league__ruleset=ruleset)
        assert Aftermath.objects.filter(match=played, complete=True).count() == 2
        assert Match.objects.filter(status="scheduled", league__ruleset=ruleset).count() == 1
    terminix = Match.objects.get(status="scheduled", league__ruleset="bonecruncher")
    assert terminix.event == "terminix"
