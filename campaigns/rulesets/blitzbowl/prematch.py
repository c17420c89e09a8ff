"""Blitz Bowl pre-match rules as pure functions (../shared/rules/blitzbowl.md, "Pre-match sequence": 1. Weather,
2. Inducements, 3. Fans and FAME; roll keys `weather` and `fans` from "Dice and rolls").

R = rulebook, I = the service's interpretation, H = house default (a commissioner may override it).

No Django, no randomness, no I/O: dice values arrive as arguments, teams are plain values (`InducementTeam`),
and every number or table is read from `hr`, the league's house rules (shaped like data/house_rules.json).
All money is integer gil.

Invalid dice or malformed arguments raise ValueError (programming errors: the engine validates dice before
calling). A purchase the rules forbid raises RuleViolation naming the input at fault ("item", "quantity",
"position", "skill" or "star").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaigns.errors import RuleViolation
from campaigns.rulesets.base import PositionSpec, fmt_gil
from campaigns.rulesets.blitzbowl import postmatch
from campaigns.rulesets.blitzbowl.postmatch.checks import check_die, check_non_negative, parse_dice, table_row

#: The league's effective house rules (data/house_rules.json merged with the commissioner's overrides).
HouseRules = Mapping[str, Any]

#: R: the inducements a team may buy (house rules `inducements` holds their limits and prices).
ITEMS = (
    "keg",
    "bribe",
    "extra_training",
    "chef",
    "wandering_white_mage",
    "black_mage",
    "star_player",
    "mercenary",
)

ITEM_WORDS = {
    "keg": "Blitzweiser Kegs",
    "bribe": "Bribes",
    "extra_training": "Extra Team Training",
    "chef": "Qu Master Chef",
    "wandering_white_mage": "Wandering White Mages",
    "black_mage": "Black Mage",
    "star_player": "Star Players",
    "mercenary": "Mercenaries",
}

_WEATHER_WORDS = {
    "sweltering_heat": "Sweltering Heat",
    "very_sunny": "Very Sunny",
    "perfect_conditions": "Perfect Conditions",
    "pouring_rain": "Pouring Rain",
    "blizzard": "Blizzard",
}


# --- 1. Weather ------------------------------------------------------------------------------------------


def weather(total: int, hr: HouseRules) -> str:
    """H ("1. Weather", roll key `weather`, 2d6): 2 Sweltering Heat; 3 Very Sunny; 4–10 Perfect Conditions;
    11 Pouring Rain; 12 Blizzard (house rules `weather_table`: rows of min/max/result). Returns the result key.
    """
    check_die(total, hr["roll_keys"].get("weather", "2d6"), "weather total")
    return table_row(hr["weather_table"], total, "weather table")["result"]


def weather_words(key: str) -> str:
    """The weather result as a coach reads it: "sweltering_heat" → "Sweltering Heat" (H: a commissioner's own
    result keys are shown with their underscores as spaces, capitalised)."""
    return _WEATHER_WORDS.get(key) or key.replace("_", " ").title()


# --- 3. Fans and FAME ------------------------------------------------------------------------------------


def fans(dice: Sequence[int], fan_factor: int, hr: HouseRules) -> int:
    """H ("3. Fans and FAME", roll key `fans`): a team's fans = (2d6 + Fan Factor) × 1,000
    (house rules `fans`: dice, add_fan_factor, multiplier).
    """
    rule = hr["fans"]
    count, faces = parse_dice(rule["dice"])
    dice = list(dice)
    if len(dice) != count:
        raise ValueError(f"fans are rolled on {rule['dice']}, got {len(dice)} dice")
    for die in dice:
        check_die(die, f"1d{faces}", "fans die")
    check_non_negative(fan_factor=fan_factor)
    return (sum(dice) + (fan_factor if rule["add_fan_factor"] else 0)) * rule["multiplier"]


def gate(fans_by_team: Mapping[int, int]) -> int:
    """H ("3. Fans and FAME"): the gate is both teams' fans together."""
    check_non_negative(**{f"fans of team {team}": n for team, n in fans_by_team.items()})
    return sum(fans_by_team.values())


