"""The match pages through Django's test client: scheduling, the public match report, the result form,
confirming and rejecting, walking the post-match sequence with entered dice, and the league page's table,
fixtures and results — who may use each page, what it stores, and that a refusal changes nothing."""

from __future__ import annotations

import dataclasses
import html
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches import services
from matches.aftermath import aftermath_post
from matches.models import Aftermath, Match, Roll
from teams.models import LedgerEntry, Player, Team
from teams.selectors import team_treasury
from teams.services import team_fire_player
from tests.factories import StadiumFactory, TeamFactory, UserFactory, hire

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


# --- helpers ------------------------------------------------------------------------------------


def text(response) -> str:
    return html.unescape(response.content.decode())


def plain(page: str) -> str:
    """The page as text: tags dropped, white space collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", page).split())


def table(page: str, table_id: str) -> str:
    found = re.search(rf'<table class="grid" id="{table_id}">.*?</table>', page, flags=re.S)
    assert found, f"#{table_id} is not on the page"
    return found.group(0)


def rows(fragment: str) -> list[list[str]]:
    """The body rows of a table as lists of plain-text cells."""
    body = re.search(r"<tbody>(.*?)</tbody>", fragment, flags=re.S).group(1)
    return [
        [
            " ".join(re.sub(r"<[^>]+>", " ", cell).split())
            for cell in re.findall(r"<t[dh]\b[^>]*>(.*?)</t[dh]>", row, re.S)
        ]
        for row in re.findall(r"<tr\b.*?</tr>", body, flags=re.S)
    ]


def data_value(page: str, element_id: str) -> int:
    found = re.search(rf'id="{element_id}" data-value="(-?\d+)"', page)
    assert found, f"#{element_id} with a data-value is not on the page"
    return int(found.group(1))


def fill(team: Team, position: str, prefix: str, n: int = 11) -> list[Player]:
    return [hire(team, position, name=f"{prefix} {i + 1}", number=i + 1) for i in range(n)]


def players(team: Team) -> dict[int, Player]:
    """The team's players by shirt number."""
    return {p.number: p for p in Player.objects.filter(team=team, left_at__isnull=True)}


def report_url(match: Match) -> str:
    return reverse("match-detail", args=[match.pk])


def result_url(match: Match) -> str:
    return reverse("match-result", args=[match.pk])


def walk_url(match: Match, team: Team) -> str:
    return reverse("match-aftermath", args=[match.pk, team.pk])


def schedule_url(league) -> str:
    return f"{reverse('match-schedule')}?league={league.pk}"


def result_data(lines: dict[Team, dict], rows_: dict[Player, dict] | None = None) -> dict:
    """POST data of the result form: each team's line (score, casualties and FAME default to 0) and rows."""
    data: dict[str, str] = {}
    for team, line in lines.items():
        line = {"score": 0, "casualties_inflicted": 0, "fame": 0, **line}
        for key, value in line.items():
            if isinstance(value, bool):
                if value:
                    data[f"team_{team.pk}_{key}"] = "on"
            elif isinstance(value, Player):
                data[f"team_{team.pk}_{key}"] = str(value.pk)
            else:
                data[f"team_{team.pk}_{key}"] = str(value)
    for player, row in (rows_ or {}).items():
        for key, value in row.items():
            data[f"player_{player.pk}_{key}"] = str(value)
    return data


def ledger(team: Team) -> list[tuple[int, str]]:
    return list(LedgerEntry.objects.filter(team=team).order_by("sequence").values_list("amount", "kind"))


def state(match: Match, team: Team) -> dict:
    """What a step could change: the sequence's state, money, fan factor, rolls, players."""
    aftermath = Aftermath.objects.get(match=match, team=team)
    team.refresh_from_db()
    return {
        "step_index": aftermath.step_index,
        "pending": aftermath.pending,
        "log": aftermath.log,
        "ledger": ledger(team),
        "fan_factor": team.fan_factor,
        "rolls": Roll.objects.filter(match=match, team=team).count(),
        "players": sorted(Player.objects.filter(team=team).values_list("id", "status", "skills", "value")),
    }


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture
def humes(team):
    """Alice's Humes with eleven linemen (treasury 45,000)."""
    fill(team, "lineman", "Hume")
    return team


@pytest.fixture
def goblins(other_team):
    """Bob's Goblins with eleven goblins (treasury 56,000)."""
    fill(other_team, "goblin", "Gob")
    return other_team


@pytest.fixture
def match(league, humes, goblins):
    """Humes (home) v Goblins, scheduled by Alice."""
    return services.match_schedule(user=humes.coach, league=league, team_ids=[humes.pk, goblins.pk])


def standard_result(humes: Team, goblins: Team) -> tuple[dict, dict]:
    """Humes 2–1 Goblins: Hume 1 scores twice and is MVP, Hume 2 injures Gob 3 (misses the next match), Gob 1
    scores, Gob 2 is the Goblins' MVP; the Humes had FAME 1. Returns (form data, the body it stands for)."""
    h, g = players(humes), players(goblins)
    data = result_data(
        {
            humes: {"score": 2, "casualties_inflicted": 1, "mvp": h[1], "fame": 1},
            goblins: {"score": 1, "mvp": g[2]},
        },
        {
            h[1]: {"touchdowns": 2},
            h[2]: {"casualties": 1},
            g[1]: {"touchdowns": 1, "completions": 0},
            g[3]: {"injury": "miss_next_match"},
        },
    )
    zero = {"touchdowns": 0, "casualties": 0, "completions": 0, "interceptions": 0}
    body = {
        "teams": [
            {
                "team": humes.pk,
                "score": 2,
                "casualties_inflicted": 1,
                "mvp": h[1].pk,
                "conceded": False,
                "conceded_early": False,
                "fame": 1,
            },
            {
                "team": goblins.pk,
                "score": 1,
                "casualties_inflicted": 0,
                "mvp": g[2].pk,
                "conceded": False,
                "conceded_early": False,
                "fame": 0,
            },
        ],
        "players": [
            {"player": h[1].pk, **zero, "touchdowns": 2},
            {"player": h[2].pk, **zero, "casualties": 1},
            {"player": g[1].pk, **zero, "touchdowns": 1},
            {"player": g[3].pk, **zero, "injury": "miss_next_match"},
        ],
    }
    return data, body


def submit_standard(match: Match, humes: Team, goblins: Team, user=None) -> None:
    _, body = standard_result(humes, goblins)
    services.match_submit_result(user=user or humes.coach, match_id=match.pk, body=body)


def play_standard(match: Match, humes: Team, goblins: Team) -> None:
    submit_standard(match, humes, goblins)
    services.match_confirm(user=goblins.coach, match_id=match.pk)


