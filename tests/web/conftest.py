"""Fixtures of the browser tests: Debian's Chromium driven by Playwright's sync API against the live server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from matches import services
from tests.matches.conftest import full_team

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 10_000


@pytest.fixture
def allow_async_unsafe():
    """Playwright's sync API runs an event loop in this thread; Django's ORM refuses to run beside one
    (SynchronousOnlyOperation) unless told it is safe, as it is here: nothing else uses the loop."""
    key = "DJANGO_ALLOW_ASYNC_UNSAFE"
    saved = os.environ.get(key)
    os.environ[key] = "true"
    yield
    if saved is None:
        os.environ.pop(key, None)
    else:
        os.environ[key] = saved


@pytest.fixture
def js_errors() -> list[str]:
    """Uncaught JavaScript errors of the pages (htmx failing to load or to swap would show here)."""
    return []


@pytest.fixture
def new_page(allow_async_unsafe, live_server, js_errors):
    """`new_page()`: a page in a fresh browser context (cookies apart) whose relative URLs go to the live server."""
    if not CHROMIUM.exists():  # a newcomer without Chromium skips the browser tests; CI must run them
        if os.environ.get("DUGOUT_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is not installed, and DUGOUT_REQUIRE_BROWSER says the browser tests must run")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it")
    from django.db import connections
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        contexts = []

        def open_page():
            context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.on("pageerror", lambda error: js_errors.append(str(error)))
            return page

        expect.set_options(timeout=TIMEOUT_MS)
        try:
            yield open_page
            for context in contexts:
                context.close()
        finally:
            expect.set_options(timeout=None)  # back to Playwright's default for anyone else
            browser.close()
            # While Playwright's loop runs, Django keys its connections by context rather than by thread, so
            # the test body got a connection of its own: close it here, or it outlives the test (PostgreSQL
            # then cannot drop the test database: "being accessed by other users").
            connections.close_all()


@pytest.fixture
def log_in(new_page):
    """`log_in(username)`: a page in a browser context of its own (cookies apart), logged in as that user."""
    from playwright.sync_api import expect

    from tests.factories import PASSWORD

    def open_as(username: str):
        page = new_page()
        page.goto("/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.locator("main").get_by_role("button", name="Log in").click()
        expect(page.locator("header .who")).to_have_text(username)
        return page

    return open_as


# --- a scheduled Blitz Bowl match of two full teams (the pre-match and coach's-home pages; a module that needs
# other teams defines its own) ---------------------------------------------------------------------------


@pytest.fixture
def humes(league, coach):
    """Alice's Humes: eleven Linemen (TV 55,000, treasury 45,000) — the higher Team Value."""
    return full_team(league, coach, "Alice's Humes")


@pytest.fixture
def goblins(league, other_coach):
    """Bob's Goblins: eleven Goblins (TV 44,000, treasury 56,000) — the underdog."""
    return full_team(league, other_coach, "Bob's Goblins", roster="goblin", position="goblin")


@pytest.fixture
def match(league, humes, goblins):
    """Humes (home) v Goblins, scheduled by Alice."""
    return services.match_schedule(user=humes.coach, league=league, team_ids=[humes.pk, goblins.pk])
