"""The result form: who may enter it, what it offers and sends, and a refusal shown next to its field."""

from __future__ import annotations

import re

import pytest

from matches import services
from teams.models import Player
from tests.factories import TeamFactory, UserFactory
from tests.web.matchpages.helpers import (
    plain,
    play_standard,
    players,
    report_url,
    result_data,
    result_url,
    standard_result,
    submit_standard,
    text,
)

pytestmark = pytest.mark.django_db


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
    assert "Missing this match: Hume 11." in plain(page).replace(" .", ".")
    assert "Gob 1" not in mvp_select
    # Issue 14: every player's name links to his page, the ones missing the match too.
    assert f'<a href="/players/{h[11].pk}/" class="player-link">Hume 11</a>' in page


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

    assert response.status_code == 400  # the form again with the reason: nothing was stored
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


def test_a_result_refused_as_a_conflict_is_answered_409_on_the_form_and_changes_nothing(
    client, match, humes, goblins, monkeypatch
):
    """A refusal is answered with its own status (the API's table): a Conflict — the match changed between the
    form and the POST — is a 409, the form shown again with the reason in words."""
    from campaigns.errors import Conflict

    def changed_meanwhile(**kwargs):
        raise Conflict("The other coach entered the result meanwhile: nothing was saved.")

    monkeypatch.setattr(services, "match_submit_result", changed_meanwhile)
    data, _ = standard_result(humes, goblins)
    before = (match.status, match.result)
    client.force_login(humes.coach)

    response = client.post(result_url(match), data)

    assert response.status_code == 409
    page = text(response)
    assert 'id="result-errors"' in page and "The other coach entered the result meanwhile: nothing was saved." in page
    match.refresh_from_db()
    assert (match.status, match.result) == before


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
