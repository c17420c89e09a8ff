"""Template context for every page: the number of things waiting for the signed-in user (the header badge)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject


def waiting(request: HttpRequest) -> dict:
    """`waiting_count`, lazily: only a page that shows it pays its two queries (the same list as `/me/`:
    `dugout.actions`), and an anonymous one pays none."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    from dugout.actions import user_actions_count

    return {"waiting_count": SimpleLazyObject(lambda: user_actions_count(user=user))}