def fame(ours: int, theirs: int, hr: HouseRules) -> int:
    """H ("3. Fans and FAME"): FAME 0 if our fans ≤ the opponent's, 1 if more, 2 if at least double
    (ours ≥ 2 × theirs; so 2 whenever the opponent has no fans and we have some).
    """
    return postmatch.fame(fans=ours, opponent_fans=theirs, hr=hr)


# --- 2. Inducements: budgets -----------------------------------------------------------------------------


def _two_teams(tv: Mapping[int, int], home: int) -> tuple[int, int]:
    if len(tv) != 2:
        raise ValueError(f"a match has two teams, got TV for {len(tv)}")
    if home not in tv:
        raise ValueError(f"the home team {home!r} is not one of the match's teams")
    check_non_negative(**{f"TV of team {team}": value for team, value in tv.items()})
    first, second = tv
    return first, second


def superior_and_underdog(*, tv: Mapping[int, int], home: int) -> tuple[int, int]:
    """R ("2. Inducements"): the team with the higher TV is the superior team (it commits its treasury purchases
    first), the other the underdog. I: with equal TV the home team counts as the higher.
    Returns (superior, underdog).
    """
    first, second = _two_teams(tv, home)
    if tv[first] == tv[second]:
        other = second if home == first else first
        return home, other
    return (first, second) if tv[first] > tv[second] else (second, first)


def inducement_budgets(
    *, tv: Mapping[int, int], home: int, stadium_home_of: int | None, hr: HouseRules
) -> dict[int, int]:
    """R ("2. Inducements"): the underdog receives inducement gil equal to the TV difference; if the match is
    played at one team's home stadium (`stadium_home_of`, None when it is nobody's home), the *other* team
    receives +5,000 (house rule `inducement_home_stadium_bonus`); both can apply to the same team.
    I: a stadium that is the home of neither team (another league team's) gives no bonus.
    Returns {team: inducement gil}.
    """
    superior, underdog = superior_and_underdog(tv=tv, home=home)
    budgets = {team: 0 for team in tv}
    budgets[underdog] += tv[superior] - tv[underdog]
    if stadium_home_of is not None and stadium_home_of in tv:
        visitor = underdog if stadium_home_of == superior else superior
        budgets[visitor] += hr["inducement_home_stadium_bonus"]
    return budgets


def budget(*, induced: int, spent: int) -> dict:
    """R ("2. Inducements"): inducement gil is spent first and the rest comes from the treasury; unspent
    inducement gil is lost (it never enters the treasury).
    Returns {"induced", "treasury_spent": max(0, spent − induced), "remaining": max(0, induced − spent)}.
    """
    check_non_negative(induced=induced, spent=spent)
    return {"induced": induced, "treasury_spent": max(0, spent - induced), "remaining": max(0, induced - spent)}


def check_affordable(*, induced: int, spent_before: int, price: int, treasury: int) -> None:
    """R ("2. Inducements"): either coach may add gil from the treasury, which never goes below 0: refuse a
    purchase when spent_before + price − induced exceeds the treasury.
    """
    check_non_negative(induced=induced, spent_before=spent_before, price=price, treasury=treasury)
    from_treasury = spent_before + price - induced
    if from_treasury > treasury:
        raise RuleViolation(
            f"Over budget: this costs {fmt_gil(price)}; with {fmt_gil(spent_before)} already spent it would take "
            f"{fmt_gil(from_treasury)} from the treasury beyond the {fmt_gil(induced)} of inducement gil, and the "
            f"treasury holds {fmt_gil(treasury)}.",
            field="quantity",
        )


def shared_stars(stars_by_team: Mapping[int, Iterable[str]]) -> set[str]:
    """R ("2. Inducements"): a Star Player induced by both teams plays for neither (and keeps both fees).
    Returns the stars induced by more than one team.
    """
    teams_of: dict[str, int] = {}
    for stars in stars_by_team.values():
        for star in set(stars):
            teams_of[star] = teams_of.get(star, 0) + 1
    return {star for star, n in teams_of.items() if n > 1}


# --- 2. Inducements: purchases ---------------------------------------------------------------------------


