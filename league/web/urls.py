"""The pages' URLs: the league pages here, the team pages from teams/web/urls.py, the match pages from
matches/urls.py (names and paths as api-v1 "Web pages" lists them)."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from league import calendar
from league.feeds import LeagueReportsFeed

from . import (
    account,
    auth,
    challenge,
    dashboard,
    desk,
    divisions,
    home,
    invitations,
    players,
    ratings,
    seasons,
    views,
    webhooks,
)

urlpatterns = [
    path("", auth.home, name="home"),
    path("me/", home.me, name="me"),
    path("favicon.ico", home.favicon, name="favicon"),
    path("signup/", auth.signup, name="signup"),
    path("login/", auth.ThrottledLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password-reset/", auth.password_reset, name="password_reset"),
    path("password-reset/sent/", auth.password_reset_done, name="password_reset_done"),
    path("password-reset/done/", auth.password_reset_complete_page, name="password_reset_complete"),
    path("password-reset/<uidb64>/<token>/", auth.PasswordResetConfirmPage.as_view(), name="password_reset_confirm"),
    path("account/tokens/", account.account_tokens, name="account-tokens"),
    path("account/password/", account.PasswordChangeView.as_view(), name="password_change"),
    path("leagues/new/", views.league_create, name="league-create"),
    path("leagues/<int:pk>/", views.league_detail, name="league-detail"),
    path("leagues/<int:pk>/teams/", views.league_teams, name="league-teams"),
    path("leagues/<int:pk>/table/", views.league_table, name="league-table"),
    path("leagues/<int:pk>/results/", views.league_all_results, name="league-results"),
    path("leagues/<int:pk>/fixtures/", views.league_all_fixtures, name="league-fixtures"),
    path("leagues/<int:pk>/join/", views.league_join, name="league-join"),
    path("leagues/<int:pk>/seasons/", seasons.league_season_list, name="league-seasons"),
    path("leagues/<int:pk>/seasons/<int:number>/", seasons.league_season_detail, name="league-season"),
    path("leagues/<int:pk>/ratings/", ratings.league_ratings_page, name="league-ratings"),
    path("leagues/<int:pk>/reports/", views.league_reports, name="league-reports"),
    path("leagues/<int:pk>/reports/feed/", LeagueReportsFeed(), name="league-reports-feed"),
    path("leagues/<int:pk>/calendar.ics", calendar.league_calendar, name="league-calendar"),
    path("teams/<int:pk>/calendar.ics", calendar.team_calendar, name="team-calendar"),
    path("leagues/<int:pk>/reports/<str:week>/", views.league_report, name="league-report"),
    path("leagues/<int:pk>/leaders/", players.league_leaders, name="league-leaders"),
    path("leagues/<int:pk>/records/", players.league_records_page, name="league-records"),
    path("leagues/<int:pk>/memorial/", players.league_memorial_page, name="league-memorial"),
    path("players/<int:pk>/", players.player_detail, name="player-detail"),
    path("invitations/", invitations.invitation_list, name="invitations"),
    path("invitations/<int:pk>/accept/", invitations.invitation_accept, name="invitation-accept"),
    path("invitations/<int:pk>/decline/", invitations.invitation_decline, name="invitation-decline"),
    path("commissioner/<int:league_id>/", dashboard.commissioner_dashboard, name="commissioner-dashboard"),
    path("commissioner/<int:league_id>/queue/", desk.desk_queue, name="desk-queue"),
    path("commissioner/<int:league_id>/audit/", desk.desk_audit, name="desk-audit"),
    path("commissioner/<int:league_id>/divisions/", divisions.desk_divisions, name="desk-divisions"),
    path("commissioner/<int:league_id>/webhooks/", webhooks.desk_webhooks, name="desk-webhooks"),
    path("commissioner/<int:league_id>/invite-link/", desk.desk_invite_link, name="desk-invite-link"),
    path("commissioner/<int:league_id>/invite-links/", desk.desk_invite_links, name="desk-invite-links"),
    path(
        "commissioner/<int:league_id>/invite-links/<int:link_id>/revoke/",
        desk.desk_invite_link_revoke,
        name="desk-invite-link-revoke",
    ),
    path(
        "commissioner/<int:league_id>/members/<int:user_id>/remove/",
        desk.desk_member_remove,
        name="desk-member-remove",
    ),
    path("join/<str:token>/", desk.join_by_link, name="join-by-link"),
    path("leagues/<int:pk>/ask-to-join/", desk.ask_to_join, name="league-ask-to-join"),
    path("teams/<int:pk>/adjust/", desk.team_adjust, name="team-adjust"),
    path("leagues/<int:pk>/challenge/", challenge.league_challenge, name="league-challenge"),
    path("", include("teams.web.urls")),
    path("", include("matches.urls")),
]
