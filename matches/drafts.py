"""The live match sheet's writes and reads: a draft per match holding the events coaches tap during the game.

Every event reaches the server as it happens (or, from a phone without signal, in order once the signal is
back), each with the client's idempotency key: the same key twice is kept once. What the sheet offers and how
its events fold into the result body are the ruleset's (`Ruleset.live_*`, campaigns/rulesets/<key>/live.py);
submitting the sheet enters that body through `services.match_submit_result`, as the API's result endpoint
does. Every write takes the acting user and asks `policy.may_enter_result`."""

from __future__ import annotations

import re

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns.errors import NotPermitted, RuleViolation
from campaigns.rulesets.base import CAN_PLAY
from matches import lifecycle, policy, services
from matches.models import DraftEvent, Match, MatchDraft
from teams.models import Player

KEY = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


def draft_teams(match: Match) -> dict[int, list[int]]:
    """{team id: ids of its players able to play, by shirt number}, in the match's side order."""
    sides = [side.team_id for side in match.sides.all()]
    teams: dict[int, list[int]] = {team: [] for team in sides}
    players = Player.objects.filter(team_id__in=sides, left_at__isnull=True, status__in=CAN_PLAY).order_by(
        "number", "pk"
    )
    for team_id, player_id in players.values_list("team_id", "pk"):
        teams[team_id].append(player_id)
    return teams


def _check_key(key: object) -> str:
    if not isinstance(key, str) or not KEY.match(key):
        raise RuleViolation("key must be 1–64 letters, digits or - _ . : (one per event).", field="key")
    return key


def _locked(user: AbstractBaseUser, match: Match) -> tuple[Match, MatchDraft]:
    """The match row locked (so two events never take the same sequence number), its draft, and the checks
    every write shares: the user may enter the result, and the result is not final yet."""
    match = Match.objects.select_for_update(of=("self",)).select_related("league").get(pk=match.pk)
    if not policy.may_enter_result(user, match):
        raise NotPermitted("Only a coach of a team in this match or the commissioner can keep its live sheet.")
    if not lifecycle.allowed(match.status, lifecycle.Action.SUBMIT):
        raise RuleViolation(lifecycle.refusal(match.status, lifecycle.Action.SUBMIT))
    draft, _ = MatchDraft.objects.get_or_create(match=match)
    return match, draft


def draft_add_event(*, user: AbstractBaseUser, match: Match, key: str, event: object) -> tuple[DraftEvent, bool]:
    """Add a tapped event to the match's sheet; (the event, whether it was new). A key already kept returns
    the event kept under it and changes nothing."""
    key = _check_key(key)
    with transaction.atomic():
        match, draft = _locked(user, match)
        kept = DraftEvent.objects.filter(draft=draft, key=key).first()
        if kept is not None:
            return kept, False
        rules, hr = match.league.rules, match.league.house_rules
        normalised = rules.live_check_event(event, teams=draft_teams(match), hr=hr, event=match.event)
        added = DraftEvent.objects.create(draft=draft, key=key, seq=draft.next_seq, event=normalised, created_by=user)
        draft.next_seq += 1
        draft.save(update_fields=["next_seq", "updated_at"])
    return added, True


def draft_undo(*, user: AbstractBaseUser, match: Match, key: str) -> DraftEvent:
    """Undo the event kept under `key` (undoing it again changes nothing)."""
    key = _check_key(key)
    with transaction.atomic():
        match, draft = _locked(user, match)
        kept = DraftEvent.objects.filter(draft=draft, key=key).first()
        if kept is None:
            raise RuleViolation(f"The sheet has no event {key}.", field="key")
        if not kept.undone:
            kept.undone = True
            kept.save(update_fields=["undone"])
            draft.save(update_fields=["updated_at"])
    return kept


def draft_body(match: Match) -> dict:
    """The result body the sheet's events (those not undone, in order) fold into."""
    rules, hr = match.league.rules, match.league.house_rules
    return rules.live_result_body(_events(match), teams=draft_teams(match), hr=hr, event=match.event)


def draft_submit(*, user: AbstractBaseUser, match: Match) -> Match:
    """Enter the result the sheet folds into, exactly as the API's result endpoint would take it."""
    with transaction.atomic():
        match, draft = _locked(user, match)
        body = draft_body(match)
        submitted = services.match_submit_result(user=user, match_id=match.pk, body=body)
        draft.submitted_at = timezone.now()
        draft.save(update_fields=["submitted_at", "updated_at"])
    return submitted


def _events(match: Match) -> list[dict]:
    return [e.event for e in DraftEvent.objects.filter(draft__match=match, undone=False).order_by("seq")]


def draft_state(*, match: Match) -> dict:
    """The sheet as a page or the API shows it: every event (undone ones marked), the running score and the
    result body the events fold into so far."""
    rules, hr = match.league.rules, match.league.house_rules
    teams = draft_teams(match)
    events = list(DraftEvent.objects.filter(draft__match=match).order_by("seq"))
    draft = MatchDraft.objects.filter(match=match).first()
    live = [e.event for e in events if not e.undone]
    return {
        "match": match.pk,
        "status": match.status,
        "submitted_at": draft.submitted_at if draft else None,
        "events": [{"key": e.key, "seq": e.seq, "undone": e.undone, **e.event} for e in events],
        "score": {str(team): n for team, n in rules.live_score(live, teams=teams, hr=hr, event=match.event).items()},
        "body": rules.live_result_body(live, teams=teams, hr=hr, event=match.event),
    }
