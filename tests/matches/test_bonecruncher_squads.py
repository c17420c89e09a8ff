"""Bone Cruncher Scorchball results in the contract's shape, through the API (../shared/docs/api-v1.md "Matches",
"Result body"; ../shared/rules/bonecruncher.md "Events": R Scorchball, a squad of 8).

I: a side without the extension's `squad` fields every player able to play (as Terminix does); a team with more
than 8 able players must name its squad.
"""

from __future__ import annotations

import pytest

from tests.invites import invite_and_accept
from tests.matches.bonecruncher_helpers import BoneCruncher, blames

pytestmark = pytest.mark.django_db


def season(*sizes: int) -> tuple[BoneCruncher, int, list[tuple[int, dict[int, int]]]]:
    s = BoneCruncher()
    for name in ("commish", "ork", "elf"):
        s.register(name)
    league = s.post("commish", "/api/v1/leagues/", {"name": "Scorch Cup", "ruleset": "bonecruncher"})["id"]
    for coach in ("ork", "elf"):
        invite_and_accept(s, commissioner="commish", league=league, who=coach)
    teams = [
        s.build_team("ork", league, "Gutrot Gougers", "orcs_goblins", n=sizes[0]),
        s.build_team("elf", league, "Silverleaf Sylphs", "elves", n=sizes[1]),
    ]
    return s, league, teams


def test_scorchball_result_in_the_contract_shape_is_accepted_for_two_teams_of_eight():
    """R Scorchball "squad of 8": two teams of exactly 8 post `{team, score}` with no `squad`; every player is in
    his team's squad, the higher score wins and the post-match sequence runs."""
    s, league, [(og, o), (el, e)] = season(8, 8)
    match = s.schedule("commish", league, [og, el], "scorchball")
    body = {"teams": [{"team": og, "score": 5, "casualties_inflicted": 0}, {"team": el, "score": 3}]}
    assert s.submit("ork", match, body)["status"] == "submitted"
    s.confirm("elf", match)
    stored = s.match(match)
    sides = {side["team"]: side for side in stored["sides"]}
    assert sides[og]["outcome"] == "win" and sides[el]["outcome"] == "loss"
    squads = {line["team"]: sorted(line["squad"]) for line in stored["result"]["teams"]}
    assert squads == {og: sorted(o.values()), el: sorted(e.values())}
    # The post-match wounds step walks the defaulted squad like a named one.
    assert s.walk("ork", match, og) == {}


def test_scorchball_without_a_squad_for_a_team_of_twelve_answers_400_naming_the_squad():
    """R Scorchball: a squad of 8 taken from the team's 12 — with 12 able players and no `squad` the result says
    a squad must be named (400 on `teams[i].squad`), and nothing is stored."""
    s, league, [(og, _), (el, _)] = season(12, 8)
    match = s.schedule("commish", league, [og, el], "scorchball")
    refusal = s.submit("ork", match, {"teams": [{"team": og, "score": 5}, {"team": el, "score": 3}]}, status=400)
    assert blames(refusal, "teams[0]", "squad"), refusal
    assert "must be named" in " ".join(next(v for k, v in refusal.items() if "squad" in k))
    assert s.match(match)["status"] == "scheduled"