# --- scheduling ---------------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", ["commissioner", "coach"])
def test_schedule_page_offers_the_leagues_teams_kinds_and_stadiums(client, league, team, other_team, request, viewer):
    StadiumFactory(league=league, name="Greenfield", special_attribute="Astrogranite")
    client.force_login(request.getfixturevalue(viewer))

    response = client.get(schedule_url(league))

    assert response.status_code == 200
    page = text(response)
    assert "<h1>Schedule a match" in page
    for label in ('for="id_home"', 'for="id_away"', 'for="id_kind"', 'for="id_stadium"'):
        assert label in page
    assert "Alice's Humes (alice)" in page and "Bob's Goblins (bob)" in page
    assert "Greenfield — Astrogranite" in page and ">Play-off<" in page


def test_schedule_page_refuses_strangers_and_sends_anonymous_visitors_to_log_in(client, league, team, stranger):
    url = schedule_url(league)
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))

    client.force_login(stranger)
    response = client.get(url)
    assert response.status_code == 403
    assert "Only the commissioner or a coach with a team in this league" in text(response)
    assert client.post(url, {"home": team.pk, "away": team.pk, "kind": "league"}).status_code == 403
    assert not Match.objects.exists()


def test_schedule_page_of_an_unknown_league_is_not_found(client, coach):
    client.force_login(coach)
    assert client.get(f"{reverse('match-schedule')}?league=987654").status_code == 404
    assert client.get(f"{reverse('match-schedule')}?league=abc").status_code == 404


def test_coach_schedules_a_match_for_his_team_and_lands_on_its_report(client, league, team, other_team):
    stadium = StadiumFactory(league=league, name="Greenfield")
    client.force_login(team.coach)

    response = client.post(
        schedule_url(league),
        {"home": other_team.pk, "away": team.pk, "kind": "friendly", "stadium": stadium.pk},
        follow=True,
    )

    match = Match.objects.get()
    assert [s.team_id for s in match.sides.order_by("order")] == [other_team.pk, team.pk]
    assert (match.kind, match.stadium, match.status, match.created_by) == ("friendly", stadium, "scheduled", team.coach)
    assert response.redirect_chain == [(report_url(match), 302)]
    page = text(response)
    assert "The match is scheduled." in page
    assert 'Bob\'s Goblins</a> <span class="versus">v</span> <a' in page


def test_scheduling_a_team_against_itself_is_refused_on_the_form(client, league, team):
    client.force_login(team.coach)

    response = client.post(schedule_url(league), {"home": team.pk, "away": team.pk, "kind": "league"})

    assert response.status_code == 200
    assert "A team cannot play itself." in text(response)
    assert not Match.objects.exists()


def test_a_coach_cannot_schedule_a_match_between_two_other_teams(client, league, team, other_team):
    third = TeamFactory(league=league, coach=UserFactory(username="carol"), name="Carol's Orcs", roster="orc")
    client.force_login(team.coach)

    response = client.post(schedule_url(league), {"home": other_team.pk, "away": third.pk, "kind": "league"})

    assert response.status_code == 403
    assert "Only the commissioner or a coach of one of these teams can schedule this match." in text(response)
    assert not Match.objects.exists()


def test_a_third_consecutive_meeting_is_refused_with_the_rule(client, league, team, other_team, commissioner):
    for _ in range(2):
        services.match_schedule(user=commissioner, league=league, team_ids=[team.pk, other_team.pk])
    client.force_login(commissioner)

    response = client.post(schedule_url(league), {"home": other_team.pk, "away": team.pk, "kind": "league"})

    assert "These teams have met 2 times in a row: a third consecutive match is not allowed." in text(response)
    assert Match.objects.count() == 2


# --- the match report ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("viewer", "may_enter"),
    [("anonymous", False), ("stranger", False), ("coach", True), ("other_coach", True), ("commissioner", True)],
)
def test_report_of_a_scheduled_match_is_public_and_offers_the_result_form_to_its_coaches_and_the_commissioner(
    client, match, request, viewer, may_enter
):
    if viewer != "anonymous":
        client.force_login(request.getfixturevalue(viewer))

    response = client.get(report_url(match))

    assert response.status_code == 200
    page = text(response)
    assert "Alice's Humes" in page and "Bob's Goblins" in page and "Scheduled" in page
    assert "Not played yet." in page and "No rolls recorded yet." in page
    assert (result_url(match) in page) is may_enter
    assert "/confirm/" not in page and "/reject/" not in page


def test_report_of_an_unknown_match_is_not_found(client, db):
    assert client.get("/matches/987654/").status_code == 404


@pytest.mark.parametrize(
    ("viewer", "confirm", "reject"),
    [
        ("anonymous", False, False),
        ("stranger", False, False),
        ("coach", False, False),  # Alice entered it: she cannot confirm her own result
        ("other_coach", True, False),
        ("commissioner", True, True),
    ],
)
def test_report_of_a_submitted_result_shows_it_and_offers_confirm_and_reject_to_the_right_people(
    client, match, humes, goblins, request, viewer, confirm, reject
):
    submit_standard(match, humes, goblins)
    if viewer != "anonymous":
        client.force_login(request.getfixturevalue(viewer))

    page = text(client.get(report_url(match)))

    assert "Result submitted" in page and "Entered by alice" in page
    assert rows(table(page, "result")) == [
        ["Alice's Humes", "2", "1", "#1 Hume 1", "1", "—", "Won"],
        ["Bob's Goblins", "1", "0", "#2 Gob 2", "0", "—", "Lost"],
    ]
    assert rows(table(page, "performances")) == [
        ["Alice's Humes", "#1 Hume 1", "2", "0", "0", "0", "MVP", ""],
        ["Alice's Humes", "#2 Hume 2", "0", "1", "0", "0", "", ""],
        ["Bob's Goblins", "#1 Gob 1", "1", "0", "0", "0", "", ""],
        ["Bob's Goblins", "#2 Gob 2", "0", "0", "0", "0", "MVP", ""],
        ["Bob's Goblins", "#3 Gob 3", "0", "0", "0", "0", "", "Miss next match"],
    ]
    assert (reverse("match-confirm", args=[match.pk]) in page) is confirm
    assert (reverse("match-reject", args=[match.pk]) in page) is reject


def walk_standard_humes(match: Match, humes: Team) -> None:
    """The Humes' whole sequence through the service, every die entered (the sums are worked out in
    test_walking_the_whole_sequence_through_the_pages_moves_the_treasury_as_the_rules_say)."""
    h1 = players(humes)[1]
    for step, choices, rolls in [
        ("improvements", None, {"improvement": [3, 4]}),
        ("improvements", {"improvements": {str(h1.pk): ["Block"]}}, None),
        ("team_stats", None, None),
        ("fortune", {"reroll_winnings": False, "seek_sponsor": True}, FORTUNE_DICE),
        ("hire_fire", None, None),
        ("prepare", None, {"expensive_mistakes": [5], "expensive_mistakes_amount": [2]}),
    ]:
        aftermath_post(user=humes.coach, match_id=match.pk, team_id=humes.pk, step=step, choices=choices, rolls=rolls)


