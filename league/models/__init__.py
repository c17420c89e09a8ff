"""The league domain's models, one module per concern; every model is importable from `league.models`."""

from .accounts import IdempotencyRecord, LoginAttempt
from .audit import AuditEntry
from .divisions import Division
from .invite_links import InviteLink
from .league import (
    WEEKDAYS,
    League,
    Season,
    Stadium,
    league_activity_changed,
    league_table_changed,
    new_table_version,
    validate_timezone,
)
from .members import Invitation, JoinRequest, Membership
from .reports import LeagueReport, ReportDelivery
from .webhooks import Webhook, WebhookDelivery

__all__ = (
    "WEEKDAYS",
    "AuditEntry",
    "Division",
    "IdempotencyRecord",
    "Invitation",
    "InviteLink",
    "JoinRequest",
    "League",
    "LeagueReport",
    "LoginAttempt",
    "Membership",
    "ReportDelivery",
    "Season",
    "Stadium",
    "Webhook",
    "WebhookDelivery",
    "league_activity_changed",
    "league_table_changed",
    "new_table_version",
    "validate_timezone",
)
