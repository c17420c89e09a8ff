"""No code outside campaigns/ asks which game it is (issue 11, docs/architecture.md "One ruleset registry"):
pages, services, reports and commands ask the ruleset registry (`get_ruleset(key)`) for a capability, its data
or its presentation instead of comparing a ruleset's key. This test greps the tree for such comparisons."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Where the games themselves live (the only place a ruleset's key is spelled), and what is not our code.
SKIPPED = {"campaigns", "tests", "migrations", ".venv", "node_modules", ".git", "static", "staticfiles"}
KEYS = r"(?:blitzbowl|elfball|bonecruncher)"
QUOTED_KEY = rf"""(?:"{KEYS}"|'{KEYS}')"""
PATTERNS = [
    re.compile(r"\bruleset\w*\s*(?:==|!=)"),  # ruleset == …, league.ruleset != …, ruleset_key == …
    # ruleset in ("elfball", …); a `for ruleset in` loop, or `ruleset in REGISTRY`, asks no game
    re.compile(r"\bruleset\s+(?:not\s+)?in\s*[(\[{]"),
    re.compile(r"\.key\s*(?:==|!=)\s*" + QUOTED_KEY),  # rules.key == "elfball"
    re.compile(r"\.key\s+(?:not\s+)?in\s*[(\[{][^)\]}]*" + QUOTED_KEY),  # rules.key in ("elfball", …)
    re.compile(r"(?:==|!=)\s*" + QUOTED_KEY),  # … == "bonecruncher"
    re.compile(QUOTED_KEY + r"\s*(?:==|!=)"),  # "bonecruncher" == …
    re.compile(r"\b(?:not\s+)?in\s*[(\[{]\s*" + QUOTED_KEY),  # … in ("blitzbowl", …)
    re.compile(r"{%-?\s*(?:el)?if\s+(?:not\s+)?[\w.]*ruleset\b"),  # {% if ruleset … %}, {% if league.ruleset … %}
]


#: A loop's header (`for ruleset in (…)`) walks the games, it does not pick one.
LOOP = re.compile(r"\bfor\s+[\w, ()]+?\s+in\b")


def asks_the_game(line: str) -> bool:
    line = LOOP.sub("for … over", line)
    return any(pattern.search(line) for pattern in PATTERNS)


def _sources() -> list[Path]:
    files = [*ROOT.glob("**/*.py"), *ROOT.glob("templates/**/*.html")]
    return sorted(p for p in files if not SKIPPED.intersection(p.relative_to(ROOT).parts))


def ruleset_branches() -> list[str]:
    """Every line outside campaigns/ that compares a ruleset's key, as "path:line: text"."""
    hits = []
    for path in _sources():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.lstrip().startswith("#"):
                continue
            if asks_the_game(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return hits


def test_the_grep_sees_the_shapes_it_refuses():
    """The patterns catch each way of asking which game it is, and leave a loop or a registry call alone."""
    caught = [
        'if ruleset == "elfball":',
        "if league.ruleset != 'bonecruncher':",
        'if rules.key == "elfball":',
        'elif rules.key in ("elfball", "bonecruncher"):',
        'if ruleset in ("blitzbowl", "elfball"):',
        'if w.league.ruleset == "blitzbowl" and injury:',
        'if kind == "bonecruncher":',
        '{% if ruleset == "bonecruncher" %}',
        '{% elif league.ruleset == "elfball" %}',
        '{% if "elfball" == league.ruleset %}',
    ]
    passed = [
        "rules = get_ruleset(league.ruleset)",
        'for ruleset in ("blitzbowl", "elfball", "bonecruncher"):',
        'names = [n for n in ("elfball", "bonecruncher")]',
        "{% if has_challenge_roller %}",
        'DEMOS = {"blitzbowl": blitzbowl.DEMO}',
        "if ruleset not in REGISTRY:",
        "if league.ruleset not in cache:",
    ]
    sources = {str(p.relative_to(ROOT)) for p in _sources()}
    assert {"dugout/web/views.py", "templates/teams/_sheet.html", "teams/web/sheet.py"} <= sources
    assert not any(s.startswith(("campaigns/", "tests/")) or "/migrations/" in s for s in sources)
    assert [line for line in caught if not asks_the_game(line)] == []
    assert [line for line in passed if asks_the_game(line)] == []


def test_no_ruleset_key_is_compared_outside_campaigns():
    hits = ruleset_branches()
    assert not hits, "Ask the ruleset registry instead of comparing its key:\n" + "\n".join(hits)
