"""`league.selectors.compiled_once`: a post-match step's folds compiled to SQL once per process (issue 12), read
back the same as the expressions they were compiled from, and refused when correlated through a join."""

from __future__ import annotations

import pytest
from django.db.models import OuterRef
from django.db.models.expressions import RawSQL

from league.selectors import compiled_once, json_fields, json_rows
from matches.models import Aftermath
from matches.step_reads import step_reads, team_folds
from teams.models import Position, Sponsorship, Team


def test_a_fold_compiled_once_reads_what_its_expression_reads(league, home, away):
    """The roster's positions and the team's players, sponsorships and ledger heads, folded by expressions and
    by their SQL compiled once: the same values, team by team."""
    Sponsorship.objects.create(team=home, name="Bugman's")
    folds = team_folds(frozenset({"players", "positions", "sponsorships"}), team="pk")
    compiled = compiled_once(Team, **folds)
    assert all(isinstance(sql, RawSQL) for sql in compiled.values())
    teams = Team.objects.filter(pk__in=[home.pk, away.pk]).order_by("pk")
    by_expression = list(teams.annotate(**folds).values("pk", *folds))
    by_sql = list(teams.annotate(**compiled).values("pk", *folds))
    assert by_sql == by_expression
    assert all(row["player_fold"] for row in by_sql) and all(row["position_fold"] for row in by_sql)


def test_a_fold_correlated_through_a_join_is_refused():
    """Its SQL would name the joined table, which the outer query would not have joined."""
    positions = Position.objects.filter(roster=OuterRef("team__roster_id"))
    with pytest.raises(ValueError, match="correlated through a join"):
        compiled_once(Aftermath, position_fold=json_rows(positions, "roster", **json_fields(Position)))


def test_the_steps_sequence_read_carries_its_folds_compiled():
    """Every fold of the step's sequence read is SQL already, for each set of parts a step reads."""
    for parts in (frozenset(), frozenset({"players", "positions", "sponsorships", "player_rows"})):
        annotations = step_reads(parts)[1].query.annotations
        assert annotations and all(isinstance(a, RawSQL) for a in annotations.values())
