"""The commissioner connects his league to Discord from the dashboard on a phone (390 px): the panel loads by
htmx, a wrong key is refused in place, a right one connects, nothing overflows the screen, no script error."""

from __future__ import annotations

import pytest

from league.models import DiscordApplication

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_discord_panel_works_at_390_px(log_in, league, js_errors):
    from playwright.sync_api import expect

    page = log_in("commish")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/commissioner/{league.pk}/")
    panel = page.locator("#discord")
    expect(panel.locator("#discord-interactions-url")).to_have_value(
        f"{page.url.split('/commissioner')[0]}/api/v1/integrations/discord/{league.pk}/interactions/"
    )

    panel.locator("#discord-application-id").fill("1234567890")
    panel.locator("#discord-public-key").fill("not a key")
    panel.get_by_role("button", name="Save").click()
    expect(page.locator("#discord")).to_contain_text("64 hexadecimal digits")
    assert not DiscordApplication.objects.exists()

    page.locator("#discord-public-key").fill("ab" * 32)
    page.locator("#discord").get_by_role("button", name="Save").click()
    expect(page.locator("#discord-connected")).to_contain_text("1234567890")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert js_errors == []
