"""Cancelling a Blitz Bowl home stadium as a pure rule (../shared/rules/blitzbowl.md "3. Fortune and FAME",
Residency: R "A home stadium can be cancelled at any time for 5,000 gil"; H `residency.cancel_cost`), and which
rulesets the registry says have residencies at all."""

import copy

import pytest

from campaigns.errors import Conflict, RuleViolation
from campaigns.rulesets import REGISTRY, get_ruleset
from campaigns.rulesets.blitzbowl import rules

BB = get_ruleset("blitzbowl")
HR = BB.default_house_rules()


def cancel(*, resident=True, owns_stadium=False, treasury=100_000, hr=HR) -> int:
    return rules.check_residency_cancel(resident=resident, owns_stadium=owns_stadium, treasury=treasury, hr=hr)


def test_cancelling_a_home_stadium_costs_5000_gil():
    """R: a home stadium can be cancelled at any time for 5,000 gil."""
    assert rules.residency_cancel_cost(hr=HR) == 5000
    assert cancel() == 5000
    assert BB.residency_cancel_cost(HR) == 5000


def test_the_cancel_cost_is_the_commissioners_house_rule():
    """H `residency.cancel_cost`: the commissioner's word is law — 8,000, or nothing at all."""
    dearer = copy.deepcopy(HR)
    dearer["residency"]["cancel_cost"] = 8000
    assert cancel(hr=dearer) == 8000
    free = copy.deepcopy(HR)
    free["residency"]["cancel_cost"] = 0
    assert cancel(treasury=0, hr=free) == 0


def test_a_treasury_of_exactly_the_cost_pays_it_and_one_gil_short_is_refused_naming_the_treasury():
    """R/I: the treasury may never go below 0 — 5,000 pays, 4,999 is refused in words (a 400, not a conflict)."""
    assert cancel(treasury=5000) == 5000
    with pytest.raises(RuleViolation) as refused:
        cancel(treasury=4999)
    assert not isinstance(refused.value, Conflict)
    assert refused.value.field == "treasury"
    assert "5,000 gil" in refused.value.message and "4,999 gil" in refused.value.message


def test_a_team_without_a_home_stadium_has_nothing_to_cancel():
    """R: it is the home stadium that is cancelled; I: without one the request conflicts with the team's state."""
    with pytest.raises(Conflict, match="no home stadium"):
        cancel(resident=False)


def test_an_owned_stadium_is_sold_not_cancelled():
    """I: a stadium the team owns is sold in the hire-and-fire step first (it then stays resident)."""
    with pytest.raises(Conflict, match="sell it"):
        cancel(owns_stadium=True)


def test_only_blitz_bowl_has_residencies_in_the_registry():
    """R: residencies are Blitz Bowl's (Fortune and FAME); ElfBall and Bone Cruncher have no stadiums to live in,
    so the registry says so and refuses a cancellation."""
    assert {key for key, ruleset in REGISTRY.items() if ruleset.has_residencies} == {"blitzbowl"}
    for key in ("elfball", "bonecruncher"):
        ruleset = get_ruleset(key)
        hr = ruleset.default_house_rules()
        assert ruleset.residency_cancel_cost(hr) is None
        with pytest.raises(RuleViolation, match="no home stadium"):
            ruleset.check_residency_cancel(resident=True, owns_stadium=False, treasury=10**6, hr=hr)
