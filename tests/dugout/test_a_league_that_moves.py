"""Two coaches play a whole match without either opening a page to find out it is their turn (issue "A league that
keeps itself moving", its "Done when"): at every step, the coach the match now waits for — and only he — is told
in the app and by mail, his `/me/actions/` lists what to do with the page to do it on, the match's `waiting_for`
names him, and the notification's link is that page. Through the API, as the coaches' programs would play it;
the outbox is sent as the worker sends it (notifications/delivery.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from matches import services
from notifications.delivery import deliveries_send
from notifications.models import Delivery, Notification
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db

MATCHES = "/api/v1/matches/"

#: Blitz Bowl's post-match steps with their dice (tests/matches/test_waiting_for.py).
POSTMATCH = [
    ("improvements", None, None),
    ("team_stats", None, None),
    ("fortune", {"reroll_winnings": False, "seek_sponsor": False}, {"winnings": [3], "fan_factor": [1, 1, 1]}),
    ("hire_fire", None, None),
    ("prepare", None, {"expensive_mistakes": [6], "expensive_mistakes_amount": [1]}),
]


@pytest.fixture
def play(league, commissioner, coach, other_coach, api_as):
    """alice's Humes (the favourite) against bob's Goblins (the underdog), scheduled by the commissioner."""
    humes = full_team(league, coach, "Humes")
    goblins = full_team(league, other_coach, "Goblins", roster="goblin", position="goblin")
    match = services.match_schedule(user=commissioner, league=league, team_ids=[humes.pk, goblins.pk])
    return {"match": match, "humes": humes, "goblins": goblins, "alice": api_as(coach), "bob": api_as(other_coach)}


def told_now(since: int) -> list[tuple[str, str]]:
    """(username, kind) of every notification written after id `since`, after sending their outbox as the worker
    would; each mailed notification has exactly one mail, to its user."""
    notes = list(Notification.objects.filter(pk__gt=since).select_related("user").order_by("pk"))
    pending = list(
        Delivery.objects.filter(notification__in=notes, state=Delivery.State.PENDING).values_list("pk", flat=True)
    )
    before = len(mail.outbox)
    deliveries_send(delivery_ids=pending, base_url="https://dugout.example")
    mailed = sorted(m.to[0] for m in mail.outbox[before:])
    assert mailed == sorted(n.user.email for n in notes if n.user.email)
    return [(n.user.username, n.kind) for n in notes]


def last_id() -> int:
    return Notification.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def actions(client) -> list[tuple[str, str]]:
    response = client.get("/api/v1/me/actions/")
    assert response.status_code == 200
    return [(a["kind"], a["url"]) for a in response.json()]


def waiting(client, match) -> list[tuple[str, str]]:
    body = client.get(f"{MATCHES}{match.pk}/").json()
    return [(w["username"], w["action"]) for w in body["waiting_for"]]


def act(client, path: str, body: dict, status: int = 200):
    response = client.post(path, body, format="json")
    assert response.status_code == status, response.json()
    return response.json()


def test_two_coaches_are_told_of_every_turn_of_a_whole_match(play):
    match, humes, goblins, alice, bob = (play[k] for k in ("match", "humes", "goblins", "alice", "bob"))
    url = f"/matches/{match.pk}/"
    mark = last_id()

    # alice proposes a time: bob is told, and agreeing to it is his to do.
    at = (timezone.now() + timedelta(days=2)).replace(microsecond=0)
    proposal = act(alice, f"{MATCHES}{match.pk}/times/", {"at": at.isoformat()}, 201)
    assert told_now(mark) == [("bob", "time_proposed")]
    assert "agree_time" in [k for k, _ in actions(bob)]
    assert not any(k == "agree_time" for k, _ in actions(alice))

    # bob agrees: alice is told.
    mark = last_id()
    act(bob, f"{MATCHES}{match.pk}/times/{proposal['id']}/accept/", {})
    assert told_now(mark) == [("alice", "time_agreed")]

    # The pre-match sequence: the shared steps, then the favourite's shopping, then the underdog's turn.
    act(alice, f"{MATCHES}{match.pk}/prematch/", {"step": "weather", "rolls": {"weather": [3, 4]}})
    fans = {"fans": {str(humes.pk): [5, 6], str(goblins.pk): [2, 1]}}
    act(alice, f"{MATCHES}{match.pk}/prematch/", {"step": "fans", "rolls": fans})
    mark = last_id()
    act(alice, f"{MATCHES}{match.pk}/prematch/", {"step": "inducements_superior", "choices": {"done": True}})
    assert told_now(mark) == [("bob", "your_turn")]
    assert ("bob", "prematch_step") in waiting(alice, match)
    turn = Notification.objects.get(user__username="bob", kind="your_turn")
    assert (kind_url := ("prematch_step", turn.url)) in actions(bob), (kind_url, actions(bob))
    mark = last_id()
    act(bob, f"{MATCHES}{match.pk}/prematch/", {"step": "inducements_underdog", "choices": {"done": True}})
    # The result was held up by bob's turn: now it waits, and alice (who did not act) is told.
    assert told_now(mark) == [("alice", "your_turn")]
    assert ("enter_result", f"/matches/{match.pk}/result/") in actions(alice)

    # alice enters the result: bob is told, and confirming it is his to do — on the match page.
    mark = last_id()
    body = {"teams": [{"team": humes.pk, "score": 0}, {"team": goblins.pk, "score": 0}]}
    act(alice, f"{MATCHES}{match.pk}/result/", body, 201)
    assert told_now(mark) == [("bob", "result_submitted")]
    assert waiting(bob, match) == [("bob", "confirm_result")]
    assert ("confirm_result", url) in actions(bob)
    assert Notification.objects.get(user__username="bob", kind="result_submitted").url == url
    assert actions(alice) == []

    # bob confirms: alice is told; each coach's post-match sequence now waits for him.
    mark = last_id()
    act(bob, f"{MATCHES}{match.pk}/confirm/", {})
    assert told_now(mark) == [("alice", "result_confirmed")]
    assert sorted(waiting(alice, match)) == [("alice", "postmatch_step"), ("bob", "postmatch_step")]
    assert [k for k, _ in actions(alice)] == ["postmatch_step"]
    assert [k for k, _ in actions(bob)] == ["postmatch_step"]

    # Each walks his sequence; then nothing waits for anyone, and nobody was told twice.
    for client, team in ((alice, humes), (bob, goblins)):
        for step, choices, rolls in POSTMATCH:
            body = {"step": step, **({"choices": choices} if choices else {}), **({"rolls": rolls} if rolls else {})}
            act(client, f"{MATCHES}{match.pk}/aftermath/{team.pk}/", body)
    assert waiting(alice, match) == []
    assert actions(alice) == [] and actions(bob) == []
    kinds = list(Notification.objects.values_list("user__username", "kind"))
    assert len(kinds) == len(set(kinds))
