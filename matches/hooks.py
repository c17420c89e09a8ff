"""The matches' webhook events (league/webhooks/; docs/decisions/ "Webhook events"): `result_confirmed` when
a result becomes final, `player_died` when a death becomes final (the confirmed result's injury, or a
post-match step's). Called inside the acting service's transaction: the rows are its outbox. One query when
the league has no hook for the event; the facts are read only when one has."""

from __future__ import annotations

from contextlib import suppress

from django.urls import NoReverseMatch, reverse

from league.webhooks.emit import event_emit
from teams.models import Player

from .models import Match, MatchTeam


def _match_facts(match: Match) -> dict:
    facts = {"id": match.pk, "path": reverse("match-detail", args=[match.pk])}
    with suppress(NoReverseMatch):  # the per-match share card (matches/sharing/): when the site has it
        facts["card_path"] = reverse("match-card", args=[match.pk])
    return facts


def _league(match: Match) -> dict:
    return {"id": match.league_id, "name": match.league.name}


def result_confirmed(match: Match, sides: list[MatchTeam]) -> None:
    """Announce the final result (once per confirmation: a result undone and confirmed again is news again)."""

    def facts() -> dict:
        teams = [{"id": s.team_id, "name": s.team.name, "score": s.score} for s in sides]
        return {"league": _league(match), "match": {**_match_facts(match), "teams": teams}}

    stamp = match.confirmed_at.isoformat() if match.confirmed_at else ""
    event_emit(league_id=match.league_id, event="result_confirmed", key=f"match:{match.pk}:{stamp}", data=facts)


def players_died(match: Match, player_ids: list[int]) -> None:
    """Announce each player's death (once per player: a player dies once)."""
    for player in Player.objects.filter(pk__in=sorted(set(player_ids))).select_related("team") if player_ids else []:
        facts = {
            "league": _league(match),
            "player": {"id": player.pk, "name": player.name, "team": {"id": player.team_id, "name": player.team.name}},
            "match": _match_facts(match),
        }
        event_emit(league_id=match.league_id, event="player_died", key=f"player:{player.pk}", data=facts)


def deaths_in_result(match: Match) -> list[int]:
    """The players the confirmed result kills (its rows' `dead` injuries)."""
    return [row["player"] for row in match.result.get("players", []) if row.get("injury") == "dead"]


def deaths_in_effects(effects: list) -> list[int]:
    """The players a post-match step's effects kill."""
    return [e.player_id for e in effects if getattr(e, "status", None) == "dead"]