FORTUNE_DICE = {
    "winnings": [4],
    "fan_factor": [6, 5, 1],
    "sponsorship": [20],
    "one_time_amount": [3],
    "one_time_risk": [6],
}


def test_final_report_shows_the_result_snapshots_each_teams_log_and_every_roll(client, match, humes, goblins):
    play_standard(match, humes, goblins)
    walk_standard_humes(match, humes)
    aftermath_post(user=goblins.coach, match_id=match.pk, team_id=goblins.pk, step="improvements")

    response = client.get(report_url(match))

    page = text(response)
    assert "Final" in page and "Confirmed" in page
    assert rows(table(page, "result")) == [
        ["Alice's Humes", "2", "1", "#1 Hume 1", "1", "—", "Won", "3"],
        ["Bob's Goblins", "1", "0", "#2 Gob 2", "0", "—", "Lost", "0"],
    ]
    performances = rows(table(page, "performances"))
    assert performances[0] == ["Alice's Humes", "#1 Hume 1", "2", "0", "0", "0", "MVP", "11", ""]
    assert performances[-1] == ["Bob's Goblins", "#3 Gob 3", "0", "0", "0", "0", "", "0", "Miss next match"]
    # The teams as they stood before the match: TV (the players' cost), treasury, FF, re-rolls, players.
    assert rows(table(page, "snapshots")) == [
        ["Alice's Humes", "55,000 gil", "45,000 gil", "0", "0", "11"],
        ["Bob's Goblins", "44,000 gil", "56,000 gil", "0", "0", "11"],
    ]
    # Each team's log in words.
    assert "Hume 1 earned 11 SPP (0 → 11)." in page
    assert "Hume 1: Improvement roll 3 + 4 = 7: the coach may take a normal skill. → Block (value +2,000 gil)." in page
    assert "Winnings: 4 × 1,000 + FAME 1 × 1,000 + win 1,000 = 6,000 gil." in page
    assert "Bob's Goblins at Update team stats" in plain(page)
    # Every roll: team, step, key, dice, values, entered or server, by whom.
    assert rows(table(page, "rolls")) == [
        ["Alice's Humes", "Improvements", "improvement", "2d6", "3, 4", "entered", "alice"],
        ["Alice's Humes", "Fortune and FAME", "winnings", "1d6", "4", "entered", "alice"],
        ["Alice's Humes", "Fortune and FAME", "fan_factor", "3d6", "6, 5, 1", "entered", "alice"],
        ["Alice's Humes", "Fortune and FAME", "sponsorship", "1d20", "20", "entered", "alice"],
        ["Alice's Humes", "Fortune and FAME", "one_time_amount", "1d6", "3", "entered", "alice"],
        ["Alice's Humes", "Fortune and FAME", "one_time_risk", "1d6", "6", "entered", "alice"],
        ["Alice's Humes", "Prepare for next match", "expensive_mistakes", "1d6", "5", "entered", "alice"],
        ["Alice's Humes", "Prepare for next match", "expensive_mistakes_amount", "1d3", "2", "entered", "alice"],
    ]
    for team in (humes, goblins):
        assert f'href="{reverse("team-detail", args=[team.pk])}"' in page
    # Public: no one may act on a final match, and anonymous visitors get no walk buttons.
    assert "/result/" not in page and "/confirm/" not in page and "/aftermath/" not in page


@pytest.mark.parametrize(
    ("viewer", "walks"), [("coach", ["humes"]), ("other_coach", ["goblins"]), ("commissioner", ["humes", "goblins"])]
)
def test_final_report_offers_each_team_walk_to_its_coach_and_the_commissioner(
    client, match, humes, goblins, request, viewer, walks
):
    play_standard(match, humes, goblins)
    client.force_login(request.getfixturevalue(viewer))

    page = text(client.get(report_url(match)))

    teams = {"humes": humes, "goblins": goblins}
    for name, team in teams.items():
        assert (walk_url(match, team) in page) is (name in walks)


def _walked_match(league, n_players: int, walk_both: bool) -> Match:
    """A final match whose `n_players` players per team each made a completion; the home team (and the away team
    too when `walk_both`) walked its whole sequence with server dice."""
    home = TeamFactory(league=league, roster="hume")
    away = TeamFactory(league=league, roster="hume")
    home_players, away_players = fill(home, "lineman", "H"), fill(away, "lineman", "A")
    match = services.match_schedule(user=home.coach, league=league, team_ids=[home.pk, away.pk])
    body = {
        "teams": [
            {"team": home.pk, "score": 1, "mvp": home_players[0].pk},
            {"team": away.pk, "score": 0, "mvp": away_players[0].pk},
        ],
        "players": [{"player": home_players[0].pk, "touchdowns": 1}]
        + [{"player": p.pk, "completions": 1} for p in home_players[1:n_players] + away_players[1:n_players]],
    }
    services.match_submit_result(user=home.coach, match_id=match.pk, body=body)
    services.match_confirm(user=away.coach, match_id=match.pk)
    for team in [home, away] if walk_both else [home]:
        for step in ("improvements", "team_stats", "fortune", "hire_fire", "prepare"):
            choices = {"reroll_winnings": False, "seek_sponsor": True} if step == "fortune" else None
            record = aftermath_post(user=team.coach, match_id=match.pk, team_id=team.pk, step=step, choices=choices)
            if record.pending:  # an improvement to choose: the first skill offered
                picks = {pid: [lv["skills"][0] for lv in levels] for pid, levels in record.pending["options"].items()}
                aftermath_post(
                    user=team.coach, match_id=match.pk, team_id=team.pk, step=step, choices={"improvements": picks}
                )
    return match


@pytest.mark.parametrize("viewer", ["anonymous", "commissioner"])
def test_match_report_queries_do_not_grow_with_players_and_rolls(client, league, commissioner, viewer):
    small = _walked_match(league, n_players=1, walk_both=False)
    large = _walked_match(league, n_players=11, walk_both=True)
    assert Roll.objects.filter(match=large).count() > Roll.objects.filter(match=small).count()
    if viewer == "commissioner":
        client.force_login(commissioner)

    counts = []
    for match in (small, large):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(report_url(match)).status_code == 200
        counts.append(len(captured))

    assert counts[0] == counts[1], f"{counts[0]} queries for the small match, {counts[1]} for the large one"


