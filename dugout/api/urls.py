from django.urls import include, path
from rest_framework.routers import DefaultRouter

from core.api import auth
from core.api.lookup import ID_PATTERN
from dugout.api import (
    calendar,
    desk,
    discord,
    divisions,
    imports,
    me,
    notifications,
    players,
    ratings,
    schedules,
    seasons,
    views,
    webhooks,
)
from matches.api import MatchViewSet
from matches.extension_api import MatchExtensionApproveView, MatchExtensionRefuseView, MatchExtensionView
from matches.times_api import MatchTimeAcceptView, MatchTimesView
from teams.api import TeamViewSet, TransferViewSet


class IdRouter(DefaultRouter):
    """Every viewset's `{id}` is digits, so `/leagues/abc/standings/` is a 404 at the resolver, for every
    viewset registered here now or later."""

    def get_lookup_regex(self, viewset, lookup_prefix=""):
        lookup_url_kwarg = getattr(viewset, "lookup_url_kwarg", None) or getattr(viewset, "lookup_field", "pk")
        lookup_value = getattr(viewset, "lookup_value_regex", ID_PATTERN)
        return f"(?P<{lookup_prefix}{lookup_url_kwarg}>{lookup_value})"


router = IdRouter(trailing_slash=True)
router.register("leagues", views.LeagueViewSet, basename="league")
router.register("teams", TeamViewSet, basename="team")
router.register("transfers", TransferViewSet, basename="transfer")
router.register("matches", MatchViewSet, basename="match")
router.register("invitations", views.InvitationViewSet, basename="invitation")

#: The busiest read, the public standings (a benchmark target), is tried first: reached through the router's
#: patterns, it was matched after 19 others, 13 % of its CPU. It is the router's own pattern (not a copy), so
#: `reverse`, the OpenAPI schema (which keeps the first of a path) and the suffixed `standings.json` stay as they were.
STANDINGS = next(
    url for url in router.urls if url.name == "league-standings" and "format" not in url.pattern.regex.groupindex
)

