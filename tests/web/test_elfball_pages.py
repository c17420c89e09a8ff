"""The ElfBall pages through Django's test client: the result form (goals entered as the players on the field
for each goal, Grit outcomes, Magic Potions), its errors shown next to the fields, the post-match decisions
(abilities to learn, the attribute a lasting injury lowers), the team sheet's Goal Points, entitlements and
lasting injuries, the match report and the Challenge roller."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches import services
from matches.aftermath import aftermath_post
from matches.models import Aftermath, Match, Roll
from teams.models import Player, Team
from teams.services import team_purchase
from tests.factories import LeagueFactory, TeamFactory, UserFactory, hire
from tests.web.pages import (
    HTMX,
    by_number,
    cell,
    element,
    plain,
    player_row,
    report_url,
    result_url,
    sheet_url,
    text,
    walk_url,
)

pytestmark = pytest.mark.django_db

# --- helpers ------------------------------------------------------------------------------------


def learn_url(team: Team, player: Player) -> str:
    return reverse("team-learn-ability", args=[team.pk, player.pk])


def challenge_url(league) -> str:
    return reverse("league-challenge", args=[league.pk])


def form_data(goals: dict[Team, list[list[Player]]], rows: dict[Player, dict] | None = None, **flags) -> dict:
    """POST data of the ElfBall result form: per team its goals (the players on the field for each), per player
    his fields (injury, attribute, potion, potion_ability, potion_attribute), and team flags such as
    `conceded=team`."""
    data: dict[str, object] = {}
    for team, scored in goals.items():
        for n, on_field in enumerate(scored, start=1):
            data[f"team_{team.pk}_goal_{n}"] = [str(p.pk) for p in on_field]
    for flag, team in flags.items():
        data[f"team_{team.pk}_{flag}"] = "on"
    for player, row in (rows or {}).items():
        for key, value in row.items():
            data[f"player_{player.pk}_{key}"] = str(value)
    return data


def walk(match: Match, team: Team, answers: dict[str, dict] | None = None) -> None:
    """Walk a team's post-match sequence through the service, answering decisions from `answers`."""
    answers = answers or {}
    for step in ("goal_points", "abilities", "injuries", "team_stats"):
        record = aftermath_post(user=team.coach, match_id=match.pk, team_id=team.pk, step=step)
        if record.pending:
            aftermath_post(user=team.coach, match_id=match.pk, team_id=team.pk, step=step, choices=answers[step])


def step_post(client, match: Match, team: Team, data: dict, htmx: bool = False):
    return client.post(walk_url(match, team), data, headers=HTMX if htmx else {}, follow=not htmx)


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture
def elf_league(commissioner):
    return LeagueFactory(created_by=commissioner, name="Treetop Cup", ruleset="elfball")


@pytest.fixture
def winds(elf_league, coach):
    """Alice's Divine Wind: two Defenders (Jog, Might, Tackle and Grit tied at 4), two Hunters, three
    Midfielders, and one Magic Potion."""
    team = TeamFactory(league=elf_league, coach=coach, name="Divine Wind", roster="divine_wind")
    positions = ["defender", "defender", "hunter", "hunter", "midfielder", "midfielder", "midfielder"]
    for n, position in enumerate(positions, start=1):
        hire(team, position, name=f"Wind {n}", number=n)
    team_purchase(team_id=team.pk, user=coach, item="magic_potion", quantity=1)
    return team


@pytest.fixture
def widows(elf_league, other_coach):
    """Bob's Black Widows: two Hunters, three Midfielders, two Strikers; no potion."""
    team = TeamFactory(league=elf_league, coach=other_coach, name="Black Widows", roster="black_widows")
    positions = ["hunter", "hunter", "midfielder", "midfielder", "midfielder", "striker", "striker"]
    for n, position in enumerate(positions, start=1):
        hire(team, position, name=f"Widow {n}", number=n)
    return team


@pytest.fixture
def match(elf_league, winds, widows):
    """Divine Wind (home) v Black Widows, first to 2 Tests."""
    return services.match_schedule(user=winds.coach, league=elf_league, team_ids=[winds.pk, widows.pk])