# --- the result form ----------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", ["coach", "other_coach", "commissioner"])
def test_result_page_renders_for_the_matchs_coaches_and_the_commissioner(client, match, humes, request, viewer):
    client.force_login(request.getfixturevalue(viewer))

    response = client.get(result_url(match))

    assert response.status_code == 200
    page = text(response)
    assert "<h1>Enter the result" in page
    assert "<legend>Alice's Humes</legend>" in page and "<legend>Bob's Goblins</legend>" in page
    h1 = players(humes)[1]
    for field in ("score", "casualties_inflicted", "mvp", "conceded", "conceded_early", "fame"):
        assert f'for="id_team_{humes.pk}_{field}"' in page
    for field in ("touchdowns", "casualties", "completions", "interceptions", "injury", "stat"):
        assert f'name="player_{h1.pk}_{field}"' in page
    assert f'aria-label="Touchdowns: {h1.name}"' in page
    assert '<option value="stat_loss">Stat loss</option>' in page and '<option value="av">AV</option>' in page


def test_result_page_refuses_strangers_and_other_coaches_of_the_league(client, league, match, stranger):
    outsider = TeamFactory(league=league, coach=UserFactory(username="carol"), roster="orc")
    url = result_url(match)
    assert client.get(url).status_code == 302

    for user in (stranger, outsider.coach):
        client.force_login(user)
        assert client.get(url).status_code == 403
        response = client.post(url, {})
        assert response.status_code == 403
        assert "Only a coach of a team in this match or the commissioner can enter its result." in text(response)
    match.refresh_from_db()
    assert match.status == "scheduled" and match.result == {}


def test_mvp_choices_are_the_teams_players_able_to_play(client, match, humes, goblins):
    h = players(humes)
    services_injure = Player.objects.filter(pk=h[11].pk)
    services_injure.update(status=Player.Status.MISS_NEXT_MATCH)
    client.force_login(humes.coach)

    page = text(client.get(result_url(match)))

    mvp_select = re.search(rf'<select name="team_{humes.pk}_mvp".*?</select>', page, flags=re.S).group(0)
    assert f'value="{h[1].pk}"' in mvp_select and "#1 Hume 1 (Lineman)" in mvp_select
    assert f'value="{h[11].pk}"' not in mvp_select
    assert f'name="player_{h[11].pk}_touchdowns"' not in page
    assert "Missing this match: Hume 11." in page
    assert "Gob 1" not in mvp_select


def test_entering_a_result_through_the_form_sends_the_expected_body_and_stores_it(
    client, match, humes, goblins, monkeypatch
):
    data, body = standard_result(humes, goblins)
    sent = []
    real = services.match_submit_result

    def spy(**kwargs):
        sent.append(kwargs["body"])
        return real(**kwargs)

    monkeypatch.setattr(services, "match_submit_result", spy)
    client.force_login(humes.coach)

    response = client.post(result_url(match), data, follow=True)

    assert sent == [body]
    assert response.redirect_chain == [(report_url(match), 302)]
    assert "Result entered. It becomes final when the other coach or the commissioner confirms it." in text(response)
    match.refresh_from_db()
    assert (match.status, match.submitted_by) == ("submitted", humes.coach)
    assert [(t["team"], t["score"], t["outcome"]) for t in match.result["teams"]] == [
        (humes.pk, 2, "win"),
        (goblins.pk, 1, "loss"),
    ]
    assert match.result["players"] == [
        {"team": (humes if i < 2 else goblins).pk, **row, "injury": row.get("injury", ""), "stat": ""}
        for i, row in enumerate(body["players"])
    ]


def test_a_stat_loss_is_sent_with_its_stat_and_a_concession_with_its_flag(client, match, humes, goblins):
    h, g = players(humes), players(goblins)
    data = result_data(
        {humes: {"score": 1, "conceded": True}, goblins: {"score": 0}},
        {h[1]: {"touchdowns": 1}, g[4]: {"injury": "stat_loss", "stat": "av"}},
    )
    client.force_login(goblins.coach)

    client.post(result_url(match), data)

    match.refresh_from_db()
    assert [(t["conceded"], t["outcome"]) for t in match.result["teams"]] == [(True, "loss"), (False, "win")]
    assert match.result["players"][1] | {} == {
        "team": goblins.pk,
        "player": g[4].pk,
        "touchdowns": 0,
        "casualties": 0,
        "completions": 0,
        "interceptions": 0,
        "injury": "stat_loss",
        "stat": "av",
    }


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ("score", "team_{humes}_score", "Alice's Humes: score is 3 but its players scored 2 touchdown(s)."),
        ("stat", "player_{g4}_stat", "Gob 4: stat must be one of ma, av, ag, st."),
        ("fame", "team_{goblins}_fame", "Bob's Goblins: fame must be at most 2."),
        ("both_concede", None, "Only one team can concede."),
        ("not_a_number", "player_{h1}_touchdowns", "Enter a whole number."),
    ],
)
def test_a_refused_result_shows_the_reason_next_to_the_field_and_changes_nothing(
    client, match, humes, goblins, change, field, message
):
    data, _ = standard_result(humes, goblins)
    h, g = players(humes), players(goblins)
    if change == "score":
        data[f"team_{humes.pk}_score"] = "3"
    elif change == "stat":
        data[f"player_{g[4].pk}_injury"] = "stat_loss"
    elif change == "fame":
        data[f"team_{goblins.pk}_fame"] = "3"
    elif change == "both_concede":
        data[f"team_{humes.pk}_conceded"] = data[f"team_{goblins.pk}_conceded"] = "on"
    else:
        data[f"player_{h[1].pk}_touchdowns"] = "two"
    client.force_login(humes.coach)

    response = client.post(result_url(match), data)

    assert response.status_code == 200
    page = text(response)
    assert 'id="result-errors"' in page and "The result was not saved." in page
    if field:
        name = field.format(humes=humes.pk, goblins=goblins.pk, g4=g[4].pk, h1=h[1].pk)
        # The message sits next to the field it is about (in the same field group or table cell).
        assert re.search(
            rf'name="{name}".{{0,1500}}?<ul class="errorlist[^"]*"[^>]*><li>{re.escape(message)}</li>', page, re.S
        ) or re.search(
            rf'<ul class="errorlist[^"]*"[^>]*><li>{re.escape(message)}</li></ul>\s*<input[^>]*name="{name}"',
            page,
            re.S,
        ), f"{message!r} is not next to {name}"
    else:
        assert message in page
    # What was typed is still on the form.
    assert f'name="team_{humes.pk}_score" value="{data[f"team_{humes.pk}_score"]}"' in page
    match.refresh_from_db()
    assert (match.status, match.result, match.submitted_by) == ("scheduled", {}, None)


def test_a_submitted_result_is_on_the_form_when_it_is_opened_again(client, match, humes, goblins):
    submit_standard(match, humes, goblins)
    h = players(humes)
    client.force_login(goblins.coach)

    page = text(client.get(result_url(match)))

    assert "saving this one replaces it" in page
    assert f'name="team_{humes.pk}_score" value="2"' in page
    assert f'name="player_{h[1].pk}_touchdowns" value="2"' in page
    assert re.search(rf'<option value="{h[1].pk}" selected>#1 Hume 1', page)


