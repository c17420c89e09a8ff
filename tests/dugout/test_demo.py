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


def test_the_demo_fixture_has_its_pre_match_sequence_under_way(db):
    """A newcomer finds the Blitz Bowl fixture at its inducements: weather and fans rolled, shopping open."""
    from matches.models import Prematch

    call_command("load_demo", verbosity=0)
    prematch = Prematch.objects.get(match__league__ruleset="blitzbowl", match__status="scheduled")
    assert prematch.weather == "perfect_conditions" and len(prematch.fans) == 2 and not prematch.complete
    assert prematch.superior_id is not None and prematch.underdog_id is not None


def test_make_run_queues_each_demo_leagues_report_for_the_worker(db, monkeypatch):
    """`make run` loads the demo with --queue-reports: a report per demo league is queued for the worker."""
    from dugout.tasks import generate_league_report

    queued = []
    monkeypatch.setattr(generate_league_report, "apply_async", lambda *a, **kw: queued.append((a, kw)))
    call_command("load_demo", "--queue-reports", verbosity=0)
    leagues = set(League.objects.filter(name__startswith="Demo ").values_list("pk", flat=True))
    assert {kw["args"][0] for _, kw in queued} == leagues and len(queued) == 3
    assert all(kw["kwargs"]["regenerate"] for _, kw in queued)


def test_the_fuzz_runs_demo_has_a_team_without_coach_made_once(db, api):
    """`load_demo --coachless-team` (the API fuzz run's data) leaves a team whose coach was removed, so the
    fuzzer checks the team reads' nulls against the schema too."""
    from league.models import MemberRemoval
    from teams.models import Team

    call_command("load_demo", "--coachless-team", verbosity=0)
    call_command("load_demo", "--coachless-team", verbosity=0)

    team = Team.objects.get(name="Nibelheim Nobodies")
    assert team.coach is None and team.players.count() == 3 and team.league.ruleset == "blitzbowl"
    assert MemberRemoval.objects.filter(league=team.league, user__username="coach_gone").exists()
    answer = api.get(f"/api/v1/teams/{team.pk}/").json()
    assert (answer["coach"], answer["coach_username"]) == (None, None)
