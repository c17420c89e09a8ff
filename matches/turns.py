"""Your turn: telling a coach that a step now waits for him because of someone else's act. The services of the
pre- and post-match sequences read `turns` before their act and call `tell_turns` after it, in its transaction;
who waits is `matches.waiting`'s one answer."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from league.models import League
from notifications.writer import notify
from teams.models import Team

from . import lifecycle
from .models import Match
from .waiting import ENTER_RESULT, KINDS, POSTMATCH_STEP, PREMATCH_STEP, Waiting, match_waiting
from .waiting_reads import waiting_queryset

#: The kinds a `your_turn` notification tells of: a step (or a result entry a step held up) that starts to wait
#: for a coach because of someone else's act. (A result to confirm, a time, a dispute have events of their own.)
TURN_KINDS: frozenset[str] = frozenset({PREMATCH_STEP, POSTMATCH_STEP, ENTER_RESULT})


def team_open_matches(*, match_id: int, team_id: int) -> QuerySet:
    """The ids of `match_id` and of the open matches `team_id` plays in, as a subquery (no query of its own):
    what a team's post-match sequence ending can change the waiting of."""
    return Match.objects.filter(Q(pk=match_id) | Q(status__in=lifecycle.OPEN, sides__team_id=team_id)).values("pk")


def turns(match_ids: Iterable[int] | QuerySet) -> dict[tuple, Waiting]:
    """What waits on these matches that a `your_turn` tells of, by key (one query)."""
    ids = match_ids if isinstance(match_ids, QuerySet) else list(match_ids)
    found = waiting_queryset().filter(pk__in=ids)
    return {item.key: item for match in found for item in match_waiting(match) if item.kind in TURN_KINDS}


def tell_turns(*, before: dict[tuple, Waiting], match_ids: Iterable[int], actor: AbstractBaseUser) -> int:
    """After an act, in its transaction: one `your_turn` notification to each user something now waits for that
    did not before (`before`: `turns` of the same matches before the act), never to the actor. Returns how
    many users were told."""
    after = turns(match_ids)
    new: dict[int, Waiting] = {}
    for key in sorted(after.keys() - before.keys(), key=lambda k: (KINDS.index(k[1]), k[2], k[3] or 0)):
        item = after[key]
        if item.user_id != actor.pk:
            new.setdefault(item.user_id, item)  # one notification per user and act: the most pressing
    groups: dict[tuple, list[Waiting]] = {}
    for item in new.values():
        groups.setdefault((item.text, item.url, item.match_id, item.team_id), []).append(item)
    for (text, url, match_id, team_id), items in groups.items():
        notify(
            "your_turn",
            recipients=[i.user_id for i in items],
            actor=actor,
            text=_("Your turn: %(what)s") % {"what": text},
            url=url,
            league=League(pk=items[0].league_id),
            match=Match(pk=match_id),
            team=Team(pk=team_id) if team_id else None,
        )
    return len(new)