urlpatterns = [
    STANDINGS,
    path("auth/register/", auth.RegisterView.as_view(), name="api-register"),
    path("auth/token/", auth.TokenView.as_view(), name="api-token"),
    path("auth/logout/", auth.LogoutView.as_view(), name="api-logout"),
    path("auth/password-reset/", auth.PasswordResetView.as_view(), name="api-password-reset"),
    path("auth/password-reset/confirm/", auth.PasswordResetConfirmView.as_view(), name="api-password-reset-confirm"),
    path("auth/logout-all/", auth.LogoutAllView.as_view(), name="api-logout-all"),
    path("notifications/", notifications.NotificationListView.as_view(), name="api-notifications"),
    path("notifications/read-all/", notifications.NotificationReadAllView.as_view(), name="api-notifications-read-all"),
    path("notifications/<int:pk>/read/", notifications.NotificationReadView.as_view(), name="api-notification-read"),
    path(
        "account/notification-settings/",
        notifications.NotificationSettingsView.as_view(),
        name="api-notification-settings",
    ),
    path("account/push/key/", notifications.PushKeyView.as_view(), name="api-push-key"),
    path(
        "account/push/subscriptions/",
        notifications.PushSubscriptionListView.as_view(),
        name="api-push-subscriptions",
    ),
    path(
        "account/push/subscriptions/<int:pk>/",
        notifications.PushSubscriptionDetailView.as_view(),
        name="api-push-subscription",
    ),
    path("me/actions/", me.MeActionsView.as_view(), name="api-me-actions"),
    path("rulesets/", views.RulesetListView.as_view(), name="api-rulesets"),
    path("rulesets/<str:key>/rosters/", views.RosterListView.as_view(), name="api-rosters"),
    path("rulesets/<str:key>/house-rules/", views.HouseRulesView.as_view(), name="api-house-rules"),
    path("matches/<int:pk>/draft/", include("matches.draft_api")),
    path("leagues/import/", imports.LeagueImportView.as_view(), name="api-league-import"),
    path("leagues/<int:pk>/seasons/", seasons.SeasonListView.as_view(), name="api-league-seasons"),
    path("leagues/<int:pk>/audit/", seasons.AuditListView.as_view(), name="api-league-audit"),
    path("leagues/<int:pk>/ratings/", ratings.RatingsView.as_view(), name="api-league-ratings"),
    path(
        "leagues/<int:pk>/ratings/teams/<int:team_id>/",
        ratings.TeamRatingHistoryView.as_view(),
        name="api-league-team-rating",
    ),
    path(
        "leagues/<int:pk>/house-rules/next-season/",
        seasons.NextSeasonRulesView.as_view(),
        name="api-league-next-season-rules",
    ),
    path("matches/<int:pk>/times/", MatchTimesView.as_view(), name="api-match-times"),
    path("matches/<int:pk>/extension/", MatchExtensionView.as_view(), name="api-match-extension"),
    path(
        "matches/<int:pk>/extension/approve/",
        MatchExtensionApproveView.as_view(),
        name="api-match-extension-approve",
    ),
    path("matches/<int:pk>/extension/refuse/", MatchExtensionRefuseView.as_view(), name="api-match-extension-refuse"),
    path(
        "matches/<int:pk>/times/<int:proposal_id>/accept/", MatchTimeAcceptView.as_view(), name="api-match-time-accept"
    ),
    path("leagues/<int:pk>/schedule/", schedules.ScheduleView.as_view(), name="api-league-schedule"),
    path("leagues/<int:pk>/schedule/withdraw/", schedules.WithdrawView.as_view(), name="api-schedule-withdraw"),
    path("leagues/<int:pk>/schedule/add/", schedules.LateTeamView.as_view(), name="api-schedule-add"),
    path("leagues/<int:pk>/bracket/", schedules.BracketView.as_view(), name="api-league-bracket"),
    path("leagues/<int:pk>/divisions/", divisions.DivisionListView.as_view(), name="api-league-divisions"),
    path("leagues/<int:pk>/webhooks/", webhooks.WebhookListView.as_view(), name="api-league-webhooks"),
    path(
        "leagues/<int:pk>/webhooks/<int:hook_id>/",
        webhooks.WebhookDetailView.as_view(),
        name="api-league-webhook",
    ),
    path(
        "leagues/<int:pk>/webhooks/<int:hook_id>/deliveries/",
        webhooks.DeliveryListView.as_view(),
        name="api-league-webhook-deliveries",
    ),
    path(
        "leagues/<int:pk>/divisions/assign/", divisions.DivisionAssignView.as_view(), name="api-league-division-assign"
    ),
    path(
        "leagues/<int:pk>/divisions/<int:division_id>/",
        divisions.DivisionDetailView.as_view(),
        name="api-league-division",
    ),
    path("leagues/<int:pk>/queue/", desk.QueueView.as_view(), name="api-league-queue"),
    path("leagues/<int:pk>/invite-links/", desk.InviteLinkView.as_view(), name="api-league-invite-links"),
    path(
        "leagues/<int:pk>/invite-links/<int:link_id>/revoke/",
        desk.InviteLinkRevokeView.as_view(),
        name="api-league-invite-link-revoke",
    ),
    path("leagues/<int:pk>/join-requests/", desk.JoinRequestListView.as_view(), name="api-league-join-requests"),
    path(
        "leagues/<int:pk>/join-requests/<int:request_id>/approve/",
        desk.JoinRequestDecisionView.as_view(decision="approve"),
        name="api-join-request-approve",
    ),
    path(
        "leagues/<int:pk>/join-requests/<int:request_id>/refuse/",
        desk.JoinRequestDecisionView.as_view(decision="refuse"),
        name="api-join-request-refuse",
    ),
    path("leagues/<int:pk>/members/<int:user_id>/remove/", desk.MemberRemoveView.as_view(), name="api-member-remove"),
    path("invite-links/join/", desk.InviteLinkJoinView.as_view(), name="api-invite-link-join"),
    path("teams/<int:pk>/adjustments/", desk.AdjustmentView.as_view(), name="api-team-adjustments"),
    path("teams/<int:pk>/reassign/", desk.TeamReassignView.as_view(), name="api-team-reassign"),
    path("players/<int:pk>/", players.PlayerDetailView.as_view(), name="api-player"),
    path("leagues/<int:pk>/leaders/", players.LeadersView.as_view(), name="api-league-leaders"),
    path("leagues/<int:pk>/leaders/teams/", players.TeamLeadersView.as_view(), name="api-league-team-leaders"),
    path("leagues/<int:pk>/records/", players.RecordsView.as_view(), name="api-league-records"),
    path("leagues/<int:pk>/discord/", discord.LeagueDiscordView.as_view(), name="api-league-discord"),
    path(
        "integrations/discord/<int:league_id>/interactions/",
        discord.DiscordInteractionsView.as_view(),
        name="api-discord-interactions",
    ),
    path("account/discord/code/", discord.DiscordCodeView.as_view(), name="api-account-discord-code"),
    path("account/calendar/", calendar.CalendarView.as_view(), name="api-account-calendar"),
    path("account/calendar/rotate/", calendar.CalendarRotateView.as_view(), name="api-account-calendar-rotate"),
    path("", include(router.urls)),
]
