"""Property: whatever legal Blitz Bowl results are entered and whatever dice and choices the coaches give at
every post-match step, the teams stay sound (rules/blitzbowl.md "Teams, treasury and value", "Post-match
sequence", "Conceding", "Injuries recorded on a result").

Each example plays one or two matches between alice's and bob's teams (at no stadium, a plain one or one with
a special attribute), with random scores, casualties, injuries (dead, miss_next_match, stat_loss …) and
concessions, then walks both post-match sequences step by step in a random interleaving, with random entered
dice (or server rolls) and random answers to every decision. After every accepted or refused request:

- the treasury is the sum of its ledger entries and never negative (and the stadium fund likewise);
- Fan Factor ≥ 0; cached SPP equal the per-match rows;
- at most 16 players on the roster before journeymen, and at least 11 able to play once `prepare` is done;
- a dead player is never active or a journeyman, is removed at Hire and Fire, and never plays again; a player
  who left never plays again (a result naming one is refused);
- a refused request changes nothing; a safe retry is always accepted (a sequence never gets stuck).
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.db import transaction
from django.db.models import F, OuterRef, Subquery, Sum
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from campaigns import dice
from campaigns.errors import RuleViolation
from matches import aftermath, services
from matches.audit import player_totals_audit
from matches.models import Aftermath, Match, PlayerMatch, Roll
from teams.models import LedgerEntry, Player, Sponsorship, Team
from teams.selectors import team_treasury
from teams.services import ledger_audit
from tests.factories import StadiumFactory

STEPS = ("improvements", "team_stats", "fortune", "hire_fire", "prepare")
INJURIES = ("", "", "", "badly_hurt", "miss_next_match", "niggling", "stat_loss", "dead")
STATS = ("ma", "av", "ag", "st")
MAX_ROSTER, MIN_FIELDED = 16, 11

#: The roll keys each step may use, and how many entered values make sense for them.
STEP_ROLLS: dict[str, dict[str, tuple[int, int, int]]] = {  # key: (faces, fewest values, most values)
    "improvements": {"improvement": (6, 2, 12)},
    "team_stats": {"concede_leave": (6, 1, 4)},
    "fortune": {
        "winnings": (6, 1, 2),
        "winnings_reroll": (6, 1, 1),
        "stadium_bonus": (3, 1, 2),
        "residency": (6, 1, 1),
        "fan_factor": (6, 3, 3),
        "ongoing_amount": (3, 1, 3),
        "ongoing_risk": (6, 1, 3),
        "random_player": (12, 1, 3),
        "sponsorship": (20, 1, 1),
        "one_time_amount": (6, 1, 1),
        "one_time_risk": (6, 1, 1),
    },
    "hire_fire": {"stadium_loss": (8, 1, 1), "stadium_sale": (6, 1, 3)},
    "prepare": {"expensive_mistakes": (6, 1, 1), "expensive_mistakes_amount": (6, 1, 2)},
}
#: Choices a coach may be refused (besides entered dice that do not fit: `rolls.<key>`).
REFUSABLE_CHOICES = {
    "treasury",  # not enough gil
    "choices.buy_stadium",  # not resident, or owns it already
    "choices.sell_stadium",  # does not own it
    "choices.stadium_fund_payments",  # not resident, or owns it already
    "choices.hire_journeymen",  # the roster is full
}
#: Log words counted as events (`--hypothesis-show-statistics` shows how often each path is walked).
WORTH_COUNTING = (
    "journeyman",
    "Ongoing",
    "home stadium",
    "is home",
    "Bought",
    "Sold",
    "Stadium roll",
    "leaves",
    "memorial",
    "Catastrophe",
    "misses the next",
)
SAFE_CHOICES = {
    "improvements": {},
    "team_stats": {},
    "fortune": {"reroll_winnings": False, "residency": "reject", "seek_sponsor": False, "end_sponsorships": []},
    "hire_fire": {
        "keep_residency_spend": 0,
        "sell_stadium": False,
        "buy_stadium": False,
        "stadium_fund_payments": 0,
        "hire_journeymen": [],
    },
    "prepare": {},
}


# --- the world and its invariants -------------------------------------------------------------------------------


def world(team_ids: list[int]) -> tuple:
    """Everything a result or a step can change."""
    return (
        list(Match.objects.order_by("pk").values_list("pk", "status", "result")),
        list(LedgerEntry.objects.order_by("pk").values_list("pk", "amount", "balance_after")),
        list(
            Player.objects.order_by("pk").values_list("pk", "status", "spp", "attributes", "skills", "value", "left_at")
        ),
        list(Team.objects.order_by("pk").values_list("pk", "fan_factor", "home_stadium", "owns_stadium")),
        list(Sponsorship.objects.order_by("pk").values_list("pk", "ended_at")),
        list(Aftermath.objects.order_by("pk").values_list("pk", "step_index", "complete", "pending", "log")),
        PlayerMatch.objects.count(),
        Roll.objects.count(),
    )


def assert_sound(team_ids: list[int], *, prepared: set[int], hired_fired: set[int]) -> None:
    assert ledger_audit() == []
    assert player_totals_audit() == []
    for team in Team.objects.filter(pk__in=team_ids):
        entries = LedgerEntry.objects.filter(team=team, account="treasury")
        assert team_treasury(team=team) == (entries.aggregate(s=Sum("amount"))["s"] or 0) >= 0
        assert not LedgerEntry.objects.filter(team=team, balance_after__lt=0).exists()
        assert team.fan_factor >= 0
        players = list(Player.objects.filter(team=team))
        on_roster = [p for p in players if p.left_at is None]
        assert sum(1 for p in on_roster if p.status != "journeyman") <= MAX_ROSTER, "roster over 16"
        for p in players:
            if p.left_at is not None:
                assert p.status in ("dead", "retired"), f"{p} left but is {p.status}"
        if team.pk in hired_fired:
            assert not [p for p in on_roster if p.status == "dead"], "a dead player still on the roster"
        if team.pk in prepared:
            able = sum(1 for p in on_roster if p.status in ("active", "journeyman"))
            assert able >= MIN_FIELDED, f"{team} can field only {able}"
    # Nobody plays after dying or leaving: no row of a match confirmed after the one that killed him, or after
    # he left.
    assert not Player.objects.filter(status="dead").exclude(match_rows__injury="dead").exists()
    death = PlayerMatch.objects.filter(player=OuterRef("player"), injury="dead").values("match__confirmed_at")[:1]
    after_death = PlayerMatch.objects.filter(player__status="dead").annotate(died=Subquery(death))
    assert not after_death.filter(match__confirmed_at__gt=F("died")).exists(), "a dead player played again"
    after_leaving = PlayerMatch.objects.filter(
        player__left_at__isnull=False, match__confirmed_at__gt=F("player__left_at")
    )
    assert not after_leaving.exists(), "a player who left played again"


# --- strategies ----------------------------------------------------------------------------------------------


def draw_result(data, home_id: int, away_id: int) -> dict:
    teams, players = [], []
    concession = data.draw(st.sampled_from([None, None, None, "conceded", "conceded_early"]), label="concession")
    conceding = data.draw(st.sampled_from([home_id, away_id]), label="conceding team") if concession else None
    for team_id in (home_id, away_id):
        able = list(
            Player.objects.filter(team_id=team_id, left_at__isnull=True, status__in=("active", "journeyman"))
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        chosen = data.draw(st.lists(st.sampled_from(able), unique=True, max_size=6), label=f"players of {team_id}")
        score = 0
        for player in chosen:
            injury = data.draw(st.sampled_from(INJURIES), label="injury")
            row = {
                "player": player,
                "touchdowns": data.draw(st.integers(0, 3), label="touchdowns"),
                "casualties": data.draw(st.one_of(st.integers(0, 2), st.integers(15, 25)), label="casualties"),
                "completions": data.draw(st.integers(0, 3), label="completions"),
                "interceptions": data.draw(st.integers(0, 1), label="interceptions"),
            }
            if injury:
                row["injury"] = injury
            if injury == "stat_loss":
                row["stat"] = data.draw(st.sampled_from(STATS), label="stat")
            score += row["touchdowns"]
            players.append(row)
        line = {
            "team": team_id,
            "score": score,
            "casualties_inflicted": data.draw(st.integers(0, 6), label="casualties inflicted"),
            "mvp": data.draw(st.one_of(st.none(), st.sampled_from(able)), label="mvp"),
            "fame": data.draw(st.integers(0, 2), label="fame"),
        }
        if conceding == team_id:
            line[concession] = True
        teams.append(line)
    return {"teams": teams, "players": players}


def draw_rolls(data, step: str) -> dict:
    rolls = {}
    for key, (faces, fewest, most) in STEP_ROLLS[step].items():
        if data.draw(st.booleans(), label=f"enter {key}"):
            die = st.integers(1, faces)
            if key in ("sponsorship", "residency"):
                die = die | st.integers(faces - 3, faces)  # give the rarer branches (a sponsor, a home) a chance
            values = data.draw(st.lists(die, min_size=fewest, max_size=most), label=key)
            if key == "improvement":
                values = values[: len(values) // 2 * 2]
            rolls[key] = values
    return rolls


def draw_choices(data, step: str) -> dict:
    options: dict[str, Any] = {}
    if step == "fortune":
        options = {
            "reroll_winnings": st.booleans(),
            "residency": st.sampled_from(["attempt", "accept_cost", "reject"]),
            "seek_sponsor": st.booleans(),
            "end_sponsorships": st.just([]),
        }
    elif step == "hire_fire":
        options = {
            "sell_stadium": st.booleans(),
            "buy_stadium": st.booleans(),
            "stadium_fund_payments": st.integers(0, 3),
        }
    return {
        key: data.draw(strategy, label=key)
        for key, strategy in options.items()
        if data.draw(st.booleans(), label=f"give {key}")
    }


def draw_answer(data, decision: str, options: Any) -> Any:
    """A legal answer to a pending decision, from the options the step offered."""
    if decision == "improvements":
        picks = {}
        for player_id, rolls in options.items():
            chosen: list[str] = []
            for roll in rolls:
                allowed = [o for o in [*roll["attributes"], *roll["skills"]] if o not in chosen]
                chosen.append(data.draw(st.sampled_from(allowed), label="improvement"))
            picks[player_id] = chosen
        return picks
    if decision in ("reroll_winnings", "seek_sponsor"):
        return data.draw(st.booleans(), label=decision)
    if decision == "residency":
        return data.draw(st.sampled_from(options), label=decision)
    if decision in ("end_sponsorships", "hire_journeymen"):
        return data.draw(st.lists(st.sampled_from(options), unique=True), label=decision) if options else []
    if decision == "keep_residency_spend":
        steps = options["max"] // options["per_point"]
        return data.draw(st.integers(0, steps), label=decision) * options["per_point"]
    raise AssertionError(f"an unexpected decision: {decision} {options}")


# --- walking -------------------------------------------------------------------------------------------------


def post_step(data, user, match_id: int, team_id: int, team_ids: list[int]) -> None:
    """Run the team's current step to its end: random dice and choices, answering every pending decision.

    A refusal must change nothing and be one a coach can cause (an entered die that does not fit the roll the
    step makes, spending gil the team lacks, a stadium deal the team cannot make, a full roster); the retry
    then re-enters the refused dice as 1s or takes the safe choices (no spending), and must go through."""
    record = Aftermath.objects.get(match_id=match_id, team_id=team_id)
    step, start = STEPS[record.step_index], record.step_index
    rolls, choices, refusals = draw_rolls(data, step), draw_choices(data, step), 0
    for _ in range(16):
        before = world(team_ids)
        try:
            record = aftermath.aftermath_post(
                user=user, match_id=match_id, team_id=team_id, step=step, choices=choices, rolls=rolls
            )
        except RuleViolation as refusal:
            field = refusal.field or ""
            assert world(team_ids) == before, f"refused {step} ({refusal.as_dict()}) but something changed"
            assert field.startswith("rolls.") or field in REFUSABLE_CHOICES, f"{step} refused: {refusal.as_dict()}"
            refusals += 1
            assert refusals <= 4, f"{step} is stuck: {refusal.as_dict()}"
            event(f"refused: {step} {field.split('.')[0] if field.startswith('rolls.') else field}")
            choices = {**choices, **SAFE_CHOICES[step]}
            rolls = {}
            if field.startswith("rolls."):
                key = field.removeprefix("rolls.")
                rolls = {key: [1] * STEP_ROLLS[step][key][2]}  # enough 1s for the largest roll of that key
            continue
        if record.step_index > start:
            for text in record.log[-1]["lines"]:
                for word in WORTH_COUNTING:
                    if word in text:
                        event(f"{step}: {word}")
            return
        pending = record.pending
        assert pending and pending["step"] == step, pending
        event(f"decision: {pending['decision']}")
        choices = {**choices, pending["decision"]: draw_answer(data, pending["decision"], pending["options"])}
    raise AssertionError(f"{step} of team {team_id} never finished")


def play(data, *, league, commissioner, coach, users_by_team, home_id, away_id, stadium_id, team_ids) -> None:
    match = services.match_schedule(user=commissioner, league=league, team_ids=[home_id, away_id])
    if stadium_id:
        Match.objects.filter(pk=match.pk).update(stadium_id=stadium_id)
    # A result naming a player who is dead, gone or missing this match is refused and changes nothing.
    unable = list(
        Player.objects.filter(team_id__in=[home_id, away_id])
        .exclude(status__in=("active", "journeyman"), left_at__isnull=True)
        .values_list("pk", flat=True)
    )
    body = draw_result(data, home_id, away_id)
    if unable and data.draw(st.booleans(), label="sneak"):
        sneaked = {**body, "players": [*body["players"], {"player": data.draw(st.sampled_from(unable))}]}
        before = world(team_ids)
        with pytest.raises(RuleViolation) as refused:
            services.match_submit_result(user=commissioner, match_id=match.pk, body=sneaked)
        assert refused.value.field == f"players[{len(body['players'])}].player"
        assert world(team_ids) == before
    services.match_submit_result(user=commissioner, match_id=match.pk, body=body)
    services.match_confirm(user=coach, match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == "final"
    prepared: set[int] = set()
    hired_fired: set[int] = set()
    assert_sound(team_ids, prepared=prepared, hired_fired=hired_fired)
    open_teams = [home_id, away_id]
    while open_teams:
        team_id = data.draw(st.sampled_from(open_teams), label="next team")
        post_step(data, users_by_team[team_id], match.pk, team_id, team_ids)
        state = Aftermath.objects.get(match=match, team_id=team_id)
        if state.step_index > STEPS.index("hire_fire"):
            hired_fired.add(team_id)
        if state.complete:
            assert state.step_index == len(STEPS)
            prepared.add(team_id)
            open_teams.remove(team_id)
        assert_sound(team_ids, prepared=prepared, hired_fired=hired_fired)


@pytest.fixture
def stadiums(league):
    plain = StadiumFactory(league=league, name="Plain Park").pk
    special = StadiumFactory(league=league, name="Astro Dome", special_attribute="Astrogranite").pk
    return [None, plain, special, special]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_legal_results_dice_and_choices_keep_the_teams_sound(
    league, commissioner, coach, other_coach, home, away, stadiums, data
):
    team_ids = [home.pk, away.pk]
    users_by_team = {home.pk: coach, away.pk: other_coach}
    # The dice nobody entered are the server's: drawn here too, so every example can be replayed and shrunk.
    server_dice = data.draw(st.randoms(use_true_random=False), label="server dice")
    with mock.patch.object(dice, "_system_random", server_dice), transaction.atomic():
        matches = data.draw(st.integers(1, 2), label="matches")
        pairs = [(home.pk, away.pk), (away.pk, home.pk)][:matches]
        stadium = data.draw(st.sampled_from(stadiums), label="stadium")
        for home_id, away_id in pairs:
            if data.draw(st.integers(0, 3), label="change stadium") == 0:
                stadium = data.draw(st.sampled_from(stadiums), label="stadium")
            play(
                data,
                league=league,
                commissioner=commissioner,
                coach=coach,
                users_by_team=users_by_team,
                home_id=home_id,
                away_id=away_id,
                stadium_id=stadium,
                team_ids=team_ids,
            )
        transaction.set_rollback(True)


# --- worked examples of what the property walks at random ------------------------------------------------------


@pytest.fixture
def won_at_the_dome(league, commissioner, coach, other_coach, home, away, stadiums):
    """Alice's team won 1–0 at the Astro Dome (a special attribute, nobody's home); its sequence is at fortune."""
    match = services.match_schedule(
        user=commissioner, league=league, team_ids=[home.pk, away.pk], stadium_id=stadiums[2]
    )
    scorer = home.players.order_by("number").first()
    body = {
        "teams": [{"team": home.pk, "score": 1}, {"team": away.pk, "score": 0}],
        "players": [{"player": scorer.pk, "touchdowns": 1}],
    }
    services.match_submit_result(user=commissioner, match_id=match.pk, body=body)
    services.match_confirm(user=coach, match_id=match.pk)
    for step in ("improvements", "team_stats"):
        aftermath.aftermath_post(user=coach, match_id=match.pk, team_id=home.pk, step=step)
    return match.pk


def test_attempting_a_costly_residency_asks_whether_to_pay(coach, home, stadiums, won_at_the_dome):
    """R: a residency total of 6–8 "costs you" this match's winnings: a coach who chose to `attempt` is asked
    to accept the cost or reject it. (Regression: it used to answer 400 and forget the dice.)"""
    treasury = team_treasury(team=home)
    post = aftermath.aftermath_post
    state = post(
        user=coach,
        match_id=won_at_the_dome,
        team_id=home.pk,
        step="fortune",
        rolls={"winnings": [3], "residency": [5], "fan_factor": [1, 1, 1]},  # residency 5 + 1 (won) = 6
        choices={"reroll_winnings": False, "residency": "attempt", "seek_sponsor": False},
    )
    assert state.pending["decision"] == "residency"
    assert state.pending["options"] == ["accept_cost", "reject"]
    assert team_treasury(team=home) == treasury  # nothing applied while paused
    state = post(
        user=coach, match_id=won_at_the_dome, team_id=home.pk, step="fortune", choices={"residency": "accept_cost"}
    )
    assert state.pending == {} and STEPS[state.step_index] == "hire_fire"
    team = Team.objects.get(pk=home.pk)
    assert (team.home_stadium_id, team.owns_stadium) == (stadiums[2], False)
    amounts = list(LedgerEntry.objects.filter(team=home, match_id=won_at_the_dome).values_list("amount", flat=True))
    assert amounts == [4000, -4000]  # winnings 3 × 1,000 + 1,000 for the win, paid for the residency
    assert team_treasury(team=home) == treasury
    residency = Roll.objects.filter(match_id=won_at_the_dome, team=home, key="residency").get()
    assert (residency.values, residency.entered) == ([5], True)


def test_dice_entered_before_a_pause_are_used_when_the_step_resumes(coach, home, won_at_the_dome):
    treasury = team_treasury(team=home)
    post = aftermath.aftermath_post
    state = post(
        user=coach,
        match_id=won_at_the_dome,
        team_id=home.pk,
        step="fortune",
        rolls={"winnings": [1], "winnings_reroll": [6], "fan_factor": [1, 1, 1]},
        choices={"residency": "reject", "seek_sponsor": False},
    )
    assert state.pending["decision"] == "reroll_winnings" and state.pending["options"] == {"rolled": 1}
    state = post(
        user=coach, match_id=won_at_the_dome, team_id=home.pk, step="fortune", choices={"reroll_winnings": True}
    )
    assert state.pending == {}
    assert team_treasury(team=home) == treasury + 7000  # the entered 6 re-rolled × 1,000 + 1,000 for the win
    rolls = Roll.objects.filter(match_id=won_at_the_dome, team=home, step="fortune").order_by("pk")
    assert [(r.key, r.values, r.entered) for r in rolls] == [
        ("winnings", [1], True),
        ("winnings_reroll", [6], True),
        ("fan_factor", [1, 1, 1], True),
    ]
