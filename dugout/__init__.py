"""Dugout's project package: settings, the URLconf, the Celery app and its tasks, and everything that composes
several domains — the API router and league-level endpoints, the pages, the weekly reports, export and import,
players and records, ratings, seasons, the commissioner's queue and the calendars. It may import every other
package; none imports it (docs/architecture.md)."""

from dugout.celery import app as celery_app

__all__ = ("celery_app",)
