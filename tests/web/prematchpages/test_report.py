"""What the pre-match sequence settled, on the match report, and its link."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import services
from matches.models import Inducement, Prematch
from matches.prematch import inducement_add, prematch_post
from teams.models import Team
from tests.factories import UserFactory
from tests.matches.conftest import full_team
from tests.web.pages import element, plain, report_url, text
from tests.web.prematchpages.helpers import (
    data_value,
    post,
    prematch_url,
    run_weather_and_fans,
    shop_url,
)

pytestmark = pytest.mark.django_db


# --- the match report ---------------------------------------------------------------------------


def test_match_report_shows_weather_gate_fame_team_values_and_inducements(client, underdog_turn, humes, goblins):
    match = underdog_turn
    inducement_add(user=goblins.coach, match_id=match.pk, team_id=goblins.pk, item="keg", quantity=2)
    inducement_add(user=goblins.coach, match_id=match.pk, team_id=goblins.pk, item="mercenary", position="goblin")
    prematch = Prematch.objects.get(match=match)

    page = text(client.get(report_url(match)))

    section = element(page, "prematch-section")
    assert "at Inducements: the underdog" in element(section, "prematch-progress")
    assert element(section, "weather").endswith(">Perfect Conditions</dd>")
    gate = sum(prematch.fans.values())
    assert data_value(section, "gate") == gate and f"{gate:,} fans" in section
    humes_row = plain(element(section, f"prematch-team-{humes.pk}"))
    goblins_row = plain(element(section, f"prematch-team-{goblins.pk}"))
    tv_h, tv_g = prematch.team_values[str(humes.pk)], prematch.team_values[str(goblins.pk)]
    fame_h, fame_g = prematch.fame[str(humes.pk)], prematch.fame[str(goblins.pk)]
    assert humes_row.startswith(
        f"Alice's Humes (shops first) {prematch.fans[str(humes.pk)]:,} {fame_h} {tv_h:,} gil 0 gil"
    )
    assert goblins_row.startswith(f"Bob's Goblins (underdog) {prematch.fans[str(goblins.pk)]:,} {fame_g} {tv_g:,} gil")
    assert "11,000 gil" in goblins_row
    assert "2 × Blitzweiser Keg (10,000 gil)" in goblins_row and "Mercenary Goblin (7,000 gil)" in goblins_row
    assert "17,000 gil in all" in goblins_row
    assert 'id="prematch-link"' not in page  # anonymous
    client.force_login(humes.coach)
    assert 'id="prematch-link" href="' + prematch_url(match) + '">Walk the pre-match sequence' in text(
        client.get(report_url(match))
    )


def test_a_star_induced_by_both_teams_plays_for_neither_on_the_report(client, league, commissioner):
    """R: a Star Player both teams induce plays for neither and keeps both fees."""
    orcs = full_team(league, UserFactory(username="carol"), "Carol's Orcs", roster="orc", position="lineman")
    gobs = full_team(league, UserFactory(username="dave"), "Dave's Goblins", roster="goblin", position="goblin")
    match = services.match_schedule(user=commissioner, league=league, team_ids=[orcs.pk, gobs.pk])
    prematch_post(user=commissioner, match_id=match.pk, step="weather")
    prematch_post(user=commissioner, match_id=match.pk, step="fans")
    prematch = Prematch.objects.get(match=match)
    first, second = prematch.superior_id, prematch.underdog_id
    inducement_add(user=commissioner, match_id=match.pk, team_id=first, item="star_player", star="gizzik_quickfingers")
    prematch_post(user=commissioner, match_id=match.pk, step="inducements_superior", choices={"done": True})
    client.force_login(commissioner)

    page = text(client.get(shop_url(match, Team.objects.get(pk=second))))
    assert "induced by the other team" in element(page, "star-gizzik_quickfingers")
    post(
        client,
        shop_url(match, Team.objects.get(pk=second)),
        {"item": "star_player", "star": "gizzik_quickfingers", "quantity": "1"},
    )

    page = text(client.get(report_url(match)))
    for team_id in (first, second):
        row = plain(element(page, f"prematch-team-{team_id}"))
        assert "Star Player Gizzik Quickfingers (10,000 gil) — plays for neither; both fees kept" in row
    assert "Induced by both teams, so playing for neither (he keeps both fees): Gizzik Quickfingers." in page


def test_match_report_of_a_scheduled_match_links_the_prematch_page_to_its_coaches_and_the_commissioner(
    client, match, commissioner, stranger
):
    page = text(client.get(report_url(match)))
    assert "Pre-match sequence" in page and "not started" in element(page, "prematch-progress")
    assert 'id="prematch-link"' not in page
    for viewer in (match.created_by, commissioner):
        client.force_login(viewer)
        assert 'id="prematch-link"' in text(client.get(report_url(match)))
    client.force_login(stranger)
    assert 'id="prematch-link"' not in text(client.get(report_url(match)))


def test_after_the_result_the_report_keeps_the_prematch_without_the_link(client, underdog_turn, humes, goblins):
    match = underdog_turn
    prematch_post(user=goblins.coach, match_id=match.pk, step="inducements_underdog", choices={"done": True})
    body = {"teams": [{"team": humes.pk, "score": 1}, {"team": goblins.pk, "score": 0}], "players": []}
    h1 = humes.players.get(number=1)
    body["players"] = [{"player": h1.pk, "touchdowns": 1}]
    services.match_submit_result(user=humes.coach, match_id=match.pk, body=body)
    client.force_login(humes.coach)

    page = text(client.get(report_url(match)))

    assert "complete" in element(page, "prematch-progress")
    assert element(page, "weather").endswith(">Perfect Conditions</dd>")
    assert 'id="prematch-link"' not in page
    closed = text(client.get(prematch_url(match)))
    assert 'id="complete"' in closed


@pytest.mark.parametrize("viewer", ["anonymous", "commissioner"])
def test_match_report_queries_do_not_grow_with_the_prematch_and_inducements(
    client, league, humes, goblins, commissioner, viewer
):
    plain_match = services.match_schedule(user=commissioner, league=league, team_ids=[humes.pk, goblins.pk])
    shopped = services.match_schedule(user=commissioner, league=league, team_ids=[goblins.pk, humes.pk])
    run_weather_and_fans(shopped, goblins, humes)
    prematch_post(user=humes.coach, match_id=shopped.pk, step="inducements_superior", choices={"done": True})
    for item, extra in (
        ("keg", {}),
        ("bribe", {"quantity": 2}),
        ("mercenary", {"position": "goblin", "skill": "Catch"}),
    ):
        inducement_add(user=goblins.coach, match_id=shopped.pk, team_id=goblins.pk, item=item, **extra)
    inducement_add(
        user=goblins.coach, match_id=shopped.pk, team_id=goblins.pk, item="star_player", star="ragnash_the_hungry"
    )
    assert Inducement.objects.filter(match=shopped).count() == 4
    if viewer == "commissioner":
        client.force_login(commissioner)

    counts = []
    for m in (plain_match, shopped):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(report_url(m)).status_code == 200
        counts.append(len(captured))

    assert counts[0] == counts[1], f"{counts[0]} queries without a pre-match sequence, {counts[1]} with inducements"
