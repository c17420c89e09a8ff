"""The league clock's house rules (contract v1.2 "Deadlines that act"): every ruleset ships them with their
defaults; a commissioner's override is refused, naming the key, unless it has the rule's shape — a whole number
of hours (or null, for never) and one of the words `on_deadline` knows. What they make of a deadline is pure."""

from datetime import UTC, datetime, timedelta

import pytest

from campaigns import deadlines, house_rules
from campaigns.errors import RuleViolation
from campaigns.rulesets import REGISTRY

DEFAULTS = {"auto_confirm_hours": None, "on_deadline": "queue", "deadline_grace_hours": 0}
T0 = datetime(2026, 12, 10, 20, 0, tzinfo=UTC)


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_every_ruleset_ships_the_clocks_rules_with_their_defaults(key):
    defaults = REGISTRY[key].default_house_rules()
    assert {name: defaults[name] for name in DEFAULTS} == DEFAULTS


@pytest.mark.parametrize("key", sorted(REGISTRY))
@pytest.mark.parametrize(
    "overrides",
    [
        {"auto_confirm_hours": 48},
        {"auto_confirm_hours": None},
        {"auto_confirm_hours": 1, "on_deadline": "double_forfeit", "deadline_grace_hours": 0},
        {"on_deadline": "queue", "deadline_grace_hours": 8760},
    ],
)
def test_good_values_are_taken(key, overrides):
    ruleset = REGISTRY[key]
    assert ruleset.validate_house_rules(overrides) == overrides
    merged = house_rules.merge(ruleset.default_house_rules(), overrides)
    assert {name: merged[name] for name in overrides} == overrides


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("auto_confirm_hours", "48", "whole number of hours or null"),
        ("auto_confirm_hours", 0, "from 1 to 8760"),
        ("auto_confirm_hours", -3, "from 1 to 8760"),
        ("auto_confirm_hours", 1.5, "whole number of hours or null"),
        ("auto_confirm_hours", True, "whole number of hours or null"),
        ("auto_confirm_hours", 10**9, "from 1 to 8760"),
        ("on_deadline", "forfeit", "one of queue, double_forfeit"),
        ("on_deadline", None, "one of queue, double_forfeit"),
        ("on_deadline", ["queue"], "one of queue, double_forfeit"),
        ("deadline_grace_hours", None, "whole number of hours"),
        ("deadline_grace_hours", -1, "from 0 to 8760"),
        ("deadline_grace_hours", False, "whole number of hours"),
        ("deadline_grace_hours", 8761, "from 0 to 8760"),
    ],
)
def test_bad_values_are_refused_naming_the_key(key, value, words):
    with pytest.raises(RuleViolation) as refused:
        REGISTRY["blitzbowl"].validate_house_rules({key: value})
    assert refused.value.field == key
    assert refused.value.message.startswith(key) and words in refused.value.message


def test_auto_confirm_is_due_after_its_hours_and_never_without_them():
    hr = {**DEFAULTS, "auto_confirm_hours": 24}
    assert deadlines.auto_confirm_at(hr, T0) == T0 + timedelta(hours=24)
    assert not deadlines.auto_confirm_due(hr, T0, T0 + timedelta(hours=23, minutes=59))
    assert deadlines.auto_confirm_due(hr, T0, T0 + timedelta(hours=24))
    assert not deadlines.auto_confirm_due(hr, None, T0 + timedelta(days=3))
    assert not deadlines.auto_confirm_due(DEFAULTS, T0, T0 + timedelta(days=3650))


def test_a_double_forfeit_is_due_strictly_after_deadline_and_grace_and_never_in_queue_mode():
    hr = {**DEFAULTS, "on_deadline": "double_forfeit", "deadline_grace_hours": 6}
    assert deadlines.double_forfeit_at(hr, T0) == T0 + timedelta(hours=6)
    assert not deadlines.double_forfeit_due(hr, T0, T0 + timedelta(hours=6))
    assert deadlines.double_forfeit_due(hr, T0, T0 + timedelta(hours=6, seconds=1))
    assert not deadlines.double_forfeit_due(hr, None, T0 + timedelta(days=3))
    assert not deadlines.double_forfeit_due(DEFAULTS, T0, T0 + timedelta(days=3))
