"""Property: whatever an ElfBall coach does — hire, cut, buy team support, learn abilities, close creation, play
random matches (goals with random players on the field, concessions, ties, Grit Challenge outcomes, Magic Potions
within the stock) and walk the post-match sequence with random answers — the team stays within the rules
(../shared/rules/elfball.md, "Team building", "Goal Points and abilities", "Injuries", "Magic Potion table"):

- R: the team's point value never exceeds 150, and it is 15 per player on the roster + 5 per ability held +
  the support bought (5 a potion, beauty or cheerleader, 20 the wizard); support stays within its maxima;
- R: a cut never takes a team out of creation below 6 players: a cut at 6 is refused (a career-ending injury or
  a potion's death may still take it lower);
- every request is accepted exactly when the rules allow it (an oracle worked here from the rulebook), and a
  refused one changes nothing;
- R: Goal Points: 1 per goal to each player of the scoring team on the field, and on a concession 1 to each
  opposing player able to play and not in the Infirmary (I); a potion is consumed; a potion 1 kills, an uncured
  career-ending injury removes the player; a Basic ability from potion 7 is for that game only.
"""

from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from campaigns.errors import RuleViolation
from matches import aftermath, services
from matches.models import Aftermath, Match
from teams import services as team_services
from teams.models import Player, Position, Team
from tests.factories import LeagueFactory, TeamFactory, hire

BUDGET, MIN_PLAYERS, ROOKIE, ABILITY = 150, 6, 15, 5
SUPPORT = {"magic_potion": (5, 3), "beer_garden_beauty": (5, 2), "cheerleader": (5, 4), "hired_gun_wizard": (20, 1)}
ABILITIES = {
    "jog": ("push", "sprinter"),
    "might": ("buff", "bonecrusher"),
    "tackle": ("grapple", "psycho"),
    "dodge": ("nimble", "slippery"),
    "skill": ("agile", "focused"),
    "grit": ("resilient", "rugged"),
}
BASIC = {basic: attr for attr, (basic, _) in ABILITIES.items()}
ADVANCED = {advanced: basic for basic, advanced in ABILITIES.values()}
ALL_ABILITIES = [a for pair in ABILITIES.values() for a in pair]
INJURIES = ("career_ending", "lasting_injury", "out_for_game", "unconscious", "none")
MISSES_GAME = {"career_ending", "lasting_injury", "out_for_game"}  # R: "place him in the Infirmary"
STEPS = ("goal_points", "abilities", "injuries", "team_stats")
ON_ROSTER = ("active", "miss_next_match", "journeyman")
CAN_PLAY = ("active", "journeyman")


# --- the world, the oracle and the invariants -----------------------------------------------------------------


def world(team_ids: list[int]) -> tuple:
    """Everything a request can change."""
    return (
        list(
            Player.objects.filter(team_id__in=team_ids)
            .order_by("pk")
            .values_list("pk", "status", "value", "abilities", "attributes", "goal_points", "left_at")
        ),
        list(Team.objects.filter(pk__in=team_ids).order_by("pk").values_list("pk", "staff", "creation_closed_at")),
        list(Match.objects.order_by("pk").values_list("pk", "status", "result")),
        list(Aftermath.objects.order_by("pk").values_list("pk", "step_index", "complete", "pending")),
    )


def roster(team_id: int) -> list[Player]:
    return list(Player.objects.filter(team_id=team_id, left_at__isnull=True, status__in=ON_ROSTER).order_by("pk"))


def able(team_id: int) -> list[Player]:
    return [p for p in roster(team_id) if p.status in CAN_PLAY]


def points(team: Team, players: list[Player] | None = None) -> int:
    """R: 15 per player + 5 per ability held + the support bought — worked out here, not by the service."""
    players = roster(team.pk) if players is None else players
    support = sum(SUPPORT[item][0] * n for item, n in team.staff.items() if item in SUPPORT)
    return ROOKIE * len(players) + ABILITY * sum(len(p.abilities) for p in players) + support


def service_points(team: Team) -> int:
    from teams.selectors import team_queryset, team_state

    return team.league.rules.team_value(team_state(team=team_queryset().get(pk=team.pk)), team.league.house_rules)


