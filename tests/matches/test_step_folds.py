"""A post-match step's reads folded into its sequence's row (docs/decisions/, 2026-12-02 "A step's reads
folded into its sequence's row") give the same team a step read before: the same players, each with his
position, the same roster positions, sponsorships, balances and ledger heads — on SQLite and PostgreSQL alike
(rules/blitzbowl.md "Post-match sequence": the steps read the team as it stands)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from matches import services
from matches.models import Aftermath
from matches.step_reads import CONFIRM_PARTS, confirm_teams, ledger_heads, step_reads, team_install
from teams.models import LedgerEntry, Player, Sponsorship, Team
from teams.selectors import team_step_queryset

pytestmark = pytest.mark.django_db

FIELDS = [f.attname for f in Player._meta.concrete_fields]


def _final(league, home, away):
    match = services.match_schedule(user=home.coach, league=league, team_ids=[home.pk, away.pk])
    body = {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}]}
    services.match_submit_result(user=home.coach, match_id=match.pk, body=body)
    services.match_confirm(user=away.coach, match_id=match.pk)
    return match


def _as_read(team: Team):
    players = [
        ({f: getattr(p, f) for f in FIELDS}, p.position.key, p.position.skill_access) for p in team.players.all()
    ]
    positions = [(p.pk, p.key, p.cost, p.attributes) for p in team.roster.positions.all()]
    sponsorships = [(s.pk, s.name, s.gained_at, s.ended_at) for s in team.sponsorships.all()]
    return players, positions, sponsorships, team.treasury, team.stadium_fund


def test_the_folded_team_is_the_team_its_prefetches_read(league, home, away):
    player = home.players.order_by("pk").first()
    Player.objects.filter(pk=player.pk).update(
        number=None, left_at=timezone.now() - dt.timedelta(days=1), skills=["block"], elite=True
    )
    Sponsorship.objects.create(team=home, name="Bugman's")
    Sponsorship.objects.create(team=home, name="Ended", ended_at=timezone.now())
    match = _final(league, home, away)
    parts = frozenset({"players", "positions", "sponsorships", "player_rows"})
    team = step_reads(parts)[0].get(pk=home.pk)
    aftermath = step_reads(parts)[1].get(match=match, team=home)
    heads = team_install(team=team, folded=aftermath, parts=parts)
    assert _as_read(team) == _as_read(team_step_queryset().get(pk=home.pk))
    last = LedgerEntry.objects.filter(team=home, account="treasury").order_by("-sequence").first()
    assert heads == {"treasury": (last.sequence, last.balance_after), "stadium_fund": (0, 0)}
    assert ledger_heads(aftermath) == heads


def test_confirming_reads_its_teams_as_their_prefetches_would_and_sees_an_open_sequence(league, home, away):
    match = _final(league, home, away)
    teams = confirm_teams([home.pk, away.pk], match=None)
    for pk, team in teams.items():
        expected = team_step_queryset(sponsorships=False).get(pk=pk)
        assert _as_read(team)[:2] == _as_read(expected)[:2]
        assert (team.treasury, team.stadium_fund) == (expected.treasury, expected.stadium_fund)
        assert team.open_elsewhere  # R: a team's next result waits for its sequence (this one is open)
    assert not any(t.open_elsewhere for t in confirm_teams([home.pk], match=match).values())
    assert set(CONFIRM_PARTS) == {"players", "positions"}
    assert Aftermath.objects.filter(match=match).count() == 2
