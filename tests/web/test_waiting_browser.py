"""The live sheet in a real browser warns as it opens when the result could not be submitted yet: it names the
coach who must act and links to his step; once he has acted, the sheet's next answer from the server takes the
warning away, without a reload. Debian's Chromium through Playwright (tests/web/conftest.py)."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from matches.prematch import prematch_post  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_live_sheet_names_who_must_act_as_it_opens_and_drops_the_warning_once_he_has(log_in, match, humes, goblins):
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    fans = {"fans": {str(humes.pk): [5, 6], str(goblins.pk): [2, 1]}}
    prematch_post(user=humes.coach, match_id=match.pk, step="fans", rolls=fans)
    prematch_post(user=humes.coach, match_id=match.pk, step="inducements_superior", choices={"done": True})

    page = log_in("alice")
    page.goto(f"/matches/{match.pk}/live/")
    warning = page.locator("#live-waiting")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("The result cannot be submitted yet.")
    expect(warning).to_contain_text("Waiting for bob: Inducements: the underdog")
    expect(page.locator("#live-waiting-link")).to_have_attribute(
        "href", f"/matches/{match.pk}/inducements/{goblins.pk}/"
    )

    prematch_post(user=goblins.coach, match_id=match.pk, step="inducements_underdog", choices={"done": True})
    expect(warning).to_be_hidden()  # the sheet's next refresh (every 3 s) hears the result is free
    expect(page.locator("#live-status")).to_have_text(re.compile("saved"))
