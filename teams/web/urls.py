"""The team pages' URLs (included from dugout/web/urls.py; names and paths unchanged)."""

from django.urls import path

from teams.identity import printing
from teams.identity import views as identity
from teams.identity import web as identity_web

from . import actions, sheet

urlpatterns = [
    path("leagues/<int:pk>/teams/new/", actions.team_create, name="team-create"),
    path("teams/<int:pk>/", sheet.team_detail, name="team-detail"),
    path("teams/<int:pk>/colours.css", identity.team_colours, name="team-colours"),
    path("teams/<int:pk>/roster.pdf", printing.team_roster_pdf, name="team-roster-pdf"),
    path("teams/<int:pk>/identity/", identity_web.team_identity, name="team-identity"),
    path("teams/<int:pk>/logo/<slug:key>-<int:size>.png", identity.team_logo, name="team-logo"),
    path("teams/<int:pk>/hire/", actions.team_hire, name="team-hire"),
    path("teams/<int:pk>/buy/", actions.team_buy, name="team-buy"),
    path("teams/<int:pk>/ready/", actions.team_ready, name="team-ready"),
    path("teams/<int:pk>/stadium/cancel/", actions.team_cancel_residency, name="team-cancel-residency"),
    path("teams/<int:pk>/players/<int:player_id>/fire/", actions.team_fire, name="team-fire"),
    path("teams/<int:pk>/players/<int:player_id>/learn/", actions.team_learn_ability, name="team-learn-ability"),
]