def two_nil(match: Match, winds: Team, widows: Team, **extra) -> dict:
    """Divine Wind 2–0: Wind 1 and 2 on the field for both goals; Wind 2 (a Defender, four attributes tied at 4)
    suffers a lasting injury."""
    w = by_number(winds)
    body = {
        "teams": [{"team": winds.pk, "score": 2}, {"team": widows.pk, "score": 0}],
        "goals": [{"team": winds.pk, "on_field": [w[1].pk, w[2].pk]}] * 2,
        "players": [{"player": w[2].pk, "injury": "lasting_injury"}],
        **extra,
    }
    services.match_submit_result(user=winds.coach, match_id=match.pk, body=body)
    services.match_confirm(user=widows.coach, match_id=match.pk)
    return body


# --- the result form ----------------------------------------------------------------------------


def test_result_page_asks_for_the_players_on_the_field_for_each_goal(client, match, winds, widows):
    client.force_login(winds.coach)

    page = text(client.get(result_url(match)))

    w, b = by_number(winds), by_number(widows)
    for team in (winds, widows):
        for n in (1, 2):  # first to 2 Tests: up to two goals a team
            goal = element(page, f"goal-{team.pk}-{n}")
            assert f"Goal {n}" in goal
            for player in Player.objects.filter(team=team):
                assert f'name="team_{team.pk}_goal_{n}" value="{player.pk}"' in goal
        assert f'id="goal-{team.pk}-3"' not in page
        assert f'name="team_{team.pk}_conceded"' in page and f'name="team_{team.pk}_no_face_off"' in page
    assert "#1 Wind 1" in element(page, f"goal-{winds.pk}-1")
    assert f'aria-label="Grit outcome: {b[3].name}"' in page
    assert '<option value="lasting_injury">Lasting injury (−1 to the highest attribute) (0 successes)</option>' in page
    assert '<option value="career_ending">Career-ending (flop)</option>' in page
    # Only Divine Wind has a Magic Potion in stock; the table says what 8–12 do.
    assert f'aria-label="Magic Potion (D12): {w[1].name}"' in page
    assert f'aria-label="Magic Potion (D12): {b[1].name}"' not in page
    assert "8: no effect (not in the rulebook: house rule)" in page
    assert "Score (touchdowns)" not in page and "FAME" not in page


def test_the_result_form_builds_the_elfball_body_and_the_match_is_submitted(client, match, winds, widows, monkeypatch):
    sent = []
    submit = services.match_submit_result
    monkeypatch.setattr(
        services, "match_submit_result", lambda **kw: sent.append(kw["body"]) or submit(**kw), raising=True
    )
    w, b = by_number(winds), by_number(widows)
    client.force_login(winds.coach)

    response = client.post(
        result_url(match),
        form_data(
            {winds: [[w[1], w[2], w[3]], [w[1], w[4]]], widows: [[b[1], b[2]]]},
            {
                b[3]: {"injury": "out_for_game"},
                w[2]: {"injury": "lasting_injury", "attribute": "might"},
                w[5]: {"potion": 7, "potion_ability": "push"},
            },
        ),
        follow=True,
    )

    assert response.redirect_chain == [(report_url(match), 302)]
    assert "Result entered." in text(response)
    assert sent == [
        {
            "teams": [
                {"team": winds.pk, "score": 2, "conceded": False, "no_face_off": False},
                {"team": widows.pk, "score": 1, "conceded": False, "no_face_off": False},
            ],
            "goals": [
                {"team": winds.pk, "on_field": [w[1].pk, w[2].pk, w[3].pk]},
                {"team": winds.pk, "on_field": [w[1].pk, w[4].pk]},
                {"team": widows.pk, "on_field": [b[1].pk, b[2].pk]},
            ],
            "players": [
                {"player": w[2].pk, "injury": "lasting_injury", "attribute": "might"},
                {"player": b[3].pk, "injury": "out_for_game"},
            ],
            "potions": [{"player": w[5].pk, "roll": 7, "ability": "push"}],
        }
    ]
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED
    rows = {r["player"]: r for r in match.result["players"]}
    assert rows[w[1].pk]["goal_points"] == 2 and rows[b[1].pk]["goal_points"] == 1
    assert rows[w[5].pk]["potion"] == 7 and rows[w[5].pk]["potion_ability"] == "push"

    # The report of the submitted result shows the goals, the Grit outcomes and the potion.
    page = text(client.get(report_url(match)))
    assert "#1 Wind 1, #2 Wind 2, #3 Wind 3" in plain(element(page, "goals"))
    players = plain(element(page, "elfball-players"))
    assert "Out for the game" in players and "Lasting injury (−1 Might)" in players
    assert "7: cured, a Basic ability for this game (Push)" in players

    # Correcting it: the form comes back filled with the result waiting for confirmation.
    page = text(client.get(result_url(match)))
    goal = element(page, f"goal-{winds.pk}-2")
    assert f'value="{w[4].pk}" class="toggle" id="id_team_{winds.pk}_goal_2_3" checked' in goal
    assert 'data-value="2"' in element(page, f"tests-won-{winds.pk}")