def assert_sound(team_ids: list[int], *, full: bool = True) -> None:
    """The invariants; `full` also asks the service for the team's value (slower)."""
    everyone = list(Player.objects.filter(team_id__in=team_ids).order_by("pk"))
    for team in Team.objects.filter(pk__in=team_ids).select_related("league"):
        players = [p for p in everyone if p.team_id == team.pk]
        on_roster = [p for p in players if p.left_at is None and p.status in ON_ROSTER]
        value = points(team, on_roster)
        assert value <= BUDGET, f"{team} is worth {value} points"
        if full:
            assert service_points(team) == value, f"{team}: value is not 15/player + 5/ability + support"
        for item, count in team.staff.items():
            assert 0 <= count <= SUPPORT[item][1], f"{team}: {count} {item}"
        for player in players:
            assert player.value == ROOKIE + ABILITY * len(player.abilities), f"{player}: value {player.value}"
            assert len(set(player.abilities)) == len(player.abilities), f"{player} holds an ability twice"
            assert len(player.abilities) <= player.goal_points // 10, f"{player}: more abilities than entitlements"
            for advanced, basic in ADVANCED.items():
                if advanced in player.abilities:
                    assert basic in player.abilities, f"{player}: {advanced} without {basic}"
            if player.left_at is not None:
                assert player.status in ("dead", "retired")


def attempt(team_ids: list[int], legal: bool, action, what: str) -> bool:
    """Run `action`; it must be accepted exactly when `legal`, and a refusal must change nothing."""
    before = world(team_ids)
    try:
        action()
    except RuleViolation as refusal:
        assert not legal, f"{what} was legal but refused: {refusal.as_dict()}"
        assert world(team_ids) == before, f"{what} was refused but something changed"
        event(f"refused: {what.split(' ')[0]}")
        return False
    assert legal, f"{what} was accepted against the rules"
    event(f"accepted: {what.split(' ')[0]}")
    return True


# --- team actions -------------------------------------------------------------------------------------------------


def do_hire(data, team: Team, team_ids: list[int]) -> None:
    positions = list(Position.objects.filter(roster=team.roster).order_by("order", "pk"))
    position = data.draw(st.sampled_from(positions), label="position")
    held = sum(1 for p in roster(team.pk) if p.position_id == position.pk)
    legal = held < position.max_count and points(team) + ROOKIE <= BUDGET
    attempt(team_ids, legal, lambda: hire(team, position.key, name="Rookie"), f"hire {position.key}")


def do_cut(data, team: Team, team_ids: list[int]) -> None:
    players = roster(team.pk)
    if not players:
        return
    player = data.draw(st.sampled_from(players), label="cut")
    team.refresh_from_db()
    out_of_creation = not team.in_creation
    legal = not out_of_creation or len(players) > MIN_PLAYERS  # R: never below 6 players
    if out_of_creation and len(players) <= MIN_PLAYERS:
        event("cut at 6 out of creation")
    accepted = attempt(
        team_ids,
        legal,
        lambda: team_services.team_fire_player(team_id=team.pk, player_id=player.pk, user=team.coach),
        "cut",
    )
    if accepted and out_of_creation:
        assert len(roster(team.pk)) >= MIN_PLAYERS, "a cut took the team below 6 players"


def do_purchase(data, team: Team, team_ids: list[int]) -> None:
    item = data.draw(st.sampled_from(list(SUPPORT)), label="item")
    quantity = data.draw(st.integers(1, 3), label="quantity")
    team.refresh_from_db()
    cost, maximum = SUPPORT[item]
    legal = team.staff.get(item, 0) + quantity <= maximum and points(team) + cost * quantity <= BUDGET
    attempt(
        team_ids,
        legal,
        lambda: team_services.team_purchase(team_id=team.pk, user=team.coach, item=item, quantity=quantity),
        f"purchase {item}",
    )


def may_learn(player: Player, ability: str, team: Team) -> bool:
    held = player.abilities
    return (
        player.status in ("active", "miss_next_match")
        and ability not in held
        and (ability not in ADVANCED or ADVANCED[ability] in held)  # R: Basic before Advanced
        and player.goal_points // 10 > len(held)  # R: one per full 10 Goal Points
        and points(team) + ABILITY <= BUDGET  # R: cut something or someone first
    )


def do_learn(data, team: Team, team_ids: list[int]) -> None:
    players = roster(team.pk)
    if not players:
        return
    player = data.draw(st.sampled_from(players), label="learner")
    entitled = [a for a in ALL_ABILITIES if may_learn(player, a, team)]
    ability = data.draw(st.sampled_from(entitled) if entitled else st.sampled_from(ALL_ABILITIES), label="ability")
    team.refresh_from_db()
    attempt(
        team_ids,
        may_learn(player, ability, team),
        lambda: team_services.team_learn_ability(
            team_id=team.pk, player_id=player.pk, user=team.coach, ability=ability
        ),
        f"learn {ability}",
    )


