"""Who may do what to notifications, their settings and push subscriptions: one place, read by the services
(which enforce it) and by the pages. A user's notifications, choices and browsers are his alone; nobody else,
not even a commissioner, reads or changes them. Plain predicates, no side effects, no queries."""

from __future__ import annotations


def may_keep_own(user) -> bool:
    """Anyone signed in keeps his own notifications, choices and push subscriptions."""
    return bool(getattr(user, "is_authenticated", False))


def may_manage(user, owner_id: int | None) -> bool:
    """Only the user a notification or a push subscription belongs to marks it read or ends it."""
    return may_keep_own(user) and owner_id is not None and owner_id == user.pk
