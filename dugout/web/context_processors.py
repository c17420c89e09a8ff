"""Template context for every page: the signed-in coach's count of matches waiting for him (the header badge)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject


def waiting(request: HttpRequest) -> dict:
    """`waiting_count`, lazily: only a page that shows it pays its two queries, and an anonymous one pays none."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    from matches.waiting import coach_waiting_count  # the pages' wiring sits above the matches domain

    return {"waiting_count": SimpleLazyObject(lambda: coach_waiting_count(user=user))}
