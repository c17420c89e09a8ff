"""The post-match path costs a fixed number of queries: confirming a result and each Blitz Bowl post-match step
read only what they need and write in bulk, so a league of 4 or 400 teams, with a history of matches, and a
team of 1 or 14 players (every one of them with a row in the result) cost the same (docs/decisions/,
2026-12-01 "The post-match sequence in milliseconds"). The steps and their dice follow rules/blitzbowl.md,
"Post-match sequence"; each team here walks them with the dice entered (Fortune: winnings 3, Fan Factor
1-1-1; Prepare: Expensive Mistakes 6, the gentlest)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.models import Membership
from matches import aftermath, services
from matches.models import Aftermath, Match, MatchTeam, PlayerMatch
from teams.models import Player, Team
from tests.factories import TeamFactory, UserFactory, hire

STEPS = {
    "improvements": (None, None),
    "team_stats": (None, None),
    "fortune": ({"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [3], "fan_factor": [1, 1, 1]}),
    "hire_fire": (None, None),
    "prepare": (None, {"expensive_mistakes": [6], "expensive_mistakes_amount": [1]}),
}

#: What confirm and each step cost, whatever the league's size or the team's (confirm's 18 include the one update
#: that gives the league's table a new version, so the cached standings are never stale, the one upsert of the
#: players' season tallies (matches/tally.py), so a weekly report never sums the season, the one query asking
#: whether a webhook of the league wants `result_confirmed` (issue 14, docs/decisions/ "Webhooks"), and the four of
#: the coach's `result_confirmed` notification — the recipients' settings, their push subscriptions, the
#: notification and its e-mail delivery (notifications/writer.py; the recipients are the sides' coaches, already
#: held); its sides
#: and their teams are read once, with the match, for the policy; once locked, the teams are read in one query
#: with their players, positions, balances and whether another sequence of theirs is open — for the result's
#: check and its effects).
#: Each step reads the parts of the team and match it declares it reads (`Step.reads`) in two queries: the team's
#: row, locked, then its sequence (locked) with the match's sides, the ledger's heads and those parts folded in —
#: players with their positions (all five steps), match rows (improvements), sponsorships (fortune), roster
#: positions (hire and fire; prepare) (docs/decisions/, 2026-12-02 "A step's reads folded into its sequence's
#: row"). Every step's two savepoint queries are the transaction's (BEGIN and COMMIT outside a test).
#: The last step (prepare) reads twice more: what the team's open matches wait for, before and after it (its end
#: frees the team's next result: a `your_turn` to each coach it now waits for — none here, no next match).
EXPECTED = {"confirm": 18, "improvements": 5, "team_stats": 5, "fortune": 8, "hire_fire": 5, "prepare": 8}
#: A team of one player costs three queries more at Prepare for next match (rules/blitzbowl.md §5): it takes on
#: its Journeymen — one insert, however many, and its players read again for the Team Value — and, its treasury
#: untouched by hiring, pays an Expensive Mistake (one insert: the ledger's head came with the sequence).
JOURNEYMEN = 3


def _league_of(league, *, teams: int, history: int = 6) -> None:
    """Fill `league` up to `teams` teams (the two playing ones are made by the test) and give the first of
    them a history of final matches with injuries, in bulk."""
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"q{league.pk}-{i}") for i in range(teams - 2)]
    )
    Membership.objects.bulk_create([Membership(league=league, user=u, role=Membership.Role.COACH) for u in users])
    roster = Team.objects.filter(league=league).first().roster
    others = Team.objects.bulk_create(
        [Team(league=league, coach=u, name=f"Other {i}", roster=roster) for i, u in enumerate(users)]
    )
    position = roster.positions.get(key="lineman")
    Player.objects.bulk_create([Player(team=t, position=position, name="Lineman", value=5000) for t in others])
    home = Team.objects.filter(league=league).order_by("pk").first()
    played = Match.objects.bulk_create(
        [Match(league=league, status=Match.Status.FINAL, created_by=league.created_by) for _ in range(history)]
    )
    MatchTeam.objects.bulk_create(
        [MatchTeam(match=m, team=t, order=o) for m in played for o, t in enumerate((home, others[0]))]
    )
    Aftermath.objects.bulk_create([Aftermath(match=m, team=home, step_index=5, complete=True) for m in played])
    hurt = home.players.first()
    PlayerMatch.objects.bulk_create([PlayerMatch(match=m, team=home, player=hurt, injury="badly_hurt") for m in played])


def _costs(league, *, teams: int, players: int) -> dict[str, int]:
    """Play one match in a league of `teams` teams between two teams of `players` linemen, every player with
    a completion in the result; return the queries confirm and each of the home team's steps cost."""
    home = TeamFactory(league=league, coach=UserFactory(), name="Home")
    away = TeamFactory(league=league, coach=UserFactory(), name="Away")
    for team in (home, away):
        for n in range(players):
            hire(team, "lineman", name=f"{team.name} {n + 1}", number=n + 1)
    _league_of(league, teams=teams)
    match = services.match_schedule(user=home.coach, league=league, team_ids=[home.pk, away.pk])
    rows = [{"player": p.pk, "completions": 1} for t in (home, away) for p in t.players.all()]
    rows[0]["touchdowns"] = 1
    body = {
        "teams": [
            {"team": home.pk, "score": 1, "casualties_inflicted": 0},
            {"team": away.pk, "score": 0, "casualties_inflicted": 0},
        ],
        "players": rows,
    }
    services.match_submit_result(user=home.coach, match_id=match.pk, body=body)
    costs = {}
    # (SQLite answers once a connection whether it has JSON, in a query of its own: not a cost of any step.)
    assert connection.features.supports_json_field
    with CaptureQueriesContext(connection) as ctx:
        services.match_confirm(user=away.coach, match_id=match.pk)
    costs["confirm"] = len(ctx.captured_queries)
    assert PlayerMatch.objects.filter(match=match).count() == 2 * players
    for step, (choices, rolls) in STEPS.items():
        with CaptureQueriesContext(connection) as ctx:
            state = aftermath.aftermath_post(
                user=home.coach, match_id=match.pk, team_id=home.pk, step=step, choices=choices, rolls=rolls
            )
        assert not state.pending, state.pending
        costs[step] = len(ctx.captured_queries)
    assert state.complete
    return costs


