"""Every ruleset's roster and match sheet print (issue 14): the demo's league of each ruleset, its played match's
sheet and both its teams' rosters, with each ruleset's own sheet columns; its share card draws."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from matches.models import Match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["blitzbowl", "elfball", "bonecruncher"])
def test_the_demo_s_played_match_prints_and_shares_in_every_ruleset(client, ruleset):
    call_command("load_demo", verbosity=0)
    match = Match.objects.get(status="final", league__ruleset=ruleset)
    league = match.league
    headers = [c.header for c in league.rules.sheet_columns(league.house_rules) if c.header]

    sheet = client.get(f"/matches/{match.pk}/sheet.pdf")

    assert sheet.status_code == 200
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(sheet.content)).pages)
    for side in match.sides.select_related("team"):
        assert side.team.name in text
        player = side.team.players.filter(left_at__isnull=True).order_by("number").first()
        if player is not None:
            assert player.name in text
        roster = client.get(f"/teams/{side.team_id}/roster.pdf")
        assert roster.status_code == 200 and roster.content.startswith(b"%PDF")
    flat = " ".join(text.split())
    for header in headers:
        assert header in flat or header.replace(" ", "") in flat.replace(" ", ""), header
    assert client.get(f"/matches/{match.pk}/card.png").status_code == 200
