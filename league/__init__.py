"""Dugout's project package (settings, urls, Celery app) and the league domain."""

from .celery import app as celery_app

__all__ = ("celery_app",)