@dataclass(frozen=True)
class InducementTeam:
    """What the inducement rules read of a team, as plain values."""

    roster_key: str
    #: The roster may buy a permanent White Mage (roster data `white_mage`).
    white_mage_allowed: bool
    #: Roster special prices by item (roster data `special_prices`: Goblin bribes, the Allstar 9 chef).
    special_prices: Mapping[str, int] = field(default_factory=dict)
    #: The roster's positions, key → spec (name, max, cost).
    positions: Mapping[str, PositionSpec] = field(default_factory=dict)
    #: Players on the roster per position, excluding the dead and retired (position limits).
    roster_counts: Mapping[str, int] = field(default_factory=dict)
    #: Players able to play THIS match: active players and journeymen (players missing the match do not count).
    able_players: int = 0


@dataclass(frozen=True)
class Purchase:
    """An inducement a team has bought for this match. `price` is the total for `quantity`."""

    item: str
    quantity: int
    position: str = ""
    skill: str = ""
    star: str = ""
    price: int = 0


def _check_item(item: str) -> None:
    if item not in ITEMS:
        raise RuleViolation(f"'{item}' is not an inducement; choose one of {', '.join(ITEMS)}.", field="item")


def _star(star: str, hr: HouseRules) -> Mapping[str, Any]:
    if not star:
        raise RuleViolation("Choose the Star Player to induce.", field="star")
    for spec in hr["star_players"]:
        if spec["key"] == star:
            return spec
    raise RuleViolation(f"'{star}' is not a Star Player of this league.", field="star")


def _position(position: str, team: InducementTeam) -> PositionSpec:
    if not position:
        raise RuleViolation("Choose the position of the mercenary.", field="position")
    spec = team.positions.get(position)
    if spec is None:
        raise RuleViolation(f"'{position}' is not a position of the team's roster.", field="position")
    return spec


def _mercenary_skill(skill: str, spec: PositionSpec, hr: HouseRules) -> str:
    """R ("Unlimited Mercenaries"): one additional skill, selected from those available to a player of that
    position on a Normal roll — not one he already has."""
    name = _skill_name(skill, hr)
    normal = spec.extra.get("skill_access", {}).get("normal", [])
    allowed = {n for category in normal for n in hr["skills"].get(category, [])}
    if name not in allowed:
        categories = " or ".join(normal) or "no"
        raise RuleViolation(
            f"A mercenary {spec.name} may take a skill of his Normal access ({categories} skills), not {name}.",
            field="skill",
        )
    if name in spec.skills:
        raise RuleViolation(f"A {spec.name} already has {name}: the extra skill must be a new one.", field="skill")
    return name


def _skill_name(skill: str, hr: HouseRules) -> str:
    """The skill's name as the house rules `skills` (category → names) spell it; matched regardless of case."""
    wanted = skill.strip().casefold()
    for names in hr["skills"].values():
        for name in names:
            if name.casefold() == wanted:
                return name
    raise RuleViolation(f"'{skill}' is not a known skill.", field="skill")


def _check_player_limit(quantity: int, *, team: InducementTeam, bought: Sequence[Purchase], hr: HouseRules) -> None:
    """R: stars and mercenaries may not take the players able to play this match above 16."""
    limit = hr["inducement_max_players"]
    induced = sum(p.quantity for p in bought if p.item in ("star_player", "mercenary"))
    if team.able_players + induced + quantity > limit:
        raise RuleViolation(
            f"Stars and mercenaries may not take the players able to play above {limit}: the team has "
            f"{team.able_players} able players and {induced} induced, so it cannot add {quantity}.",
            field="quantity",
        )


