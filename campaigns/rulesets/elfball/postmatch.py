"""ElfBall match and post-match rules as pure functions (../shared/rules/elfball.md, "Matches", "Goal Points and
abilities", "Injuries", "Magic Potion table", "The Challenge roller").

R = rulebook (../shared/seeds/000_30100211b870b127.txt), I = the service's interpretation, H = house default
(a commissioner may override it). Nothing here touches the database or rolls dice on its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaigns.errors import RuleViolation

HouseRules = Mapping[str, Any]

#: Statuses of a player who could play the match (and so score, drink a potion or be injured in it).
CAN_PLAY = frozenset({"active", "journeyman"})
#: Statuses of a player still on the roster (base.ON_ROSTER): counted in the team's point value.
ON_ROSTER = frozenset({"active", "miss_next_match", "journeyman"})


# --- Matches ------------------------------------------------------------------------------------------------


def conceded_score(*, tests_won: int, hr: HouseRules) -> int:
    """R ("Conceding"): the opposing team's score is adjusted so that it has scored 3 goals for this game.
    I: the adjustment never takes Tests away (a team that had already won more keeps them).
    """
    return max(tests_won, hr["concede"]["conceded_score"])


def league_points(*, outcome: str, kind: str, hr: HouseRules) -> int:
    """H: league points win 3, tie 1, loss 0 (a draw is the rulebook's tie); friendlies give none unless the
    league's `friendlies_give_points` says so (as Ruleset.league_points)."""
    if outcome not in ("win", "draw", "loss"):
        raise ValueError(f"outcome must be win, draw or loss, got {outcome!r}")
    if kind == "friendly" and not hr.get("friendlies_give_points", False):
        return 0
    points = hr["league_points"]
    return int(points["tie"] if outcome == "draw" else points[outcome])


# --- Goal Points ----------------------------------------------------------------------------------------------


def goals_on_field(goals: Iterable[Iterable[int]]) -> Counter:
    """R ("Goal Points"): per player, the number of goals scored while he was on the playing field
    (`goals` lists, per goal, the ids of the scoring team's players on the field)."""
    count: Counter = Counter()
    for on_field in goals:
        count.update(set(on_field))
    return count


def goal_points_from_goals(goals: Iterable[Iterable[int]], hr: HouseRules) -> dict[int, int]:
    """R ("Goal Points"): every time a team scores, every player of it still on the playing field gets one Goal
    Point (H `goal_points_per_goal`)."""
    per_goal = hr["goal_points_per_goal"]
    return {player: count * per_goal for player, count in goals_on_field(goals).items()}


def concession_goal_points(players: Iterable[int], *, infirmary: Iterable[int], hr: HouseRules) -> dict[int, int]:
    """R ("Conceding"): each player of the opposing team not in the Infirmary receives one Goal Point
    (H `concede.goal_points_per_opposing_player`). `players` are the opposing team's players able to play."""
    excluded = set(infirmary) if hr["concede"]["excludes_infirmary"] else set()
    per_player = hr["concede"]["goal_points_per_opposing_player"]
    return {player: per_player for player in players if player not in excluded}


# --- Abilities --------------------------------------------------------------------------------------------------


def ability_attribute(ability: str, hr: HouseRules) -> tuple[str, str] | None:
    """R ("Basic and Advanced Abilities"): (attribute, "basic" | "advanced") of an ability, None if unknown."""
    for attribute, pair in hr["abilities"].items():
        for kind in ("basic", "advanced"):
            if pair[kind] == ability:
                return attribute, kind
    return None


def basic_abilities(hr: HouseRules) -> list[str]:
    """R: the six Basic abilities (Push, Buff, Grapple, Nimble, Agile, Resilient), in attribute order."""
    return [pair["basic"] for pair in hr["abilities"].values()]


def entitlements(goal_points: int, learned: int, hr: HouseRules) -> int:
    """R ("Gaining New Abilities"): every full 10 Goal Points entitle a player to one ability (at 10, 20, 30 …);
    the unused entitlements are those minus the abilities already learned (never below 0)."""
    every = hr["ability_rules"]["entitlement_every_goal_points"]
    return max(0, goal_points // every - learned)


def learnable(held: Sequence[str], hr: HouseRules) -> list[str]:
    """R: the abilities a player may learn next: each ability once; an Advanced ability only once the Basic
    ability of the same attribute is held. In attribute order, Basic before Advanced."""
    rules = hr["ability_rules"]
    out = []
    for pair in hr["abilities"].values():
        for kind in ("basic", "advanced"):
            ability = pair[kind]
            if rules["once_per_player"] and ability in held:
                continue
            if kind == "advanced" and rules["advanced_requires_basic"] and pair["basic"] not in held:
                continue
            out.append(ability)
    return out


def _title(ability: str) -> str:
    return ability.replace("_", " ").title()


def check_learn(held: Sequence[str], goal_points: int, ability: str, hr: HouseRules) -> None:
    """R ("Gaining New Abilities", "Basic and Advanced Abilities"): refuse (field "ability") an unknown ability,
    one already held (each ability can be learned once), an Advanced ability before its Basic one, and any
    ability without an unused entitlement (one per full 10 Goal Points)."""
    rules = hr["ability_rules"]
    kind = ability_attribute(ability, hr) if isinstance(ability, str) else None
    if kind is None:
        known = ", ".join(a for pair in hr["abilities"].values() for a in (pair["basic"], pair["advanced"]))
        raise RuleViolation(f"{ability!r} is not an ElfBall ability (one of: {known}).", field="ability")
    attribute, level = kind
    if rules["once_per_player"] and ability in held:
        raise RuleViolation(
            f"The player already has {_title(ability)}: each ability can be learned only once.", field="ability"
        )
    basic = hr["abilities"][attribute]["basic"]
    if level == "advanced" and rules["advanced_requires_basic"] and basic not in held:
        raise RuleViolation(
            f"{_title(ability)} is the Advanced {attribute.title()} ability: it needs {_title(basic)} first.",
            field="ability",
        )
    if entitlements(goal_points, len(held), hr) < 1:
        every = rules["entitlement_every_goal_points"]
        next_at = (len(held) + 1) * every
        raise RuleViolation(
            f"No unused entitlement: {goal_points} Goal Points allow {goal_points // every} abilit"
            f"{'y' if goal_points // every == 1 else 'ies'} and the player has learned {len(held)}; "
            f"the next comes at {next_at} Goal Points.",
            field="ability",
        )


def abilities_tracked(hr: HouseRules) -> bool:
    """H: a league in basic mode tracks no abilities (unless `basic_mode_tracks_abilities`)."""
    return not hr["basic_mode"] or hr["basic_mode_tracks_abilities"]


# --- Injuries ---------------------------------------------------------------------------------------------------


def injury_outcomes(hr: HouseRules) -> list[str]:
    """R (Grit Challenge): the outcomes a result may record — Advanced: career_ending (flop), lasting_injury
    (0 successes), out_for_game (1), unconscious (2), none (3+); Basic games know only the last three."""
    table = hr["basic_injury_outcomes"] if hr["basic_mode"] else hr["injury_outcomes"]
    return list(dict.fromkeys(table.values()))


def injury_attributes(hr: HouseRules) -> list[str]:
    """I: the attributes a lasting injury can lower — all but Base (a base size is not a skill)."""
    return [a for a in hr["attributes"] if a not in hr["injury_attribute_excludes"]]


def lasting_injury_targets(attributes: Mapping[str, int], hr: HouseRules) -> list[str]:
    """R (Grit Challenge, 0 successes; Magic Potion 2): the player's attribute with the most points is reduced;
    the coach chooses among ties. Returns the tied highest attributes in the rulebook's order (Base excluded, I)."""
    values = {a: attributes[a] for a in injury_attributes(hr) if a in attributes}
    if not values:
        return []
    top = max(values.values())
    return [a for a, v in values.items() if v == top]


def lasting_injury_delta(attributes: Mapping[str, int], attribute: str, hr: HouseRules) -> dict[str, int]:
    """R: a lasting injury reduces the highest attribute permanently by one point (H `lasting_injury.
    attribute_delta`). I: an attribute never falls below 1 (`lasting_injury.floor`): at the floor nothing is
    lost. `attribute` must be one of the tied highest (RuleViolation field "attribute")."""
    targets = lasting_injury_targets(attributes, hr)
    if attribute not in targets:
        raise RuleViolation(
            f"A lasting injury lowers the highest attribute: {attribute!r} is not one of {targets}.", field="attribute"
        )
    rule = hr["lasting_injury"]
    new = max(rule["floor"], attributes[attribute] + rule["attribute_delta"])
    delta = min(0, new - attributes[attribute])
    return {attribute: delta} if delta else {}


# --- Magic Potions ---------------------------------------------------------------------------------------------


def potion_faces(hr: HouseRules) -> int:
    """R: a Magic Potion rolls a D12 (`magic_potion_die`)."""
    return int(hr["magic_potion_die"].lstrip("dD"))


def potion_effect(roll: int, hr: HouseRules) -> dict:
    """R (Magic Potion table, D12): 1 dies · 2 seizure (misses the game, lasting injury) · 3 light coma (misses
    the game) · 4 woozy · 5 cured, misses the game · 6 cured, misses this Test · 7 cured and a Basic ability for
    this game only. I/H: 8–12 are not in the rulebook: no effect. RuleViolation (field "roll") off the die."""
    faces = potion_faces(hr)
    if not isinstance(roll, int) or isinstance(roll, bool) or not 1 <= roll <= faces:
        raise RuleViolation(f"A Magic Potion roll is a d{faces}: 1 to {faces}.", field="roll")
    row = hr["magic_potion_table"].get(str(roll))
    if row is None:
        raise RuleViolation(f"The Magic Potion table has no row {roll}.", field="roll")
    return dict(row)


def potion_cures(rolls: Iterable[int], hr: HouseRules) -> bool:
    """R (Magic Potion 5, 6, 7): the player is fully cured of ANY injury he suffered previously this game."""
    return any(potion_effect(roll, hr)["cured"] for roll in rolls)


def in_infirmary(injury: str | None, potion_rolls: Iterable[int], hr: HouseRules) -> bool:
    """I (R "Conceding" needs it): a player is in the Infirmary when his Grit outcome misses the game or more
    (career_ending, lasting_injury, out_for_game: R "Place him in the Infirmary") and no potion of his cured it
    (5, 6, 7), or when a potion of his makes him miss the game or more (1 dies, 2 seizure, 3 light coma, 5 cured
    but misses the game). H `infirmary_misses` lists the `misses` values that count."""
    misses = set(hr["infirmary_misses"])
    rolls = list(potion_rolls)
    if injury and hr["injury_effects"].get(injury, {}).get("misses") in misses and not potion_cures(rolls, hr):
        return True
    return any(potion_effect(roll, hr)["misses"] in misses for roll in rolls)


def lasting_injuries(
    injury: str | None, attribute: str | None, drinks: Sequence[Mapping[str, Any]], hr: HouseRules
) -> list[tuple[str, str | None]]:
    """R: the lasting injuries a player takes from a match, in order, as (source, attribute given or None):
    the Grit Challenge's lasting_injury unless a potion of his cured it (5, 6, 7; I: a potion recorded with an
    injury was drunk after it), then one for each seizure (potion 2). A potion death (1) or a career-ending
    injury left uncured takes the player off the team: he suffers none."""
    rolls = [d["roll"] for d in drinks]
    cured = potion_cures(rolls, hr)
    if any(potion_effect(r, hr)["removed"] for r in rolls):
        return []
    if injury and hr["injury_effects"].get(injury, {}).get("removed") and not cured:
        return []
    out: list[tuple[str, str | None]] = []
    if injury == "lasting_injury" and not cured:
        out.append(("injury", attribute or None))
    for drink in drinks:
        if potion_effect(drink["roll"], hr)["lasting_injury"]:
            out.append(("potion", drink.get("attribute") or None))
    return out


def lower(attributes: Mapping[str, int], attribute: str, hr: HouseRules) -> dict[str, int]:
    """The attributes after one lasting injury to `attribute` (R −1, I floored at 1)."""
    delta = lasting_injury_delta(attributes, attribute, hr)
    return {**attributes, **{k: attributes[k] + d for k, d in delta.items()}}


# --- The Challenge roller -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChallengeResult:
    dice: tuple[int, ...]
    successes: int
    flops: int
    flopped: bool
    sixes: int


#: A roller that keeps answering 6 is broken: stop after this many extra dice.
_MAX_EXTRA_DICE = 200


def roll_challenge(roller: Callable[[], int], dice_count: int, *, max_dice: int = 20) -> tuple[int, ...]:
    """R ("Challenges"): roll as many d6 as the attribute; every 6 is rolled again and the new die added to the
    list, repeating while 6s come up. `roller` gives one d6; the dice come back in the order rolled."""
    if not isinstance(dice_count, int) or isinstance(dice_count, bool) or not 1 <= dice_count <= max_dice:
        raise RuleViolation(f"A Challenge rolls 1 to {max_dice} dice.", field="dice_count")
    dice = [roller() for _ in range(dice_count)]
    pending = sum(1 for d in dice if d == 6)
    while pending:
        if len(dice) - dice_count >= _MAX_EXTRA_DICE:
            raise ValueError("the roller keeps rolling 6s")
        die = roller()
        dice.append(die)
        pending += (die == 6) - 1
    return tuple(dice)


def check_challenge(*, dice_count: int, threshold: int, hr: HouseRules) -> None:
    """H (`challenge_roller`): a Challenge rolls 1–20 dice (the attribute) against a threshold of 1–12."""
    rule = hr["challenge_roller"]
    if not isinstance(dice_count, int) or isinstance(dice_count, bool) or not 1 <= dice_count <= rule["max_dice"]:
        raise RuleViolation(f"A Challenge rolls 1 to {rule['max_dice']} dice.", field="dice_count")
    if not isinstance(threshold, int) or isinstance(threshold, bool) or not 1 <= threshold <= rule["max_threshold"]:
        raise RuleViolation(f"A Challenge threshold is 1 to {rule['max_threshold']}.", field="threshold")


def score_challenge(values: Sequence[int], *, dice_count: int, threshold: int, hr: HouseRules) -> ChallengeResult:
    """R ("Challenges"): every die equal to or above the threshold is a success; 1s are flops; more flops than
    successes is a flop; a threshold of 7 or more (impossible) scores the 6s less the flops (I: never below 0).
    `values` must be exactly one complete Challenge: `dice_count` dice plus one more for every 6 among them all
    (RuleViolation field "rolls"); dice_count 1–20 and threshold 1–12 (H `challenge_roller`)."""
    check_challenge(dice_count=dice_count, threshold=threshold, hr=hr)
    rule = hr["challenge_roller"]
    faces = rule["die_sides"]
    if not isinstance(values, Sequence) or isinstance(values, str | bytes):
        raise RuleViolation("rolls must be a list of dice.", field="rolls")
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= faces:
            raise RuleViolation(f"rolls: {value!r} is not a face of a d{faces}.", field="rolls")
    explode, flop_face = rule["explode_on"], rule["flop_face"]
    sixes = sum(1 for v in values if v == explode) if rule["exploding"] else 0
    expected = dice_count + sixes
    if len(values) < expected:
        raise RuleViolation(
            f"rolls: a Challenge of {dice_count} dice with {sixes} {explode}(s) needs {expected} dice "
            f"(every {explode} is rolled again); {len(values)} given.",
            field="rolls",
        )
    if len(values) > expected:
        raise RuleViolation(
            f"rolls: a Challenge of {dice_count} dice with {sixes} {explode}(s) has exactly {expected} dice; "
            f"{len(values)} given.",
            field="rolls",
        )
    flops = sum(1 for v in values if v == flop_face)
    sixes_rolled = sum(1 for v in values if v == faces)
    if threshold >= rule["high_threshold"]:
        successes = max(0, sixes_rolled - flops)
    else:
        successes = sum(1 for v in values if v >= threshold)
    return ChallengeResult(
        dice=tuple(values), successes=successes, flops=flops, flopped=flops > successes, sixes=sixes_rolled
    )
