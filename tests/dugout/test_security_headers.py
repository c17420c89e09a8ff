"""Content-Security-Policy and Permissions-Policy: every page of the demo and every API answer carries both,
and nothing Dugout serves needs an exception to them (no inline script, style, style= or on*= handler in the
templates, no eval in our scripts, no style= in the server-drawn chart)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from dugout.reports.chart import team_value_chart
from league.models import League, LeagueReport
from matches.models import Match
from teams.models import Team

pytestmark = pytest.mark.django_db

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'self'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
}
NO_DEVICES = {"camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()", "interest-cohort=()"}
TEMPLATES = Path(settings.BASE_DIR) / "templates"
STATIC = Path(settings.BASE_DIR) / "static"
#: The weekly report's body is the e-mail's (mail clients read only inline styles); its page drops them
#: (core/templatetags/dugout_html.py), which tests/dugout/reports/test_reports_pages.py checks.
EMAIL_ONLY = {TEMPLATES / "league" / "_report_body.html"}
#: Templates WeasyPrint renders to PDF (issue 14's printable roster and match sheet), never served to a browser as
#: HTML, so the CSP does not govern them: the team's colours are inline there, the PDF renderer fetches nothing.
PDF_ONLY = {*(TEMPLATES / "teams" / "print").glob("*.html"), *(TEMPLATES / "matches" / "print").glob("*.html")}


def directives(header: str) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())


def assert_both_headers(response, url):
    assert directives(response["Content-Security-Policy"]) == POLICY, url
    assert {p.strip() for p in response["Permissions-Policy"].split(",")} >= NO_DEVICES, url


@pytest.fixture
def demo(db):
    call_command("load_demo", verbosity=0)
    league = League.objects.get(ruleset="blitzbowl")
    LeagueReport.objects.create(
        league=league, week="2026-W49", week_start="2026-11-23T08:00Z", week_end="2026-11-30T08:00Z", html="<p>x</p>"
    )
    return league


def demo_pages(league: League) -> list[str]:
    team = Team.objects.filter(league=league).order_by("pk").first()
    played = Match.objects.filter(league=league, status=Match.Status.FINAL).first()
    fixture = Match.objects.filter(league=league).exclude(status=Match.Status.FINAL).first()
    return [
        "/",
        "/login/",
        "/signup/",
        "/leagues/new/",
        f"/leagues/{league.pk}/",
        f"/leagues/{league.pk}/reports/",
        f"/leagues/{league.pk}/reports/2026-W49/",
        f"/leagues/{league.pk}/reports/feed/",
        f"/leagues/{league.pk}/challenge/",
        f"/commissioner/{league.pk}/",
        f"/teams/{team.pk}/",
        f"/matches/{played.pk}/",
        f"/matches/{played.pk}/aftermath/{team.pk}/",
        f"/matches/{fixture.pk}/prematch/",
        f"/matches/{fixture.pk}/inducements/{team.pk}/",
        f"/matches/new/?league={league.pk}",
        "/invitations/",
        "/api/docs/",
        "/api/docs/?script=",
    ]


def test_every_demo_page_carries_the_csp_and_the_permissions_policy(client, demo):
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    client.force_login(users.get(username="commissioner"))
    statuses = {}
    for url in demo_pages(demo):
        response = client.get(url)
        statuses[url] = response.status_code
        assert_both_headers(response, url)
    assert statuses == dict.fromkeys(statuses, 200)
    # The admin, a page that is not there, and an anonymous visitor's redirect to log in.
    client.force_login(users.get(username="admin"))
    for url, status in (("/admin/", 200), ("/admin/league/league/", 200), ("/leagues/999999/", 404)):
        response = client.get(url)
        assert response.status_code == status, url
        assert_both_headers(response, url)
    client.logout()
    response = client.get("/leagues/new/")
    assert response.status_code == 302
    assert_both_headers(response, "/leagues/new/ (anonymous)")


def test_every_api_answer_carries_both_headers_reads_writes_and_refusals(api, api_as, demo):
    from django.contrib.auth import get_user_model

    coach = get_user_model().objects.get(username="coach_cid")
    team = Team.objects.filter(league=demo, coach=coach).first()
    answers = [
        api.get("/api/v1/leagues/"),
        api.get(f"/api/v1/leagues/{demo.pk}/standings/"),
        api.get(f"/api/v1/teams/{team.pk}/"),
        api.get("/api/schema/"),
        api.post(f"/api/v1/teams/{team.pk}/purchases/", {"item": "reroll"}, format="json"),  # 401
        api_as(coach).post(f"/api/v1/teams/{team.pk}/purchases/", {"item": "nothing"}, format="json"),  # 400
        api.get("/api/v1/teams/999999/"),  # 404
    ]
    for response in answers:
        assert_both_headers(response, response.wsgi_request.path)


INLINE = {
    "an inline <script> (no src)": re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I),
    "a <style> block": re.compile(r"<style\b", re.I),
    "a style= attribute": re.compile(r"\sstyle\s*=", re.I),
    "an on*= event handler": re.compile(r"\son[a-z]+\s*=", re.I),
    "an hx-on attribute (needs eval)": re.compile(r"\shx-on", re.I),
    "a javascript: URL": re.compile(r"javascript:", re.I),
}


def inline_code(text: str) -> list[str]:
    return [what for what, pattern in INLINE.items() if pattern.search(text)]


def test_the_checker_sees_each_kind_of_inline_code():
    """The grep below would pass vacuously if its patterns matched nothing: each must catch its own kind."""
    samples = [
        "<script>alert(1)</script>",
        "<style>p{}</style>",
        '<p style="color:red">',
        '<a onclick="x()">',
        '<div hx-on:htmx:before-swap="x">',
        '<a href="javascript:x()">',
    ]
    assert [inline_code(s) for s in samples] == [[what] for what in INLINE]
    assert inline_code('<script src="/static/x.js" defer></script><p class="style">') == []


def test_no_template_nor_the_drawn_chart_holds_inline_scripts_styles_or_handlers():
    found = {
        str(path.relative_to(TEMPLATES)): inline_code(path.read_text())
        for path in TEMPLATES.rglob("*.html")
        if path not in EMAIL_ONLY | PDF_ONLY
    }
    # The report's SVG chart is placed in the page unescaped: presentation attributes (stroke=, fill=) only.
    svg = team_value_chart({"Alice's Humes": [("1", 50_000), ("now", 60_000)]}, title="Team value", unit="gil")
    assert 'aria-label="Alice\'s Humes"' in svg and 'stroke="#1f77b4"' in svg
    found["dugout/reports/chart.py (drawn)"] = inline_code(svg)
    assert {path: kinds for path, kinds in found.items() if kinds} == {}


def test_our_scripts_need_no_eval_and_write_no_inline_styles():
    risky = re.compile(r"\beval\s*\(|new\s+Function\s*\(|\.setAttribute\(\s*['\"](style|on[a-z]+)['\"]|\.innerHTML\s*=")
    found = {str(p.relative_to(STATIC)): risky.findall(p.read_text()) for p in (STATIC / "js").rglob("*.js")}
    assert {path: hits for path, hits in found.items() if hits} == {}


def test_htmx_is_told_to_inject_no_style_and_to_use_no_eval():
    base = (TEMPLATES / "base.html").read_text()
    assert """<meta name="htmx-config" content='{"includeIndicatorStyles": false, "allowEval": false}'>""" in base
    assert ".htmx-indicator" in (STATIC / "css" / "dugout.css").read_text()
