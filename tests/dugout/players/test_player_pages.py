"""Issue 14 pages: the player page, leaders, records and memorial, public and linked — every player's name on
the team sheet, the match report, the leaders, the records and the memorial links to his page (one template
tag, core/templatetags/players.py); the league page links to the leaders and the records."""

from __future__ import annotations

import pytest
from django.urls import reverse

from teams.models import Player

pytestmark = pytest.mark.django_db


def test_league_page_links_to_leaders_records_and_memorial(client, league):
    html = client.get(reverse("league-detail", args=[league.pk])).content.decode()
    for name in ("league-leaders", "league-records", "league-memorial"):
        assert f'href="{reverse(name, args=[league.pk])}"' in html


def test_the_pages_show_the_worked_numbers_and_link_every_player(client, league, home, history):
    """Issue 14: the leaders page lists each stat (here all time), the player page his career; names link."""
    a1 = history["a1"]
    link = f'href="{reverse("player-detail", args=[a1.pk])}"'
    leaders = client.get(reverse("league-leaders", args=[league.pk]) + "?season=all").content.decode()
    assert 'id="leaders-touchdowns"' in leaders and 'id="teams-treasury"' in leaders and link in leaders
    assert 'id="leaders-goals"' not in leaders  # Blitz Bowl's stats only: the registry's
    page = client.get(reverse("player-detail", args=[a1.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Away 1" in text and 'id="history"' in text
    assert link in client.get(reverse("league-records", args=[league.pk])).content.decode()
    assert link in client.get(reverse("match-detail", args=[history["matches"][0]])).content.decode()
    assert link in client.get(reverse("team-detail", args=[a1.team_id])).content.decode()
    bad = client.get(reverse("league-leaders", args=[league.pk]) + "?season=9")
    assert bad.status_code == 200 and 'role="alert"' in bad.content.decode()


def test_a_dead_player_keeps_his_page_and_the_memorial_links_to_it(client, league, history):
    """R: the dead are listed in the memorial; issue 14: with a link to their page, which they keep."""
    a1 = history["a1"]
    Player.objects.filter(pk=a1.pk).update(status=Player.Status.DEAD)
    memorial = client.get(reverse("league-memorial", args=[league.pk])).content.decode()
    assert f'href="{reverse("player-detail", args=[a1.pk])}"' in memorial
    assert client.get(reverse("player-detail", args=[a1.pk])).status_code == 200
    assert client.get(reverse("player-detail", args=[999999])).status_code == 404


def test_issue14_sharing_the_player_page_carries_opengraph_and_twitter_tags(client, history):
    """Issue 14, "Sharing": OpenGraph and Twitter-card tags on player pages (absolute URLs)."""
    player = history["a1"]
    page = client.get(f"/players/{player.pk}/").content.decode()
    assert f'<meta property="og:title" content="{player.name} — {player.team.name}">' in page
    assert f'<meta property="og:url" content="http://testserver/players/{player.pk}/">' in page
    assert '<meta name="twitter:card" content="summary">' in page