def test_a_refused_result_is_shown_on_the_goal_it_concerns_and_nothing_is_stored(client, match, winds, widows):
    w, b = by_number(winds), by_number(widows)
    client.force_login(widows.coach)

    response = client.post(result_url(match), form_data({winds: [[w[1]], [w[2]]], widows: [[b[1]], [b[2], b[3]]]}))

    assert response.status_code == 400
    page = text(response)
    assert "The result was not saved." in page
    goal = element(page, f"goal-{widows.pk}-1")
    assert 'class="goal invalid"' in goal
    assert "Black Widows: only one team can win 2 Tests (the match ends there)." in goal
    match.refresh_from_db()
    assert (match.status, match.result) == (Match.Status.SCHEDULED, {})


def test_a_lasting_injury_to_an_attribute_that_is_not_the_highest_is_refused_on_the_player(
    client, match, winds, widows
):
    w = by_number(winds)  # Wind 3 is a Hunter: Jog 5 is his one highest attribute
    client.force_login(winds.coach)

    response = client.post(
        result_url(match),
        form_data({winds: [[w[1]], [w[1]]], widows: []}, {w[3]: {"injury": "lasting_injury", "attribute": "might"}}),
    )

    page = text(response)
    assert "The result was not saved." in page
    found = re.search(rf'<td class="invalid"><select name="player_{w[3].pk}_attribute".*?</td>', page, flags=re.S)
    assert found, "the attribute is not marked"
    assert "Wind 3: a lasting injury lowers the player's highest attribute (jog), not might." in found.group(0)
    assert Match.objects.get(pk=match.pk).status == Match.Status.SCHEDULED


def test_a_goal_with_nobody_ticked_was_not_scored_and_a_concession_is_sent(client, match, winds, widows, monkeypatch):
    sent = []
    monkeypatch.setattr(services, "match_submit_result", lambda **kw: sent.append(kw["body"]) or Match.objects.get())
    w = by_number(winds)
    client.force_login(winds.coach)

    client.post(result_url(match), form_data({winds: [[], [w[1]]]}, conceded=widows))

    assert sent[0]["teams"] == [
        {"team": winds.pk, "score": 1, "conceded": False, "no_face_off": False},
        {"team": widows.pk, "score": 0, "conceded": True, "no_face_off": False},
    ]
    assert sent[0]["goals"] == [{"team": winds.pk, "on_field": [w[1].pk]}]


# --- the post-match decisions -------------------------------------------------------------------


def test_walking_asks_the_abilities_to_learn_and_the_attribute_a_lasting_injury_lowers(client, match, winds, widows):
    w = by_number(winds)
    Player.objects.filter(pk=w[1].pk).update(goal_points=9)  # two goals on the field: 11, one ability
    two_nil(match, winds, widows)
    client.force_login(winds.coach)

    step_post(client, match, winds, {"step": "goal_points"})
    page = text(step_post(client, match, winds, {"step": "abilities"}))

    decision = element(page, "decision")
    assert "Wind 1 (may learn 1)" in decision
    assert f'name="ability_{w[1].pk}" value="push"' in decision
    assert f'name="ability_{w[1].pk}" value="sprinter"' not in decision  # the Advanced ability needs Push first
    assert "Abilities to learn" in element(page, "current-step")

    # Two abilities for one entitlement: refused next to the player, nothing learned.
    page = text(step_post(client, match, winds, {"step": "abilities", f"ability_{w[1].pk}": ["push", "buff"]}, True))
    assert "Wind 1 is entitled to 1 ability, not 2." in page
    assert re.search(rf'<div class="field invalid">.*?name="ability_{w[1].pk}"', page, flags=re.S)
    assert Player.objects.get(pk=w[1].pk).abilities == []

    step_post(client, match, winds, {"step": "abilities", f"ability_{w[1].pk}": ["push"]})
    assert Player.objects.get(pk=w[1].pk).abilities == ["push"]

    page = text(step_post(client, match, winds, {"step": "injuries"}))
    decision = element(page, "decision")
    for attribute in ("jog", "might", "tackle", "grit"):
        assert f'name="lasting_{w[2].pk}" value="{attribute}"' in decision
    assert 'value="dodge"' not in decision and "Wind 2" in decision

    page = text(step_post(client, match, winds, {"step": "injuries", f"lasting_{w[2].pk}": "might"}))
    assert Player.objects.get(pk=w[2].pk).attributes["might"] == 3
    assert "Step 4 of 4" in page
    step_post(client, match, winds, {"step": "team_stats"})
    assert Aftermath.objects.get(match=match, team=winds).complete


