"""The public match report: the result, the snapshots, each team's log, every roll and the buttons for whoever
may act; its queries do not grow with players and rolls."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches import services
from matches.aftermath import aftermath_post
from matches.models import Match, Roll
from tests.factories import TeamFactory
from tests.web.matchpages.helpers import (
    fill,
    plain,
    play_standard,
    report_url,
    result_url,
    rows,
    submit_standard,
    table,
    text,
    walk_standard_humes,
    walk_url,
)

pytestmark = pytest.mark.django_db


# --- the match report ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("viewer", "may_enter"),
    [("anonymous", False), ("stranger", False), ("coach", True), ("other_coach", True), ("commissioner", True)],
)
def test_report_of_a_scheduled_match_is_public_and_offers_the_result_form_to_its_coaches_and_the_commissioner(
    client, match, request, viewer, may_enter
):
    if viewer != "anonymous":
        client.force_login(request.getfixturevalue(viewer))

    response = client.get(report_url(match))

    assert response.status_code == 200
    page = text(response)
    assert "Alice's Humes" in page and "Bob's Goblins" in page and "Scheduled" in page
    assert "Not played yet." in page and "No rolls recorded yet." in page
    assert (result_url(match) in page) is may_enter
    assert "/confirm/" not in page and "/reject/" not in page


def test_report_of_an_unknown_match_is_not_found(client, db):
    assert client.get("/matches/987654/").status_code == 404


@pytest.mark.parametrize(
    ("viewer", "confirm", "reject"),
    [
        ("anonymous", False, False),
        ("stranger", False, False),
        ("coach", False, False),  # Alice entered it: she cannot confirm her own result
        ("other_coach", True, False),
        ("commissioner", True, True),
    ],
)
def test_report_of_a_submitted_result_shows_it_and_offers_confirm_and_reject_to_the_right_people(
    client, match, humes, goblins, request, viewer, confirm, reject
):
    submit_standard(match, humes, goblins)
    if viewer != "anonymous":
        client.force_login(request.getfixturevalue(viewer))

    page = text(client.get(report_url(match)))

    assert "Result submitted" in page and "Entered by alice" in page
    assert rows(table(page, "result")) == [
        ["Alice's Humes", "2", "1", "#1 Hume 1", "1", "—", "Won"],
        ["Bob's Goblins", "1", "0", "#2 Gob 2", "0", "—", "Lost"],
    ]
    assert rows(table(page, "performances")) == [
        ["Alice's Humes", "#1 Hume 1", "2", "0", "0", "0", "MVP", ""],
        ["Alice's Humes", "#2 Hume 2", "0", "1", "0", "0", "", ""],
        ["Bob's Goblins", "#1 Gob 1", "1", "0", "0", "0", "", ""],
        ["Bob's Goblins", "#2 Gob 2", "0", "0", "0", "0", "MVP", ""],
        ["Bob's Goblins", "#3 Gob 3", "0", "0", "0", "0", "", "Miss next match"],
    ]
    assert (reverse("match-confirm", args=[match.pk]) in page) is confirm
    assert (reverse("match-reject", args=[match.pk]) in page) is reject


def test_final_report_shows_the_result_snapshots_each_teams_log_and_every_roll(client, match, humes, goblins):
    play_standard(match, humes, goblins)
    walk_standard_humes(match, humes)
    aftermath_post(user=goblins.coach, match_id=match.pk, team_id=goblins.pk, step="improvements")

    response = client.get(report_url(match))

    page = text(response)
    assert "Final" in page and "Confirmed" in page
    assert rows(table(page, "result")) == [
        ["Alice's Humes", "2", "1", "#1 Hume 1", "1", "—", "Won", "3"],
        ["Bob's Goblins", "1", "0", "#2 Gob 2", "0", "—", "Lost", "0"],
    ]
    performances = rows(table(page, "performances"))
    assert performances[0] == ["Alice's Humes", "#1 Hume 1", "2", "0", "0", "0", "MVP", "11", ""]
    assert performances[-1] == ["Bob's Goblins", "#3 Gob 3", "0", "0", "0", "0", "", "0", "Miss next match"]
    # The teams as they stood before the match: TV (the players' cost), treasury, FF, re-rolls, players.
    assert rows(table(page, "snapshots")) == [
        ["Alice's Humes", "55,000 gil", "45,000 gil", "0", "0", "11"],
        ["Bob's Goblins", "44,000 gil", "56,000 gil", "0", "0", "11"],
    ]
    # Each team's log in words.
    assert "Hume 1 earned 11 SPP (0 → 11)." in page
    assert "Hume 1: Improvement roll 3 + 4 = 7: the coach may take a normal skill. → Block (value +2,000 gil)." in page
    assert "Winnings: 4 × 1,000 + FAME 1 × 1,000 + win 1,000 = 6,000 gil." in page
    assert "Bob's Goblins at Update team stats" in plain(page)
    # Every roll: team, step, key, dice, values, entered or server, by whom.
    assert rows(table(page, "rolls")) == [
        ["Alice's Humes", "Improvements", "improvement", "2d6", "3, 4", "entered", "alice"],
        ["Alice's Humes", "Fortune and FAME", "winnings", "1d6", "4", "entered", "alice"],
        ["Alice's Humes", "Fortune and FAME", "fan_factor", "3d6", "6, 5, 1", "entered", "alice"],
        ["Alice's Humes", "Fortune and FAME", "sponsorship", "1d20", "20", "entered", "alice"],
        ["Alice's Humes", "Fortune and FAME", "one_time_amount", "1d6", "3", "entered", "alice"],
        ["Alice's Humes", "Fortune and FAME", "one_time_risk", "1d6", "6", "entered", "alice"],
        ["Alice's Humes", "Prepare for next match", "expensive_mistakes", "1d6", "5", "entered", "alice"],
        ["Alice's Humes", "Prepare for next match", "expensive_mistakes_amount", "1d3", "2", "entered", "alice"],
    ]
    for team in (humes, goblins):
        assert f'href="{reverse("team-detail", args=[team.pk])}"' in page
    # Public: no one may act on a final match, and anonymous visitors get no walk buttons.
    assert "/result/" not in page and "/confirm/" not in page and "/aftermath/" not in page


@pytest.mark.parametrize(
    ("viewer", "walks"), [("coach", ["humes"]), ("other_coach", ["goblins"]), ("commissioner", ["humes", "goblins"])]
)
def test_final_report_offers_each_team_walk_to_its_coach_and_the_commissioner(
    client, match, humes, goblins, request, viewer, walks
):
    play_standard(match, humes, goblins)
    client.force_login(request.getfixturevalue(viewer))

    page = text(client.get(report_url(match)))

    teams = {"humes": humes, "goblins": goblins}
    for name, team in teams.items():
        assert (walk_url(match, team) in page) is (name in walks)


def _walked_match(league, n_players: int, walk_both: bool) -> Match:
    """A final match whose `n_players` players per team each made a completion; the home team (and the away team
    too when `walk_both`) walked its whole sequence with server dice."""
    home = TeamFactory(league=league, roster="hume")
    away = TeamFactory(league=league, roster="hume")
    home_players, away_players = fill(home, "lineman", "H"), fill(away, "lineman", "A")
    match = services.match_schedule(user=home.coach, league=league, team_ids=[home.pk, away.pk])
    body = {
        "teams": [
            {"team": home.pk, "score": 1, "mvp": home_players[0].pk},
            {"team": away.pk, "score": 0, "mvp": away_players[0].pk},
        ],
        "players": [{"player": home_players[0].pk, "touchdowns": 1}]
        + [{"player": p.pk, "completions": 1} for p in home_players[1:n_players] + away_players[1:n_players]],
    }
    services.match_submit_result(user=home.coach, match_id=match.pk, body=body)
    services.match_confirm(user=away.coach, match_id=match.pk)
    for team in [home, away] if walk_both else [home]:
        for step in ("improvements", "team_stats", "fortune", "hire_fire", "prepare"):
            choices = {"reroll_winnings": False, "seek_sponsor": True} if step == "fortune" else None
            record = aftermath_post(user=team.coach, match_id=match.pk, team_id=team.pk, step=step, choices=choices)
            if record.pending:  # an improvement to choose: the first skill offered
                picks = {pid: [lv["skills"][0] for lv in levels] for pid, levels in record.pending["options"].items()}
                aftermath_post(
                    user=team.coach, match_id=match.pk, team_id=team.pk, step=step, choices={"improvements": picks}
                )
    return match


@pytest.mark.parametrize("viewer", ["anonymous", "commissioner"])
def test_match_report_queries_do_not_grow_with_players_and_rolls(client, league, commissioner, viewer):
    small = _walked_match(league, n_players=1, walk_both=False)
    large = _walked_match(league, n_players=11, walk_both=True)
    assert Roll.objects.filter(match=large).count() > Roll.objects.filter(match=small).count()
    if viewer == "commissioner":
        client.force_login(commissioner)

    counts = []
    for match in (small, large):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(report_url(match)).status_code == 200
        counts.append(len(captured))

    assert counts[0] == counts[1], f"{counts[0]} queries for the small match, {counts[1]} for the large one"
