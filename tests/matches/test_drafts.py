"""The live match sheet's services and API (matches/drafts.py, matches/draft_api.py; docs/api-v1-extensions.md
"Live match sheet"): every tapped event is kept by its key, once; undo; who may keep the sheet; bad events are a
400 naming the field; submitting enters exactly the body POST …/result/ takes."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from campaigns.errors import NotPermitted, RuleViolation
from matches import drafts, services
from matches.models import DraftEvent, Match
from tests.matches.conftest import full_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def home(league, coach):
    return full_team(league, coach, "Home", n=6)


@pytest.fixture
def away(league, other_coach):
    return full_team(league, other_coach, "Away", n=6)


@pytest.fixture
def match(league, home, away):
    return services.match_schedule(user=home.coach, league=league, team_ids=[home.pk, away.pk])


def ids(team) -> list[int]:
    return list(team.players.order_by("number").values_list("pk", flat=True))


def url(match, tail: str = "") -> str:
    return f"/api/v1/matches/{match.pk}/draft/{tail}"


def test_the_same_key_twice_is_kept_once(match, home, coach):
    scorer = ids(home)[0]
    first, new = drafts.draft_add_event(
        user=coach, match=match, key="k1", event={"kind": "touchdown", "player": scorer}
    )
    again, new_again = drafts.draft_add_event(
        user=coach, match=match, key="k1", event={"kind": "touchdown", "player": scorer}
    )
    assert (new, new_again) == (True, False)
    assert again.pk == first.pk
    assert DraftEvent.objects.filter(draft__match=match).count() == 1
    assert drafts.draft_state(match=match)["score"] == {str(home.pk): 1, str(match.sides.last().team_id): 0}


def test_events_keep_the_order_they_arrived_in_and_undo_strikes_one_and_a_repeat_does_not_bring_it_back(
    match, home, away, coach, other_coach
):
    h, a = ids(home), ids(away)
    drafts.draft_add_event(user=coach, match=match, key="a", event={"kind": "touchdown", "player": h[0]})
    drafts.draft_add_event(user=other_coach, match=match, key="b", event={"kind": "touchdown", "player": a[1]})
    drafts.draft_add_event(user=coach, match=match, key="c", event={"kind": "touchdown", "player": h[2]})
    drafts.draft_undo(user=other_coach, match=match, key="c")
    drafts.draft_undo(user=coach, match=match, key="c")  # undoing again changes nothing
    drafts.draft_add_event(user=coach, match=match, key="c", event={"kind": "touchdown", "player": h[2]})
    state = drafts.draft_state(match=match)
    assert [(e["key"], e["seq"], e["undone"]) for e in state["events"]] == [
        ("a", 1, False),
        ("b", 2, False),
        ("c", 3, True),
    ]
    assert state["score"] == {str(home.pk): 1, str(away.pk): 1}


def test_a_stranger_may_not_keep_or_read_the_sheet(match, home, stranger, api_as):
    with pytest.raises(NotPermitted):
        drafts.draft_add_event(user=stranger, match=match, key="k", event={"kind": "touchdown", "player": ids(home)[0]})
    with pytest.raises(NotPermitted):
        drafts.draft_submit(user=stranger, match=match)
    client = api_as(stranger)
    assert client.get(url(match)).status_code == 403
    r = client.post(url(match), {"key": "k", "kind": "touchdown", "player": ids(home)[0]}, format="json")
    assert r.status_code == 403
    assert client.post(url(match, "undo/"), {"key": "k"}, format="json").status_code == 403
    assert client.post(url(match, "submit/"), format="json").status_code == 403
    assert not DraftEvent.objects.exists()
    assert Match.objects.get(pk=match.pk).status == Match.Status.SCHEDULED


def test_anonymous_is_refused(match, api):
    assert api.get(url(match)).status_code in (401, 403)
    assert api.post(url(match), {"key": "k", "kind": "touchdown"}, format="json").status_code in (401, 403)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"key": "k", "kind": "sneeze", "player": "HOME0"}, "kind"),
        ({"key": "k", "kind": "touchdown", "player": 0}, "player"),
        ({"key": "k", "kind": "touchdown", "player": "AWAY0", "team": "HOME"}, "team"),
        ({"key": "k", "kind": "injury", "player": "HOME0", "option": "sneezed"}, "option"),
        ({"key": "bad key!", "kind": "touchdown", "player": "HOME0"}, "key"),
        ({"kind": "touchdown", "player": "HOME0"}, "key"),
        ({"key": "k", "kind": "touchdown", "player": "abc"}, "player"),
        ({"key": "k", "kind": "touchdown", "player": 10**30}, "player"),
    ],
)
def test_a_bad_event_is_a_400_naming_the_field_and_keeps_nothing(match, home, away, coach, api_as, body, field):
    names = {"HOME0": ids(home)[0], "AWAY0": ids(away)[0], "HOME": home.pk}
    body = {k: names.get(v, v) if isinstance(v, str) and k != "key" and k != "kind" else v for k, v in body.items()}
    r = api_as(coach).post(url(match), body, format="json")
    assert r.status_code == 400, r.json()
    assert field in r.json()
    assert not DraftEvent.objects.exists()


def test_undo_of_an_unknown_key_is_a_400(match, coach, api_as):
    r = api_as(coach).post(url(match, "undo/"), {"key": "nope"}, format="json")
    assert r.status_code == 400
    assert "key" in r.json()


def test_the_api_keeps_a_repeat_once_and_answers_200(match, home, coach, other_coach, api_as):
    body = {"key": "tap-1", "kind": "touchdown", "player": ids(home)[0]}
    first = api_as(coach).post(url(match), body, format="json")
    repeat = api_as(coach).post(url(match), body, format="json")
    assert (first.status_code, repeat.status_code) == (201, 200)
    assert repeat.json()["events"] == first.json()["events"]
    # The other coach sees the same sheet.
    seen = api_as(other_coach).get(url(match)).json()
    assert [e["key"] for e in seen["events"]] == ["tap-1"]
    assert seen["score"][str(home.pk)] == 1


def test_submitting_the_sheet_enters_exactly_the_body_the_result_endpoint_takes(
    league, match, home, away, coach, other_coach, api_as
):
    h, a = ids(home), ids(away)
    client = api_as(coach)
    taps = [
        {"kind": "touchdown", "player": h[0]},
        {"kind": "completion", "player": h[1]},
        {"kind": "touchdown", "player": h[0]},
        {"kind": "casualty", "player": a[2]},
        {"kind": "injury", "player": h[3], "option": "miss_next_match"},
        {"kind": "touchdown", "player": a[4]},
        {"kind": "mvp", "player": h[1]},
        {"kind": "mvp", "player": a[0]},
    ]
    for n, tap in enumerate(taps):
        assert client.post(url(match), {"key": f"t{n}", **tap}, format="json").status_code == 201
    body = client.get(url(match)).json()["body"]
    r = client.post(url(match, "submit/"), format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["status"] == "submitted"
    submitted = Match.objects.get(pk=match.pk)
    assert submitted.result_body == body
    # The same body through POST …/result/ gives the same validated result.
    twin = services.match_schedule(user=coach, league=league, team_ids=[home.pk, away.pk])
    assert client.post(f"/api/v1/matches/{twin.pk}/result/", body, format="json").status_code == 201
    assert Match.objects.get(pk=twin.pk).result == submitted.result
    confirmed = api_as(other_coach).post(f"/api/v1/matches/{match.pk}/confirm/")
    assert confirmed.status_code == 200
    scorer = home.players.get(pk=h[0])
    assert scorer.spp == 2 * league.house_rules["spp"]["touchdown"]
    assert home.players.get(pk=h[3]).status == "miss_next_match"


def test_a_sheet_that_folds_into_a_refused_result_is_a_400_and_submits_nothing(match, home, coach, api_as):
    """The scorer died in another match before this sheet was submitted: his touchdown no longer adds up."""
    client = api_as(coach)
    scorer = ids(home)[0]
    client.post(url(match), {"key": "x", "kind": "touchdown", "player": scorer}, format="json")
    home.players.filter(pk=scorer).update(status="dead")
    r = client.post(url(match, "submit/"), format="json")
    assert r.status_code == 400, r.json()
    assert "teams[0].score" in r.json()
    assert Match.objects.get(pk=match.pk).status == Match.Status.SCHEDULED


def test_a_final_match_closes_the_sheet(match, home, coach, api_as):
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINAL)
    with pytest.raises(RuleViolation):
        drafts.draft_add_event(user=coach, match=match, key="k", event={"kind": "touchdown", "player": ids(home)[0]})
    assert api_as(coach).post(url(match, "submit/"), format="json").status_code == 400


def test_the_live_page_is_for_the_coaches_of_the_match(client, match, coach, stranger):
    client.force_login(stranger)
    assert client.get(f"/matches/{match.pk}/live/").status_code == 403
    client.force_login(coach)
    page = client.get(f"/matches/{match.pk}/live/")
    assert page.status_code == 200
    assert b'data-kind="touchdown"' in page.content
    assert client.get(f"/matches/{match.pk}/").content.count(f"/matches/{match.pk}/live/".encode()) == 1


def test_the_service_worker_is_served_from_the_root_with_a_scope_over_the_site(client):
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r["Service-Worker-Allowed"] == "/"
    assert r["Content-Type"].startswith("application/javascript")


@pytest.mark.django_db(transaction=True)
def test_simultaneous_taps_keep_a_repeated_key_once_and_give_every_event_its_own_sequence_number(
    match, home, coach, other_coach
):
    """Ten phones repeat one tap (a retry) while ten others tap their own, all at once: the repeat is kept once,
    and the eleven events are numbered 1–11 with no gap and no clash (the match row is the lock)."""
    scorer = ids(home)[0]
    barrier = threading.Barrier(20)
    outcomes: list[bool] = []
    errors: list[BaseException] = []

    def tap(n: int) -> None:
        try:
            barrier.wait(timeout=30)
            key = "retry" if n < 10 else f"own-{n}"
            user = coach if n % 2 else other_coach
            _, new = drafts.draft_add_event(
                user=user, match=match, key=key, event={"kind": "touchdown", "player": scorer}
            )
            outcomes.append(new)
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=tap, args=(n,)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert not errors, errors
    assert sorted(outcomes) == [False] * 9 + [True] * 11
    kept = DraftEvent.objects.filter(draft__match=match)
    assert sorted(kept.values_list("seq", flat=True)) == list(range(1, 12))
    assert kept.filter(key="retry").count() == 1
