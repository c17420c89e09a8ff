"""The team sheet's history rows (teams/history.py), lent to teams at start-up: one correlated subquery folding
a team's final match sides into a JSON array, each with its match's date, the opponent's name and score, and the
pre-match snapshot's numbers the rulesets chart."""

from __future__ import annotations

from django.db.models import OuterRef, Subquery
from django.db.models.fields.json import KeyTransform

from league.selectors import json_rows

from .models import Match, MatchTeam

#: The snapshot keys any ruleset's `team_series` may name.
SNAPSHOT_KEYS = ("team_value", "treasury", "fan_factor")


def _opponent(column: str) -> Subquery:
    others = MatchTeam.objects.filter(match=OuterRef("match_id")).exclude(team=OuterRef("team_id"))
    return Subquery(others.order_by("order").values(column)[:1])


def history_annotations() -> dict:
    sides = MatchTeam.objects.filter(team=OuterRef("pk"), match__status=Match.Status.FINAL)
    rows = json_rows(
        sides,
        "team",
        match="match_id",
        confirmed_at="match__confirmed_at",
        kind="match__kind",
        score="score",
        outcome="outcome",
        opponent=_opponent("team_id"),
        opponent_name=_opponent("team__name"),
        opponent_score=_opponent("score"),
        **{key: KeyTransform(key, "snapshot") for key in SNAPSHOT_KEYS},
    )
    return {"history_rows": rows}