def inducement_price(
    item: str, *, team: InducementTeam, position: str = "", skill: str = "", star: str = "", hr: HouseRules
) -> int:
    """R ("2. Inducements"): the unit price of an inducement for this team.

    Kegs 5,000; Bribes 10,000 (Goblin rosters 5,000); Extra Team Training 10,000; Qu Master Chef 30,000
    (Allstar 9 rosters 10,000); Wandering White Mage 10,000; Black Mage 15,000 (house rules `inducements`;
    roster special prices override them). H: a Star Player costs his price in house rules `star_players`.
    R: a Mercenary costs the position's price + 3,000, + 5,000 more with an extra skill.
    """
    _check_item(item)
    rule = hr["inducements"]
    if item == "star_player":
        return int(_star(star, hr)["price"])
    if item == "mercenary":
        merc = rule["mercenary"]
        extra = merc["extra_skill"] if skill else 0
        return _position(position, team).cost + merc["surcharge"] + extra
    if item in team.special_prices:
        return int(team.special_prices[item])
    return int(rule[item]["price"])


def check_inducement(
    item: str,
    quantity: int,
    *,
    team: InducementTeam,
    bought: Sequence[Purchase],
    position: str = "",
    skill: str = "",
    star: str = "",
    hr: HouseRules,
) -> int:
    """R ("2. Inducements"): refuse an inducement the rules forbid; return the total price of `quantity`.

    - Each item has its maximum, counting what the team already bought this match: Kegs 2, Bribes 3,
      Extra Team Training 4, Qu Master Chef 1, Wandering White Mages 2, Black Mage 1; Mercenaries are unlimited.
    - Wandering White Mages only for a roster that may buy a permanent White Mage.
    - Star Players one at a time, each a known star (H: house rules `star_players`) who plays for the team's
      roster (`plays_for`), not induced twice, at most 2 (house rules `inducements.star_player.max`).
    - A Mercenary is of a position of the team's roster, and the position limit applies: players on the roster
      of that position able to play this match + mercenaries of it bought + `quantity` ≤ the position's max
      (R: players missing the game do not count, so mercenaries can replace them). The optional extra skill is
      one the position may take on a Normal roll (its `skill_access.normal` categories) and does not have.
    - Stars and Mercenaries may not take the players able to play this match above 16 (house rule
      `inducement_max_players`): able players + mercenaries + stars, already bought and this one.

    Affordability is `check_affordable`'s.
    """
    _check_item(item)
    if type(quantity) is not int or quantity < 1:
        raise RuleViolation("Buy at least one.", field="quantity")
    rule = hr["inducements"]
    words = ITEM_WORDS[item]
    already = sum(p.quantity for p in bought if p.item == item)

    if item == "star_player":
        spec = _star(star, hr)
        if quantity != 1:
            raise RuleViolation("Star Players are induced one at a time.", field="quantity")
        if team.roster_key not in spec["plays_for"]:
            raise RuleViolation(f"{spec['name']} does not play for this team's roster.", field="star")
        if any(p.item == "star_player" and p.star == star for p in bought):
            raise RuleViolation(f"{spec['name']} is already induced for this match.", field="star")
        _check_player_limit(quantity, team=team, bought=bought, hr=hr)
        if already + quantity > rule["star_player"]["max"]:
            raise RuleViolation(
                f"A team may induce at most {rule['star_player']['max']} Star Players; it has {already}.",
                field="quantity",
            )
    elif item == "mercenary":
        spec = _position(position, team)
        if skill:
            skill = _mercenary_skill(skill, spec, hr)
        _check_player_limit(quantity, team=team, bought=bought, hr=hr)
        on_roster = team.roster_counts.get(spec.key, 0)
        hired = sum(p.quantity for p in bought if p.item == "mercenary" and p.position == spec.key)
        if on_roster + hired + quantity > spec.max:
            raise RuleViolation(
                f"The roster allows at most {spec.max} {spec.name} player(s): the team has {on_roster} and "
                f"{hired} mercenary {spec.name}(s), so it cannot add {quantity}.",
                field="position",
            )
    else:
        if item == "wandering_white_mage" and not team.white_mage_allowed:
            raise RuleViolation(
                "Wandering White Mages only come to teams whose roster may buy a White Mage.", field="item"
            )
        maximum = rule[item]["max"]
        if already + quantity > maximum:
            raise RuleViolation(
                f"A team may induce at most {maximum} {words}; it has {already} and cannot add {quantity}.",
                field="quantity",
            )

    unit = inducement_price(item, team=team, position=position, skill=skill, star=star, hr=hr)
    return unit * quantity
