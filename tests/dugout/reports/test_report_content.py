"""The weekly report's content (dugout.reports.build_report) and its two renderings.

A Blitz Bowl league of four Hume teams, every match played through the API (schedule, submit, confirm) and the
week's post-match sequences walked with the dice entered by hand; the times are then moved so that one match
falls in the week before and two in the report's week:

    last week   M1  Ash Apes 1–0 Bog Bats                     (sequences closed unwalked)
    this week   M2  Bog Bats 3–1 Cold Cats at The Pit         Cold Cats 5 killed; 6 loses 1 AG; 8 niggling
                M3  Ash Apes 1–1 Dim Dogs                     (Dim Dogs: a team new this week)
    scheduled   M4  Cold Cats v Dim Dogs

Every number asserted is worked out in the comments (rules: ../shared/rules/blitzbowl.md, house defaults).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from datetime import timedelta

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dugout.reports import build_report
from league.models import League
from matches.models import Aftermath, Match
from matches.selectors import league_standings
from teams.models import LedgerEntry, Player, Sponsorship, Team
from tests.factories import LeagueFactory, StadiumFactory, TeamFactory, UserFactory, hire
from tests.matches.bonecruncher_helpers import squad_team
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db

BLITZ_STEPS = ("improvements", "team_stats", "fortune", "hire_fire", "prepare")
ELF_STEPS = ("goal_points", "abilities", "injuries", "team_stats")
BONE_STEPS = ("wounds", "veterans", "team_stats")


# --- helpers ----------------------------------------------------------------------------------------------------


def play(api_as, scheduler, confirmer, league, teams, result, **extra) -> int:
    """Schedule, submit (as `scheduler`) and confirm (as `confirmer`) through the API; the match id."""
    client = api_as(scheduler)
    body = {"league": league.pk, "teams": [t.pk for t in teams], **extra}
    response = client.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 201, response.json()
    mid = response.json()["id"]
    response = client.post(f"/api/v1/matches/{mid}/result/", result, format="json")
    assert response.status_code == 201, response.json()
    response = api_as(confirmer).post(f"/api/v1/matches/{mid}/confirm/")
    assert response.status_code == 200, response.json()
    return mid


def walk(api_as, user, mid, team, steps, **answers) -> dict:
    """Every step in order; `answers[step] = (choices, rolls)`. No step may pause."""
    client = api_as(user)
    state = {}
    for step in steps:
        choices, rolls = answers.get(step, ({}, {}))
        response = client.post(
            f"/api/v1/matches/{mid}/aftermath/{team.pk}/",
            {"step": step, "choices": choices, "rolls": rolls},
            format="json",
        )
        assert response.status_code == 200, (step, response.json())
        state = response.json()
        assert state["pending"] is None, (step, state["pending"])
    assert state["complete"] is True
    return state


def close_sequences(mid) -> None:
    """Results of a team wait for its last sequence: close one without walking it (no gil moves)."""
    Aftermath.objects.filter(match_id=mid).update(complete=True, step_index=5)


def ids(team) -> dict[int, int]:
    return dict(Player.objects.filter(team=team).values_list("number", "pk"))


def schedule(api_as, user, league, teams, **extra) -> int:
    response = api_as(user).post(
        "/api/v1/matches/", {"league": league.pk, "teams": [t.pk for t in teams], **extra}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def week_window():
    end = timezone.now() + timedelta(hours=1)
    return end - timedelta(days=7), end


def rows(entries, *keys):
    return [tuple(e[k] for k in keys) for e in entries]


# --- the Blitz Bowl week ----------------------------------------------------------------------------------------


@pytest.fixture
def blitz_week(api_as, commissioner, league):
    coaches = {name: UserFactory(username=name) for name in ("ann", "ben", "cid", "dee")}
    ash = full_team(league, coaches["ann"], "Ash Apes")
    bog = full_team(league, coaches["ben"], "Bog Bats")
    cold = full_team(league, coaches["cid"], "Cold Cats")
    dim = full_team(league, coaches["dee"], "Dim Dogs")
    a, b, c, d = ids(ash), ids(bog), ids(cold), ids(dim)
    pit = StadiumFactory(league=league, name="The Pit", special_attribute="Lava moat")
    start, end = week_window()

    # M1 (last week): Ash Apes 1–0 Bog Bats. Ash Apes 1 scores.
    m1 = play(
        api_as,
        commissioner,
        coaches["ben"],
        league,
        [ash, bog],
        {
            "teams": [{"team": ash.pk, "score": 1, "mvp": a[2]}, {"team": bog.pk, "score": 0, "mvp": b[5]}],
            "players": [{"player": a[1], "touchdowns": 1}],
        },
    )
    close_sequences(m1)

    # M2 (this week): Bog Bats 3–1 Cold Cats at The Pit. Bog Bats 1: 2 TD (6 SPP) + MVP (5) = 11 SPP → a level;
    # Bog Bats 2: 1 TD; Bog Bats 3 and 4: 2 casualties each (4 inflicted). Cold Cats 1: 1 TD; MVP Cold Cats 2.
    # Cold Cats 5 dies; 6 loses 1 AG; 7 badly hurt (nothing lasting); 8 a niggling injury.
    m2 = play(
        api_as,
        commissioner,
        coaches["cid"],
        league,
        [bog, cold],
        {
            "teams": [
                {"team": bog.pk, "score": 3, "casualties_inflicted": 4, "mvp": b[1]},
                {"team": cold.pk, "score": 1, "casualties_inflicted": 0, "mvp": c[2]},
            ],
            "players": [
                {"player": b[1], "touchdowns": 2},
                {"player": b[2], "touchdowns": 1},
                {"player": b[3], "casualties": 2},
                {"player": b[4], "casualties": 2},
                {"player": c[1], "touchdowns": 1},
                {"player": c[5], "injury": "dead"},
                {"player": c[6], "injury": "stat_loss", "stat": "ag"},
                {"player": c[7], "injury": "badly_hurt"},
                {"player": c[8], "injury": "niggling"},
            ],
        },
        stadium=pit.pk,
    )
    # Bog Bats: Bog Bats 1 rolls 5 + 6 = 11 → +AG (value 5,000 + 4,000). Winnings 4 × 1,000 + win 1,000 = 5,000.
    #   Residency at The Pit: d6 6 + 1 (won) = 7 → "It'll cost you": accepted, this match's 5,000 winnings paid.
    #   Fan Factor: won, 3d6 2 + 3 + 4 = 9 > 0 → FF 1. Sponsor: d20 20 + FF 1 + won 2 + margin 2 (+1)
    #   + opponent 4 casualties (+2) = 26 → an Ongoing Sponsorship. Treasury 45,000 + 5,000 − 5,000 = 45,000;
    #   expensive mistakes: bracket 40,000–49,999, d6 3 → minor, d3 2 → −2,000 = 43,000.
    #   Team value: 9,000 + 10 × 5,000 + FF 1,000 = 60,000 (55,000 before the match).
    walk(
        api_as,
        commissioner,
        m2,
        bog,
        BLITZ_STEPS,
        improvements=({"improvements": {str(b[1]): ["ag"]}}, {"improvement": [5, 6]}),
        fortune=(
            {"reroll_winnings": False, "residency": "accept_cost", "seek_sponsor": True},
            {"winnings": [4], "residency": [6], "fan_factor": [2, 3, 4], "sponsorship": [20]},
        ),
        prepare=({}, {"expensive_mistakes": [3], "expensive_mistakes_amount": [2]}),
    )
    # Cold Cats: no level. Winnings 2 × 1,000 = 2,000 (The Pit is now the Bats' home: no residency offer).
    #   Fan Factor: lost, 2d6 3 + 3 is not below 0. Cold Cats 5 leaves for the memorial. Treasury 47,000:
    #   d6 6 → averted. 10 can play → one journeyman; team value 10 × 5,000 + 5,000 = 55,000 (unchanged).
    walk(
        api_as,
        commissioner,
        m2,
        cold,
        BLITZ_STEPS,
        fortune=({"seek_sponsor": False}, {"winnings": [2], "fan_factor": [3, 3]}),
        prepare=({}, {"expensive_mistakes": [6]}),
    )

    # M3 (this week): Ash Apes 1–1 Dim Dogs (sequences closed unwalked).
    m3 = play(
        api_as,
        commissioner,
        coaches["dee"],
        league,
        [ash, dim],
        {
            "teams": [{"team": ash.pk, "score": 1, "mvp": a[2]}, {"team": dim.pk, "score": 1, "mvp": d[2]}],
            "players": [{"player": a[1], "touchdowns": 1}, {"player": d[1], "touchdowns": 1}],
        },
    )
    close_sequences(m3)
    # M4, to come.
    m4 = schedule(api_as, commissioner, league, [cold, dim])

    # Time travel: M1 a week ago, M2 and M3 in the week; the teams (but Dim Dogs) and their opening gil older.
    Match.objects.filter(pk=m1).update(confirmed_at=start - timedelta(days=1))
    Match.objects.filter(pk=m2).update(confirmed_at=start + timedelta(days=1))
    Match.objects.filter(pk=m3).update(confirmed_at=start + timedelta(days=2))
    Team.objects.exclude(pk=dim.pk).update(created_at=start - timedelta(days=10))
    LedgerEntry.objects.filter(match__isnull=True).update(created_at=start - timedelta(days=10))
    return {
        "start": start,
        "end": end,
        "teams": (ash, bog, cold, dim),
        "players": (a, b, c, d),
        "matches": (m1, m2, m3, m4),
        "pit": pit,
    }


def test_a_blitz_bowl_week_results_table_and_leaders(league, blitz_week):
    w = blitz_week
    _, _, cold, dim = w["teams"]
    a, b, c, d = w["players"]
    _, m2, m3, m4 = w["matches"]
    report = build_report(league=League.objects.get(pk=league.pk), week_start=w["start"], week_end=w["end"])
    json.dumps(report)  # plain data only

    assert report["headline"] == "2 matches, 6 touchdowns, 4 casualties, 1 death"
    assert report["no_matches"] is False
    assert (report["week_start"], report["week_end"]) == (w["start"].isoformat(), w["end"].isoformat())

    # Results: the week's two final matches, in the order they became final; M1 was last week.
    assert [r["id"] for r in report["results"]] == [m2, m3]
    first, second = report["results"]
    assert (first["url"], first["summary"], first["words"], first["stadium"]) == (
        f"/matches/{m2}/",
        "Bog Bats 3–1 Cold Cats",
        "Bog Bats beat Cold Cats 3–1.",
        "The Pit",
    )
    assert rows(first["teams"], "name", "score", "outcome_words", "league_points") == [
        ("Bog Bats", 3, "Won", 3),
        ("Cold Cats", 1, "Lost", 0),
    ]
    assert (second["summary"], second["words"]) == ("Ash Apes 1–1 Dim Dogs", "Ash Apes and Dim Dogs drew 1–1.")

    # The table now, and last week's (after M1: Ash 3 pts; Cold 0 pts, TD 0; Bog 0 pts, TD −1).
    #   Ash Apes: W1 D1, 4 pts (2–1)                 1st, was 1st →  0
    #   Bog Bats: W1 L1, 3 pts (3–2)                 2nd, was 3rd → ▲1
    #   Dim Dogs: D1, 1 pt (1–1), created this week  3rd, new
    #   Cold Cats: L1, 0 pts (1–3)                   4th, was 2nd → ▼2
    assert rows(report["table"], "position", "name", "played", "points", "scored", "conceded", "movement") == [
        (1, "Ash Apes", 2, 4, 2, 1, 0),
        (2, "Bog Bats", 2, 3, 3, 2, 1),
        (3, "Dim Dogs", 1, 1, 1, 1, "new"),
        (4, "Cold Cats", 1, 0, 1, 3, -2),
    ]
    assert rows(report["table"], "previous_position", "moved") == [(1, 0), (3, 1), (None, 0), (2, 2)]
    assert [r["team"] for r in report["table"]] == [r["team"] for r in league_standings(league=league)]

    # Leaders: touchdowns of the week, and of the season (Ash Apes 1 scored in M1 too); casualties.
    scorers = report["top_scorers"]
    assert (scorers["by"], scorers["unit"]) == ("player", "touchdowns")
    assert rows(scorers["week"], "name", "team_name", "value") == [
        ("Bog Bats 1", "Bog Bats", 2),
        ("Ash Apes 1", "Ash Apes", 1),
        ("Bog Bats 2", "Bog Bats", 1),
        ("Cold Cats 1", "Cold Cats", 1),
        ("Dim Dogs 1", "Dim Dogs", 1),
    ]
    assert rows(scorers["season"], "name", "value") == [
        ("Ash Apes 1", 2),
        ("Bog Bats 1", 2),
        ("Bog Bats 2", 1),
        ("Cold Cats 1", 1),
        ("Dim Dogs 1", 1),
    ]
    assert rows(report["top_casualties"]["week"], "player", "value") == [(b[3], 2), (b[4], 2)]
    assert report["top_casualties"]["season"] == report["top_casualties"]["week"]
    assert rows(report["mvps"], "player", "match", "spp") == [
        (b[1], m2, 11),
        (c[2], m2, 5),
        (a[2], m3, 5),
        (d[2], m3, 5),
    ]

    # Fixtures: the scheduled M4.
    assert rows(report["fixtures"], "id", "url", "summary", "kind") == [
        (m4, f"/matches/{m4}/", "Cold Cats v Dim Dogs", "league")
    ]
    assert [t["team"] for t in report["fixtures"][0]["teams"]] == [cold.pk, dim.pk]


def test_a_blitz_bowl_week_deaths_improvements_and_gil(league, blitz_week):
    w = blitz_week
    bog = w["teams"][1]
    _, b, c, _ = w["players"]
    m2 = w["matches"][1]
    report = build_report(league=League.objects.get(pk=league.pk), week_start=w["start"], week_end=w["end"])

    # In memoriam: Cold Cats 5, killed in M2; serious injuries: the lost AG and the niggling injury (not the
    # badly hurt player).
    assert rows(report["in_memoriam"], "player", "name", "team_name", "position", "match", "cause") == [
        (c[5], "Cold Cats 5", "Cold Cats", "Lineman", m2, "dead")
    ]
    assert rows(report["serious_injuries"], "player", "injury", "words") == [
        (c[6], "stat_loss", "lasting injury: −1 AG"),
        (c[8], "niggling", "niggling injury"),
    ]
    # Improvements: Bog Bats 1's +AG from the improvements step.
    assert rows(report["improvements"], "player", "kind", "what", "match", "words") == [
        (b[1], "attribute", "+1 AG", m2, "Bog Bats 1 gained +1 AG.")
    ]

    # Treasury movers (this week's ledger only): Cold Cats +2,000 winnings; Bog Bats +5,000 winnings − 5,000
    # residency − 2,000 expensive mistake = −2,000. Equal swings: the gain first.
    assert rows(report["treasury_movers"], "name", "change", "treasury") == [
        ("Cold Cats", 2_000, 47_000),
        ("Bog Bats", -2_000, 43_000),
    ]
    assert report["treasury_movers"][1]["by_kind"] == {
        "expensive_mistake": -2_000,
        "residency": -5_000,
        "winnings": 5_000,
    }
    # Team value: Bog Bats 55,000 → 60,000; the others did not move (Cold Cats' journeyman replaced the dead man).
    assert rows(report["tv_movers"], "name", "before", "now", "change") == [("Bog Bats", 55_000, 60_000, 5_000)]
    assert rows(report["fan_factor_changes"], "name", "change", "fan_factor") == [("Bog Bats", 1, 1)]
    assert rows(report["sponsorships"]["gained"], "team", "sponsor") == [(bog.pk, f"Sponsor of match #{m2}")]
    assert report["sponsorships"]["ended"] == []
    assert rows(report["stadium_deals"], "team", "deal", "stadium", "gil", "match", "words") == [
        (bog.pk, "residency", "The Pit", -5_000, m2, "Bog Bats moved into The Pit (-5,000 gil).")
    ]
    assert rows(report["expensive_mistakes"], "team", "amount", "severity", "match") == [(bog.pk, 2_000, "minor", m2)]

    # The chart: one line per team, the value before each match and now.
    assert report["chart"].startswith("<svg") and report["chart"].count('<g id="series-') == 4
    assert "elfball" not in report and "bonecruncher" not in report


def test_the_report_renders_to_html_and_text(league, blitz_week):
    w = blitz_week
    _, m2, _, m4 = w["matches"]
    report = build_report(league=League.objects.get(pk=league.pk), week_start=w["start"], week_end=w["end"])
    context = {"report": report, "base_url": "https://dugout.test"}
    html = render_to_string("league/_report_body.html", context)
    assert "2 matches, 6 touchdowns, 4 casualties, 1 death" in html
    assert f'href="https://dugout.test/matches/{m2}/"' in html and f'href="https://dugout.test/matches/{m4}/"' in html
    assert "▲1" in html and "▼2" in html and ">new<" in html
    assert "In memoriam" in html and "Cold Cats 5" in html
    assert "−2,000 gil" in html or "-2,000 gil" in html
    assert "<svg" in html and "<script" not in html and "<link" not in html and "No matches played" not in html
    text = render_to_string("league/report_email.txt", context)
    assert "Bog Bats 3–1 Cold Cats" in text and f"https://dugout.test/matches/{m2}/" in text
    assert "(▲1) Bog Bats" in text and "(▼2) Cold Cats" in text and "IN MEMORIAM" in text
    assert "<" not in text.replace("<svg", "")  # no markup in the plain text (and no chart)
    assert "&" not in text
    # Without base_url the links stay relative.
    assert f'href="/matches/{m2}/"' in render_to_string("league/_report_body.html", {"report": report})


def test_an_empty_week_says_no_matches_were_played(league, blitz_week):
    w = blitz_week
    start = w["start"] + timedelta(days=14)
    report = build_report(league=league, week_start=start, week_end=start + timedelta(days=7))
    assert report["no_matches"] is True and report["results"] == []
    assert report["headline"] == "No matches played this week"
    assert report["top_scorers"]["week"] == [] and report["treasury_movers"] == [] and report["in_memoriam"] == []
    # Nothing moved in a week without matches.
    assert all(row["movement"] in (0, "new") for row in report["table"])
    assert report["table"][2]["movement"] == 0  # Dim Dogs existed before this (later) week
    html = render_to_string("league/_report_body.html", {"report": report})
    assert "No matches played this week" in html
    assert "No matches played this week" in render_to_string("league/report_email.txt", {"report": report})


def test_a_week_reported_after_later_results_shows_the_table_at_the_week_end(league, blitz_week):
    """Written late, the report still tells the week: the table as it stood at the week's end."""
    w = blitz_week
    earlier_end = w["start"]
    report = build_report(league=league, week_start=earlier_end - timedelta(days=7), week_end=earlier_end)
    assert [r["id"] for r in report["results"]] == [w["matches"][0]]
    # Dim Dogs did not exist yet. A week before: three teams level, by name: Ash, Bog, Cold.
    assert rows(report["table"], "name", "points", "movement") == [
        ("Ash Apes", 3, 0),
        ("Cold Cats", 0, 1),
        ("Bog Bats", 0, -1),
    ]


