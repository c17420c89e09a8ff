"""Property: whatever Scorchball results are entered — random squads, scores, wounds and Critical Wound Chart
results, basic or advanced wounds — and whatever legal answers the coaches give to the post-match decisions,
the players' wound records stay sound (rules/bonecruncher.md "Wounds", "Veterans"; api-v1 "Post-match sequence").

Each example builds a league (basic or advanced wounds) of two random races with 0–2 Trainers each and seeds some
veterans (matches survived 0–5, so that promotions come up), then plays 1–4 Scorchball matches through the API,
walking both post-match sequences step by step in a random interleaving and answering every `heal` and `promote`
decision at random (a legal answer). A small model of the rules follows along — order-free, so it holds for basic
and advanced wounds alike: a player's hits first fill his remaining armour boxes, then his wound boxes up to the
limit (R); reaching the limit is death (R); a Trainer takes off up to 3 wound boxes, never armour (H); every squad
player alive survives one more match (R/H). After every accepted request:

- every living player's marked wound boxes stay below his wound limit and equal the model's; advanced: the
  areas add up to the boxes and no area holds more than its squares; armour used never exceeds the armour boxes
  (Captain 2 / Goalie 1 / Elite +1 basic; protection + Goalie 3 + Elite 2 advanced) and equals the model's;
- a severed arm never goes away;
- the dead are in the memorial and off the roster; a dead player's row never changes again;
- nothing is applied at confirm;

and a result naming a dead player (in a squad or wounded) is refused (400) and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from teams.models import Player
from tests.factories import LeagueFactory
from tests.matches.bonecruncher_helpers import (
    AREAS,
    CHART_WOUNDS,
    STEPS,
    TEMPLATES,
    BoneCruncher,
    area_squares,
    armour_capacity,
    blames,
    condition_set,
    marked,
    offered_ids,
    squad_team,
    wound_limit,
)

RACES = sorted(TEMPLATES)
LIMB = {1: "arm", 2: "leg", 3: "arm", 6: "arm"}  # chart results that strike an arm or a leg
DEAD_FIELDS = ("status", "role", "wounds", "armour_used", "wound_areas", "conditions", "elite", "matches_survived")


@dataclass
class Model:
    """What the rules say one player's record is."""

    team: int
    race: str
    role: str
    elite: bool = False
    wounds: int = 0
    armour_used: int = 0
    matches_survived: int = 0
    dead: bool = False
    severed: set = field(default_factory=set)

    def capacity(self, advanced: bool) -> int:
        return armour_capacity(race=self.race, role=self.role, elite=self.elite, advanced=advanced)

    def hit(self, hits: int, advanced: bool) -> None:
        """R: armour boxes take the first hits, then wound boxes; I: never past the limit."""
        armour = min(hits, self.capacity(advanced) - self.armour_used)
        self.armour_used += armour
        self.wounds = min(wound_limit(self.race, advanced=advanced), self.wounds + hits - armour)
        if self.wounds >= wound_limit(self.race, advanced=advanced):
            self.dead, self.role = True, ""


