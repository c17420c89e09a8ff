"""The match pages (api-v1 "Web pages"), included from dugout.web.urls."""

from django.urls import path

from .sharing import printing as sharing_printing
from .sharing import views as sharing
from .web import confirm, extension, live, postmatch, prematch, report, result, schedule, schedules, shop, times

urlpatterns = [
    path("matches/new/", schedule.match_schedule, name="match-schedule"),
    path("matches/<int:pk>/", report.match_report, name="match-detail"),
    path("matches/<int:pk>/card.png", sharing.match_card, name="match-card"),
    path("matches/<int:pk>/sheet.pdf", sharing_printing.match_sheet_pdf, name="match-sheet-pdf"),
    path("matches/<int:pk>/result/", result.match_result, name="match-result"),
    path("matches/<int:pk>/confirm/", confirm.match_confirm, name="match-confirm"),
    path("matches/<int:pk>/reject/", confirm.match_reject, name="match-reject"),
    path("matches/<int:pk>/correct/", confirm.match_correct, name="match-correct"),
    path("matches/<int:pk>/dispute/", confirm.match_dispute, name="match-dispute"),
    path("matches/<int:pk>/ruling/", confirm.match_ruling, name="match-ruling"),
    path("matches/<int:pk>/aftermath/<int:team_id>/", postmatch.aftermath_walk, name="match-aftermath"),
    path("matches/<int:pk>/prematch/", prematch.prematch_walk, name="match-prematch"),
    path("matches/<int:pk>/inducements/<int:team_id>/", shop.match_inducements, name="match-inducements"),
    path("matches/<int:pk>/live/", live.match_live, name="match-live"),
    path("matches/<int:pk>/times/", times.match_times, name="match-times"),
    path("matches/<int:pk>/extension/", extension.match_extension, name="match-extension"),
    path("leagues/<int:pk>/schedule/", schedules.league_schedule, name="league-schedule"),
    path("leagues/<int:pk>/bracket/", schedules.league_bracket, name="league-bracket"),
    path("sw.js", live.service_worker, name="service-worker"),
]