def do_ready(data, team: Team, team_ids: list[int]) -> None:
    team.refresh_from_db()
    legal = team.in_creation and len(roster(team.pk)) >= MIN_PLAYERS
    attempt(team_ids, legal, lambda: team_services.team_close_creation(team_id=team.pk, user=team.coach), "ready")


# --- matches ----------------------------------------------------------------------------------------------------


def draw_result(data, teams: list[Team], n: int) -> tuple[dict, dict]:
    """A legal result of a match of `n` Tests to win, and what it means for each player."""
    a, b = teams
    mode = data.draw(st.sampled_from(["won", "won", "won", "conceded", "no_face_off", "tie"]), label="ending")
    if mode == "won":
        winner = data.draw(st.sampled_from([a, b]), label="winner")
        tests = {t.pk: n if t == winner else data.draw(st.integers(0, n - 1), label="loser's Tests") for t in teams}
    else:
        tests = {t.pk: data.draw(st.integers(0, n - 1), label="Tests") for t in teams}
    stopper = data.draw(st.sampled_from([a, b]), label="conceder") if mode in ("conceded", "no_face_off") else None
    lines, body_goals, players, potions = [], [], [], []
    injuries: dict[int, str] = {}
    drinks: dict[int, int] = {}
    for team in teams:
        line = {"team": team.pk, "score": tests[team.pk]}
        if mode == "conceded" and team == stopper:
            line["conceded"] = True
        if (mode == "no_face_off" and team == stopper) or mode == "tie":
            line["no_face_off"] = True
        lines.append(line)
        squad = able(team.pk)
        for _ in range(tests[team.pk]):
            on_field = data.draw(st.lists(st.sampled_from(squad), min_size=1, max_size=7, unique=True), label="field")
            body_goals.append({"team": team.pk, "on_field": [p.pk for p in on_field]})
        for player in data.draw(st.lists(st.sampled_from(squad), max_size=3, unique=True), label="injured"):
            injury = data.draw(st.sampled_from(INJURIES), label="injury")
            injuries[player.pk] = injury
            players.append({"player": player.pk, "injury": injury})
        team.refresh_from_db()
        stock = team.staff.get("magic_potion", 0)
        for player in data.draw(st.lists(st.sampled_from(squad), max_size=stock, unique=True), label="drinkers"):
            roll = data.draw(st.integers(1, 12), label="potion")
            potion = {"player": player.pk, "roll": roll}
            basics = [x for x in BASIC if x not in player.abilities]
            if roll == 7 and basics:
                potion["ability"] = data.draw(st.sampled_from(basics), label="potion ability")
            drinks[player.pk] = roll
            potions.append(potion)
    body = {"teams": lines, "goals": body_goals, "players": players, "potions": potions}
    return body, {"mode": mode, "stopper": stopper, "injuries": injuries, "drinks": drinks}


def in_infirmary(player_id: int, meaning: dict) -> bool:
    """I: an uncured injury that misses the game (potion 5, 6, 7 cure), or a potion 1, 2, 3 or 5."""
    injury, roll = meaning["injuries"].get(player_id), meaning["drinks"].get(player_id)
    cured = roll in (5, 6, 7)
    return (injury in MISSES_GAME and not cured) or roll in (1, 2, 3, 5)


def expected_goal_points(body: dict, meaning: dict, teams: list[Team]) -> dict[int, int]:
    gained: dict[int, int] = {}
    for goal in body["goals"]:
        for player in goal["on_field"]:
            gained[player] = gained.get(player, 0) + 1
    if meaning["mode"] == "conceded":
        (other,) = [t for t in teams if t != meaning["stopper"]]
        for player in able(other.pk):
            if not in_infirmary(player.pk, meaning):
                gained[player.pk] = gained.get(player.pk, 0) + 1
    return gained


def answer(data, decision: str, options: dict, given: dict):
    if decision == "abilities":
        picks = {}
        for player_id, option in options.items():
            n = data.draw(st.integers(0, option["entitlements"]), label="abilities to learn")
            chosen: list[str] = []
            for _ in range(n):
                allowed = [x for x in option["learnable"] if x not in chosen]  # each legal as the player stands
                if not allowed:
                    break
                chosen.append(data.draw(st.sampled_from(allowed), label="ability"))
            if chosen:
                picks[player_id] = chosen
        return picks
    if decision == "lasting_injury":
        # One attribute per lasting injury, in order: a player with two (Grit and a seizure) may be asked twice.
        answers = {pid: list(picks) for pid, picks in given.items()}
        for pid, tied in options.items():
            answers[pid] = [*answers.get(pid, []), data.draw(st.sampled_from(tied), label="attribute")]
        return answers
    raise AssertionError(f"an unexpected decision: {decision} {options}")