def test_result_page_of_a_final_match_sends_back_to_the_report(client, match, humes, goblins):
    play_standard(match, humes, goblins)
    client.force_login(humes.coach)

    response = client.get(result_url(match), follow=True)

    assert response.redirect_chain == [(report_url(match), 302)]
    assert "This match&#x27;s result is final." in response.content.decode()


# --- confirm and reject -------------------------------------------------------------------------


def confirm_url(match: Match) -> str:
    return reverse("match-confirm", args=[match.pk])


def reject_url(match: Match) -> str:
    return reverse("match-reject", args=[match.pk])


@pytest.mark.parametrize("confirmer", ["other_coach", "commissioner"])
def test_the_other_coach_or_the_commissioner_confirms_and_the_post_match_sequences_open(
    client, match, humes, goblins, request, confirmer
):
    submit_standard(match, humes, goblins)
    client.force_login(request.getfixturevalue(confirmer))

    response = client.post(confirm_url(match), follow=True)

    assert response.redirect_chain == [(report_url(match), 302)]
    page = text(response)
    assert "Result confirmed: it is final, and each team's post-match sequence is open." in page
    match.refresh_from_db()
    assert match.status == "final"
    assert sorted(Aftermath.objects.filter(match=match).values_list("team_id", flat=True)) == sorted(
        [humes.pk, goblins.pk]
    )
    assert "Alice's Humes at Improvements" in plain(page)


@pytest.mark.parametrize(
    ("who", "message"),
    [
        ("coach", "The coach who entered the result cannot confirm it: the other coach or the commissioner does."),
        ("stranger", "Only the other coach or the commissioner can confirm this result."),
    ],
)
def test_the_submitting_coach_and_strangers_cannot_confirm(client, match, humes, goblins, request, who, message):
    submit_standard(match, humes, goblins)
    client.force_login(request.getfixturevalue(who))

    response = client.post(confirm_url(match))

    assert response.status_code == 403
    assert message in text(response)
    match.refresh_from_db()
    assert match.status == "submitted" and not Aftermath.objects.exists()


def test_confirming_a_match_without_a_result_says_so(client, match, commissioner):
    client.force_login(commissioner)

    response = client.post(confirm_url(match), follow=True)

    assert "There is no submitted result to confirm." in text(response)
    match.refresh_from_db()
    assert match.status == "scheduled"


def test_the_commissioner_rejects_a_result_and_the_match_is_scheduled_again(
    client, match, humes, goblins, commissioner
):
    submit_standard(match, humes, goblins)
    client.force_login(commissioner)

    response = client.post(reject_url(match), follow=True)

    assert "Result rejected: the match is scheduled again." in text(response)
    match.refresh_from_db()
    assert (match.status, match.result, match.submitted_by) == ("scheduled", {}, None)


@pytest.mark.parametrize("who", ["coach", "other_coach"])
def test_coaches_cannot_reject(client, match, humes, goblins, request, who):
    submit_standard(match, humes, goblins)
    client.force_login(request.getfixturevalue(who))

    response = client.post(reject_url(match))

    assert response.status_code == 403
    assert "Only the commissioner can reject a result." in text(response)
    match.refresh_from_db()
    assert match.status == "submitted"


def test_anonymous_confirm_goes_to_log_in_and_a_get_shows_the_report(client, match, humes, goblins):
    submit_standard(match, humes, goblins)

    response = client.post(confirm_url(match))

    assert response.status_code == 302 and response.url == f"{reverse('login')}?next={confirm_url(match)}"
    client.force_login(goblins.coach)
    assert client.get(confirm_url(match)).url == report_url(match)
    match.refresh_from_db()
    assert match.status == "submitted"


# --- the post-match sequence --------------------------------------------------------------------


@pytest.fixture
def final(match, humes, goblins):
    play_standard(match, humes, goblins)
    return match


@pytest.mark.parametrize("viewer", ["coach", "commissioner"])
def test_walk_page_renders_for_the_teams_coach_and_the_commissioner(client, final, humes, request, viewer):
    client.force_login(request.getfixturevalue(viewer))

    response = client.get(walk_url(final, humes))

    assert response.status_code == 200
    page = text(response)
    assert "<h1>Post-match sequence: Alice's Humes" in page
    assert 'id="step-title">Step 1 of 5: Improvements</h2>' in page
    assert '<li class="current" aria-current="step">Improvements' in page
    assert '<label for="id_roll_improvement">Improvement (2d6)</label>' in page
    assert 'placeholder="roll for me"' in page
    assert 'name="roll_winnings"' not in page  # a later step's dice
    assert data_value(page, "treasury") == 45_000
    assert "No step has been run yet." in page


@pytest.mark.parametrize("viewer", ["other_coach", "stranger"])
def test_walk_page_refuses_everyone_else(client, final, humes, request, viewer):
    url = walk_url(final, humes)
    assert client.get(url).status_code == 302  # anonymous: log in first
    before = state(final, humes)
    client.force_login(request.getfixturevalue(viewer))

    assert client.get(url).status_code == 403
    response = client.post(url, {"step": "improvements", "roll_improvement": "6, 6"})

    assert response.status_code == 403
    assert "Only this team's coach or the commissioner can walk its post-match sequence." in text(response)
    assert state(final, humes) == before


def test_walk_page_before_the_result_is_final_sends_back_to_the_report(client, match, humes, goblins):
    submit_standard(match, humes, goblins)
    client.force_login(humes.coach)

    response = client.get(walk_url(match, humes), follow=True)

    assert response.redirect_chain == [(report_url(match), 302)]
    assert "The post-match sequence opens when the result is final." in text(response)


def test_walk_page_of_a_team_not_in_the_match_is_not_found(client, league, final, commissioner):
    outsider = TeamFactory(league=league, roster="orc")
    client.force_login(commissioner)
    assert client.get(walk_url(final, outsider)).status_code == 404


def post_step(client, match, team, data, *, htmx=False):
    return client.post(walk_url(match, team), data, headers=HTMX if htmx else {}, follow=not htmx)


