"""What a user may do to a match now (matches/available.py) is what the services let him do: for every status
of the lifecycle (a submitted or disputed result entered by a coach, or by the commissioner) and every role, each
action's service is called — on valid input, in a savepoint rolled back after — and `available()` must name
exactly the actions whose service was not refused (NotPermitted or TransitionRefused). The page asks
`available`, the service enforces: this holds the two together."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import transaction

from campaigns.errors import NotPermitted
from matches import corrections, disputes, prematch, services
from matches.available import ACTIONS, RULE, Available, available
from matches.lifecycle import Action, Status, TransitionRefused
from matches.models import Match

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "stranger", "own", "other", "commissioner")
REASON = "The touchdown was scored after the final whistle."

#: (the status to bring the match to, who entered its result): every status, and a result entered by a coach
#: and by the commissioner (he may not confirm his own either).
STATES = [
    (Status.SCHEDULED, None),
    (Status.SUBMITTED, "own"),
    (Status.SUBMITTED, "commissioner"),
    (Status.DISPUTED, "own"),
    (Status.DISPUTED, "commissioner"),
    (Status.FINAL, "own"),
    (Status.VOID, None),
]


class _RolledBack(Exception):
    """Raised to undo a service's writes once its answer is known."""


def _body(home, away, home_score: int = 1) -> dict:
    scorer = home.players.order_by("number").first()
    return {
        "teams": [{"team": home.pk, "score": home_score}, {"team": away.pk, "score": 0}],
        "players": [{"player": scorer.pk, "touchdowns": home_score}],
    }


def _services(home, away) -> dict[str, Callable]:
    """Each action's service, called with valid input: only the status or the role can refuse it."""
    return {
        Action.SUBMIT: lambda user, pk: services.match_submit_result(user=user, match_id=pk, body=_body(home, away)),
        Action.CONFIRM: lambda user, pk: services.match_confirm(user=user, match_id=pk),
        Action.REJECT: lambda user, pk: services.match_reject(user=user, match_id=pk, reason=REASON),
        Action.CORRECT: lambda user, pk: corrections.match_correct(user=user, match_id=pk, body=_body(home, away, 2)),
        Action.DISPUTE: lambda user, pk: disputes.match_dispute(user=user, match_id=pk, reason=REASON),
        # A ruling is allowed when any of the three is (a commissioner who entered the disputed result himself
        # may not confirm it, as is or corrected — a result needs two pairs of eyes — but may reject it).
        **{
            f"{RULE}:{ruling}": (
                lambda user, pk, ruling=ruling: disputes.match_rule_dispute(
                    user=user, match_id=pk, ruling=ruling, reason=REASON, body=_body(home, away, 2)
                )
            )
            for ruling in disputes.RULINGS
        },
        # rules/blitzbowl.md "Pre-match sequence": the weather is its first step.
        Action.PREMATCH: lambda user, pk: prematch.prematch_post(
            user=user, match_id=pk, step="weather", rolls={"weather": [3, 4]}
        ),
        Action.FORFEIT: lambda user, pk: disputes.match_forfeit(user=user, match_id=pk, team_id=away.pk, reason=REASON),
        Action.VOID: lambda user, pk: disputes.match_void(user=user, match_id=pk, reason=REASON),
    }


def _allowed_by_services(calls: dict[str, Callable], user, match_id: int) -> frozenset[str]:
    allowed = set()
    for action, call in calls.items():
        try:
            with transaction.atomic():
                call(user, match_id)
                raise _RolledBack
        except (NotPermitted, TransitionRefused):
            continue
        except _RolledBack:
            allowed.add(action.partition(":")[0])
    return frozenset(allowed)


def _match_in(status: str, entered_by, users, home, away) -> int:
    commissioner = users["commissioner"]
    match = services.match_schedule(user=commissioner, league=home.league, team_ids=[home.pk, away.pk])
    if status == Status.VOID:
        disputes.match_void(user=commissioner, match_id=match.pk, reason=REASON)
    elif status != Status.SCHEDULED:
        services.match_submit_result(user=users[entered_by], match_id=match.pk, body=_body(home, away))
    if status == Status.DISPUTED:
        disputes.match_dispute(user=users["other"], match_id=match.pk, reason=REASON)
    if status == Status.FINAL:
        services.match_confirm(user=users["other"], match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == status
    return match.pk


@pytest.fixture
def users(coach, other_coach, stranger, commissioner):
    return {
        "anonymous": AnonymousUser(),
        "stranger": stranger,
        "own": coach,
        "other": other_coach,
        "commissioner": commissioner,
    }


def test_every_action_has_its_service_and_a_flag():
    assert set(ACTIONS) == {*Action.values, RULE}
    assert {f for f in Available.__dataclass_fields__} == set(ACTIONS)
    assert Available(confirm=True, rule=True).actions == {Action.CONFIRM, RULE}
    assert Action.CONFIRM in Available(confirm=True) and RULE not in Available(confirm=True)


@pytest.mark.parametrize(("status", "entered_by"), STATES, ids=[f"{s}-by-{e}" for s, e in STATES])
def test_available_names_exactly_what_the_services_allow(users, home, away, status, entered_by):
    match_id = _match_in(status, entered_by, users, home, away)
    calls = _services(home, away)
    assert {action.partition(":")[0] for action in calls} == set(ACTIONS)
    answers = {}
    for role in ROLES:
        user = users[role]
        offered = available(user, Match.objects.select_related("league").get(pk=match_id)).actions
        answers[role] = (offered, _allowed_by_services(calls, user, match_id))
        assert Match.objects.get(pk=match_id).status == status  # every call was rolled back
    assert {role: offered for role, (offered, _) in answers.items()} == {
        role: allowed for role, (_, allowed) in answers.items()
    }
    # And the walk is not vacuous: someone may act on every match but a void one (an end), a stranger on none.
    assert any(offered for offered, _ in answers.values()) != (status == Status.VOID)
    assert answers["stranger"][0] == answers["anonymous"][0] == frozenset()


def test_the_api_answers_what_the_caller_may_do_now(api, api_as, users, home, away):
    match_id = _match_in(Status.SUBMITTED, "own", users, home, away)
    url = f"/api/v1/matches/{match_id}/"
    assert api.get(url).json()["actions"] == []
    assert api_as(users["own"]).get(url).json()["actions"] == ["submit"]
    assert api_as(users["other"]).get(url).json()["actions"] == ["confirm", "dispute", "submit"]
    assert api_as(users["commissioner"]).get(url).json()["actions"] == ["confirm", "reject", "submit"]
    listed = api_as(users["other"]).get("/api/v1/matches/", {"league": home.league_id}).json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [row["actions"] for row in rows if row["id"] == match_id] == [["confirm", "dispute", "submit"]]
    # A write answers the match as it now stands, and what the caller may do next.
    confirmed = api_as(users["other"]).post(f"{url}confirm/")
    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["actions"] == []
    assert api_as(users["commissioner"]).get(url).json()["actions"] == ["correct"]