def test_learning_later_keeps_the_entitlement(client, match, winds, widows):
    w = by_number(winds)
    Player.objects.filter(pk=w[1].pk).update(goal_points=9)
    two_nil(match, winds, widows)
    client.force_login(winds.coach)
    step_post(client, match, winds, {"step": "goal_points"})
    step_post(client, match, winds, {"step": "abilities"})

    page = text(step_post(client, match, winds, {"step": "abilities"}))  # nothing ticked: learn later

    assert "Step 3 of 4" in page
    assert "entitlements are kept" in page
    sheet = text(client.get(sheet_url(winds)))
    assert cell(player_row(sheet, "Wind 1"), "entitlements").startswith("1 ability to learn")


# --- the team sheet -----------------------------------------------------------------------------


def test_team_sheet_shows_goal_points_entitlements_lasting_injuries_and_potions(client, match, winds, widows):
    w = by_number(winds)
    Player.objects.filter(pk=w[1].pk).update(goal_points=9)
    # The result names the attribute Wind 2's lasting injury lowers (one of his four tied at 4).
    two_nil(match, winds, widows, players=[{"player": w[2].pk, "injury": "lasting_injury", "attribute": "tackle"}])
    walk(match, winds, {"abilities": {"abilities": {}}})
    client.force_login(winds.coach)

    page = text(client.get(sheet_url(winds)))

    row = player_row(page, "Wind 1")
    assert cell(row, "goal-points") == "11" and 'data-value="11"' in row
    assert cell(row, "entitlements").startswith("1 ability to learn")
    assert f'action="{learn_url(winds, w[1])}"' in row and 'aria-label="Ability to learn: Wind 1"' in row
    assert '<option value="push">Push</option>' in row and 'value="sprinter"' not in row
    assert cell(player_row(page, "Wind 2"), "lasting") == "−1 Tackle"
    assert cell(player_row(page, "Wind 2"), "goal-points") == "2"
    assert cell(player_row(page, "Wind 3"), "entitlements") == "—"
    assert "Magic Potions in stock" in page and 'id="potions" data-value="1"' in page
    # Bob sees the sheet but no learning form.
    client.force_login(widows.coach)
    assert "Ability to learn" not in text(client.get(sheet_url(winds)))


def test_team_sheet_names_the_attribute_chosen_for_a_lasting_injury_at_the_injuries_step(client, match, winds, widows):
    w = by_number(winds)
    two_nil(match, winds, widows)  # Wind 2's lasting injury, the attribute left to the coach
    walk(match, winds, {"injuries": {"lasting_injury": {str(w[2].pk): "tackle"}}})
    assert Player.objects.get(pk=w[2].pk).attributes["tackle"] == 3

    page = text(client.get(sheet_url(winds)))

    assert cell(player_row(page, "Wind 2"), "lasting") == "−1 Tackle"


def test_the_coach_learns_an_ability_from_the_sheet_and_a_refusal_is_shown(client, winds):
    w = by_number(winds)
    Player.objects.filter(pk=w[1].pk).update(goal_points=12)
    client.force_login(winds.coach)

    page = text(client.post(learn_url(winds, w[1]), {"ability": "sprinter"}, headers=HTMX))
    assert "Sprinter is the Advanced Jog ability: it needs Push first." in page
    assert Player.objects.get(pk=w[1].pk).abilities == []

    response = client.post(learn_url(winds, w[1]), {"ability": "push"}, follow=True)
    assert "Wind 1 learned Push." in text(response)
    player = Player.objects.get(pk=w[1].pk)
    assert player.abilities == ["push"] and player.value == 20
    row = player_row(text(response), "Wind 1")
    assert "Push" in row and cell(row, "entitlements") == "—"