@pytest.mark.parametrize("via_htmx", [False, True], ids=["plain", "htmx"])
def test_walking_the_whole_sequence_through_the_pages_moves_the_treasury_as_the_rules_say(
    client, final, humes, via_htmx
):
    """Humes won 2–1 with FAME 1, treasury 45,000, Fan Factor 0. Worked out by hand:
    Improvements: Hume 1 earned 11 SPP, one level: 3 + 4 = 7 → a normal skill (Block, value +2,000).
    Fortune: winnings 4 × 1,000 + FAME 1,000 + win 1,000 = 6,000 (no re-roll); Fan Factor 3d6 6+5+1 = 12 > 0 → 1;
    sponsor d20 20 + FF 1 + won 2 = 23 → one-time: 3 × 6,000 = 18,000, risk 6: nobody misses the next match.
    Prepare: treasury 69,000 (60,000+ bracket), d6 5 → minor: lose 2 × 1,000. Treasury 45,000 → 67,000."""
    h1 = players(humes)[1]
    client.force_login(humes.coach)

    def step(data):
        response = post_step(client, final, humes, data, htmx=via_htmx)
        assert response.status_code == 200
        page = text(response)
        if via_htmx:
            assert "<html" not in page and "<h1>Post-match sequence" in page
        assert 'class="error"' not in page and "errorlist" not in page, plain(page)[:2000]
        return page

    page = step({"step": "improvements", "roll_improvement": "3, 4"})
    assert "Choose each improvement" in page
    assert re.search(rf'<label for="id_improvement_{h1.pk}_0">Hume 1:</label>', page)
    assert "Improvement roll 3 + 4 = 7: the coach may take a normal skill." in page
    assert '<optgroup label="Normal skills">' in page and '<option value="Block">Block</option>' in page
    assert "Dice so far: improvement 2d6 → 3, 4 (entered)." in plain(page)

    page = step({"step": "improvements", f"improvement_{h1.pk}_0": "Block"})
    assert 'id="step-title">Step 2 of 5: Update team stats' in page
    page = step({"step": "team_stats"})
    assert "Won 2–1 (league): 3 league point(s)." in page
    page = step({"step": "fortune", "roll_winnings": "4", "roll_fan_factor": "6, 5, 1", "roll_sponsorship": "20"})
    assert "Winnings roll: 4. Re-roll it? (You must keep the second result.)" in page
    assert 'type="radio" name="decision" value="yes"' in page
    # The dice the paused step has not used yet are still on the form; the winnings die is not asked again.
    assert 'name="roll_fan_factor" value="6, 5, 1"' in page and 'name="roll_sponsorship" value="20"' in page
    assert 'name="roll_winnings"' not in page
    page = step(
        {
            "step": "fortune",
            "decision": "no",
            "roll_fan_factor": "6, 5, 1",
            "roll_sponsorship": "20",
            "roll_one_time_amount": "3",
            "roll_one_time_risk": "6",
        }
    )
    assert "Seek a sponsor?" in page
    page = step(
        {
            "step": "fortune",
            "decision": "yes",
            "roll_sponsorship": "20",
            "roll_one_time_amount": "3",
            "roll_one_time_risk": "6",
        }
    )
    assert "Sponsorship: d20 20 +1 Fan Factor +2 won = 23: One-time Sponsorship (20 or more)." in page
    assert data_value(page, "treasury") == 45_000 + 6_000 + 18_000
    page = step({"step": "hire_fire"})
    page = step({"step": "prepare", "roll_expensive_mistakes": "5", "roll_expensive_mistakes_amount": "2"})

    assert "The post-match sequence is complete." in page
    assert data_value(page, "treasury") == 67_000
    assert team_treasury(team=humes) == 67_000
    assert ledger(humes)[-3:] == [(6_000, "winnings"), (18_000, "sponsorship"), (-2_000, "expensive_mistake")]
    humes.refresh_from_db()
    h1.refresh_from_db()
    assert humes.fan_factor == 1 and "Block" in h1.skills and h1.value == 7_000
    rolls = Roll.objects.filter(match=final, team=humes)
    assert all(r.entered for r in rolls)
    assert [r.key for r in rolls] == [
        "improvement",
        "winnings",
        "fan_factor",
        "sponsorship",
        "one_time_amount",
        "one_time_risk",
        "expensive_mistakes",
        "expensive_mistakes_amount",
    ]
    sheet = text(client.get(reverse("team-detail", args=[humes.pk])))
    assert data_value(sheet, "treasury") == 67_000


def test_dice_entered_before_a_pause_are_kept_and_shown_on_the_resumed_step(client, final, humes):
    _walk_to(final, humes, "fortune")
    client.force_login(humes.coach)

    response = client.post(
        walk_url(final, humes), {"step": "fortune", "roll_winnings": "2", "roll_fan_factor": "1, 1, 1"}
    )

    assert response.status_code == 302 and response.url == walk_url(final, humes)
    page = text(client.get(response.url))
    assert "Winnings roll: 2. Re-roll it?" in page
    assert 'name="roll_fan_factor" value="1, 1, 1"' in page
    assert "Kept from before the pause (type other dice to replace them): fan_factor 1, 1, 1." in plain(page)
    page = text(post_step(client, final, humes, {"step": "fortune", "decision": "no"}))

    assert "Seek a sponsor?" in page
    assert "fan_factor 3d6 → 1, 1, 1 (entered)" in plain(page)


#: Answers for walking a sequence with server dice in tests: no re-roll, no sponsor, keep nobody, spend nothing.
DEFAULT_ANSWERS = {
    "reroll_winnings": False,
    "seek_sponsor": False,
    "residency": "reject",
    "end_sponsorships": [],
    "hire_journeymen": [],
    "keep_residency_spend": 0,
}


def _walk_to(match: Match, team: Team, target: str | None) -> None:
    """Run the team's steps with server dice up to `target` (None: to the end), taking the first skill offered
    for any improvement and DEFAULT_ANSWERS for the other decisions."""
    steps = [s.key for s in match.league.rules.postmatch_steps]
    while True:
        record = Aftermath.objects.get(match=match, team=team)
        if record.complete or steps[record.step_index] == target:
            return
        choices = dict(DEFAULT_ANSWERS)
        if record.pending.get("decision") == "improvements":
            choices["improvements"] = {
                pid: [lv["skills"][0] for lv in levels] for pid, levels in record.pending["options"].items()
            }
        aftermath_post(
            user=team.coach, match_id=match.pk, team_id=team.pk, step=steps[record.step_index], choices=choices
        )


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"roll_winnings": "7"}, "roll_winnings", "Winnings: 7 is not on a d6 — enter 1, 2, 3, 4, 5 or 6"),
        ({"roll_winnings": "four"}, "roll_winnings", "Enter the dice as whole numbers separated by commas, e.g. 3, 4."),
        ({"roll_nonsense": "3"}, None, None),
    ],
    ids=["off-the-die", "not-a-number", "unknown-key-is-not-a-field"],
)
def test_bad_dice_are_refused_on_the_page_and_change_nothing(client, final, humes, data, field, message):
    _walk_to(final, humes, "fortune")
    before = state(final, humes)
    client.force_login(humes.coach)

    response = post_step(client, final, humes, {"step": "fortune", **data}, htmx=True)

    page = text(response)
    if message is None:  # only the catalogue's keys are fields: anything else never reaches the service
        assert "Winnings roll:" in page and "nonsense" not in page
        return
    assert response.status_code == 200
    assert re.search(
        rf'name="{field}".{{0,300}}?<ul class="errorlist[^"]*"[^>]*><li>{re.escape(message)}</li>', page, re.S
    )
    assert state(final, humes) == before


