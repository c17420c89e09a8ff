"""ElfBall on the match pages: which result form, report sections and step widgets the pages show, and the
choices and words of its Grit Challenge and Magic Potion tables (rules/elfball.md "Injuries", "Magic Potion"),
read from the league's house rules. Plain data: the web layer keeps the form classes, keyed by these kinds."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from campaigns.rulesets.presentation import ResultField

from .words import humanise

RESULT_FORM = "goals_on_field"
REPORT_SECTIONS = ("lines_tests", "goals", "grit")

#: A player's row on the result form (rules/elfball.md "Injuries", "Magic Potion"): his Grit outcome and the
#: attribute a lasting injury lowered; a potion he drank, only for a team with Magic Potions in stock.
RESULT_ROW_FIELDS = (
    ResultField("injury", "Grit outcome", kind="choice", choices="grit"),
    ResultField(
        "attribute", "Attribute lowered", hint="(lasting injury, highest tied)", kind="choice", choices="attribute"
    ),
    ResultField("potion", "Magic Potion (D12)", kind="choice", choices="potion", numbers=True, stock="magic_potion"),
    ResultField(
        "potion_ability", "Potion ability (on a 7)", kind="choice", choices="basic_ability", stock="magic_potion"
    ),
    ResultField(
        "potion_attribute", "Potion attribute (on a 2)", kind="choice", choices="attribute", stock="magic_potion"
    ),
)

DECISION_WIDGETS = MappingProxyType({"abilities": "abilities", "lasting_injury": "lasting_injury"})

#: The Grit Challenge outcome in words (rules/elfball.md "Injuries").
GRIT_WORDS = MappingProxyType(
    {
        "career_ending": "Career-ending",
        "lasting_injury": "Lasting injury (−1 to the highest attribute)",
        "out_for_game": "Out for the game",
        "unconscious": "Knocked unconscious",
        "none": "No effect",
    }
)
_SUCCESSES = {"flop": "flop", "0": "0 successes", "1": "1 success"}

#: The Magic Potion table in words (rules/elfball.md, D12); 8–12 are not in the rulebook.
POTION_WORDS = MappingProxyType(
    {
        "dies": "the player dies",
        "seizure": "seizure: misses the game, lasting injury",
        "light_coma": "light coma: misses the game",
        "woozy": "woozy",
        "cured_misses_game": "cured, misses the rest of the game",
        "cured_misses_test": "cured, misses this Test",
        "basic_ability_this_game": "cured, a Basic ability for this game",
        "no_effect": "no effect (not in the rulebook: house rule)",
    }
)


def grit_words(injury: str, attribute: str = "") -> str:
    """A Grit Challenge outcome in words (the lasting injury with the attribute lowered)."""
    if not injury:
        return ""
    if injury == "lasting_injury":
        return f"Lasting injury (−1 {humanise(attribute)})" if attribute else "Lasting injury"
    return GRIT_WORDS.get(injury, humanise(injury))


def potion_result(roll: Any, hr: Mapping) -> str:
    return hr.get("magic_potion_table", {}).get(str(roll), {}).get("result", "no_effect")


def potion_words(roll: Any, ability: str, attribute: str, hr: Mapping) -> str:
    """ "7: cured, a Basic ability for this game (Push)"; "" when no potion was drunk."""
    if roll in (None, ""):
        return ""
    result = potion_result(roll, hr)
    text = f"{roll}: {POTION_WORDS.get(result, humanise(result))}"
    extras = [humanise(x) for x in (ability, attribute) if x]
    return f"{text} ({', '.join(extras)})" if extras else text


def result_choices(hr: Mapping) -> dict[str, list[tuple[Any, str]]]:
    """The Grit outcomes a result may record (each with the successes that give it), the attributes a lasting
    injury or a potion may lower, the potion's faces and the Basic abilities a potion may give."""
    table = hr.get("basic_injury_outcomes") if hr.get("basic_mode") else hr.get("injury_outcomes")
    by_outcome: dict[str, list[str]] = {}
    for successes, outcome in (table or {}).items():
        by_outcome.setdefault(outcome, []).append(_SUCCESSES.get(successes, f"{successes} successes"))
    excluded = set(hr.get("injury_attribute_excludes", ("base",)))
    faces = int(str(hr.get("magic_potion_die", "d12")).lstrip("dD") or 12)
    return {
        "grit": [("", "—")]
        + [(o, f"{GRIT_WORDS.get(o, humanise(o))} ({', '.join(given)})") for o, given in by_outcome.items()],
        "attribute": [("", "—")] + [(a, humanise(a)) for a in hr.get("attributes", ()) if a not in excluded],
        "potion": [("", "— no potion —")] + [(roll, potion_words(roll, "", "", hr)) for roll in range(1, faces + 1)],
        "basic_ability": [("", "—")]
        + [(p["basic"], humanise(p["basic"])) for p in hr.get("abilities", {}).values() if "basic" in p],
    }
