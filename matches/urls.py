"""The match pages (api-v1 "Web pages"), included from league.web.urls."""

from django.urls import path

from . import live_page, web

urlpatterns = [
    path("matches/new/", web.match_schedule, name="match-schedule"),
    path("matches/<int:pk>/", web.match_report, name="match-detail"),
    path("matches/<int:pk>/result/", web.match_result, name="match-result"),
    path("matches/<int:pk>/confirm/", web.match_confirm, name="match-confirm"),
    path("matches/<int:pk>/reject/", web.match_reject, name="match-reject"),
    path("matches/<int:pk>/aftermath/<int:team_id>/", web.aftermath_walk, name="match-aftermath"),
    path("matches/<int:pk>/prematch/", web.prematch_walk, name="match-prematch"),
    path("matches/<int:pk>/inducements/<int:team_id>/", web.match_inducements, name="match-inducements"),
    path("matches/<int:pk>/live/", live_page.match_live, name="match-live"),
    path("sw.js", live_page.service_worker, name="service-worker"),
]