# --- the query count does not grow with the league ----------------------------------------------------------------


def _league_of(api_as, size: int, tag: str):
    commissioner = UserFactory(username=f"commish-{tag}")
    league = LeagueFactory(created_by=commissioner, name=f"Size {tag}", ruleset="blitzbowl")
    teams = [full_team(league, UserFactory(username=f"{tag}-coach{n}"), f"{tag} Team {n}") for n in range(size)]
    for home, away in zip(teams[::2], teams[1::2], strict=True):
        h, a = ids(home), ids(away)
        mid = play(
            api_as,
            commissioner,
            away.coach,
            league,
            [home, away],
            {
                "teams": [
                    {"team": home.pk, "score": 1, "casualties_inflicted": 1, "mvp": h[2]},
                    {"team": away.pk, "score": 0, "mvp": a[1]},
                ],
                "players": [{"player": h[1], "touchdowns": 1, "casualties": 1}, {"player": a[3], "injury": "dead"}],
            },
        )
        walk(
            api_as,
            commissioner,
            mid,
            home,
            BLITZ_STEPS,
            fortune=({"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [3], "fan_factor": [1, 1, 1]}),
            prepare=({}, {"expensive_mistakes": [6]}),
        )
    schedule(api_as, commissioner, league, teams[:2])
    return League.objects.get(pk=league.pk)


def test_the_query_count_is_the_same_for_a_small_and_a_larger_league(api_as):
    small, large = _league_of(api_as, 2, "S"), _league_of(api_as, 8, "L")
    start, end = week_window()
    counts = []
    for league in (small, large):
        with CaptureQueriesContext(connection) as queries:
            report = build_report(league=league, week_start=start, week_end=end)
        counts.append(len(queries))
        assert len(report["in_memoriam"]) == len(report["results"])
    assert len(build_report(league=large, week_start=start, week_end=end)["results"]) == 4
    assert counts[0] == counts[1], counts
    assert counts[0] <= 20


# --- ElfBall and Bone Cruncher get their own sections --------------------------------------------------------------


def elf_cup(api_as, commissioner, name: str = "Elf Cup", coaches: tuple[str, str] = ("ann", "ben")) -> dict:
    """An ElfBall league of two seven-player teams (Ash Widows A1–A7, Bog Razorbacks B1–B7) that has played one
    match through the API, both sequences walked: Widows 9–0 Razorbacks (9 Tests to win), nine goals with A1,
    A3 and A5 on the field (9 GP each)."""
    league = LeagueFactory(created_by=commissioner, name=name, ruleset="elfball")
    ann, ben = (UserFactory(username=username) for username in coaches)
    widows = TeamFactory(league=league, coach=ann, name="Ash Widows", roster="black_widows")
    razors = TeamFactory(league=league, coach=ben, name="Bog Razorbacks", roster="razorbacks")
    for n, position in enumerate(["hunter", "midfielder", "midfielder", "striker", "striker", "striker", "hunter"], 1):
        hire(widows, position, name=f"A{n}", number=n)
    for n in range(1, 8):
        hire(razors, "hunter" if n <= 4 else "midfielder", name=f"B{n}", number=n)
    a, b = ids(widows), ids(razors)
    first = play(
        api_as,
        commissioner,
        ben,
        league,
        [widows, razors],
        {
            "teams": [{"team": widows.pk, "score": 9}, {"team": razors.pk, "score": 0}],
            "goals": [{"team": widows.pk, "on_field": [a[1], a[3], a[5]]}] * 9,
        },
        tests_to_win=9,
    )
    for team in (widows, razors):
        walk(api_as, commissioner, first, team, ELF_STEPS)
    return {"league": league, "widows": widows, "razors": razors, "a": a, "b": b, "ben": ben, "first": first}


def test_an_elfball_week_lists_goal_points_and_a_career_ended(api_as, commissioner):
    cup = elf_cup(api_as, commissioner)
    league, widows, razors, a, b, ben, m0 = (cup[k] for k in ("league", "widows", "razors", "a", "b", "ben", "first"))
    start, end = week_window()
    # Last week, the cup's first match.
    Match.objects.filter(pk=m0).update(confirmed_at=start - timedelta(days=2))
    # This week, Widows 2–1 Razorbacks: two goals with A1, A2, A4 on the field (2 GP each), one with B1, B2
    # (1 GP each). A1 reaches 11 GP and learns Push (+5 points: 105 → 110). B3 flops his Grit Challenge:
    # career-ending (removed at the injuries step: 7 × 15 → 6 × 15 = 90 points).
    mid = play(
        api_as,
        commissioner,
        ben,
        league,
        [widows, razors],
        {
            "teams": [{"team": widows.pk, "score": 2}, {"team": razors.pk, "score": 1}],
            "goals": [
                {"team": widows.pk, "on_field": [a[1], a[2], a[4]]},
                {"team": widows.pk, "on_field": [a[1], a[2], a[4]]},
                {"team": razors.pk, "on_field": [b[1], b[2]]},
            ],
            "players": [{"player": b[3], "injury": "career_ending"}],
        },
    )
    walk(api_as, commissioner, mid, widows, ELF_STEPS, abilities=({"abilities": {str(a[1]): ["push"]}}, {}))
    walk(api_as, commissioner, mid, razors, ELF_STEPS)
    report = build_report(league=League.objects.get(pk=league.pk), week_start=start, week_end=end)
    json.dumps(report)

    assert report["headline"] == "1 match, 3 Tests won, 8 Goal Points, 1 career ended"
    assert [r["id"] for r in report["results"]] == [mid]
    assert rows(report["results"][0]["teams"], "name", "score", "outcome_words") == [
        ("Ash Widows", 2, "Won"),
        ("Bog Razorbacks", 1, "Lost"),
    ]
    assert rows(report["elfball"]["goal_points"], "name", "goal_points", "total") == [
        ("A1", 2, 11),
        ("A2", 2, 2),
        ("A4", 2, 2),
        ("B1", 1, 1),
        ("B2", 1, 1),
    ]
    assert rows(report["elfball"]["abilities"], "player", "kind", "what", "match", "words") == [
        (a[1], "ability", "Push", mid, "A1 learned Push.")
    ]
    assert report["improvements"] == report["elfball"]["abilities"]
    assert report["top_scorers"]["unit"] == "Goal Points"
    assert rows(report["top_scorers"]["week"], "name", "value")[:2] == [("A1", 2), ("A2", 2)]
    assert rows(report["top_scorers"]["season"], "name", "value") == [
        ("A1", 11),
        ("A3", 9),
        ("A5", 9),
        ("A2", 2),
        ("A4", 2),
    ]
    assert rows(report["in_memoriam"], "player", "cause", "cause_words") == [
        (b[3], "career_ending", "Career-ending injury")
    ]
    # Team value in points: before the week's match, and now.
    assert rows(report["tv_movers"], "name", "before", "now", "change") == [
        ("Bog Razorbacks", 105, 90, -15),
        ("Ash Widows", 105, 110, 5),
    ]
    # No gil in ElfBall, no casualties, no MVPs.
    for key in ("treasury_movers", "fan_factor_changes", "sponsorships", "stadium_deals", "expensive_mistakes"):
        assert key not in report
    assert "top_casualties" not in report and "mvps" not in report and "bonecruncher" not in report
    assert report["chart"].count('<g id="series-') == 2
    html = render_to_string("league/_report_body.html", {"report": report})
    assert "Goal Points and abilities" in html and "+2 GP" in html and "Treasury movers" not in html


def test_a_bone_cruncher_week_lists_wounds_deaths_and_team_scorers(api_as, commissioner):
    league = LeagueFactory(created_by=commissioner, name="Bone Cup", ruleset="bonecruncher")
    ork, hob = UserFactory(username="ork"), UserFactory(username="hob")
    orcs, o = squad_team(league, ork, "Gutrot Gougers", "orcs_goblins")
    hobs, h = squad_team(league, hob, "Bramble Bruisers", "halflings")
    orcs, hobs = Team.objects.get(pk=orcs), Team.objects.get(pk=hobs)
    # M1 Scorchball: Orcs 9–6 Halflings. H3 takes 10 wounds (no armour): the 10th kills. O4: 1 wound and a
    # critical 6 — severed left arm (4 wounds): 5 in all.
    m1 = play(
        api_as,
        commissioner,
        hob,
        league,
        [orcs, hobs],
        {
            "teams": [
                {"team": orcs.pk, "score": 9, "squad": [o[n] for n in range(1, 9)]},
                {"team": hobs.pk, "score": 6, "squad": [h[n] for n in range(1, 9)]},
            ],
            "wounds": [
                {"player": h[3], "wounds": 10},
                {"player": o[4], "wounds": 1, "critical": [{"roll": 6, "side": "left"}]},
            ],
        },
        event="scorchball",
    )
    for team in (orcs, hobs):
        walk(api_as, commissioner, m1, team, BONE_STEPS)
    # M2 Terminix: Halflings 1st (3 eliminations), Orcs 2nd (1).
    m2 = play(
        api_as,
        commissioner,
        ork,
        league,
        [orcs, hobs],
        {
            "teams": [
                {"team": orcs.pk, "placing": 2, "eliminations": 1},
                {"team": hobs.pk, "placing": 1, "eliminations": 3},
            ]
        },
        event="terminix",
    )
    start, end = week_window()
    report = build_report(league=League.objects.get(pk=league.pk), week_start=start, week_end=end)
    json.dumps(report)

    assert report["headline"] == "2 matches, 15 points scored, 4 eliminations, 1 death"
    assert [(r["id"], r["summary"]) for r in report["results"]] == [
        (m1, "Gutrot Gougers 9–6 Bramble Bruisers"),
        (m2, "1st Bramble Bruisers (3 eliminations), 2nd Gutrot Gougers (1 elimination)"),
    ]
    assert report["results"][1]["words"] == "Bramble Bruisers won the Terminix."
    assert rows(report["results"][1]["teams"], "name", "placing", "outcome_words") == [
        ("Gutrot Gougers", 2, "2nd"),
        ("Bramble Bruisers", 1, "1st"),
    ]
    # Team leaders: Scorchball points and eliminations.
    assert report["top_scorers"]["by"] == "team"
    assert rows(report["top_scorers"]["week"], "name", "value") == [("Gutrot Gougers", 9), ("Bramble Bruisers", 6)]
    assert rows(report["top_casualties"]["season"], "name", "value") == [
        ("Bramble Bruisers", 3),
        ("Gutrot Gougers", 1),
    ]
    # Wounds and deaths. A critical wound that lasts reads as its lasting condition, in the one wording
    # (rules/bonecruncher.md "Wounds"; campaigns/rulesets/bonecruncher/words.py `condition`): a severed arm never
    # heals unless the league's house rule says so.
    bc = report["bonecruncher"]
    assert rows(bc["wounds"], "player", "wounds", "critical", "dead") == [
        (h[3], 10, [], True),
        (o[4], 5, ["severed left arm (never heals)"], False),
    ]
    assert rows(bc["deaths"], "player", "name", "match") == [(h[3], "Bramble Bruisers 3", m1)]
    assert rows(report["in_memoriam"], "player", "cause") == [(h[3], "dead")]
    assert rows(report["serious_injuries"], "player", "injury", "words") == [
        (o[4], "critical_wound", "severed left arm (never heals)")
    ]
    assert bc["elite"] == []
    # No team value, no gil in Bone Cruncher: no movers and no chart.
    for key in ("treasury_movers", "tv_movers", "chart", "mvps", "elfball"):
        assert key not in report
    text = render_to_string("league/report_email.txt", {"report": report})
    assert "WOUNDS AND VETERANS" in text and "Bramble Bruisers 3 (Bramble Bruisers): 10 wounds — dead" in text


def test_sponsorships_ended_in_the_week_are_listed(league, blitz_week):
    w = blitz_week
    bog = w["teams"][1]
    Sponsorship.objects.filter(team=bog).update(ended_at=w["start"] + timedelta(days=3))
    report = build_report(league=league, week_start=w["start"], week_end=w["end"])
    assert rows(report["sponsorships"]["ended"], "team_name", "sponsor") == [
        ("Bog Bats", f"Sponsor of match #{w['matches'][1]}")
    ]


def test_team_names_are_escaped_in_the_html_and_plain_in_the_text(api_as, commissioner, league, coach, other_coach):
    evil = full_team(league, coach, "<Evil & Co>")
    plain = full_team(league, other_coach, "Plain Folk")
    e = ids(evil)
    mid = play(
        api_as,
        commissioner,
        other_coach,
        league,
        [evil, plain],
        {
            "teams": [{"team": evil.pk, "score": 1}, {"team": plain.pk, "score": 0}],
            "players": [{"player": e[1], "touchdowns": 1}],
        },
    )
    close_sequences(mid)
    start, end = week_window()
    report = build_report(league=league, week_start=start, week_end=end)
    assert report["results"][0]["summary"] == "<Evil & Co> 1–0 Plain Folk"  # data stays plain
    html = render_to_string("league/_report_body.html", {"report": report})
    assert "<Evil & Co>" not in html and "&lt;Evil &amp; Co&gt; 1–0 Plain Folk" in html
    chart = html[html.index("<svg") : html.index("</svg>") + len("</svg>")]
    ET.fromstring(chart)
    text = render_to_string("league/report_email.txt", {"report": report})
    assert "<Evil & Co> 1–0 Plain Folk" in text and "&lt;" not in text
