"""The ruleset's stat declarations (campaigns/rulesets/stats.py) as database aggregates over PlayerMatch rows,
grouped by whatever the caller groups by (a player; a player and a season; a match)."""

from __future__ import annotations

from django.db.models import Count, Exists, F, IntegerField, OuterRef, Q, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Coalesce

from campaigns.rulesets.stats import StatSpec
from matches.models import PlayerMatch


def survived_filter() -> Q:
    """The rows a player came out of alive: all of a living player's; a dead player's but his last (the match he
    died in, as the memorial's `died_in_match` reads it)."""
    later = PlayerMatch.objects.filter(player=OuterRef("player"), match_id__gt=OuterRef("match_id"))
    return ~Q(player__status="dead") | Q(Exists(later))


def aggregate(spec: StatSpec):
    """The aggregate of one stat over a group of PlayerMatch rows."""
    if spec.how == "count":
        return Count("id")
    if spec.how == "survived":
        return Count("id", filter=survived_filter())
    if spec.how == "count_true":
        return Count("id", filter=Q(**{spec.field: True}))
    if spec.detail_key:
        return Coalesce(Sum(Cast(KeyTextTransform(spec.detail_key, "detail"), IntegerField())), 0)
    return Coalesce(Sum(spec.field), 0)


def aggregates(specs: tuple[StatSpec, ...]) -> dict:
    """`{"stat_<key>": aggregate}` for every stat (prefixed so no name collides with a model field)."""
    return {f"stat_{s.key}": aggregate(s) for s in specs}


def unpack(row: dict, specs: tuple[StatSpec, ...]) -> dict[str, int]:
    return {s.key: int(row.get(f"stat_{s.key}") or 0) for s in specs}


def row_value(spec: StatSpec):
    """One row's value of a summed stat (the records' "most in a match"), as an expression."""
    if spec.detail_key:
        return Coalesce(Cast(KeyTextTransform(spec.detail_key, "detail"), IntegerField()), 0)
    return F(spec.field)