@pytest.mark.parametrize(("teams", "players"), [(4, 1), (4, 14), (400, 1), (400, 14)])
def test_confirm_and_each_blitzbowl_step_cost_the_same_queries_at_4_or_400_teams_and_1_or_14_players(
    league, teams, players
):
    expected = dict(EXPECTED, prepare=EXPECTED["prepare"] + (JOURNEYMEN if players < 11 else 0))
    assert _costs(league, teams=teams, players=players) == expected


def test_the_results_rosters_are_read_by_the_sides_team_ids_not_by_a_join_through_the_match(league, home, away):
    """Submit and confirm read the rosters by the team ids the sides hold (the players' team_id index): a join
    from the players through the match's sides let PostgreSQL scan every player of the database (43 ms of the
    80 a confirmation took in the benchmark's league of 5,000 players; docs/decisions/, 2026-12-01)."""
    match = services.match_schedule(user=home.coach, league=league, team_ids=[home.pk, away.pk])
    body = {
        "teams": [
            {"team": home.pk, "score": 0, "casualties_inflicted": 0},
            {"team": away.pk, "score": 0, "casualties_inflicted": 0},
        ]
    }
    with CaptureQueriesContext(connection) as ctx:
        services.match_submit_result(user=home.coach, match_id=match.pk, body=body)
    rosters = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith('SELECT "teams_player"."team_id"')]
    assert len(rosters) == 1
    assert "matches_matchteam" not in rosters[0]
    assert f"IN ({home.pk}, {away.pk})" in rosters[0] or f"IN ({away.pk}, {home.pk})" in rosters[0]
