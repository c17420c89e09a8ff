"""Overdue matches: a match whose deadline has passed and that is
not final yet. The commissioner's queue lists them (dugout/queue.py); he may record a forfeit for one."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q, QuerySet
from django.utils import timezone

from league.models import League

from . import lifecycle
from .models import Match


def overdue_condition(*, now: dt.datetime | None = None) -> Q:
    """The filter of an overdue match: still to be played and its deadline past (strictly). A submitted or
    disputed result is not overdue: it waits for its confirmation or ruling, and the queue lists it as such."""
    return Q(deadline__lt=now or timezone.now(), status=lifecycle.Status.SCHEDULED)


def overdue_matches(*, league: League, now: dt.datetime | None = None) -> QuerySet[Match]:
    """The league's overdue matches of its open season, the longest overdue first."""
    return (
        Match.objects.filter(league=league, season=league.season)
        .filter(overdue_condition(now=now))
        .order_by("deadline", "id")
    )
