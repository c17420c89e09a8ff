"""Walking the post-match sequence through the pages: who may, the whole sequence with entered dice, and the
decisions' widgets."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from matches import services
from matches.models import Roll
from teams.models import Player, Team
from teams.selectors import team_treasury
from teams.services import team_fire_player
from tests.factories import StadiumFactory, TeamFactory
from tests.web.matchpages.helpers import (
    data_value,
    ledger,
    plain,
    players,
    post_step,
    report_url,
    state,
    submit_standard,
    text,
    walk_to,
    walk_url,
)

pytestmark = pytest.mark.django_db


# --- the post-match sequence --------------------------------------------------------------------


@pytest.mark.parametrize("viewer", ["coach", "commissioner"])
def test_walk_page_renders_for_the_teams_coach_and_the_commissioner(client, final, humes, request, viewer):
    client.force_login(request.getfixturevalue(viewer))

    response = client.get(walk_url(final, humes))

    assert response.status_code == 200
    page = text(response)
    assert "<h1>Post-match sequence: Alice's Humes" in page
    assert 'id="step-title">Step 1 of 5: Improvements</h2>' in page
    assert '<li class="current" aria-current="step">Improvements' in page
    assert '<label for="id_roll_improvement">Improvement (2d6)</label>' in page
    assert 'placeholder="roll for me"' in page
    assert 'name="roll_winnings"' not in page  # a later step's dice
    assert data_value(page, "treasury") == 45_000
    assert "No step has been run yet." in page


@pytest.mark.parametrize("viewer", ["other_coach", "stranger"])
def test_walk_page_refuses_everyone_else(client, final, humes, request, viewer):
    url = walk_url(final, humes)
    assert client.get(url).status_code == 302  # anonymous: log in first
    before = state(final, humes)
    client.force_login(request.getfixturevalue(viewer))

    assert client.get(url).status_code == 403
    response = client.post(url, {"step": "improvements", "roll_improvement": "6, 6"})

    assert response.status_code == 403
    assert "Only this team's coach or the commissioner can walk its post-match sequence." in text(response)
    assert state(final, humes) == before


def test_walk_page_before_the_result_is_final_sends_back_to_the_report(client, match, humes, goblins):
    submit_standard(match, humes, goblins)
    client.force_login(humes.coach)

    response = client.get(walk_url(match, humes), follow=True)

    assert response.redirect_chain == [(report_url(match), 302)]
    assert "The post-match sequence opens when the result is final." in text(response)


def test_walk_page_of_a_team_not_in_the_match_is_not_found(client, league, final, commissioner):
    outsider = TeamFactory(league=league, roster="orc")
    client.force_login(commissioner)
    assert client.get(walk_url(final, outsider)).status_code == 404


@pytest.mark.parametrize("via_htmx", [False, True], ids=["plain", "htmx"])
def test_walking_the_whole_sequence_through_the_pages_moves_the_treasury_as_the_rules_say(
    client, final, humes, via_htmx
):
    """Humes won 2–1 with FAME 1, treasury 45,000, Fan Factor 0. Worked out by hand:
    Improvements: Hume 1 earned 11 SPP, one level: 3 + 4 = 7 → a normal skill (Block, value +2,000).
    Fortune: winnings 4 × 1,000 + FAME 1,000 + win 1,000 = 6,000 (no re-roll); Fan Factor 3d6 6+5+1 = 12 > 0 → 1;
    sponsor d20 20 + FF 1 + won 2 = 23 → one-time: 3 × 6,000 = 18,000, risk 6: nobody misses the next match.
    Prepare: treasury 69,000 (60,000+ bracket), d6 5 → minor: lose 2 × 1,000. Treasury 45,000 → 67,000."""
    h1 = players(humes)[1]
    client.force_login(humes.coach)

    def step(data):
        response = post_step(client, final, humes, data, htmx=via_htmx)
        assert response.status_code == 200
        page = text(response)
        if via_htmx:
            assert "<html" not in page and "<h1>Post-match sequence" in page
        assert 'class="error"' not in page and "errorlist" not in page, plain(page)[:2000]
        return page

    page = step({"step": "improvements", "roll_improvement": "3, 4"})
    assert "Choose each improvement" in page
    assert re.search(rf'<label for="id_improvement_{h1.pk}_0">Hume 1:</label>', page)
    assert "Improvement roll 3 + 4 = 7: the coach may take a normal skill." in page
    assert '<optgroup label="Normal skills">' in page and '<option value="Block">Block</option>' in page
    assert "Dice so far: improvement 2d6 → 3, 4 (entered)." in plain(page)

    page = step({"step": "improvements", f"improvement_{h1.pk}_0": "Block"})
    assert 'id="step-title">Step 2 of 5: Update team stats' in page
    page = step({"step": "team_stats"})
    assert "Won 2–1 (league): 3 league point(s)." in page
    page = step({"step": "fortune", "roll_winnings": "4", "roll_fan_factor": "6, 5, 1", "roll_sponsorship": "20"})
    assert "Winnings roll: 4. Re-roll it? (You must keep the second result.)" in page
    assert 'type="radio" name="decision" value="yes"' in page
    # The dice the paused step has not used yet are still on the form; the winnings die is not asked again.
    assert 'name="roll_fan_factor" value="6, 5, 1"' in page and 'name="roll_sponsorship" value="20"' in page
    assert 'name="roll_winnings"' not in page
    page = step(
        {
            "step": "fortune",
            "decision": "no",
            "roll_fan_factor": "6, 5, 1",
            "roll_sponsorship": "20",
            "roll_one_time_amount": "3",
            "roll_one_time_risk": "6",
        }
    )
    assert "Seek a sponsor?" in page
    page = step(
        {
            "step": "fortune",
            "decision": "yes",
            "roll_sponsorship": "20",
            "roll_one_time_amount": "3",
            "roll_one_time_risk": "6",
        }
    )
    assert "Sponsorship: d20 20 +1 Fan Factor +2 won = 23: One-time Sponsorship (20 or more)." in page
    assert data_value(page, "treasury") == 45_000 + 6_000 + 18_000
    page = step({"step": "hire_fire"})
    page = step({"step": "prepare", "roll_expensive_mistakes": "5", "roll_expensive_mistakes_amount": "2"})

    assert "The post-match sequence is complete." in page
    assert data_value(page, "treasury") == 67_000
    assert team_treasury(team=humes) == 67_000
    assert ledger(humes)[-3:] == [(6_000, "winnings"), (18_000, "sponsorship"), (-2_000, "expensive_mistake")]
    humes.refresh_from_db()
    h1.refresh_from_db()
    assert humes.fan_factor == 1 and "Block" in h1.skills and h1.value == 7_000
    rolls = Roll.objects.filter(match=final, team=humes)
    assert all(r.entered for r in rolls)
    assert [r.key for r in rolls] == [
        "improvement",
        "winnings",
        "fan_factor",
        "sponsorship",
        "one_time_amount",
        "one_time_risk",
        "expensive_mistakes",
        "expensive_mistakes_amount",
    ]
    sheet = text(client.get(reverse("team-detail", args=[humes.pk])))
    assert data_value(sheet, "treasury") == 67_000


def test_dice_entered_before_a_pause_are_kept_and_shown_on_the_resumed_step(client, final, humes):
    walk_to(final, humes, "fortune")
    client.force_login(humes.coach)

    response = client.post(
        walk_url(final, humes), {"step": "fortune", "roll_winnings": "2", "roll_fan_factor": "1, 1, 1"}
    )

    assert response.status_code == 302 and response.url == walk_url(final, humes)
    page = text(client.get(response.url))
    assert "Winnings roll: 2. Re-roll it?" in page
    assert 'name="roll_fan_factor" value="1, 1, 1"' in page
    assert "Kept from before the pause (type other dice to replace them): fan_factor 1, 1, 1." in plain(page)
    page = text(post_step(client, final, humes, {"step": "fortune", "decision": "no"}))

    assert "Seek a sponsor?" in page
    assert "fan_factor 3d6 → 1, 1, 1 (entered)" in plain(page)


#: Answers for walking a sequence with server dice in tests: no re-roll, no sponsor, keep nobody, spend nothing.


def test_residency_spend_is_a_number_and_stadium_fund_payments_an_optional_choice(
    client, league, commissioner, humes, goblins
):
    """Humes are tenants of Greenfield (not owners) and lose there 0–1: at Hire and fire they roll the d8 to
    keep the residency; 5 against Fan Factor 0 → the coach may spend 3,000 gil per −1, up to 15,000."""
    stadium = StadiumFactory(league=league, name="Greenfield")
    Team.objects.filter(pk=humes.pk).update(home_stadium=stadium)
    match = services.match_schedule(
        user=commissioner, league=league, team_ids=[humes.pk, goblins.pk], stadium_id=stadium.pk
    )
    g1 = players(goblins)[1]
    services.match_submit_result(
        user=goblins.coach,
        match_id=match.pk,
        body={
            "teams": [{"team": humes.pk, "score": 0}, {"team": goblins.pk, "score": 1}],
            "players": [{"player": g1.pk, "touchdowns": 1}],
        },
    )
    services.match_confirm(user=humes.coach, match_id=match.pk)
    walk_to(match, humes, "hire_fire")
    treasury = team_treasury(team=humes)
    client.force_login(humes.coach)

    page = text(client.get(walk_url(match, humes)))
    assert "Payments into the Stadium Fund" in page and "Buy the home stadium" in page
    assert "Sell the stadium" not in page  # the Humes do not own it
    page = text(
        post_step(
            client, match, humes, {"step": "hire_fire", "roll_stadium_loss": "5", "opt_stadium_fund_payments": "1"}
        )
    )
    assert "Lost at home: rolled 5 against Fan Factor 0." in page
    assert re.search(r'<input type="number" name="decision" value="0" min="0" max="15000" step="3000"', page)
    assert "Answered already: Stadium fund payments: 1." in page
    page = text(post_step(client, match, humes, {"step": "hire_fire", "decision": "15000"}))

    assert "Stadium roll: d8 5 − 5 (bought for 5 × 3,000 = 15,000 gil) = 0, not higher than Fan Factor 0" in page
    assert (
        "Paid 1 × 7,000 gil into the Stadium Fund (+5,000 gil in the Stadium Fund)." in page or "Stadium Fund" in page
    )
    assert team_treasury(team=humes) == treasury - 15_000 - 7_000
    humes.refresh_from_db()
    assert humes.home_stadium == stadium


def test_journeymen_to_hire_are_checkboxes_named_after_the_players(client, league, commissioner, humes, goblins):
    """The Goblins play short-handed (10): after the first match Prepare adds a free journeyman; after the second,
    Hire and fire asks whether to hire him permanently at the goblin's rookie cost."""
    team_fire_player(team_id=goblins.pk, player_id=players(goblins)[11].pk, user=goblins.coach)
    first = services.match_schedule(user=commissioner, league=league, team_ids=[humes.pk, goblins.pk])
    draw = {"teams": [{"team": humes.pk, "score": 0}, {"team": goblins.pk, "score": 0}]}
    services.match_submit_result(user=humes.coach, match_id=first.pk, body=draw)
    services.match_confirm(user=goblins.coach, match_id=first.pk)
    for team in (humes, goblins):
        walk_to(first, team, None)
    journeyman = Player.objects.get(team=goblins, status=Player.Status.JOURNEYMAN)
    second = services.match_schedule(user=commissioner, league=league, team_ids=[goblins.pk, humes.pk])
    services.match_submit_result(user=humes.coach, match_id=second.pk, body=draw)
    services.match_confirm(user=goblins.coach, match_id=second.pk)
    walk_to(second, goblins, "hire_fire")
    treasury = team_treasury(team=goblins)
    client.force_login(goblins.coach)

    page = text(post_step(client, second, goblins, {"step": "hire_fire"}))

    assert "Hire journeymen permanently (ids; the rest are released)." in page
    assert re.search(rf'<input type="checkbox" name="decision" value="{journeyman.pk}"[^>]*>\s*{journeyman.name}', page)
    page = text(post_step(client, second, goblins, {"step": "hire_fire", "decision": [str(journeyman.pk)]}))

    assert f"Hired journeyman {journeyman.name} for 4,000 gil: he loses Loner, keeps his SPP." in page
    journeyman.refresh_from_db()
    assert journeyman.status == Player.Status.ACTIVE and "Loner" not in journeyman.skills
    assert team_treasury(team=goblins) == treasury - 4_000


def test_a_double_offers_attributes_normal_and_double_access_skills_grouped_in_one_select(client, final, humes):
    """H: 5 + 5 = 10, a double: a normal skill, a skill from double access, +MA or +AV (value +3,000)."""
    h1 = players(humes)[1]
    client.force_login(humes.coach)

    page = text(post_step(client, final, humes, {"step": "improvements", "roll_improvement": "5, 5"}, htmx=True))

    select = re.search(rf'<select name="improvement_{h1.pk}_0".*?</select>', page, flags=re.S).group(0)
    groups = re.findall(r'<optgroup label="([^"]+)">', select)
    assert groups == ["Attribute", "Normal skills", "Skills from double access"]
    assert '<option value="ma">+1 MA</option>' in select and '<option value="av">+1 AV</option>' in select
    assert '<option value="Block">Block</option>' in select and '<option value="Dodge">Dodge</option>' in select
    page = text(post_step(client, final, humes, {"step": "improvements", f"improvement_{h1.pk}_0": "ma"}, htmx=True))

    assert "Hume 1: Improvement roll 5 + 5 = 10 (a double)" in page and "→ +1 MA (value +3,000 gil)." in page
    h1.refresh_from_db()
    assert h1.attributes["ma"] == 7 and h1.value == 8_000
