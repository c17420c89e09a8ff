"""House rules: defaults as data, overrides validated and merged ("the Commissioner's word is LAW")."""

import pytest

from campaigns import house_rules
from campaigns.errors import RuleViolation
from campaigns.rulesets import REGISTRY, get_ruleset

BLITZ = get_ruleset("blitzbowl").default_house_rules()


def test_unknown_top_level_key_is_refused_naming_it():
    with pytest.raises(RuleViolation) as exc:
        house_rules.validate_overrides(BLITZ, {"starting_gold": 5})
    assert exc.value.field == "starting_gold"


def test_wrong_type_is_refused_naming_the_key():
    with pytest.raises(RuleViolation) as exc:
        house_rules.validate_overrides(BLITZ, {"max_roster": "sixteen"})
    assert exc.value.field == "max_roster"
    assert "integer" in exc.value.message


def test_boolean_is_not_an_integer_and_integer_is_not_a_boolean():
    with pytest.raises(RuleViolation):
        house_rules.validate_overrides(BLITZ, {"max_roster": True})
    with pytest.raises(RuleViolation):
        house_rules.validate_overrides(BLITZ, {"coach_may_run_several_teams": 1})


def test_nested_unknown_key_is_named_by_its_dotted_path():
    with pytest.raises(RuleViolation) as exc:
        house_rules.validate_overrides(BLITZ, {"staff": {"cheerleader": {"cost": 2000}}})
    assert exc.value.field == "staff.cheerleader.cost"


def test_table_rows_must_keep_their_columns():
    rows = [dict(row) for row in BLITZ["weather"]] if isinstance(BLITZ.get("weather"), list) else None
    key = "weather"
    if rows is None:  # the weather table may be nested under a key of its own
        key, rows = next((k, v) for k, v in BLITZ.items() if isinstance(v, list) and v and isinstance(v[0], dict))
    bad = [dict(rows[0], colour="red")]
    with pytest.raises(RuleViolation) as exc:
        house_rules.validate_overrides(BLITZ, {key: bad})
    assert exc.value.field == f"{key}[0].colour"


def test_negative_numbers_are_refused():
    with pytest.raises(RuleViolation):
        house_rules.validate_overrides(BLITZ, {"starting_treasury": -1})


def test_merge_overrides_one_nested_value_and_keeps_the_rest():
    merged = house_rules.merge(BLITZ, {"staff": {"cheerleader": {"price": 2000}}, "starting_treasury": 150000})
    assert merged["staff"]["cheerleader"] == {"price": 2000, "max": BLITZ["staff"]["cheerleader"]["max"]}
    assert merged["staff"]["assistant_coach"] == BLITZ["staff"]["assistant_coach"]
    assert merged["starting_treasury"] == 150000
    assert BLITZ["starting_treasury"] == 100000, "the defaults are never mutated"


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_defaults_hold_no_nulls_so_every_key_has_a_type(key):
    """A null default says nothing of the values it may take: only a key with a declared shape may have one."""

    def walk(value, path):
        declared = path.count(".") == 1 and path.split(".")[1] in house_rules.SHAPES
        assert value is not None or declared, f"{key}: {path} is null"
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{path}.{k}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{path}[{i}]")

    walk(REGISTRY[key].default_house_rules(), key)


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_the_defaults_validate_against_themselves(key):
    defaults = REGISTRY[key].default_house_rules()
    assert house_rules.validate_overrides(defaults, defaults) == defaults
