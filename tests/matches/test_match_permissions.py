"""Who may do what to a match (api-v1 "Roles", "Matches", "Post-match sequence"): personas × match actions.

Personas: anonymous; a stranger (no member of the league); the own coach (alice, coach of the home team, who
enters the result); the other coach (bob, the opposing coach); the commissioner.

- anonymous → 401 on every write (every write needs auth);
- schedule, submit a result: a coach of a team in the match or the commissioner;
- confirm: the other coach or the commissioner — the coach who submitted cannot confirm his own result (403);
- reject: the commissioner only;
- a step of alice's post-match sequence: alice or the commissioner; bob and the stranger 403;
- reads (the match, a post-match sequence) are public.

Every refused cell is checked to change nothing: matches, their status and result, player rows, rolls,
ledger rows, players and every post-match sequence. Every allowed cell is checked to change something.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from matches.models import Aftermath, Match, MatchTeam, PlayerMatch, Roll
from teams.models import LedgerEntry, Player, Team
from tests.assertions import assert_refused

pytestmark = pytest.mark.django_db


@dataclass
class World:
    home: Team  # alice's
    away: Team  # bob's
    match_id: int | None = None


def result_body(w: World) -> dict:
    scorer = w.home.players.order_by("number").first()
    return {
        "teams": [
            {"team": w.home.pk, "score": 1, "mvp": scorer.pk},
            {"team": w.away.pk, "score": 0},
        ],
        "players": [{"player": scorer.pk, "touchdowns": 1}],
    }


def _scheduled(w: World, users) -> None:
    from matches import services

    w.match_id = services.match_schedule(
        user=users["commissioner"], league=w.home.league, team_ids=[w.home.pk, w.away.pk]
    ).pk


def _submitted(w: World, users) -> None:
    from matches import services

    _scheduled(w, users)
    services.match_submit_result(user=users["own"], match_id=w.match_id, body=result_body(w))


def _final(w: World, users) -> None:
    from matches import services

    _submitted(w, users)
    services.match_confirm(user=users["other"], match_id=w.match_id)


@dataclass(frozen=True)
class Action:
    method: str
    path: Callable[[World], str]
    body: Callable[[World], dict | None]
    prepare: Callable[[World, dict], None] | None


ACTIONS = {
    "schedule": Action(
        "post",
        lambda w: "/api/v1/matches/",
        lambda w: {"league": w.home.league_id, "teams": [w.home.pk, w.away.pk]},
        None,
    ),
    "submit": Action("post", lambda w: f"/api/v1/matches/{w.match_id}/result/", result_body, _scheduled),
    "confirm": Action("post", lambda w: f"/api/v1/matches/{w.match_id}/confirm/", lambda w: None, _submitted),
    "reject": Action("post", lambda w: f"/api/v1/matches/{w.match_id}/reject/", lambda w: None, _submitted),
    "aftermath-post": Action(
        "post",
        lambda w: f"/api/v1/matches/{w.match_id}/aftermath/{w.home.pk}/",
        lambda w: {"step": "improvements"},
        _final,
    ),
    "aftermath-get": Action(
        "get", lambda w: f"/api/v1/matches/{w.match_id}/aftermath/{w.home.pk}/", lambda w: None, _final
    ),
    "match-get": Action("get", lambda w: f"/api/v1/matches/{w.match_id}/", lambda w: None, _final),
}

PERSONAS = ("anonymous", "stranger", "own", "other", "commissioner")
#: Expected status per action, in PERSONAS order.
EXPECTED = {
    "schedule": (401, 403, 201, 201, 201),
    "submit": (401, 403, 201, 201, 201),
    "confirm": (401, 403, 403, 200, 200),
    "reject": (401, 403, 403, 403, 200),
    "aftermath-post": (401, 403, 200, 403, 200),
    "aftermath-get": (200, 200, 200, 200, 200),
    "match-get": (200, 200, 200, 200, 200),
}


def _cells():
    for action, statuses in EXPECTED.items():
        for persona, status in zip(PERSONAS, statuses, strict=True):
            yield pytest.param(action, persona, status, id=f"{action}-{persona}-{status}")


def snapshot() -> tuple:
    """Everything a match action can change."""
    return (
        list(
            Match.objects.order_by("pk").values_list(
                "pk", "status", "result", "submitted_by", "confirmed_by", "journal"
            )
        ),
        list(MatchTeam.objects.order_by("pk").values_list("pk", "team", "outcome", "league_points", "snapshot")),
        list(PlayerMatch.objects.order_by("pk").values_list("pk", "player", "spp", "injury")),
        Roll.objects.count(),
        list(LedgerEntry.objects.order_by("pk").values_list("pk", "team", "amount", "balance_after")),
        list(Player.objects.order_by("pk").values_list("pk", "status", "spp", "attributes", "skills", "left_at")),
        list(Team.objects.order_by("pk").values_list("pk", "fan_factor", "creation_closed_at", "home_stadium")),
        list(Aftermath.objects.order_by("pk").values_list("pk", "team", "step_index", "complete", "pending", "log")),
    )


@pytest.fixture
def users(coach, other_coach, stranger, commissioner):
    return {"anonymous": None, "stranger": stranger, "own": coach, "other": other_coach, "commissioner": commissioner}


@pytest.mark.parametrize(("action", "persona", "status"), list(_cells()))
def test_match_permission_matrix(api_as, users, home, away, action, persona, status):
    w = World(home=home, away=away)
    spec = ACTIONS[action]
    if spec.prepare:
        spec.prepare(w, users)
    before = snapshot()
    client = api_as(users[persona])
    if spec.method == "get":
        response = client.get(spec.path(w))
    else:
        response = client.post(spec.path(w), spec.body(w), format="json")
    if status >= 400:
        assert_refused(response, status)
        assert snapshot() == before, f"{persona} was refused {action} but something changed"
    else:
        assert response.status_code == status, (response.status_code, response.content)
        changed = snapshot() != before
        assert changed == (spec.method == "post"), f"{action} by {persona}: changed={changed}"


def _state_after(action: str, w: World) -> None:
    """What each allowed write leaves behind."""
    match = Match.objects.filter(pk=w.match_id).first() if w.match_id else Match.objects.order_by("-pk").first()
    if action == "schedule":
        assert match.status == "scheduled"
    elif action == "submit":
        assert match.status == "submitted" and match.result["teams"][0]["score"] == 1
    elif action == "confirm":
        assert match.status == "final" and Aftermath.objects.filter(match=match).count() == 2
    elif action == "reject":
        assert match.status == "scheduled" and match.result == {}


@pytest.mark.parametrize(
    ("action", "persona"),
    [
        ("schedule", "own"),
        ("schedule", "other"),
        ("submit", "other"),
        ("submit", "commissioner"),
        ("confirm", "other"),
        ("confirm", "commissioner"),
        ("reject", "commissioner"),
    ],
)
def test_allowed_writes_do_what_they_say(api_as, users, home, away, action, persona):
    w = World(home=home, away=away)
    spec = ACTIONS[action]
    if spec.prepare:
        spec.prepare(w, users)
    response = api_as(users[persona]).post(spec.path(w), spec.body(w), format="json")
    assert response.status_code in (200, 201), response.json()
    _state_after(action, w)


@pytest.mark.parametrize("persona", ["own", "commissioner"])
def test_an_allowed_aftermath_step_moves_the_sequence_on(api_as, users, home, away, persona):
    w = World(home=home, away=away)
    _final(w, users)
    client, url = api_as(users[persona]), f"/api/v1/matches/{w.match_id}/aftermath/{home.pk}/"
    response = client.post(url, {"step": "improvements", "rolls": {"improvement": [1, 2]}}, format="json")
    assert response.status_code == 200, response.json()
    pending = response.json()["pending"]
    assert pending["decision"] == "improvements"  # the scorer reached 6 SPP: a level, a choice to make
    picks = {pid: [rolls[0]["skills"][0]] for pid, rolls in pending["options"].items()}
    response = client.post(url, {"step": "improvements", "choices": {"improvements": picks}}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["step"] == "team_stats" and response.json()["pending"] is None


def test_the_other_coach_may_walk_his_own_teams_sequence_but_not_alices(api_as, users, home, away):
    """The permission is per team: bob walks the away team's sequence; alice may not touch it."""
    w = World(home=home, away=away)
    _final(w, users)
    url = f"/api/v1/matches/{w.match_id}/aftermath/{away.pk}/"
    before = snapshot()
    assert_refused(api_as(users["own"]).post(url, {"step": "improvements"}, format="json"), 403)
    assert snapshot() == before
    response = api_as(users["other"]).post(url, {"step": "improvements"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["step"] == "team_stats"


def test_a_coach_may_not_schedule_a_match_between_two_other_teams(api_as, users, league, home, away):
    from tests.factories import UserFactory
    from tests.matches.conftest import full_team

    third = full_team(league, UserFactory(username="carol"), "Third")
    before = snapshot()
    response = api_as(users["own"]).post(
        "/api/v1/matches/", {"league": league.pk, "teams": [away.pk, third.pk]}, format="json"
    )
    assert_refused(response, 403)
    assert snapshot() == before


def test_the_commissioner_who_submitted_cannot_confirm_his_own_result(api_as, users, home, away):
    """The rule is about the submitter, whoever he is: a coach then confirms the commissioner's entry."""
    from matches import services

    w = World(home=home, away=away)
    _scheduled(w, users)
    services.match_submit_result(user=users["commissioner"], match_id=w.match_id, body=result_body(w))
    before = snapshot()
    assert_refused(api_as(users["commissioner"]).post(f"/api/v1/matches/{w.match_id}/confirm/"), 403)
    assert snapshot() == before
    assert api_as(users["own"]).post(f"/api/v1/matches/{w.match_id}/confirm/").status_code == 200