def walk(data, match_id: int, team: Team, team_ids: list[int]) -> None:
    """Walk the four steps, answering every pending decision at random; a refused answer must change nothing, and
    only an over-budget or ill-formed choice of abilities may be refused (then {} — learn later — goes through)."""
    for step in STEPS:
        choices: dict = {}
        for _ in range(6):
            before = world(team_ids) if choices.get("abilities") else None  # only a choice of abilities may fail
            try:
                record = aftermath.aftermath_post(
                    user=team.coach, match_id=match_id, team_id=team.pk, step=step, choices=choices
                )
            except RuleViolation as refusal:
                assert (refusal.field or "").startswith("choices.abilities"), f"{step}: {refusal.as_dict()}"
                assert world(team_ids) == before, f"{step} refused {refusal.as_dict()} but something changed"
                event(f"refused: {step} {refusal.field}")
                choices = {"abilities": {}}
                continue
            if not record.pending:
                break
            decision = record.pending["decision"]
            event(f"decision: {decision}")
            options = record.pending["options"]
            choices = {**choices, decision: answer(data, decision, options, choices.get(decision) or {})}
        else:
            raise AssertionError(f"{step} of {team} never finished")
        assert_sound(team_ids, full=False)
    assert Aftermath.objects.get(match_id=match_id, team=team).complete


def do_match(data, league, commissioner, teams: list[Team], team_ids: list[int]) -> None:
    if any(not able(t.pk) for t in teams):
        event("match skipped: a team cannot play")
        return
    n = data.draw(st.sampled_from([1, 2, 3, 9]), label="tests to win")
    home, away = data.draw(st.permutations(teams), label="sides")
    match = services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk], tests_to_win=n)
    body, meaning = draw_result(data, [home, away], n)
    gained = expected_goal_points(body, meaning, [home, away])
    stock = {t.pk: Team.objects.get(pk=t.pk).staff.get("magic_potion", 0) for t in teams}
    drunk = {t.pk: sum(1 for p in body["potions"] if Player.objects.get(pk=p["player"]).team_id == t.pk) for t in teams}
    goal_points = dict(Player.objects.filter(team_id__in=team_ids).values_list("pk", "goal_points"))
    attributes = {p.pk: dict(p.attributes) for t in teams for p in roster(t.pk)}

    services.match_submit_result(user=commissioner, match_id=match.pk, body=body)
    services.match_confirm(user=home.coach, match_id=match.pk)
    event(f"match: {meaning['mode']}")

    # R: Goal Points land when the result is final — per goal on the field, and the concession's.
    now = dict(Player.objects.filter(team_id__in=team_ids).values_list("pk", "goal_points"))
    assert {pid: now[pid] - goal_points[pid] for pid in now if now[pid] != goal_points[pid]} == gained
    for team in data.draw(st.permutations([home, away]), label="walk order"):
        walk(data, match.pk, team, team_ids)
    for team in teams:
        # R: a potion is consumed.
        assert Team.objects.get(pk=team.pk).staff.get("magic_potion", 0) == stock[team.pk] - drunk[team.pk]
    for player_id in {*meaning["injuries"], *meaning["drinks"]}:
        player = Player.objects.get(pk=player_id)
        roll = meaning["drinks"].get(player_id)
        if roll == 1:
            assert (player.status, player.left_at is not None) == ("dead", True), "potion 1: the player dies"
        elif meaning["injuries"].get(player_id) == "career_ending" and roll not in (5, 6, 7):
            assert (player.status, player.left_at is not None) == ("retired", True), "career-ending: removed"
        else:
            assert player.left_at is None, f"{player} left after {meaning['injuries'].get(player_id)}, potion {roll}"
            lasting = (meaning["injuries"].get(player_id) == "lasting_injury" and roll not in (5, 6, 7)) + (roll == 2)
            lost = sum(attributes[player_id].values()) - sum(player.attributes.values())
            assert lost <= lasting, f"{player} lost {lost} attribute points from {lasting} lasting injuries"
            if not lasting:
                assert player.attributes == attributes[player_id], f"{player} lost attributes without an injury"
            else:
                event("lasting injury")
            assert player.attributes["base"] == attributes[player_id]["base"], "Base is no attribute to lower (I)"


