"""The league domain's models, one module per concern; every model is importable from `league.models`."""

from league.models.accounts import IdempotencyRecord, LoginAttempt, PasswordResetMail, SignupAttempt
from league.models.audit import AuditEntry
from league.models.calendar_feeds import CalendarFeed
from league.models.discord import DiscordApplication, DiscordLink, DiscordLinkCode
from league.models.divisions import Division
from league.models.invite_links import InviteLink
from league.models.league import (
    WEEKDAYS,
    League,
    Season,
    Stadium,
    league_activity_changed,
    league_table_changed,
    new_table_version,
    validate_timezone,
)
from league.models.members import Invitation, JoinRequest, MemberRemoval, Membership
from league.models.reports import LeagueReport, ReportDelivery
from league.models.webhooks import Webhook, WebhookDelivery

__all__ = (
    "WEEKDAYS",
    "AuditEntry",
    "CalendarFeed",
    "DiscordApplication",
    "DiscordLink",
    "DiscordLinkCode",
    "Division",
    "IdempotencyRecord",
    "Invitation",
    "InviteLink",
    "JoinRequest",
    "League",
    "LeagueReport",
    "LoginAttempt",
    "MemberRemoval",
    "Membership",
    "PasswordResetMail",
    "ReportDelivery",
    "Season",
    "SignupAttempt",
    "Stadium",
    "Webhook",
    "WebhookDelivery",
    "league_activity_changed",
    "league_table_changed",
    "new_table_version",
    "validate_timezone",
)
