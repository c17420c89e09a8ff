"""Property (issue 13, "Schedules"): every round robin the service publishes, for 2–20 teams and one or two
legs, has every pair meet once per leg, home and away balanced, and no team meeting the same opponent three
times in a row (R, ../shared/rules/blitzbowl.md "League")."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.models import Match, MatchTeam, Schedule
from matches.schedules import schedule_generate
from tests.dugout.schedules.helpers import bulk_ready_teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def twenty(league):
    return bulk_ready_teams(league, 20)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(min_value=2, max_value=20), legs=st.sampled_from([1, 2]), data=st.data())
def test_r_every_published_round_robin_meets_each_pair_once_a_leg_balanced_and_never_three_in_a_row(
    league, commissioner, twenty, n, legs, data
):
    teams = data.draw(st.permutations(twenty)).__getitem__(slice(n))
    try:
        schedule_generate(
            user=commissioner,
            league_id=league.pk,
            format="round_robin",
            teams=list(teams),
            legs=legs,
            start=dt.date(2027, 1, 4),
        )
        sides: dict[int, list[int]] = {}
        for match_id, team_id in (
            MatchTeam.objects.filter(match__league=league)
            .order_by("match__round", "match_id", "order")
            .values_list("match_id", "team_id")
        ):
            sides.setdefault(match_id, []).append(team_id)
        rounds = dict(Match.objects.filter(league=league).values_list("pk", "round"))
        per_round = len(teams) - 1 if len(teams) % 2 == 0 else len(teams)
        assert max(rounds.values()) == legs * per_round
        # Every pair meets once per leg (in the first leg's rounds once, in the second's once).
        meetings = Counter((frozenset(pair), (rounds[m] - 1) // per_round) for m, pair in sides.items())
        assert len(meetings) == legs * n * (n - 1) // 2 and set(meetings.values()) == {1}
        # Home and away balanced: per leg they differ by at most one for every team.
        for leg in range(legs):
            home = Counter(p[0] for m, p in sides.items() if (rounds[m] - 1) // per_round == leg)
            away = Counter(p[1] for m, p in sides.items() if (rounds[m] - 1) // per_round == leg)
            assert all(abs(home[t] - away[t]) <= 1 for t in teams)
        # No team plays a round twice, and never the same opponent three times in a row.
        for team in teams:
            played = [(rounds[m], next(t for t in p if t != team)) for m, p in sides.items() if team in p]
            assert len({r for r, _o in played}) == len(played)
            opponents = [o for _r, o in sorted(played)]
            assert all(len(set(opponents[i : i + 3])) > 1 for i in range(len(opponents) - 2))
    finally:
        Match.objects.filter(league=league).delete()
        Schedule.objects.filter(league=league).delete()