def test_only_the_teams_coach_may_have_a_player_learn(client, winds, widows):
    w = by_number(winds)
    Player.objects.filter(pk=w[1].pk).update(goal_points=12)
    client.force_login(widows.coach)
    assert client.post(learn_url(winds, w[1]), {"ability": "push"}).status_code == 403
    client.logout()
    response = client.post(learn_url(winds, w[1]), {"ability": "push"})
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert Player.objects.get(pk=w[1].pk).abilities == []


# --- the match report ---------------------------------------------------------------------------


def test_report_of_a_final_match_shows_tests_won_goals_grit_and_potions(client, match, winds, widows):
    w, b = by_number(winds), by_number(widows)
    body = {
        "teams": [{"team": winds.pk, "score": 2}, {"team": widows.pk, "score": 1}],
        "goals": [
            {"team": winds.pk, "on_field": [w[1].pk, w[3].pk]},
            {"team": widows.pk, "on_field": [b[6].pk]},
            {"team": winds.pk, "on_field": [w[1].pk]},
        ],
        "players": [{"player": b[2].pk, "injury": "unconscious"}],
        "potions": [{"player": w[4].pk, "roll": 9}],
    }
    services.match_submit_result(user=winds.coach, match_id=match.pk, body=body)
    services.match_confirm(user=widows.coach, match_id=match.pk)

    page = text(client.get(report_url(match)))

    result = plain(element(page, "result"))
    assert "Divine Wind 2 — — Won 3" in result and "Black Widows 1 — — Lost 0" in result
    goals = plain(element(page, "goals"))
    assert "Divine Wind 1 #1 Wind 1, #3 Wind 3" in goals and "Divine Wind 2 #1 Wind 1" in goals
    assert "Black Widows 1 #6 Widow 6" in goals
    players = plain(element(page, "elfball-players"))
    assert "Divine Wind #1 Wind 1 2 — —" in players
    assert "Black Widows #2 Widow 2 0 Knocked unconscious" in players
    assert "9: no effect (not in the rulebook: house rule)" in players
    assert "performances" not in page


def test_report_queries_do_not_grow_with_goals_and_players(client, elf_league, winds, widows, commissioner):
    third = TeamFactory(league=elf_league, coach=UserFactory(username="carol"), name="Carol's Gnolls", roster="gnolls")
    for n in range(1, 8):
        hire(third, "hunter" if n < 4 else "safety", name=f"Gnoll {n}", number=n)
    w, b, g = by_number(winds), by_number(widows), by_number(third)
    small = services.match_schedule(user=commissioner, league=elf_league, team_ids=[winds.pk, widows.pk])
    services.match_submit_result(
        user=winds.coach,
        match_id=small.pk,
        body={
            "teams": [{"team": winds.pk, "score": 2}, {"team": widows.pk, "score": 0}],
            "goals": [{"team": winds.pk, "on_field": [w[1].pk]}] * 2,
        },
    )
    services.match_confirm(user=widows.coach, match_id=small.pk)
    for team in (winds, widows):
        walk(small, team)
    large = services.match_schedule(user=commissioner, league=elf_league, team_ids=[third.pk, widows.pk])
    services.match_submit_result(
        user=third.coach,
        match_id=large.pk,
        body={
            "teams": [{"team": third.pk, "score": 2}, {"team": widows.pk, "score": 1}],
            "goals": [
                {"team": third.pk, "on_field": [p.pk for p in g.values()]},
                {"team": widows.pk, "on_field": [p.pk for p in b.values()]},
                {"team": third.pk, "on_field": [g[1].pk, g[2].pk]},
            ],
            "players": [{"player": b[n].pk, "injury": "out_for_game"} for n in (1, 2, 3)],
        },
    )
    services.match_confirm(user=widows.coach, match_id=large.pk)

    counts = []
    for m in (small, large):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(report_url(m)).status_code == 200
        counts.append(len(captured))

    assert counts[0] == counts[1]


# --- the Challenge roller -----------------------------------------------------------------------