# --- the property ---------------------------------------------------------------------------------------------


@pytest.fixture
def elf_world(commissioner, coach, other_coach):
    """Alice's Black Widows (9 players, 135 points: close to the budget; a veteran Striker with 19 Goal Points and a
    Midfielder with 9) and Bob's Divine Wind (7 players, 105 points; two Defenders, Jog Might Tackle Grit 4 tied)."""
    league = LeagueFactory(created_by=commissioner, name="Elf Cup", ruleset="elfball")
    widows = TeamFactory(league=league, coach=coach, name="Widows", roster="black_widows")
    hired = [hire(widows, p) for p in ["hunter", "hunter", "midfielder", "midfielder", "midfielder", "midfielder"]]
    hired += [hire(widows, "striker"), hire(widows, "striker"), hire(widows, "striker", name="Veteran")]
    Player.objects.filter(pk=hired[-1].pk).update(goal_points=19)
    Player.objects.filter(pk=hired[2].pk).update(goal_points=9)
    winds = TeamFactory(league=league, coach=other_coach, name="Winds", roster="divine_wind")
    for position in ["defender", "defender", "hunter", "midfielder", "midfielder", "midfielder", "midfielder"]:
        hire(winds, position)
    return league, [widows, winds]


OPERATIONS = ("hire", "cut", "cut", "purchase", "learn", "learn", "ready", "match", "match", "match")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_elfball_team_stays_within_150_points_and_is_never_cut_below_6(commissioner, elf_world, data):
    league, teams = elf_world
    team_ids = [t.pk for t in teams]
    with transaction.atomic():
        assert_sound(team_ids)
        for _ in range(data.draw(st.integers(3, 10), label="operations")):
            operation = data.draw(st.sampled_from(OPERATIONS), label="operation")
            team = data.draw(st.sampled_from(teams), label="team")
            team.refresh_from_db()
            if operation == "match":
                do_match(data, league, commissioner, teams, team_ids)
            else:
                {"hire": do_hire, "cut": do_cut, "purchase": do_purchase, "learn": do_learn, "ready": do_ready}[
                    operation
                ](data, team, team_ids)
            assert_sound(team_ids)
        transaction.set_rollback(True)


# --- worked examples of what the property walks at random ------------------------------------------------------


@pytest.mark.django_db
def test_a_cut_at_six_players_is_refused_and_changes_nothing(elf_world):
    """R: never below 6 players (out of creation): 7 → 6 is allowed, 6 → 5 is refused."""
    _, (_, winds) = elf_world
    team_services.team_close_creation(team_id=winds.pk, user=winds.coach)
    first, second = roster(winds.pk)[:2]
    team_services.team_fire_player(team_id=winds.pk, player_id=first.pk, user=winds.coach)
    before = world([winds.pk])

    with pytest.raises(RuleViolation):
        team_services.team_fire_player(team_id=winds.pk, player_id=second.pk, user=winds.coach)

    assert world([winds.pk]) == before
    assert len(roster(winds.pk)) == MIN_PLAYERS


@pytest.mark.django_db
def test_a_potion_death_may_take_a_team_below_six(commissioner, elf_world):
    """R: a cut never goes below 6, but a potion's death (or a career-ending injury) may."""
    league, (widows, winds) = elf_world
    team_services.team_purchase(team_id=winds.pk, user=winds.coach, item="magic_potion", quantity=1)
    team_services.team_close_creation(team_id=winds.pk, user=winds.coach)
    team_services.team_fire_player(team_id=winds.pk, player_id=roster(winds.pk)[0].pk, user=winds.coach)
    assert len(roster(winds.pk)) == 6
    scorer, victim = roster(winds.pk)[:2]
    match = services.match_schedule(user=commissioner, league=league, team_ids=[winds.pk, widows.pk])
    body = {
        "teams": [{"team": winds.pk, "score": 2}, {"team": widows.pk, "score": 0}],
        "goals": [{"team": winds.pk, "on_field": [scorer.pk]}] * 2,
        "potions": [{"player": victim.pk, "roll": 1}],
    }
    services.match_submit_result(user=commissioner, match_id=match.pk, body=body)
    services.match_confirm(user=widows.coach, match_id=match.pk)
    for step in STEPS:
        aftermath.aftermath_post(user=winds.coach, match_id=match.pk, team_id=winds.pk, step=step)

    assert len(roster(winds.pk)) == 5
    assert Player.objects.get(pk=victim.pk).status == "dead"
    assert points(Team.objects.get(pk=winds.pk)) == 5 * ROOKIE
