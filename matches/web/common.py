"""What the match pages share: the refusal page, ids from the query string, players' names in shirt order,
the dice a roll key takes in words, and the "already run" notice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render


def refused(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "matches/refused.html", {"message": message}, status=403)


def parse_id(value: str | None) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise Http404("No such league.") from None


def player_name(player) -> str:
    return f"#{player.number} {player.name}" if player and player.number is not None else getattr(player, "name", "")


def number_key(player) -> tuple[bool, int]:
    """Shirt-number order, players without a number (or unknown) last."""
    number = getattr(player, "number", None)
    return (number is None, number or 0)


def named(names: Mapping[int, Any], player_id) -> str:
    return player_name(names.get(player_id)) or f"#{player_id}"


def dice_words(key: str, catalogue: Mapping, hr: Mapping) -> str:
    variants = hr.get("roll_key_variants", {}).get(key)
    if variants:
        return " / ".join(f"{expression} {case}" for case, expression in variants.items())
    return catalogue[key]


def already_run(now: str) -> str:
    """A page left open on a step that another tab or coach has run meanwhile."""
    return f"That step was already run: the sequence is now {now}. Nothing was changed."
