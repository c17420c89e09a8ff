"""A Blitz Bowl league with four full teams, and helpers that put a match in each state the queue lists."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from matches import disputes
from matches import services as match_services
from matches.models import Match
from tests.factories import UserFactory
from tests.matches import conftest as match_fixtures
from tests.matches.conftest import full_team

#: Alice's Home and Bob's Away, eleven Humes each: the matches' fixtures, shared.
home, away = match_fixtures.home, match_fixtures.away


def result_body(home, away, score=(1, 0)) -> dict:
    scorer = home.players.order_by("number").first()
    return {
        "teams": [{"team": home.pk, "score": score[0], "mvp": scorer.pk}, {"team": away.pk, "score": score[1]}],
        "players": [{"player": scorer.pk, "touchdowns": score[0]}],
    }


#: The pairs of the four teams in turn, so no two teams meet three times in a row (R Blitz Bowl).
PAIRS = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)]


class Desk:
    """Matches in the states the queue lists, made through the services, each between the next pair of the
    league's four teams (`last` is the pair of the latest)."""

    def __init__(self, league, commissioner, home, away):
        self.league, self.commissioner = league, commissioner
        self.teams = [home, away, full_team(league, UserFactory(), "Third"), full_team(league, UserFactory(), "Fourth")]
        self.made = 0
        self.home, self.away = home, away

    def scheduled(self, *, deadline: dt.datetime | None = None) -> Match:
        a, b = PAIRS[self.made % len(PAIRS)]
        self.made += 1
        self.home, self.away = self.teams[a], self.teams[b]
        match = match_services.match_schedule(
            user=self.commissioner, league=self.league, team_ids=[self.home.pk, self.away.pk]
        )
        if deadline is not None:
            Match.objects.filter(pk=match.pk).update(deadline=deadline)
        return Match.objects.get(pk=match.pk)

    def submitted(self, *, hours_ago: float = 0, deadline: dt.datetime | None = None) -> Match:
        match = self.scheduled(deadline=deadline)
        match_services.match_submit_result(
            user=self.home.coach, match_id=match.pk, body=result_body(self.home, self.away)
        )
        Match.objects.filter(pk=match.pk).update(submitted_at=timezone.now() - dt.timedelta(hours=hours_ago))
        return Match.objects.get(pk=match.pk)

    def disputed(self, *, reason: str = "The touchdown was offside.") -> Match:
        match = self.submitted()
        disputes.match_dispute(user=self.away.coach, match_id=match.pk, reason=reason)
        return Match.objects.get(pk=match.pk)


@pytest.fixture
def desk(league, commissioner, home, away) -> Desk:
    return Desk(league, commissioner, home, away)
