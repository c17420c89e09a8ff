"""A refusal of the rules said in words a coach understands, beside its field (matches/web/forms/refusals.py):
never a request path such as `rolls.stadium_bonus: 4 is not a face of a d3`."""

from __future__ import annotations

import pytest

from matches.web.forms.refusals import plain, roll_refusal


@pytest.mark.parametrize(
    ("message", "label", "words"),
    [
        ("rolls.stadium_bonus: 4 is not a face of a d3.", None, "Stadium bonus: 4 is not on a d3 — enter 1, 2 or 3"),
        (
            "rolls.winnings: 7 is not a face of a d6.",
            "Winnings",
            "Winnings: 7 is not on a d6 — enter 1, 2, 3, 4, 5 or 6",
        ),
        (
            "rolls.potion: 13 is not a face of a d12.",
            "Potion",
            "Potion: 13 is not on a d12 — enter a number from 1 to 12",
        ),
        (
            "rolls.fan_factor needs 3 dice (3d6).",
            "Fan factor",
            "Fan factor: this roll takes 3 dice (3d6) — enter 3 dice, e.g. 3, 4, 5",
        ),
        (
            "rolls.weather must be a list of whole numbers.",
            None,
            "Weather: enter the dice as whole numbers separated by commas, e.g. 3, 4",
        ),
        (
            "nonsense is not a roll key of this ruleset.",
            None,
            "This step does not use nonsense dice: leave that box empty",
        ),
    ],
)
def test_a_refused_roll_says_which_dice_what_was_wrong_and_what_to_enter(message, label, words):
    assert roll_refusal(message, label) == words
    assert "rolls." not in roll_refusal(message, label)


def test_a_refused_choice_loses_its_request_path_and_keeps_its_sentence():
    assert plain("choices.heal[1].player: 7 cannot be treated.") == "7 cannot be treated."
    assert plain("rolls.weather: that die was already rolled.") == "That die was already rolled."
    assert plain("The team has no Trainer.") == "The team has no Trainer."
