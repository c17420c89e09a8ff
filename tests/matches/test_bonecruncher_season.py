"""A golden Bone Cruncher season, through the public API, every wound entered by hand — and one focused test per
rule it leans on (rules: ../shared/rules/bonecruncher.md, R rulebook / I interpretation / H house default;
api-v1 "Matches", "Post-match sequence").

Three coaches register, the commissioner creates a (basic wounds) league and adds them; each builds a squad of
twelve — #1 the Great Captain, #2 the Goalie:

    Orcs      "Gutrot Gougers"     (ork)   Orcs & Goblins, 2 coaches + 1 cheerleader, no trainer  movement 5
    Elves     "Silverleaf Sylphs"  (elf)   Elves, 2 trainers                                      movement 6
    Halflings "Bramble Bruisers"   (hob)   Halflings, no staff                                    movement 4

    M1  Terminix  Orcs 1st (5 eliminations), Elves 2nd (3), Halflings 3rd (1)   every able player takes part
    M2  Scorchball  Halflings 6 – 9 Orcs          the Halfling Captain takes his 10th wound and dies
    M3  Scorchball  Orcs 10 – 5 Elves
    M4  Scorchball  Elves 7 – 7 Orcs
    M5  Scorchball  Orcs 4 – 12 Elves              the Orcs' squad has survived 5 matches: one Elite promotion
    M6  Scorchball  Halflings – Elves, scheduled: a result naming the dead Captain is refused; never played

Every sheet and the standings are asserted at the end with the numbers worked out in the comments.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from teams.models import Player
from tests.factories import LeagueFactory, UserFactory
from tests.invites import invite_and_accept
from tests.matches.bonecruncher_helpers import (
    AREAS,
    BoneCruncher,
    blames,
    condition_set,
    marked,
    offered_ids,
    squad_team,
    wounds_view,
)

pytestmark = pytest.mark.django_db


def expect(ids: dict[int, int], default: tuple, **by_number: tuple) -> dict[int, tuple]:
    """Player id → (wounds, armour_used, matches_survived, elite): `default` for all, overridden by shirt number
    (keys `n3` = #3)."""
    out = {pid: default for pid in ids.values()}
    for key, value in by_number.items():
        out[ids[int(key[1:])]] = value
    return out


def squad(ids: dict[int, int], numbers) -> list[int]:
    return [ids[n] for n in numbers]


# ======================================================================================================================
# The golden season
# ======================================================================================================================


def test_a_three_team_bone_cruncher_season_lands_on_hand_worked_numbers():
    s = BoneCruncher()
    for name in ("commish", "ork", "elf", "hob"):
        s.register(name)
    league = s.post("commish", "/api/v1/leagues/", {"name": "Bone Cup", "ruleset": "bonecruncher"})["id"]
    for coach in ("ork", "elf", "hob"):
        invite_and_accept(s, commissioner="commish", league=league, who=coach)

    OG, o = s.build_team("ork", league, "Gutrot Gougers", "orcs_goblins", staff={"coach": 2, "cheerleader": 1})
    E, e = s.build_team("elf", league, "Silverleaf Sylphs", "elves", staff={"trainer": 2})
    H, h = s.build_team("hob", league, "Bramble Bruisers", "halflings")
    assert s.team(E)["staff"].get("trainer") == 2

    # R basic wounds: 10 wound boxes each; armour boxes Captain 2, Goalie 1, everyone else 0.
    # Movement: Orcs 5 (standard), Elves 6 (speedsters), Halflings 4 (slow).
    for team, race, move in ((OG, "orcs_goblins", 5), (E, "elves", 6), (H, "halflings", 4)):
        sheet = s.by_number(team)
        assert len(sheet) == 12
        assert [
            ((p["role"] or ""), p["armour_boxes"], p["armour_used"], p["wounds"], p["wound_limit"], p["movement"])
            for p in (sheet[1], sheet[2], sheet[3])
        ] == [("captain", 2, 0, 0, 10, move), ("goalie", 1, 0, 0, 10, move), ("", 0, 0, 0, 10, move)]
        assert {p["race"] for p in sheet.values()} == {race}
        assert all(p["matches_survived"] == 0 and p["elite"] is False for p in sheet.values())

    # === M1: Terminix, three teams, every able player in each squad (I: the default squad, 12 ≤ 12) =============
    m1 = s.play(
        "commish",
        league,
        [OG, E, H],
        "terminix",
        {
            "teams": [
                {"team": OG, "placing": 1, "eliminations": 5},
                {"team": E, "placing": 2, "eliminations": 3},
                {"team": H, "placing": 3, "eliminations": 1},
            ],
            "wounds": [
                # H1, the Halfling Captain: 4 wounds + critical 4 (torso, 3 wounds) = 7 hits; armour first:
                #   2 on his 2 armour boxes, then 5 wound boxes → 5/10.
                {"player": h[1], "wounds": 4, "critical": [4]},
                # E2, the Elf Goalie: 3 hits → 1 armour box, 2 wound boxes.
                {"player": e[2], "wounds": 3},
                # E3: 3 wound boxes.
                {"player": e[3], "wounds": 3},
                # E4: critical 2 — incapacitated left leg: 2 wound boxes, movement 6 − 2 = 4 until healed.
                {"player": e[4], "wounds": 0, "critical": [{"roll": 2, "side": "left"}]},
                # E5: critical 6 — severed left arm: 4 wound boxes, and the arm never heals.
                {"player": e[5], "wounds": 0, "critical": [{"roll": 6, "side": "left"}]},
                # O6: critical 1 — stunned arm: 2 wound boxes, nothing lasting. O7: critical 5 — head: 2 boxes.
                {"player": o[6], "wounds": 0, "critical": [1]},
                {"player": o[7], "wounds": 0, "critical": [5]},
            ],
        },
        "elf",
        "hob",
    )
    # I: nothing is applied at confirm — the post-match steps apply it.
    assert wounds_view(s.team(H)["players"])[h[1]] == (0, 0, 0, False)
    assert wounds_view(s.team(E)["players"])[e[5]] == (0, 0, 0, False)
    # H: Terminix 1st 3, 2nd 1, others 0.
    assert s.league_points(m1) == [(OG, 3), (E, 1), (H, 0)]

    # Orcs and Halflings have no trainer: their wounds step never stops. Nobody has survived 5 matches yet.
    s.walk("ork", m1, OG)
    s.walk("hob", m1, H)
    # Elves: 2 trainers and four living players with healable damage (E2 2 boxes, E3 3, E4 2 + a leg, E5 4):
    # the wounds step stops for "heal".
    state = s.step("elf", m1, E, "wounds")
    options = s.pending(state, "wounds", "heal")
    assert options["trainers"] == 2
    assert offered_ids(options["players"]) == {e[2], e[3], e[4], e[5]}
    # H: a severed arm never heals; a Trainer heals at most 3 boxes; two trainers, not three. Refused, nothing moves.
    for refused in (
        [{"player": e[5], "remove": "severed_arm", "side": "left"}],
        [{"player": e[3], "boxes": 4}],
        [{"player": e[2], "boxes": 1}, {"player": e[3], "boxes": 1}, {"player": e[5], "boxes": 1}],
    ):
        assert blames(s.step("elf", m1, E, "wounds", {"heal": refused}, status=400), "choices.heal")
    assert s.pending(s.state(m1, E), "wounds", "heal") == options
    assert wounds_view(s.team(E)["players"])[e[3]] == (0, 0, 0, False)
    # Trainer 1 heals E3's 3 boxes (3 → 0); trainer 2 removes E4's incapacitated left leg (his 2 boxes stay).
    state = s.step(
        "elf",
        m1,
        E,
        "wounds",
        {"heal": [{"player": e[3], "boxes": 3}, {"player": e[4], "remove": "incapacitated_leg", "side": "left"}]},
    )
    assert state["pending"] is None and state["step"] == "veterans"
    for step in ("veterans", "team_stats"):
        state = s.step("elf", m1, E, step)
        assert state["pending"] is None, state["pending"]
    assert state["complete"] is True

    elves = s.players(E)
    assert condition_set(elves[e[5]]) == {("severed_arm", "left")}
    assert condition_set(elves[e[4]]) == set() and elves[e[4]]["movement"] == 6
    assert elves[e[5]]["movement"] == 6  # an arm costs no movement
    orcs = s.players(OG)
    assert condition_set(orcs[o[6]]) == set()  # R: a stunned arm leaves nothing between matches
    # R: every squad player alive survived one match.
    assert wounds_view(s.team(H)["players"]) == expect(h, (0, 0, 1, False), n1=(5, 2, 1, False))

    # === M2: Scorchball, Halflings 6 – 9 Orcs (squads #1–#8) ===============================================
    m2 = s.play(
        "commish",
        league,
        [H, OG],
        "scorchball",
        {
            "teams": [
                {"team": H, "score": 6, "squad": squad(h, range(1, 9))},
                {"team": OG, "score": 9, "squad": squad(o, range(1, 9))},
            ],
            "wounds": [
                # H1: 4 wounds + critical 2 (leg, 2 wounds) = 6 hits; his armour is spent (2/2): wound boxes
                #   5 → 10 on the 5th hit — the 10th wound kills (R); the 6th finds no box.
                {"player": h[1], "wounds": 4, "critical": [{"roll": 2, "side": "right"}]},
                # O2, the Orc Goalie: 2 hits → 1 armour box, 1 wound box.
                {"player": o[2], "wounds": 2},
            ],
        },
        "hob",
        "ork",
    )
    assert s.league_points(m2) == [(H, 0), (OG, 3)]  # H: Scorchball win 3 / loss 0
    assert wounds_view(s.team(H)["players"])[h[1]] == (5, 2, 1, False)  # still alive until the steps run
    s.walk("hob", m2, H)
    s.walk("ork", m2, OG)

    # R: the dead Captain leaves the roster and is listed in the memorial; he survived one match (M1).
    bruisers = s.players(H)
    assert h[1] not in bruisers and len(bruisers) == 11
    memorial = s.memorial(league)
    assert [(m["player"], m["team"], m["died_in_match"], m["cause"], m["matches_survived"]) for m in memorial] == [
        (h[1], H, m2, "dead", 1)
    ]
    # His Captain role is cleared: the sheet shows no Captain (and the row, which the API no longer shows, has none).
    assert [p["role"] for p in bruisers.values() if p["role"] == "captain"] == []
    assert Player.objects.values_list("status", "role").get(pk=h[1]) == ("dead", "")
    s.call("hob", "patch", f"/api/v1/teams/{H}/players/{h[1]}/", {"role": "captain"}, status=404)
    # R: one Great Captain per team — H3 takes the armband, and the Captain's 2 armour boxes with it.
    assert s.call("hob", "patch", f"/api/v1/teams/{H}/players/{h[3]}/", {"role": "captain"})["role"] == "captain"
    assert s.players(H)[h[3]]["armour_boxes"] == 2

    # === M3: Scorchball, Orcs 10 – 5 Elves (squads #1–#8) ====================================================
    m3 = s.play(
        "commish",
        league,
        [OG, E],
        "scorchball",
        {
            "teams": [
                {"team": OG, "score": 10, "squad": squad(o, range(1, 9))},
                {"team": E, "score": 5, "squad": squad(e, range(1, 9))},
            ],
            "wounds": [{"player": o[4], "wounds": 2}],  # O4: 2 wound boxes (no armour)
        },
        "ork",
        "elf",
    )
    s.walk("ork", m3, OG)
    # Elves: healable damage on E2 (2 boxes), E4 (2) and E5 (4); E3 is whole. Trainer 1: E2's 2 boxes (2 → 0; his
    # used armour box stays used — armour never heals); trainer 2: 3 of E5's boxes (4 → 1).
    offered = s.walk("elf", m3, E, wounds=("heal", [{"player": e[2], "boxes": 2}, {"player": e[5], "boxes": 3}]))
    assert offered["wounds"]["trainers"] == 2
    assert offered_ids(offered["wounds"]["players"]) == {e[2], e[4], e[5]}

    # === M4: Scorchball, Elves 7 – 7 Orcs: a draw, 1 point each (H) ===========================================
    m4 = s.play(
        "commish",
        league,
        [E, OG],
        "scorchball",
        {
            "teams": [
                {"team": E, "score": 7, "squad": squad(e, range(1, 9))},
                {"team": OG, "score": 7, "squad": squad(o, range(1, 9))},
            ]
        },
        "elf",
        "ork",
    )
    assert s.league_points(m4) == [(E, 1), (OG, 1)]
    # Elves: E4 2 boxes, E5 1 box left. Trainer 1: E4 2 → 0; trainer 2: E5 1 → 0 (the severed arm stays).
    offered = s.walk("elf", m4, E, wounds=("heal", [{"player": e[4], "boxes": 2}, {"player": e[5], "boxes": 1}]))
    assert offered_ids(offered["wounds"]["players"]) == {e[4], e[5]}
    s.walk("ork", m4, OG)  # O1–O8: 4 matches survived — no offer yet

    # === M5: Scorchball, Orcs 4 – 12 Elves; the commissioner confirms ==========================================
    m5 = s.play(
        "commish",
        league,
        [OG, E],
        "scorchball",
        {
            "teams": [
                {"team": OG, "score": 4, "squad": squad(o, range(1, 9))},
                {"team": E, "score": 12, "squad": squad(e, range(1, 9))},
            ],
            "wounds": [{"player": e[1], "wounds": 1}],  # E1, the Elf Captain: the hit lands on armour (1/2)
        },
        "ork",
        "commish",
    )
    # Elves: trainers, but no healable damage — E1's hit is on armour (never heals), E5 has only his severed arm:
    # the wounds step does not stop. E1–E8 have survived 4 matches (M1, M3–M5): no promotion offer.
    s.walk("elf", m5, E)
    # Orcs: O1–O8 have survived M1–M5 = 5 matches (H: Elite after 5): the veterans step offers all eight, one slot
    # (I: at most one Elite besides the Captain).
    assert s.step("ork", m5, OG, "wounds")["pending"] is None
    options = s.pending(s.step("ork", m5, OG, "veterans"), "veterans", "promote")
    assert sorted((x["player"], x["matches_survived"]) for x in options["eligible"]) == [(o[n], 5) for n in range(1, 9)]
    assert options["slots"] == 1
    refused = s.step("ork", m5, OG, "veterans", {"promote": [o[3], o[4]]}, status=400)  # two besides the Captain
    assert blames(refused, "choices.promote")
    assert s.step("ork", m5, OG, "veterans", {"promote": [o[3]]})["pending"] is None
    assert s.step("ork", m5, OG, "team_stats")["complete"] is True

    # === M6: Halflings – Elves, scheduled. R: a dead player never plays again ===================================
    m6 = s.schedule("commish", league, [H, E], "scorchball")
    e_squad = squad(e, range(1, 9))
    refused = s.submit(
        "hob",
        m6,
        {"teams": [{"team": H, "score": 1, "squad": squad(h, range(1, 9))}, {"team": E, "score": 0, "squad": e_squad}]},
        status=400,
    )
    assert blames(refused, "teams[0].squad"), refused
    refused = s.submit(
        "hob",
        m6,
        {
            "teams": [
                {"team": H, "score": 1, "squad": squad(h, range(2, 10))},
                {"team": E, "score": 0, "squad": e_squad},
            ],
            "wounds": [{"player": h[1], "wounds": 1}],
        },
        status=400,
    )
    assert blames(refused, "wounds[0].player"), refused
    assert s.match(m6)["status"] == "scheduled"

    # === The end of the season =================================================================================
    for mid, teams in ((m1, (OG, E, H)), (m2, (H, OG)), (m3, (OG, E)), (m4, (E, OG)), (m5, (OG, E))):
        assert all(a["complete"] for a in s.match(mid)["aftermath"]), mid
        assert sorted(a["team"] for a in s.match(mid)["aftermath"]) == sorted(teams)

    # Orcs: O2 1 box + 1 armour (M2); O4 2 boxes (M3); O6, O7 2 boxes each (M1); O1–O8 survived 5, O9–O12 only M1.
    # O3 is Elite: R basic Elite +1 armour box → 1; O1 (Captain) and O4 still qualify (5 survived, not Elite).
    orcs = s.players(OG)
    assert wounds_view(orcs.values()) == expect(
        o,
        (0, 0, 5, False),
        n2=(1, 1, 5, False),
        n3=(0, 0, 5, True),
        n4=(2, 0, 5, False),
        n6=(2, 0, 5, False),
        n7=(2, 0, 5, False),
        n9=(0, 0, 1, False),
        n10=(0, 0, 1, False),
        n11=(0, 0, 1, False),
        n12=(0, 0, 1, False),
    )
    assert [(orcs[o[n]]["armour_boxes"], orcs[o[n]]["qualifies_for_elite"]) for n in (1, 3, 4, 9)] == [
        (2, True),
        (1, False),
        (0, True),
        (0, False),
    ]
    # Elves: E1 1 armour (M5), E2 1 armour (M1; his boxes healed in M3), every box healed; E1–E8 survived M1, M3–M5.
    elves = s.players(E)
    assert wounds_view(elves.values()) == expect(
        e,
        (0, 0, 4, False),
        n1=(0, 1, 4, False),
        n2=(0, 1, 4, False),
        n9=(0, 0, 1, False),
        n10=(0, 0, 1, False),
        n11=(0, 0, 1, False),
        n12=(0, 0, 1, False),
    )
    assert condition_set(elves[e[5]]) == {("severed_arm", "left")}
    assert all(not p["qualifies_for_elite"] for p in elves.values())
    # Halflings: H1 dead; H2–H8 survived M1 and M2, H9–H12 M1 only.
    bruisers = s.players(H)
    del h[1]
    assert wounds_view(bruisers.values()) == expect(
        h, (0, 0, 2, False), n9=(0, 0, 1, False), n10=(0, 0, 1, False), n11=(0, 0, 1, False), n12=(0, 0, 1, False)
    )
    assert [p["role"] for p in bruisers.values() if p["role"]] == ["goalie", "captain"]  # H2, H3

    # League points per match (H: Scorchball 3/1/0; Terminix 1st 3, 2nd 1, others 0).
    assert [s.league_points(m) for m in (m1, m2, m3, m4, m5)] == [
        [(OG, 3), (E, 1), (H, 0)],
        [(H, 0), (OG, 3)],
        [(OG, 3), (E, 0)],
        [(E, 1), (OG, 1)],
        [(OG, 0), (E, 3)],
    ]
    # Standings. Terminix placing 1 counts as won, the others lost; a Terminix side scores nothing; casualties
    # inflicted = Terminix eliminations.
    #   Orcs:      M1 W 3, M2 W 3, M3 W 3, M4 D 1, M5 L 0 = 10 pts; scored 9+10+7+4 = 30, conceded 6+5+7+12 = 30; 5
    #   Elves:     M1 L 1, M3 L 0, M4 D 1, M5 W 3 = 5 pts;          scored 5+7+12 = 24,   conceded 10+7+4 = 21;   3
    #   Halflings: M1 L 0, M2 L 0 = 0 pts;                          scored 6,             conceded 9;            1
    #   (M6 is only scheduled: it counts for nobody.)
    assert s.standings(league) == [
        (1, OG, 5, 3, 1, 1, 10, 30, 30, 5),
        (2, E, 4, 1, 1, 2, 5, 24, 21, 3),
        (3, H, 2, 0, 0, 2, 0, 6, 9, 1),
    ]


def test_an_advanced_wounds_league_marks_areas_overflows_and_counts_protection(
    commissioner, coach, other_coach, api_as
):
    """R advanced wounds (league option): per-area hit squares and the race's protection boxes (Goalie +3);
    I: a full area overflows to the next with room (torso, left leg, right leg, left arm, right arm, head);
    I: death at min(rulebook total, sum of the areas) — the Amazons' 33 is one more than their 32 squares."""
    s = BoneCruncher({"commish": api_as(commissioner), "alice": api_as(coach), "bob": api_as(other_coach)})
    league = s.post(
        "commish",
        "/api/v1/leagues/",
        {"name": "Bloody Cup", "ruleset": "bonecruncher", "house_rules": {"advanced_wounds": True}},
    )["id"]
    for who in ("alice", "bob"):
        username = {"alice": coach.username, "bob": other_coach.username}[who]
        invite_and_accept(s, commissioner="commish", league=league, who=who, username=username)
    A, a = s.build_team("alice", league, "Amber Amazons", "amazons")
    U, u = s.build_team("bob", league, "Umber Undead", "undead_zombies")

    amazons, undead = s.by_number(A), s.by_number(U)
    # Undead & Zombies: head 3, torso 6, each arm 4, each leg 4 (= 25), protection 1.
    # Amazons: head 5, torso 9, each arm 4, each leg 5 (= 32; rulebook total 33), protection 4.
    assert {area: undead[5]["health_template"][area] for area in AREAS} == {
        "head": 3,
        "torso": 6,
        "left_arm": 4,
        "right_arm": 4,
        "left_leg": 4,
        "right_leg": 4,
    }
    assert amazons[5]["health_template"]["total"] == 33
    assert [p["wound_limit"] for p in (undead[1], undead[5], amazons[1], amazons[5])] == [25, 25, 32, 32]
    # Protection: the race's boxes; the Goalie +3; the Captain nothing more (the templates give him none).
    assert [p["armour_boxes"] for p in (undead[1], undead[2], undead[5])] == [1, 4, 1]
    assert [p["armour_boxes"] for p in (amazons[1], amazons[2], amazons[5])] == [4, 7, 4]

    m = s.play(
        "commish",
        league,
        [A, U],
        "scorchball",
        {
            "teams": [
                {"team": A, "score": 3, "squad": squad(a, range(1, 9))},
                {"team": U, "score": 5, "squad": squad(u, range(1, 9))},
            ],
            "wounds": [
                # U2, Undead Goalie (4 protection): 10 torso hits + critical 4 (torso, 3) = 13 on the torso:
                #   4 protection, 6 torso squares (full), 3 overflow to the left leg → torso 6, left leg 3 = 9.
                {"player": u[2], "areas": {"torso": 10}, "critical": [4]},
                # U5 (1 protection): 6 left-arm hits + critical 6 left (severed arm, 4) = 10 on the left arm:
                #   1 protection, 4 left arm (full), 5 overflow to the torso → left arm 4, torso 5 = 9.
                {"player": u[5], "areas": {"left_arm": 6}, "critical": [{"roll": 6, "side": "left"}]},
                # U6: 3 right-leg hits → 1 protection, right leg 2.
                {"player": u[6], "areas": {"right_leg": 3}},
                # A1, Amazon Captain (4 protection): 6 head hits → 4 protection, head 2.
                {"player": a[1], "areas": {"head": 6}},
                # A6 (4 protection): 25 torso hits → 4 protection, torso 9, left leg 5, right leg 5, left arm 2 = 21.
                {"player": a[6], "areas": {"torso": 25}},
                # A5 (4 protection): 36 torso hits → 4 protection, then 9 + 5 + 5 + 4 + 4 + 5 = 32 squares: every
                #   area full, 32 = min(33, 32) → dead.
                {"player": a[5], "areas": {"torso": 36}},
            ],
        },
        "alice",
        "bob",
    )
    s.walk("alice", m, A)
    s.walk("bob", m, U)

    undead = s.players(U)
    got = {
        n: (undead[u[n]]["wounds"], undead[u[n]]["armour_used"], marked(undead[u[n]]["wound_areas"])) for n in (2, 5, 6)
    }
    assert got == {
        2: (9, 4, {"torso": 6, "left_leg": 3}),
        5: (9, 1, {"left_arm": 4, "torso": 5}),
        6: (2, 1, {"right_leg": 2}),
    }
    assert condition_set(undead[u[5]]) == {("severed_arm", "left")}
    amazons = s.players(A)
    assert a[5] not in amazons and len(amazons) == 11
    got = {
        n: (amazons[a[n]]["wounds"], amazons[a[n]]["armour_used"], marked(amazons[a[n]]["wound_areas"])) for n in (1, 6)
    }
    assert got == {1: (2, 4, {"head": 2}), 6: (21, 4, {"torso": 9, "left_leg": 5, "right_leg": 5, "left_arm": 2})}
    assert [(x["player"], x["cause"]) for x in s.memorial(league)] == [(a[5], "dead")]


# ======================================================================================================================
# Focused tests, one rule each
# ======================================================================================================================


@dataclass
class Duel:
    s: BoneCruncher
    league: int
    OG: int  # alice's Orcs & Goblins, no trainer
    o: dict[int, int]
    E: int  # bob's Elves, one Trainer
    e: dict[int, int]
    league_obj: object

    def scorchball(self, o_score=0, e_score=0, wounds=(), o_squad=range(1, 9), e_squad=range(1, 9)) -> dict:
        return {
            "teams": [
                {"team": self.OG, "score": o_score, "squad": squad(self.o, o_squad)},
                {"team": self.E, "score": e_score, "squad": squad(self.e, e_squad)},
            ],
            "wounds": list(wounds),
        }

    def play(self, body: dict) -> int:
        return self.s.play("commish", self.league, [self.OG, self.E], "scorchball", body, "alice", "bob")


@pytest.fixture
def duel(commissioner, coach, other_coach, api_as) -> Duel:
    league = LeagueFactory(created_by=commissioner, name="Duel Cup", ruleset="bonecruncher")
    OG, o = squad_team(league, coach, "Orc", "orcs_goblins")
    E, e = squad_team(league, other_coach, "Elf", "elves", trainers=1)
    s = BoneCruncher({"commish": api_as(commissioner), "alice": api_as(coach), "bob": api_as(other_coach)})
    return Duel(s=s, league=league.pk, OG=OG, o=o, E=E, e=e, league_obj=league)


@pytest.fixture
def carol(duel, api_as):
    """A third team: carol's Halflings."""
    user = UserFactory(username="carol")
    duel.s.clients["carol"] = api_as(user)
    return squad_team(duel.league_obj, user, "Hob", "halflings")


def test_R_terminix_placings_must_be_complete_and_distinct(duel, carol):
    s, OG, E = duel.s, duel.OG, duel.E
    H, _ = carol
    mid = s.schedule("commish", duel.league, [OG, E, H], "terminix")
    for teams in (
        [{"team": OG, "placing": 1}, {"team": E, "placing": 2}, {"team": H, "placing": 2}],  # duplicate
        [{"team": OG, "placing": 1}, {"team": E, "placing": 2}],  # a team left out
        [{"team": OG, "placing": 1}, {"team": E, "placing": 2}, {"team": H}],  # a placing left out
        [{"team": OG, "placing": 1}, {"team": E, "placing": 2}, {"team": H, "placing": 4}],  # not 1..3
        [{"team": OG, "placing": 0}, {"team": E, "placing": 1}, {"team": H, "placing": 2}],  # not 1..3
    ):
        assert blames(s.submit("alice", mid, {"teams": teams}, status=400), "teams"), teams
    assert s.match(mid)["status"] == "scheduled"
    s.submit(
        "alice", mid, {"teams": [{"team": OG, "placing": 3}, {"team": E, "placing": 1}, {"team": H, "placing": 2}]}
    )


def test_R_a_scorchball_squad_is_at_most_eight(duel):
    s = duel.s
    mid = s.schedule("commish", duel.league, [duel.OG, duel.E], "scorchball")
    refused = s.submit("alice", mid, duel.scorchball(3, 2, o_squad=range(1, 10)), status=400)
    assert blames(refused, "teams[0].squad"), refused
    assert s.match(mid)["status"] == "scheduled"
    s.submit("alice", mid, duel.scorchball(3, 2))


def test_I_wounds_only_for_players_in_their_teams_squad(duel):
    s, o, e = duel.s, duel.o, duel.e
    mid = s.schedule("commish", duel.league, [duel.OG, duel.E], "scorchball")
    for outside in ({"player": o[9], "wounds": 1}, {"player": e[12], "critical": [3]}):  # O9 and E12 sat out
        assert blames(s.submit("alice", mid, duel.scorchball(1, 0, wounds=[outside]), status=400), "wounds[0].player")
    assert s.match(mid)["status"] == "scheduled"
    s.submit("alice", mid, duel.scorchball(1, 0, wounds=[{"player": o[8], "wounds": 1}]))


def test_R_the_tenth_wound_kills_after_the_armour_and_a_dead_player_never_plays_again(duel):
    s, OG, o = duel.s, duel.OG, duel.o
    # O1, the Captain: 11 hits → 2 armour + 9 wound boxes: alive at 9/10. O3: 9 wound boxes: alive.
    m1 = duel.play(duel.scorchball(2, 1, wounds=[{"player": o[1], "wounds": 11}, {"player": o[3], "wounds": 9}]))
    s.walk("alice", m1, OG)
    s.walk("bob", m1, duel.E)
    orcs = s.players(OG)
    assert [(orcs[o[n]]["wounds"], orcs[o[n]]["armour_used"]) for n in (1, 3)] == [(9, 2), (9, 0)]
    # One more wound each: the 10th kills (R).
    m2 = duel.play(duel.scorchball(0, 0, wounds=[{"player": o[1], "wounds": 1}, {"player": o[3], "wounds": 1}]))
    s.walk("alice", m2, OG)
    s.walk("bob", m2, duel.E)
    orcs = s.players(OG)
    assert o[1] not in orcs and o[3] not in orcs and len(orcs) == 10
    assert sorted(m["player"] for m in s.memorial(duel.league)) == [o[1], o[3]]
    assert not [p for p in orcs.values() if p["role"] == "captain"]
    assert Player.objects.get(pk=o[1]).role == ""  # his Captain role is cleared
    dead_rows = list(Player.objects.filter(pk__in=[o[1], o[3]]).order_by("pk").values())

    # In a later result: in the squad, or wounded outside it → 400; Terminix (default squad: the able players)
    # does not take him either.
    mid = s.schedule("commish", duel.league, [OG, duel.E], "scorchball")
    refused = s.submit("alice", mid, duel.scorchball(1, 0, o_squad=[3, 4, 5]), status=400)
    assert blames(refused, "teams[0].squad[0]"), refused
    refused = s.submit("alice", mid, duel.scorchball(1, 0, o_squad=[4, 5], wounds=[{"player": o[3], "wounds": 1}]), 400)
    assert blames(refused, "wounds[0].player"), refused
    t = s.schedule("commish", duel.league, [OG, duel.E], "terminix")
    body = {"teams": [{"team": OG, "placing": 1}, {"team": duel.E, "placing": 2}]}
    refused = s.submit("alice", t, {**body, "wounds": [{"player": o[1], "wounds": 1}]}, status=400)
    assert blames(refused, "wounds[0].player"), refused
    assert [s.match(x)["status"] for x in (mid, t)] == ["scheduled", "scheduled"]
    s.submit("alice", t, body)
    s.confirm("bob", t)
    s.walk("alice", t, OG)
    assert list(Player.objects.filter(pk__in=[o[1], o[3]]).order_by("pk").values()) == dead_rows  # never changes


def test_H_terminix_league_points_are_3_1_0_and_placing_1_wins(duel, carol):
    s, OG, E = duel.s, duel.OG, duel.E
    H, _ = carol
    mid = s.play(
        "commish",
        duel.league,
        [OG, E, H],
        "terminix",
        {
            "teams": [
                {"team": OG, "placing": 3, "eliminations": 1},
                {"team": E, "placing": 1, "eliminations": 6},
                {"team": H, "placing": 2, "eliminations": 2},
            ]
        },
        "alice",
        "carol",
    )
    assert s.league_points(mid) == [(OG, 0), (E, 3), (H, 1)]
    # E 1st: won, 3 pts; H 2nd: lost, 1 pt; OG 3rd: lost, 0. Terminix scores nothing; eliminations are casualties.
    assert s.standings(duel.league) == [
        (1, E, 1, 1, 0, 0, 3, 0, 0, 6),
        (2, H, 1, 0, 0, 1, 1, 0, 0, 2),
        (3, OG, 1, 0, 0, 1, 0, 0, 0, 1),
    ]


def test_H_a_scorchball_draw_gives_one_point_each_and_a_win_three(duel):
    s, OG, E = duel.s, duel.OG, duel.E
    draw = duel.play(duel.scorchball(4, 4))
    assert s.league_points(draw) == [(OG, 1), (E, 1)]
    rows = {r[1]: r[2:] for r in s.standings(duel.league)}
    assert rows == {OG: (1, 0, 1, 0, 1, 4, 4, 0), E: (1, 0, 1, 0, 1, 4, 4, 0)}
    s.walk("alice", draw, OG)
    s.walk("bob", draw, E)
    win = duel.play(duel.scorchball(2, 5))
    assert s.league_points(win) == [(OG, 0), (E, 3)]
    assert s.standings(duel.league) == [(1, E, 2, 1, 1, 0, 4, 9, 6, 0), (2, OG, 2, 0, 1, 1, 1, 6, 9, 0)]


def test_the_post_match_steps_run_in_order_and_any_other_step_is_409(duel):
    s, OG, o = duel.s, duel.OG, duel.o
    mid = duel.play(duel.scorchball(1, 0, wounds=[{"player": o[5], "wounds": 2}]))
    assert s.state(mid, OG)["steps"] == ["wounds", "veterans", "team_stats"]
    for step in ("veterans", "team_stats", "improvements"):
        s.step("alice", mid, OG, step, status=409)
    assert s.state(mid, OG)["step"] == "wounds"
    assert s.players(OG)[o[5]]["wounds"] == 0  # nothing applied by the refused steps
    s.step("alice", mid, OG, "wounds")
    s.step("alice", mid, OG, "wounds", status=409)
    assert s.players(OG)[o[5]]["wounds"] == 2  # applied once
    s.step("alice", mid, OG, "veterans")
    s.step("alice", mid, OG, "team_stats")
    for step in ("wounds", "veterans", "team_stats"):
        s.step("alice", mid, OG, step, status=409)
    assert s.state(mid, OG)["complete"] is True
    assert s.players(OG)[o[5]]["matches_survived"] == 1


def test_R_the_critical_wound_chart(duel):
    """R: 1 stunned arm 2 wounds (nothing lasting), 2 incapacitated leg 2 (−2 movement until healed),
    3 incapacitated arm 2, 4 torso 3, 5 head 2, 6 severed arm 4 (never heals) — after the plain wounds."""
    s, OG, o = duel.s, duel.OG, duel.o
    mid = duel.play(
        duel.scorchball(
            wounds=[
                {"player": o[1], "wounds": 1, "critical": [4]},  # Captain: 1 + 3 = 4 hits → 2 armour, 2 boxes
                {"player": o[3], "wounds": 0, "critical": [1]},
                {"player": o[4], "wounds": 0, "critical": [{"roll": 2, "side": "left"}]},
                {"player": o[5], "wounds": 0, "critical": [{"roll": 3, "side": "right"}]},
                {"player": o[6], "wounds": 0, "critical": [4]},
                {"player": o[7], "wounds": 0, "critical": [5]},
                {"player": o[8], "wounds": 1, "critical": [{"roll": 6, "side": "right"}]},  # 1 + 4 = 5
            ]
        )
    )
    s.walk("alice", mid, OG)
    orcs = s.players(OG)
    got = {
        n: (orcs[o[n]]["wounds"], orcs[o[n]]["armour_used"], condition_set(orcs[o[n]]), orcs[o[n]]["movement"])
        for n in (1, 3, 4, 5, 6, 7, 8)
    }
    assert got == {
        1: (2, 2, set(), 5),
        3: (2, 0, set(), 5),
        4: (2, 0, {("incapacitated_leg", "left")}, 3),
        5: (2, 0, {("incapacitated_arm", "right")}, 5),
        6: (3, 0, set(), 5),
        7: (2, 0, set(), 5),
        8: (5, 0, {("severed_arm", "right")}, 5),
    }


def test_H_a_trainer_heals_up_to_three_boxes_never_armour_and_may_be_declined(duel):
    s, E, e = duel.s, duel.E, duel.e
    # E1, the Elf Captain: 6 hits → 2 armour, 4 boxes. E6: 2 boxes.
    m1 = duel.play(duel.scorchball(wounds=[{"player": e[1], "wounds": 6}, {"player": e[6], "wounds": 2}]))
    state = s.step("bob", m1, E, "wounds")
    options = s.pending(state, "wounds", "heal")
    assert options["trainers"] == 1 and offered_ids(options["players"]) == {e[1], e[6]}
    two = [{"player": e[1], "boxes": 2}, {"player": e[6], "boxes": 1}]  # two players, one Trainer
    assert blames(s.step("bob", m1, E, "wounds", {"heal": two}, status=400), "choices.heal")
    s.step("bob", m1, E, "wounds", {"heal": [{"player": e[1], "boxes": 3}]})
    elves = s.players(E)
    assert (elves[e[1]]["wounds"], elves[e[1]]["armour_used"]) == (1, 2)  # 4 − 3 boxes; armour stays used
    assert elves[e[6]]["wounds"] == 2
    s.step("bob", m1, E, "veterans")
    s.step("bob", m1, E, "team_stats")
    s.walk("alice", m1, duel.OG)
    # Next match: the coach declines (an empty answer): nothing heals.
    m2 = duel.play(duel.scorchball())
    offered = s.walk("bob", m2, E, wounds=("heal", []))
    assert offered_ids(offered["wounds"]["players"]) == {e[1], e[6]}
    elves = s.players(E)
    assert [(elves[e[n]]["wounds"], elves[e[n]]["armour_used"]) for n in (1, 6)] == [(1, 2), (2, 0)]


def test_H_support_staff_is_at_most_two_of_each(duel):
    s = duel.s
    s.post("alice", f"/api/v1/teams/{duel.OG}/purchases/", {"item": "trainer", "quantity": 2})
    s.post("alice", f"/api/v1/teams/{duel.OG}/purchases/", {"item": "trainer", "quantity": 1}, status=400)
    s.post("bob", f"/api/v1/teams/{duel.E}/purchases/", {"item": "trainer", "quantity": 2}, status=400)  # has 1
    assert s.team(duel.OG)["staff"].get("trainer") == 2
    assert s.team(duel.E)["staff"].get("trainer") == 1


def test_R_elite_adds_two_protection_boxes_in_advanced_wounds_and_one_elite_besides_the_captain(
    commissioner, coach, other_coach, api_as
):
    """R/H: Elite after 5 matches survived, +2 protection boxes (advanced); I: at most one Elite besides the
    Captain, who may always be promoted."""
    league = LeagueFactory(
        created_by=commissioner, ruleset="bonecruncher", house_rules_overrides={"advanced_wounds": True}
    )
    OG, o = squad_team(league, coach, "Orc", "orcs_goblins")
    E, e = squad_team(league, other_coach, "Elf", "elves")
    # Setup only: O1 (Captain), O2 (Goalie) and O5 have already survived 4 matches.
    Player.objects.filter(pk__in=[o[1], o[2], o[5]]).update(matches_survived=4)
    s = BoneCruncher({"commish": api_as(commissioner), "alice": api_as(coach), "bob": api_as(other_coach)})
    body = {
        "teams": [
            {"team": OG, "score": 1, "squad": squad(o, range(1, 9))},
            {"team": E, "score": 0, "squad": squad(e, range(1, 9))},
        ]
    }
    m1 = s.play("commish", league.pk, [OG, E], "scorchball", body, "alice", "bob")
    s.walk("bob", m1, E)
    assert s.step("alice", m1, OG, "wounds")["pending"] is None
    options = s.pending(s.step("alice", m1, OG, "veterans"), "veterans", "promote")
    assert sorted((x["player"], x["matches_survived"]) for x in options["eligible"]) == [
        (o[1], 5),
        (o[2], 5),
        (o[5], 5),
    ]
    assert options["slots"] == 1
    refused = s.step("alice", m1, OG, "veterans", {"promote": [o[1], o[2], o[5]]}, status=400)
    assert blames(refused, "choices.promote")
    s.step("alice", m1, OG, "veterans", {"promote": [o[1], o[5]]})
    s.step("alice", m1, OG, "team_stats")
    # Orcs & Goblins: 3 protection boxes. O1 Captain + Elite 2 = 5; O5 Elite: 3 + 2 = 5; O2 Goalie: 3 + 3 = 6.
    orcs = s.players(OG)
    assert [(orcs[o[n]]["elite"], orcs[o[n]]["armour_boxes"]) for n in (1, 2, 5, 6)] == [
        (True, 5),
        (False, 6),
        (True, 5),
        (False, 3),
    ]
    # Next match: O2 qualifies still, but the one Elite slot besides the Captain is taken — nothing to offer.
    m2 = s.play("commish", league.pk, [OG, E], "scorchball", body, "alice", "bob")
    s.walk("alice", m2, OG)
    assert s.players(OG)[o[2]]["qualifies_for_elite"] is True


def test_issue14_webhooks_a_death_in_the_post_match_wounds_step_is_announced_once(duel):
    """Decision "Webhooks": Bone Cruncher's tenth wound kills in the post-match sequence; that step, once done,
    writes one `player_died` delivery for the dead player (and none for the living)."""
    from league.models import Webhook, WebhookDelivery

    hook = Webhook.objects.create(
        league=duel.league_obj, url="https://93.184.216.34/h", kind="json", events=["player_died"]
    )
    s, OG, o = duel.s, duel.OG, duel.o
    m1 = duel.play(duel.scorchball(2, 1, wounds=[{"player": o[1], "wounds": 11}]))
    s.walk("alice", m1, OG)
    s.walk("bob", m1, duel.E)
    assert not WebhookDelivery.objects.filter(hook=hook).exists()
    m2 = duel.play(duel.scorchball(0, 0, wounds=[{"player": o[1], "wounds": 1}]))
    s.walk("alice", m2, OG)
    s.walk("bob", m2, duel.E)
    died = list(WebhookDelivery.objects.filter(hook=hook).values_list("event", "data__player__id"))
    assert died == [("player_died", o[1])]
