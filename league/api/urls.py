from django.urls import include, path
from rest_framework.routers import DefaultRouter

from matches.api import MatchViewSet
from teams.api import TeamViewSet, TransferViewSet

from . import auth, views

router = DefaultRouter(trailing_slash=True)
router.register("leagues", views.LeagueViewSet, basename="league")
router.register("teams", TeamViewSet, basename="team")
router.register("transfers", TransferViewSet, basename="transfer")
router.register("matches", MatchViewSet, basename="match")

urlpatterns = [
    path("auth/register/", auth.RegisterView.as_view(), name="api-register"),
    path("auth/token/", auth.TokenView.as_view(), name="api-token"),
    path("auth/logout/", auth.LogoutView.as_view(), name="api-logout"),
    path("auth/logout-all/", auth.LogoutAllView.as_view(), name="api-logout-all"),
    path("rulesets/", views.RulesetListView.as_view(), name="api-rulesets"),
    path("rulesets/<str:key>/rosters/", views.RosterListView.as_view(), name="api-rosters"),
    path("rulesets/<str:key>/house-rules/", views.HouseRulesView.as_view(), name="api-house-rules"),
    path("", include(router.urls)),
]
