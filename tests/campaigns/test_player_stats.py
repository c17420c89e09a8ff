"""Issue 14: each ruleset declares its players' stats (the contract's keys) and how a per-match row gives each —
pure, no database (campaigns/rulesets/stats.py)."""

from __future__ import annotations

from campaigns.rulesets import REGISTRY
from campaigns.rulesets.stats import ranked, read_row


def keys(ruleset: str) -> list[str]:
    return [s.key for s in REGISTRY[ruleset].player_stats]


def test_every_ruleset_declares_the_contracts_stat_keys():
    """Contract v1.1 "Stats per ruleset"."""
    assert keys("blitzbowl") == ["touchdowns", "casualties", "completions", "interceptions", "mvp", "spp", "matches"]
    assert keys("elfball") == ["goals", "goal_points", "matches"]
    assert keys("bonecruncher") == ["wounds_taken", "matches_survived", "matches"]


def test_a_row_gives_each_stat_as_declared():
    """Blitz Bowl's columns and MVP flag; ElfBall's goals on the field from the row's detail (none recorded: 0);
    Bone Cruncher's wounds and a survived match (not the match a dead player died in, H decisions)."""
    bb = {s.key: s for s in REGISTRY["blitzbowl"].player_stats}
    row = {"touchdowns": 2, "mvp": True, "spp": 11, "detail": {}}
    assert [read_row(bb[k], row) for k in ("touchdowns", "mvp", "spp", "casualties", "matches")] == [2, 1, 11, 0, 1]
    eb = {s.key: s for s in REGISTRY["elfball"].player_stats}
    assert read_row(eb["goals"], {"detail": {"goals": 3}}) == 3
    assert read_row(eb["goals"], {"detail": {"goals": None}}) == 0
    assert read_row(eb["goal_points"], {"goal_points": 4, "detail": {}}) == 4
    bc = {s.key: s for s in REGISTRY["bonecruncher"].player_stats}
    assert read_row(bc["wounds_taken"], {"wounds": 2}) == 2
    assert read_row(bc["matches_survived"], {}) == 1
    assert read_row(bc["matches_survived"], {}, died_here=True) == 0


def test_leaders_rank_by_value_then_name_and_keep_ten():
    """Issue 14: the top 10, ties by name (H docs/decisions/ "Leaders")."""
    rows = [{"player": i, "name": f"P{i:02d}", "value": 1} for i in range(12, 0, -1)] + [
        {"player": 99, "name": "zed", "value": 5}
    ]
    out = ranked(rows)
    assert len(out) == 10 and out[0]["name"] == "zed" and [r["name"] for r in out[1:3]] == ["P01", "P02"]
    assert [r["position"] for r in out] == list(range(1, 11))


def test_the_team_leaderboards_are_only_those_the_game_has():
    """Issue 14: FF, treasury and TV only where the ruleset has them."""
    assert [k for k, _ in REGISTRY["blitzbowl"].team_leaderboards] == [
        "team_value",
        "treasury",
        "fan_factor",
        "win_rate",
    ]
    assert [k for k, _ in REGISTRY["elfball"].team_leaderboards] == ["team_value", "win_rate"]
    assert [k for k, _ in REGISTRY["bonecruncher"].team_leaderboards] == ["win_rate"]
