"""The teams and their players, on the sheet and in the memorial."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from dugout.importer.checks import a_list, bad, boolean, choices_of, colour, field, integer, json_value, text, timestamp
from dugout.importer.state import ImportState, create_stamped
from teams.models import Player, Sponsorship, Team

PLAYER_STATUSES = choices_of(Player.Status.choices)
ROW_CHECKS = {
    "touchdowns": integer(0, 32767),
    "casualties": integer(0, 32767),
    "completions": integer(0, 32767),
    "interceptions": integer(0, 32767),
    "mvp": boolean,
    "spp": integer(0),
    "goal_points": integer(0, 32767),
    "wounds": integer(0, 32767),
    "injury": text(20),
    "injury_detail": text(20),
    "detail": json_value(dict),
}
PLAYER_DEFAULTS = {
    "spp": (integer(0), 0),
    "goal_points": (integer(0), 0),
    "abilities": (json_value(list), []),
    "role": (text(choices=choices_of(Player.Role.choices)), ""),
    "wounds": (integer(0, 32767), 0),
    "armour_used": (integer(0, 32767), 0),
    "matches_survived": (integer(0, 32767), 0),
    "elite": (boolean, False),
    "wound_areas": (json_value(dict), {}),
    "conditions": (json_value(list), []),
    "equipment": (json_value(dict), {}),
}


def _player(state: ImportState, team: Team, roster: str, record: Any, path: str, former: bool) -> tuple[int, Player]:
    position = field(record, path, "position", text(50))
    if position not in state.positions[roster]:
        # Bone Cruncher: a player may be of another race's position (an Elite Elf on a Halfling team).
        found = next((p[position] for p in state.positions.values() if position in p), None)
        if found is None:
            raise bad(f"{path}.position", f"{position!r} is not a position of this ruleset.")
    else:
        found = state.positions[roster][position]
    player = Player(
        team=team,
        position=found,
        name=field(record, path, "name", text(100)),
        number=field(record, path, "number", integer(0, 32767, null=True)),
        status=field(record, path, "status", text(choices=PLAYER_STATUSES)),
        attributes=field(record, path, "attributes", json_value(dict)),
        skills=field(record, path, "skills", json_value(list)),
        value=field(record, path, "value", integer(0)),
        left_at=field(record, path, "left_at", timestamp()) if former else None,
        hired_at=field(record, path, "hired_at", timestamp(null=True), None) or timezone.now(),
    )
    for name, (check, default) in PLAYER_DEFAULTS.items():
        setattr(player, name, field(record, path, name, check, default))
    old = field(record, path, "id", integer(None))
    if old in state.player_ids:
        raise bad(f"{path}.id", "Two players have this id.")
    state.player_ids.add(old)
    for i, row in enumerate(field(record, path, "history", a_list, [])):
        state.history.append((f"{path}.history[{i}]", old, row))
    return old, player


def read_teams(state: ImportState, chunk: list[tuple[str, Any]]) -> None:
    league = state.league
    teams, players, sponsorships = [], [], []
    names = {t.name for t in state.teams.values()}
    for path, record in chunk:
        roster = field(record, path, "roster", text(50))
        if roster not in state.rosters:
            raise bad(f"{path}.roster", f"{roster!r} is not a roster of {league.ruleset}.")
        name = field(record, path, "name", text(100))
        if name in names:
            raise bad(f"{path}.name", "Two teams of the league have this name.")
        names.add(name)
        old = field(record, path, "id", integer(None))
        if old in state.teams or any(old == o for o, _ in teams):
            raise bad(f"{path}.id", "Two teams have this id.")
        created_at = field(record, path, "created_at", timestamp(null=True), None) or timezone.now()
        owns = field(record, path, "owns_stadium", boolean, False)
        home = field(record, path, "home_stadium", state.ref(state.stadiums, "stadium"), None)
        if owns and home is None:
            raise bad(f"{path}.home_stadium", "A team that owns its stadium has it as its home.")
        team = Team(
            league=league,
            coach=state.user,
            name=name,
            roster=state.rosters[roster],
            fan_factor=field(record, path, "fan_factor", integer(0, 32767)),
            rerolls=field(record, path, "rerolls", integer(0, 32767)),
            staff=field(record, path, "staff", json_value(dict), {}),
            home_stadium_id=home,
            division_id=field(record, path, "division", state.ref(state.divisions, "division"), None),
            # Team identity: the colours travel; a logo is a file in the source's storage and does not.
            primary_colour=field(record, path, "primary_colour", colour, "#1f3a5f"),
            secondary_colour=field(record, path, "secondary_colour", colour, "#f2c14e"),
            owns_stadium=owns,
            creation_closed_at=None if field(record, path, "in_creation", boolean, False) else created_at,
            created_at=created_at,
        )
        teams.append((old, team))
        for key, former in (("players", False), ("former_players", True)):
            for i, p in enumerate(field(record, path, key, a_list, [])):
                players.append(_player(state, team, roster, p, f"{path}.{key}[{i}]", former))
        for i, s in enumerate(field(record, path, "sponsorships", a_list, [])):
            here = f"{path}.sponsorships[{i}]"
            sponsorships.append(
                Sponsorship(
                    team=team,
                    name=field(s, here, "name", text(100), ""),
                    gained_at=field(s, here, "gained_at", timestamp(null=True), None) or timezone.now(),
                )
            )
    create_stamped(Team, [t for _, t in teams], ("created_at",))
    state.teams.update(teams)
    for _, player in players:
        player.team_id = player.team.pk
    for s in sponsorships:
        s.team_id = s.team.pk
    created = create_stamped(Player, [p for _, p in players], ("hired_at",))
    state.players.update((old, p.pk) for (old, _), p in zip(players, created, strict=True))
    create_stamped(Sponsorship, sponsorships, ("gained_at",))