def test_the_step_asks_only_for_the_dice_it_can_use_for_this_team(client, final, humes, monkeypatch):
    """The page asks for the dice `Step.usable_rolls` names for this team after this match (no stadium dice
    without a stadium, no winnings re-roll for a loser): the step decides, the page follows."""
    rules = final.league.rules
    fortune = next(s for s in rules.postmatch_steps if s.key == "fortune")
    asked = []

    def usable(team, match, hr):
        asked.append((team.id, match.id))
        return ("winnings", "fan_factor")

    steps = tuple(dataclasses.replace(s, usable=usable) if s is fortune else s for s in rules.postmatch_steps)
    monkeypatch.setattr(type(rules), "postmatch_steps", steps)
    _walk_to(final, humes, "fortune")
    client.force_login(humes.coach)

    page = text(client.get(walk_url(final, humes)))

    assert (humes.pk, final.pk) in asked  # the same views the step runs on
    assert 'name="roll_winnings"' in page and 'name="roll_fan_factor"' in page
    assert 'name="roll_stadium_bonus"' not in page and 'name="roll_winnings_reroll"' not in page


def test_too_few_dice_for_a_roll_are_refused(client, final, humes):
    _walk_to(final, humes, "fortune")
    client.force_login(humes.coach)
    post_step(client, final, humes, {"step": "fortune", "roll_winnings": "3"})
    before = state(final, humes)

    response = post_step(client, final, humes, {"step": "fortune", "decision": "no", "roll_fan_factor": "6, 6"})

    assert "Fan factor: this roll takes 3 dice (3d6) — enter 3 dice, e.g. 3, 4, 5" in text(response)
    assert state(final, humes) == before


def test_a_step_already_run_is_refused_and_changes_nothing(client, final, humes):
    client.force_login(humes.coach)
    _walk_to(final, humes, "team_stats")
    before = state(final, humes)

    response = post_step(client, final, humes, {"step": "improvements", "roll_improvement": "6, 6"})

    page = text(response)
    assert "That step was already run: the sequence is now at Update team stats. Nothing was changed." in page
    assert 'id="step-title">Step 2 of 5: Update team stats' in page
    assert state(final, humes) == before


def test_a_step_run_meanwhile_elsewhere_is_reported_from_the_service(client, final, humes, monkeypatch):
    """The race the page cannot see: another tab runs the step between the form and this POST's service call,
    which answers 409; the step is applied once."""
    from matches.web import postmatch as web

    def run_elsewhere_first(**kwargs):
        aftermath_post(user=humes.coach, match_id=final.pk, team_id=humes.pk, step="team_stats")
        return aftermath_post(**kwargs)

    _walk_to(final, humes, "team_stats")
    monkeypatch.setattr(web, "aftermath_post", run_elsewhere_first)
    client.force_login(humes.coach)

    page = text(post_step(client, final, humes, {"step": "team_stats"}, htmx=True))

    assert "That step was already run: the sequence is now at Fortune and FAME. Nothing was changed." in page
    assert [entry["step"] for entry in Aftermath.objects.get(match=final, team=humes).log] == [
        "improvements",
        "team_stats",
    ]


def test_a_page_left_open_on_a_done_step_does_not_ask_the_current_decision(client, final, humes):
    _walk_to(final, humes, "fortune")
    client.force_login(humes.coach)
    post_step(client, final, humes, {"step": "fortune", "roll_winnings": "3"})  # pauses: re-roll?
    before = state(final, humes)

    page = text(post_step(client, final, humes, {"step": "team_stats"}))

    assert "That step was already run: the sequence is now at Fortune and FAME. Nothing was changed." in page
    assert "This field is required" not in page
    assert state(final, humes) == before


def test_an_answer_the_rules_refuse_is_shown_and_changes_nothing(client, final, humes):
    client.force_login(humes.coach)
    post_step(client, final, humes, {"step": "improvements", "roll_improvement": "3, 4"})
    before = state(final, humes)
    h1 = players(humes)[1]

    response = post_step(client, final, humes, {"step": "improvements", f"improvement_{h1.pk}_0": "Pilot"})

    assert "Select a valid choice. Pilot is not one of the available choices." in text(response)
    assert state(final, humes) == before


def test_residency_spend_is_a_number_and_stadium_fund_payments_an_optional_choice(
    client, league, commissioner, humes, goblins
):
    """Humes are tenants of Greenfield (not owners) and lose there 0–1: at Hire and fire they roll the d8 to
    keep the residency; 5 against Fan Factor 0 → the coach may spend 3,000 gil per −1, up to 15,000."""
    stadium = StadiumFactory(league=league, name="Greenfield")
    Team.objects.filter(pk=humes.pk).update(home_stadium=stadium)
    match = services.match_schedule(
        user=commissioner, league=league, team_ids=[humes.pk, goblins.pk], stadium_id=stadium.pk
    )
    g1 = players(goblins)[1]
    services.match_submit_result(
        user=goblins.coach,
        match_id=match.pk,
        body={
            "teams": [{"team": humes.pk, "score": 0}, {"team": goblins.pk, "score": 1}],
            "players": [{"player": g1.pk, "touchdowns": 1}],
        },
    )
    services.match_confirm(user=humes.coach, match_id=match.pk)
    _walk_to(match, humes, "hire_fire")
    treasury = team_treasury(team=humes)
    client.force_login(humes.coach)

    page = text(client.get(walk_url(match, humes)))
    assert "Payments into the Stadium Fund" in page and "Buy the home stadium" in page
    assert "Sell the stadium" not in page  # the Humes do not own it
    page = text(
        post_step(
            client, match, humes, {"step": "hire_fire", "roll_stadium_loss": "5", "opt_stadium_fund_payments": "1"}
        )
    )
    assert "Lost at home: rolled 5 against Fan Factor 0." in page
    assert re.search(r'<input type="number" name="decision" value="0" min="0" max="15000" step="3000"', page)
    assert "Answered already: Stadium fund payments: 1." in page
    page = text(post_step(client, match, humes, {"step": "hire_fire", "decision": "15000"}))

    assert "Stadium roll: d8 5 − 5 (bought for 5 × 3,000 = 15,000 gil) = 0, not higher than Fan Factor 0" in page
    assert (
        "Paid 1 × 7,000 gil into the Stadium Fund (+5,000 gil in the Stadium Fund)." in page or "Stadium Fund" in page
    )
    assert team_treasury(team=humes) == treasury - 15_000 - 7_000
    humes.refresh_from_db()
    assert humes.home_stadium == stadium