def test_league_page_links_the_challenge_roller_for_elfball_leagues_only(client, elf_league, league):
    assert challenge_url(elf_league) in text(client.get(reverse("league-detail", args=[elf_league.pk])))
    assert challenge_url(league) not in text(client.get(reverse("league-detail", args=[league.pk])))


def test_challenge_page_scores_the_dice_entered_and_logs_the_roll(client, elf_league, winds, match):
    client.force_login(winds.coach)
    assert client.get(challenge_url(elf_league)).status_code == 200

    response = client.post(
        challenge_url(elf_league), {"dice": 3, "threshold": 4, "values": "6, 3, 1, 5", "match": match.pk}
    )

    page = text(response)
    result = element(page, "challenge-result")
    assert 'data-successes="2"' in result and 'data-flops="1"' in result and 'data-flopped="false"' in result
    assert "2 successes, 1 flop" in plain(result) and "not flopped" in plain(result)
    assert [int(v) for v in re.findall(r"<li class=\"[^\"]*\">(\d+)</li>", result)] == [6, 3, 1, 5]
    roll = Roll.objects.get(key="challenge")
    assert (roll.values, roll.entered, roll.match_id, roll.rolled_by) == ([6, 3, 1, 5], True, match.pk, winds.coach)
    assert "6, 3, 1, 5" in plain(element(page, "challenges"))


def test_challenge_page_rolls_for_the_table_and_says_when_it_flopped(client, elf_league, winds):
    client.force_login(winds.coach)

    page = text(client.post(challenge_url(elf_league), {"dice": 2, "threshold": 5, "values": "1, 1"}))
    result = element(page, "challenge-result")
    assert 'data-flopped="true"' in result and "flopped" in plain(result)

    page = text(client.post(challenge_url(elf_league), {"dice": 4, "threshold": 3}))
    roll = Roll.objects.filter(key="challenge").order_by("-id").first()
    assert not roll.entered and len(roll.values) >= 4
    assert "Rolled by the server and logged" in page
    assert Roll.objects.filter(key="challenge").count() == 2


def test_challenge_dice_that_do_not_make_a_challenge_are_refused_on_the_field(client, elf_league, winds):
    client.force_login(winds.coach)

    page = text(client.post(challenge_url(elf_league), {"dice": 3, "threshold": 4, "values": "6, 3, 1"}))

    assert 'id="challenge-result"' not in page
    found = re.search(r'<div class="field invalid">.*?name="values".*?</div>', page, flags=re.S)
    assert found and "needs 4 dice" in page
    assert not Roll.objects.filter(key="challenge").exists()


def test_challenge_page_is_for_the_leagues_coaches_and_commissioner(client, elf_league, stranger):
    url = challenge_url(elf_league)
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(stranger)
    response = client.post(url, {"dice": 3, "threshold": 4})
    assert response.status_code == 403
    assert "Only the league's coaches and commissioners can roll Challenges in it." in text(response)
    assert not Roll.objects.exists()


# --- scheduling ---------------------------------------------------------------------------------


def test_schedule_page_sets_the_tests_to_win_and_the_result_form_follows(client, elf_league, winds, widows):
    client.force_login(winds.coach)
    url = f"{reverse('match-schedule')}?league={elf_league.pk}"
    page = text(client.get(url))
    assert 'for="id_tests_to_win"' in page and 'name="tests_to_win" value="2"' in page
    assert 'name="event"' not in page and 'name="more"' not in page

    client.post(url, {"home": winds.pk, "away": widows.pk, "kind": "league", "tests_to_win": 3})

    match = Match.objects.get()
    assert match.tests_to_win == 3
    page = text(client.get(result_url(match)))
    assert f'id="goal-{widows.pk}-3"' in page and f'id="goal-{widows.pk}-4"' not in page
    assert "The first team to win 3 Tests wins." in page


def test_a_challenge_with_an_out_of_range_form_is_answered_400_and_rolls_nothing(client, elf_league, commissioner):
    client.force_login(commissioner)

    response = client.post(f"/leagues/{elf_league.pk}/challenge/", {"dice": "0", "threshold": "4", "values": ""})

    assert response.status_code == 400  # the form again with its error in words
    assert "Ensure this value is greater than or equal to 1." in text(response)
    assert not Roll.objects.exists()
