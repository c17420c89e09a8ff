"""The Magic Potions of an ElfBall result and the attributes lasting injuries lower (../shared/rules/elfball.md "Magic
Potion table", "Injuries"; api-v1 "Result body"). Pure validation: a RuleViolation names the body's field at fault."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaigns.errors import RuleViolation
from campaigns.results import whole

from . import postmatch as pm
from .result_rows import check_ids, list_of_objects


def _refuse_attribute(path: str, attributes: Mapping[str, int], value: str, hr: Mapping, what: str) -> None:
    targets = pm.lasting_injury_targets(attributes, hr)
    raise RuleViolation(
        f"{path}: {what} lowers the player's highest attribute ({', '.join(targets)}), not {value}.", field=path
    )


def _player_info(context: Mapping, player: int) -> Any:
    """The context's facts of a player (keyed by id, or by its string when the context went through JSON)."""
    known = context.get("players") or {}
    return known.get(player, known.get(str(player)))


def _player_attributes(context: Mapping, player: int) -> dict[str, int] | None:
    info = _player_info(context, player)
    attributes = info.get("attributes") if isinstance(info, Mapping) else None
    if not isinstance(attributes, Mapping) or not attributes:
        return None
    return {k: v for k, v in attributes.items() if isinstance(v, int) and not isinstance(v, bool)}


def _player_abilities(context: Mapping, player: int) -> tuple[str, ...]:
    info = _player_info(context, player)
    abilities = info.get("abilities") if isinstance(info, Mapping) else None
    return tuple(abilities) if isinstance(abilities, list | tuple) else ()


def parse_potions(
    body: Mapping,
    *,
    rosters: Mapping,
    team_of: Mapping[int, int],
    able: Mapping[int, list[int]],
    context: Mapping,
    hr: Mapping,
) -> tuple[dict[int, list[dict]], dict[int, list[str]], list[int]]:
    """R: each potion by a player of the match able to play, one per player per game (H), a D12 `roll`, no more per
    team than its Magic Potions in stock; `ability` only with a temporary Basic ability (7) he does not have;
    `attribute` only with a lasting injury (2, seizure). Returns the drinks and their paths by player, and the rolls
    in order."""
    injury_attributes = pm.injury_attributes(hr)
    check_ids(body, "potions")
    potions: dict[int, list[dict]] = {}
    potion_paths: dict[int, list[str]] = {}
    per_team: dict[int, int] = {}
    stock = context.get("stock")
    limit = hr["potions_per_player_per_game"]
    faces = pm.potion_faces(hr)
    basics = pm.basic_abilities(hr)
    rolls_in_order: list[int] = []
    for index, entry in enumerate(list_of_objects(body, "potions")):
        path = f"potions[{index}]"
        player = entry.get("player")
        if player not in team_of:
            raise RuleViolation(f"{path}.player: {player!r} is not on a team of this match.", field=f"{path}.player")
        team = team_of[player]
        if player not in able[team]:
            raise RuleViolation(
                f"{path}.player: player {player} could not play this match ({rosters[team][player]}).",
                field=f"{path}.player",
            )
        if len(potions.get(player, [])) >= limit:
            raise RuleViolation(
                f"{path}.player: a player may take only {limit} potion(s) per game.", field=f"{path}.player"
            )
        if "roll" not in entry:
            raise RuleViolation(f"{path}.roll: give the D{faces} rolled for the potion.", field=f"{path}.roll")
        roll = whole(entry["roll"], f"{path}.roll", minimum=1, maximum=faces)
        effect = pm.potion_effect(roll, hr)
        per_team[team] = per_team.get(team, 0) + 1
        if isinstance(stock, Mapping):
            have = (stock.get(team, stock.get(str(team))) or {}).get("magic_potion", 0)
            if per_team[team] > have:
                raise RuleViolation(
                    f"{path}: team {team} has only {have} Magic Potion(s) to use.", field=f"{path}.player"
                )
        drink = {"roll": roll, "ability": None, "attribute": None}
        ability = entry.get("ability")
        if ability is not None and ability != "":
            if not effect["temporary_basic_ability"]:
                raise RuleViolation(
                    f"{path}.ability goes only with a potion roll that gives a Basic ability (7).",
                    field=f"{path}.ability",
                )
            if ability not in basics:
                raise RuleViolation(
                    f"{path}.ability must be a Basic ability: {', '.join(basics)}.", field=f"{path}.ability"
                )
            if ability in _player_abilities(context, player):
                raise RuleViolation(
                    f"{path}.ability: the player already has {ability} (R: one he doesn't already have).",
                    field=f"{path}.ability",
                )
            drink["ability"] = ability
        attribute = entry.get("attribute")
        if attribute is not None and attribute != "":
            if not effect["lasting_injury"]:
                raise RuleViolation(
                    f"{path}.attribute goes only with a potion roll that gives a lasting injury (2).",
                    field=f"{path}.attribute",
                )
            if attribute not in injury_attributes:
                raise RuleViolation(
                    f"{path}.attribute must be one of {', '.join(injury_attributes)}.", field=f"{path}.attribute"
                )
            drink["attribute"] = attribute
        potions.setdefault(player, []).append(drink)
        potion_paths.setdefault(player, []).append(path)
        rolls_in_order.append(roll)
    return potions, potion_paths, rolls_in_order


def check_lasting_attributes(
    *,
    players: Mapping[int, dict],
    paths: Mapping[int, str],
    potions: Mapping[int, list[dict]],
    potion_paths: Mapping[int, list[str]],
    context: Mapping,
    hr: Mapping,
) -> None:
    """R ("Injuries"): each lasting injury lowers the highest attribute (the coach chooses among ties): an attribute
    given must be one of the highest at that point (checked when the player's attributes are known)."""
    for player in [*players, *(p for p in potions if p not in players)]:
        attributes = _player_attributes(context, player)
        if attributes is None:
            continue
        row = players.get(player) or {"injury": None, "attribute": None}
        drinks = potions.get(player, [])
        seizure_paths = iter(
            p
            for p, d in zip(potion_paths.get(player, []), drinks, strict=True)
            if pm.potion_effect(d["roll"], hr)["lasting_injury"]
        )
        # The Grit attribute is checked even when a potion cured the injury: it must still be a highest one.
        if row["attribute"] and row["attribute"] not in pm.lasting_injury_targets(attributes, hr):
            _refuse_attribute(f"{paths[player]}.attribute", attributes, row["attribute"], hr, "a lasting injury")
        for source, given in pm.lasting_injuries(row["injury"], row["attribute"], drinks, hr):
            path = f"{paths[player]}.attribute" if source == "injury" else f"{next(seizure_paths)}.attribute"
            targets = pm.lasting_injury_targets(attributes, hr)
            if given is None:
                if len(targets) != 1:
                    break  # the coach chooses in the post-match sequence: what follows depends on it
                given = targets[0]
            elif given not in targets:
                _refuse_attribute(
                    path, attributes, given, hr, "a lasting injury" if source == "injury" else "the seizure"
                )
            attributes = pm.lower(attributes, given, hr)


def check_potion_rolls(body: Mapping, rolls_in_order: list[int]) -> None:
    """Rolls entered under `rolls.potion` must be the potions' own, in order."""
    entered = body.get("rolls")
    if isinstance(entered, Mapping) and "potion" in entered:
        given = entered["potion"]
        given = [given] if isinstance(given, int) and not isinstance(given, bool) else given
        if given != rolls_in_order:
            raise RuleViolation(
                f"rolls.potion must be the potions' rolls in order ({rolls_in_order}); list each potion under "
                "potions with its player.",
                field="rolls.potion",
            )