class Example:
    def __init__(self, data, *, league, advanced, clients, teams, trainers, races):
        self.data, self.league, self.advanced = data, league, advanced
        self.s = BoneCruncher(clients)
        self.teams = teams  # team id → shirt number → player id
        self.coach = {team: who for team, who in zip(teams, ("alice", "bob"), strict=True)}
        self.trainers = trainers
        self.model: dict[int, Model] = {}
        for team, ids in teams.items():
            for number, pid in ids.items():
                role = {1: "captain", 2: "goalie"}.get(number, "")
                self.model[pid] = Model(team=team, race=races[team], role=role)
        self.dead_rows: dict[int, dict] = {}

    # --- the world -------------------------------------------------------------------------------------------
    def sheets(self, teams=None) -> dict[int, dict]:
        return {pid: p for team in teams or self.teams for pid, p in self.s.players(team).items()}

    def world(self) -> tuple:
        return (
            self.sheets(),
            self.s.memorial(self.league),
            list(Player.objects.filter(team_id__in=self.teams).order_by("pk").values_list("pk", *DEAD_FIELDS)),
        )

    def living(self, team: int) -> list[int]:
        return [pid for pid in self.teams[team].values() if not self.model[pid].dead]

    def check(self, teams=None) -> None:
        """The invariants, against the model (which takes in each step's effects as the step is walked), for the
        players of `teams` (default: both)."""
        teams = teams or list(self.teams)
        sheets = self.sheets(teams)
        for pid, m in self.model.items():
            if m.dead or m.team not in teams:
                continue
            p = sheets.get(pid)
            assert p is not None, f"player {pid} is alive but not on the roster"
            limit = wound_limit(m.race, advanced=self.advanced)
            assert p["wound_limit"] == limit, (pid, p["wound_limit"], limit)
            assert 0 <= p["wounds"] < limit, (pid, p["wounds"], limit)
            assert 0 <= p["armour_used"] <= p["armour_boxes"], (pid, p["armour_used"], p["armour_boxes"])
            if self.advanced:
                areas = marked(p["wound_areas"])
                squares = area_squares(m.race)
                assert sum(areas.values()) == p["wounds"], (pid, areas, p["wounds"])
                assert all(n <= squares[a] for a, n in areas.items()), (pid, areas, squares)
            assert {side for key, side in condition_set(p) if key == "severed_arm"} >= m.severed, (pid, p)
            assert (p["wounds"], p["armour_used"]) == (m.wounds, m.armour_used), (pid, p, m)
            assert p["armour_boxes"] == m.capacity(self.advanced), (pid, p["armour_boxes"], m)
            assert (p["matches_survived"], p["elite"]) == (m.matches_survived, m.elite), (pid, p, m)
        dead = {pid for pid, m in self.model.items() if m.dead}
        assert dead.isdisjoint(sheets), "a dead player is still on the roster"
        assert set(sheets) == {pid for pid, m in self.model.items() if m.team in teams and not m.dead}
        assert {x["player"] for x in self.s.memorial(self.league)} == dead | set(self.dead_rows)
        rows = {r["id"]: r for r in Player.objects.filter(pk__in=dead).values("id", *DEAD_FIELDS)}
        for pid, row in rows.items():
            assert row["status"] == "dead" and row["role"] == "", row
            assert row["wounds"] <= wound_limit(self.model[pid].race, advanced=self.advanced), row
            assert self.dead_rows.setdefault(pid, row) == row, f"dead player {pid} changed: {row}"

    # --- a match ---------------------------------------------------------------------------------------------
    def draw_wound(self, pid: int) -> dict:
        draw = self.data.draw
        entry: dict = {"player": pid}
        if self.advanced:
            entry["areas"] = draw(st.dictionaries(st.sampled_from(AREAS), st.integers(0, 16), max_size=3), "areas")
        else:
            entry["wounds"] = draw(st.integers(0, 3) | st.integers(0, 12), "wounds")
        critical = []
        for roll in draw(st.lists(st.integers(1, 6), max_size=2), "critical"):
            if roll in LIMB and draw(st.booleans(), "side given"):
                critical.append({"roll": roll, "side": draw(st.sampled_from(["left", "right"]), "side")})
            else:
                critical.append(roll)
        if critical:
            entry["critical"] = critical
        return entry

    @staticmethod
    def hits(entry: dict) -> int:
        plain = sum(entry.get("areas", {}).values()) + entry.get("wounds", 0)
        rolls = [c if isinstance(c, int) else c["roll"] for c in entry.get("critical", [])]
        return plain + sum(CHART_WOUNDS[r] for r in rolls)

    def play(self) -> bool:
        draw = self.data.draw
        home, away = self.teams
        if not self.living(home) or not self.living(away):
            return False
        sides, wounds, squads = [], [], {}
        for team in (home, away):
            able = self.living(team)
            squads[team] = draw(st.lists(st.sampled_from(able), unique=True, min_size=1, max_size=8), "squad")
            sides.append({"team": team, "score": draw(st.integers(0, 20), "score"), "squad": squads[team]})
            for pid in squads[team]:
                if draw(st.integers(0, 2), "wounded?"):
                    wounds.append(self.draw_wound(pid))
        body = {"teams": sides, "wounds": wounds}
        mid = self.s.schedule("commish", self.league, [home, away], "scorchball")
        before = self.world()

        # R: a dead player is never accepted in a later result — in a squad or wounded — and nothing changes.
        dead = [pid for pid, m in self.model.items() if m.dead]
        if dead and draw(st.booleans(), "sneak a dead player in"):
            ghost = draw(st.sampled_from(dead), "ghost")
            team = self.model[ghost].team
            sneaked = {**body, "teams": [dict(side) for side in sides]}
            side = sneaked["teams"][0 if team == home else 1]
            if draw(st.booleans(), "in the squad") and len(side["squad"]) < 8:
                side["squad"] = [*side["squad"], ghost]
                event("sneaked: squad")
            else:
                sneaked["wounds"] = [*wounds, {"player": ghost, "wounds": 1}]
                event("sneaked: wounds")
            refused = self.s.submit("commish", mid, sneaked, status=400)
            assert blames(refused, "squad") or blames(refused, "wounds["), refused
            assert self.world() == before
            assert self.s.match(mid)["status"] == "scheduled"

        self.s.submit("commish", mid, body)
        self.s.confirm("alice", mid)
        assert self.world() == before, "something was applied at confirm"

        # The post-match sequences, interleaved at random.
        entries = {e["player"]: e for e in wounds}
        progress = {home: 0, away: 0}
        while any(i < len(STEPS) for i in progress.values()):
            team = draw(st.sampled_from([t for t, i in progress.items() if i < len(STEPS)]), "next team")
            step = STEPS[progress[team]]
            getattr(self, f"step_{step}")(mid, team, squads[team], entries)
            progress[team] += 1
            self.check([team])  # after its team_stats step, each team's last check: the sequence is complete
        return True

    # --- the steps, with the model following along ---------------------------------------------------------------
    def post(self, mid: int, team: int, step: str, choices=None) -> dict:
        return self.s.step(self.coach[team], mid, team, step, choices)

    def step_wounds(self, mid: int, team: int, squad: list[int], entries: dict[int, dict]) -> None:
        draw = self.data.draw
        sheet = self.s.players(team)
        for pid in squad:
            if pid in entries:
                self.model[pid].hit(self.hits(entries[pid]), self.advanced)
        living = self.living(team)
        damaged = {pid for pid in living if self.model[pid].wounds > 0}
        state = self.post(mid, team, "wounds")
        pending = state["pending"]
        if not self.trainers[team]:
            assert pending is None, ("no trainer, yet the wounds step stops", pending)
        elif damaged:
            assert pending is not None, "trainers and wounded players, but no heal decision"
        if pending is None:
            assert state["step"] == "veterans"
            self.learn_severed(team, entries)
            return
        event("decision: heal")
        options = self.s.pending(state, "wounds", "heal")
        assert options["trainers"] == self.trainers[team]
        offered = offered_ids(options["players"])
        assert damaged <= offered <= set(living), (damaged, offered, living)
        answer = []
        candidates = draw(st.permutations(sorted(offered)), "heal order")
        for pid in candidates[: draw(st.integers(0, self.trainers[team]), "trainers used")]:
            m = self.model[pid]
            incapacitations = sorted(
                (key, side)
                for key, side in condition_set(sheet[pid])
                if key in ("incapacitated_leg", "incapacitated_arm")
                and not (key == "incapacitated_arm" and self.severed(pid, side, entries))
            )
            if incapacitations and (not m.wounds or draw(st.booleans(), "remove a condition")):
                key, side = draw(st.sampled_from(incapacitations), "condition")
                answer.append({"player": pid, "remove": key, "side": side})
                event("heal: remove")
            elif m.wounds:
                boxes = draw(st.integers(1, min(3, m.wounds)), "boxes")
                answer.append({"player": pid, "boxes": boxes})
                m.wounds -= boxes
                event("heal: boxes")
        state = self.post(mid, team, "wounds", {"heal": answer})
        assert state["pending"] is None and state["step"] == "veterans", state
        self.learn_severed(team, entries)

    def severed(self, pid: int, side: str, entries: dict[int, dict]) -> bool:
        """The arm on `side` is severed, or may have been this match (a 6 whose side the service chooses)."""
        sixes = [c for c in entries.get(pid, {}).get("critical", []) if (c if isinstance(c, int) else c["roll"]) == 6]
        return side in self.model[pid].severed or any(isinstance(c, int) or c.get("side") == side for c in sixes)

    def learn_severed(self, team: int, entries: dict[int, dict]) -> None:
        """R: critical 6 severs an arm for good: the side given, or the one the service chose (I)."""
        sheet = self.s.players(team)
        for pid in self.living(team):
            m = self.model[pid]
            given = {
                c["side"] for c in entries.get(pid, {}).get("critical", []) if isinstance(c, dict) and c["roll"] == 6
            }
            now = {side for key, side in condition_set(sheet[pid]) if key == "severed_arm"}
            assert now >= m.severed | given, (pid, now, m.severed, given)
            m.severed = now

    def step_veterans(self, mid: int, team: int, squad: list[int], entries) -> None:
        for pid in squad:
            if not self.model[pid].dead:
                self.model[pid].matches_survived += 1
        living = [self.model[pid] for pid in self.living(team)]
        eligible = {
            pid for pid in self.living(team) if self.model[pid].matches_survived >= 5 and not self.model[pid].elite
        }
        slots = max(0, 1 - sum(1 for m in living if m.elite and m.role != "captain"))
        if not slots:  # I: no Elite slot besides the Captain: only the Captain can still be offered
            eligible = {pid for pid in eligible if self.model[pid].role == "captain"}
        state = self.post(mid, team, "veterans")
        pending = state["pending"]
        if eligible:
            assert pending is not None, f"{sorted(eligible)} qualify for Elite, but nothing is offered"
        else:
            assert pending is None, ("nobody can be promoted, yet a promotion is offered", pending)
        if pending is None:
            return
        event("decision: promote")
        options = self.s.pending(state, "veterans", "promote")
        assert {x["player"] for x in options["eligible"]} == eligible
        assert {x["player"]: x["matches_survived"] for x in options["eligible"]} == {
            pid: self.model[pid].matches_survived for pid in eligible
        }
        assert options["slots"] == slots
        draw = self.data.draw
        captain = [pid for pid in eligible if self.model[pid].role == "captain"]
        others = sorted(eligible - set(captain))
        chosen = draw(st.lists(st.sampled_from(others), unique=True, max_size=slots), "promote") if others else []
        if captain and draw(st.booleans(), "promote the captain"):
            chosen.append(captain[0])
        state = self.post(mid, team, "veterans", {"promote": chosen})
        assert state["pending"] is None, state
        for pid in chosen:
            self.model[pid].elite = True
            event("promoted")

    def step_team_stats(self, mid: int, team: int, squad, entries) -> None:
        state = self.post(mid, team, "team_stats")
        assert state["pending"] is None and state["complete"] is True, state