def test_journeymen_to_hire_are_checkboxes_named_after_the_players(client, league, commissioner, humes, goblins):
    """The Goblins play short-handed (10): after the first match Prepare adds a free journeyman; after the second,
    Hire and fire asks whether to hire him permanently at the goblin's rookie cost."""
    team_fire_player(team_id=goblins.pk, player_id=players(goblins)[11].pk, user=goblins.coach)
    first = services.match_schedule(user=commissioner, league=league, team_ids=[humes.pk, goblins.pk])
    draw = {"teams": [{"team": humes.pk, "score": 0}, {"team": goblins.pk, "score": 0}]}
    services.match_submit_result(user=humes.coach, match_id=first.pk, body=draw)
    services.match_confirm(user=goblins.coach, match_id=first.pk)
    for team in (humes, goblins):
        _walk_to(first, team, None)
    journeyman = Player.objects.get(team=goblins, status=Player.Status.JOURNEYMAN)
    second = services.match_schedule(user=commissioner, league=league, team_ids=[goblins.pk, humes.pk])
    services.match_submit_result(user=humes.coach, match_id=second.pk, body=draw)
    services.match_confirm(user=goblins.coach, match_id=second.pk)
    _walk_to(second, goblins, "hire_fire")
    treasury = team_treasury(team=goblins)
    client.force_login(goblins.coach)

    page = text(post_step(client, second, goblins, {"step": "hire_fire"}))

    assert "Hire journeymen permanently (ids; the rest are released)." in page
    assert re.search(rf'<input type="checkbox" name="decision" value="{journeyman.pk}"[^>]*>\s*{journeyman.name}', page)
    page = text(post_step(client, second, goblins, {"step": "hire_fire", "decision": [str(journeyman.pk)]}))

    assert f"Hired journeyman {journeyman.name} for 4,000 gil: he loses Loner, keeps his SPP." in page
    journeyman.refresh_from_db()
    assert journeyman.status == Player.Status.ACTIVE and "Loner" not in journeyman.skills
    assert team_treasury(team=goblins) == treasury - 4_000


# --- the league page ----------------------------------------------------------------------------


def league_url(league) -> str:
    return reverse("league-detail", args=[league.pk])


@pytest.fixture
def orcs(league):
    team = TeamFactory(league=league, coach=UserFactory(username="carol"), name="Carol's Orcs", roster="orc")
    fill(team, "lineman", "Orc")
    return team


def test_league_page_shows_the_table_fixtures_and_results_with_links_to_the_reports(
    client, league, match, humes, goblins, orcs, commissioner
):
    play_standard(match, humes, goblins)
    for team in (humes, goblins):
        _walk_to(match, team, None)
    submitted = services.match_schedule(
        user=commissioner, league=league, team_ids=[goblins.pk, humes.pk], kind="friendly"
    )
    services.match_submit_result(
        user=goblins.coach,
        match_id=submitted.pk,
        body={"teams": [{"team": goblins.pk, "score": 0}, {"team": humes.pk, "score": 0}]},
    )
    scheduled = services.match_schedule(user=orcs.coach, league=league, team_ids=[humes.pk, orcs.pk])

    page = text(client.get(league_url(league)))

    # Humes won 2–1 and inflicted a casualty; the Orcs (no match) stand above the Goblins on touchdown difference.
    assert rows(table(page, "standings")) == [
        ["1", "Alice's Humes", "1", "1", "0", "0", "2", "1", "1", "1", "3"],
        ["2", "Carol's Orcs", "0", "0", "0", "0", "0", "0", "0", "0", "0"],
        ["3", "Bob's Goblins", "1", "0", "0", "1", "1", "2", "-1", "0", "0"],
    ]
    today = submitted.created_at.strftime("%Y-%m-%d")
    assert rows(table(page, "fixtures")) == [
        ["Bob's Goblins v Alice's Humes", "Friendly", "—", "Result submitted", today],
        ["Alice's Humes v Carol's Orcs", "League", "—", "Scheduled", today],
    ]
    assert rows(table(page, "results")) == [["Alice's Humes v Bob's Goblins", "2–1", "League", "—", today]]
    for m in (match, submitted, scheduled):
        assert f'href="{report_url(m)}"' in page
    assert f'href="{reverse("team-detail", args=[humes.pk])}"' in page


def test_league_page_before_any_match_says_so(client, league, team):
    page = text(client.get(league_url(league)))

    assert "The table starts with the first confirmed result." in page
    assert "No match is scheduled." in page and "No match has been played in this league yet." in page
    assert 'id="standings"' not in page


@pytest.mark.parametrize(
    ("viewer", "offered"),
    [("anonymous", False), ("stranger", False), ("coach", True), ("commissioner", True)],
)
def test_league_page_offers_scheduling_to_the_commissioner_and_coaches_with_a_team(
    client, league, team, request, viewer, offered
):
    if viewer != "anonymous":
        client.force_login(request.getfixturevalue(viewer))

    page = text(client.get(league_url(league)))

    assert (schedule_url(league) in page) is offered


def test_league_page_queries_do_not_grow_with_the_matches(client, league, match, humes, goblins, orcs, commissioner):
    def count() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(league_url(league)).status_code == 200
        return len(captured)

    client.force_login(commissioner)
    play_standard(match, humes, goblins)
    few = count()
    for team in (humes, goblins):
        _walk_to(match, team, None)
    for home, away in [(orcs, humes), (goblins, orcs)]:
        services.match_schedule(user=commissioner, league=league, team_ids=[home.pk, away.pk])
    second = services.match_schedule(user=commissioner, league=league, team_ids=[humes.pk, goblins.pk])
    services.match_submit_result(
        user=humes.coach,
        match_id=second.pk,
        body={"teams": [{"team": humes.pk, "score": 0}, {"team": goblins.pk, "score": 0}]},
    )
    services.match_confirm(user=goblins.coach, match_id=second.pk)

    assert count() == few


def test_a_double_offers_attributes_normal_and_double_access_skills_grouped_in_one_select(client, final, humes):
    """H: 5 + 5 = 10, a double: a normal skill, a skill from double access, +MA or +AV (value +3,000)."""
    h1 = players(humes)[1]
    client.force_login(humes.coach)

    page = text(post_step(client, final, humes, {"step": "improvements", "roll_improvement": "5, 5"}, htmx=True))

    select = re.search(rf'<select name="improvement_{h1.pk}_0".*?</select>', page, flags=re.S).group(0)
    groups = re.findall(r'<optgroup label="([^"]+)">', select)
    assert groups == ["Attribute", "Normal skills", "Skills from double access"]
    assert '<option value="ma">+1 MA</option>' in select and '<option value="av">+1 AV</option>' in select
    assert '<option value="Block">Block</option>' in select and '<option value="Dodge">Dodge</option>' in select
    page = text(post_step(client, final, humes, {"step": "improvements", f"improvement_{h1.pk}_0": "ma"}, htmx=True))

    assert "Hume 1: Improvement roll 5 + 5 = 10 (a double)" in page and "→ +1 MA (value +3,000 gil)." in page
    h1.refresh_from_db()
    assert h1.attributes["ma"] == 7 and h1.value == 8_000
