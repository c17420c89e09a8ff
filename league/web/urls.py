from django.contrib.auth import views as auth_views
from django.urls import include, path

from league.feeds import LeagueReportsFeed
from teams import web as team_web

from . import account, home, invitations, views

urlpatterns = [
    path("", views.home, name="home"),
    path("me/", home.me, name="me"),
    path("favicon.ico", home.favicon, name="favicon"),
    path("signup/", views.signup, name="signup"),
    path("login/", views.ThrottledLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("account/tokens/", account.account_tokens, name="account-tokens"),
    path("account/password/", account.PasswordChangeView.as_view(), name="password_change"),
    path("leagues/new/", views.league_create, name="league-create"),
    path("leagues/<int:pk>/", views.league_detail, name="league-detail"),
    path("leagues/<int:pk>/join/", views.league_join, name="league-join"),
    path("leagues/<int:pk>/reports/", views.league_reports, name="league-reports"),
    path("leagues/<int:pk>/reports/feed/", LeagueReportsFeed(), name="league-reports-feed"),
    path("leagues/<int:pk>/reports/<str:week>/", views.league_report, name="league-report"),
    path("leagues/<int:pk>/teams/new/", views.team_create, name="team-create"),
    path("invitations/", invitations.invitation_list, name="invitations"),
    path("invitations/<int:pk>/accept/", invitations.invitation_accept, name="invitation-accept"),
    path("invitations/<int:pk>/decline/", invitations.invitation_decline, name="invitation-decline"),
    path("commissioner/<int:league_id>/", views.commissioner_dashboard, name="commissioner-dashboard"),
    path("teams/<int:pk>/", views.team_detail, name="team-detail"),
    path("teams/<int:pk>/hire/", views.team_hire, name="team-hire"),
    path("teams/<int:pk>/buy/", views.team_buy, name="team-buy"),
    path("teams/<int:pk>/ready/", views.team_ready, name="team-ready"),
    path("teams/<int:pk>/stadium/cancel/", team_web.team_cancel_residency, name="team-cancel-residency"),
    path("teams/<int:pk>/players/<int:player_id>/fire/", views.team_fire, name="team-fire"),
    path("teams/<int:pk>/players/<int:player_id>/learn/", views.team_learn_ability, name="team-learn-ability"),
    path("leagues/<int:pk>/challenge/", views.league_challenge, name="league-challenge"),
    path("", include("matches.urls")),
]