def run(data, *, advanced, commissioner, coach, other_coach, api_as) -> None:
    league = LeagueFactory(
        created_by=commissioner, ruleset="bonecruncher", house_rules_overrides={"advanced_wounds": advanced}
    )
    races, trainers, teams = {}, {}, {}
    for user, name in ((coach, "Home"), (other_coach, "Away")):
        race = data.draw(st.sampled_from(RACES), f"race of {name}")
        staff = data.draw(st.integers(0, 2), f"trainers of {name}")
        team, ids = squad_team(league, user, name, race, trainers=staff)
        races[team], trainers[team], teams[team] = race, staff, ids
    clients = {"commish": api_as(commissioner), "alice": api_as(coach), "bob": api_as(other_coach)}
    example = Example(
        data, league=league.pk, advanced=advanced, clients=clients, teams=teams, trainers=trainers, races=races
    )
    # Veterans: some players have already survived a few matches, so that promotions come up.
    for pid, m in example.model.items():
        m.matches_survived = data.draw(st.sampled_from([0, 0, 0, 3, 4, 5]), "matches survived")
        Player.objects.filter(pk=pid).update(matches_survived=m.matches_survived)
    example.check()
    for _ in range(data.draw(st.integers(1, 4), "matches")):
        if not example.play():
            break
    event(f"dead: {sum(1 for m in example.model.values() if m.dead)}")


@pytest.mark.django_db
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_basic_wounds_stay_sound_whatever_the_results(commissioner, coach, other_coach, api_as, data):
    run(data, advanced=False, commissioner=commissioner, coach=coach, other_coach=other_coach, api_as=api_as)


@pytest.mark.django_db
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_advanced_wounds_stay_sound_whatever_the_results(commissioner, coach, other_coach, api_as, data):
    run(data, advanced=True, commissioner=commissioner, coach=coach, other_coach=other_coach, api_as=api_as)
