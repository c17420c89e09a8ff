"""The post-match page's refusals: bad or too few dice, a step already run, a page left open, an answer the
rules refuse — each said beside its field, with nothing changed; and only the dice a step can use."""

from __future__ import annotations

import dataclasses
import re

import pytest

from matches.aftermath import aftermath_post
from matches.models import Aftermath
from tests.web.matchpages.helpers import (
    players,
    post_step,
    state,
    text,
    walk_to,
    walk_url,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"roll_winnings": "7"}, "roll_winnings", "Winnings: 7 is not on a d6 — enter 1, 2, 3, 4, 5 or 6"),
        ({"roll_winnings": "four"}, "roll_winnings", "Enter the dice as whole numbers separated by commas, e.g. 3, 4."),
        ({"roll_nonsense": "3"}, None, None),
    ],
    ids=["off-the-die", "not-a-number", "unknown-key-is-not-a-field"],
)
def test_bad_dice_are_refused_on_the_page_and_change_nothing(client, final, humes, data, field, message):
    walk_to(final, humes, "fortune")
    before = state(final, humes)
    client.force_login(humes.coach)

    response = post_step(client, final, humes, {"step": "fortune", **data}, htmx=True)

    page = text(response)
    if message is None:  # only the catalogue's keys are fields: anything else never reaches the service
        assert "Winnings roll:" in page and "nonsense" not in page
        return
    assert response.status_code == 400  # the panel again with the error: nothing was run
    assert re.search(
        rf'name="{field}".{{0,300}}?<ul class="errorlist[^"]*"[^>]*><li>{re.escape(message)}</li>', page, re.S
    )
    assert state(final, humes) == before


def test_the_step_asks_only_for_the_dice_it_can_use_for_this_team(client, final, humes, monkeypatch):
    """The page asks for the dice `Step.usable_rolls` names for this team after this match (no stadium dice
    without a stadium, no winnings re-roll for a loser): the step decides, the page follows."""
    rules = final.league.rules
    fortune = {s.key: s for s in rules.postmatch_steps}["fortune"]
    asked = []

    def usable(team, match, hr):
        asked.append((team.id, match.id))
        return ("winnings", "fan_factor")

    steps = tuple(dataclasses.replace(s, usable=usable) if s is fortune else s for s in rules.postmatch_steps)
    monkeypatch.setattr(type(rules), "postmatch_steps", steps)
    walk_to(final, humes, "fortune")
    client.force_login(humes.coach)

    page = text(client.get(walk_url(final, humes)))

    assert (humes.pk, final.pk) in asked  # the same views the step runs on
    assert 'name="roll_winnings"' in page and 'name="roll_fan_factor"' in page
    assert 'name="roll_stadium_bonus"' not in page and 'name="roll_winnings_reroll"' not in page


def test_too_few_dice_for_a_roll_are_refused(client, final, humes):
    walk_to(final, humes, "fortune")
    client.force_login(humes.coach)
    post_step(client, final, humes, {"step": "fortune", "roll_winnings": "3"})
    before = state(final, humes)

    response = post_step(client, final, humes, {"step": "fortune", "decision": "no", "roll_fan_factor": "6, 6"})

    assert response.status_code == 400
    assert "Fan factor: this roll takes 3 dice (3d6) — enter 3 dice, e.g. 3, 4, 5" in text(response)
    assert state(final, humes) == before


def test_a_step_already_run_is_refused_and_changes_nothing(client, final, humes):
    client.force_login(humes.coach)
    walk_to(final, humes, "team_stats")
    before = state(final, humes)

    response = post_step(client, final, humes, {"step": "improvements", "roll_improvement": "6, 6"})

    page = text(response)
    assert response.status_code == 409  # the sequence is no longer at that step
    assert "That step was already run: the sequence is now at Update team stats. Nothing was changed." in page
    assert 'id="step-title">Step 2 of 5: Update team stats' in page
    assert state(final, humes) == before


def test_a_step_run_meanwhile_elsewhere_is_reported_from_the_service(client, final, humes, monkeypatch):
    """The race the page cannot see: another tab runs the step between the form and this POST's service call,
    which answers 409; the step is applied once."""
    from matches.web import postmatch as web

    def run_elsewhere_first(**kwargs):
        aftermath_post(user=humes.coach, match_id=final.pk, team_id=humes.pk, step="team_stats")
        return aftermath_post(**kwargs)

    walk_to(final, humes, "team_stats")
    monkeypatch.setattr(web, "aftermath_post", run_elsewhere_first)
    client.force_login(humes.coach)

    response = post_step(client, final, humes, {"step": "team_stats"}, htmx=True)
    page = text(response)

    assert response.status_code == 409
    assert "That step was already run: the sequence is now at Fortune and FAME. Nothing was changed." in page
    assert [entry["step"] for entry in Aftermath.objects.get(match=final, team=humes).log] == [
        "improvements",
        "team_stats",
    ]


def test_a_page_left_open_on_a_done_step_does_not_ask_the_current_decision(client, final, humes):
    walk_to(final, humes, "fortune")
    client.force_login(humes.coach)
    post_step(client, final, humes, {"step": "fortune", "roll_winnings": "3"})  # pauses: re-roll?
    before = state(final, humes)

    response = post_step(client, final, humes, {"step": "team_stats"})
    page = text(response)

    assert response.status_code == 409
    assert "That step was already run: the sequence is now at Fortune and FAME. Nothing was changed." in page
    assert "This field is required" not in page
    assert state(final, humes) == before


def test_an_answer_the_rules_refuse_is_shown_and_changes_nothing(client, final, humes):
    client.force_login(humes.coach)
    post_step(client, final, humes, {"step": "improvements", "roll_improvement": "3, 4"})
    before = state(final, humes)
    h1 = players(humes)[1]

    response = post_step(client, final, humes, {"step": "improvements", f"improvement_{h1.pk}_0": "Pilot"})

    assert response.status_code == 400
    assert "Select a valid choice. Pilot is not one of the available choices." in text(response)
    assert state(final, humes) == before
