"""The coach's home (`/me/`) and the header badge: each kind of waiting item (a result to enter, a result to
confirm, a post-match sequence to walk, a pre-match step or shopping turn) appears for the coach whose move it is
and not for the other; the badge counts them on every page; the list's cost does not grow with the matches."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from dugout.actions import user_actions, user_actions_count
from matches import services
from matches.prematch import prematch_post
from tests.factories import TeamFactory, UserFactory

pytestmark = pytest.mark.django_db

BADGE = '<span class="badge" id="waiting-badge" title="things waiting for you">{}</span>'


def kinds(user) -> list[tuple[str, int, int]]:
    return [(i.kind, i.match, i.team) for i in user_actions(user=user)]


def result(home, away) -> dict:
    return {"teams": [{"team": home.pk, "score": 0}, {"team": away.pk, "score": 0}]}


def test_a_scheduled_match_waits_for_a_result_from_both_its_coaches_and_no_stranger(match, humes, goblins, stranger):
    assert kinds(humes.coach) == [("enter_result", match.pk, humes.pk)]
    assert kinds(goblins.coach) == [("enter_result", match.pk, goblins.pk)]
    assert kinds(stranger) == []
    assert user_actions(user=humes.coach)[0].url == reverse("match-result", args=[match.pk])


def test_a_submitted_result_waits_for_the_other_coachs_confirmation_only(match, humes, goblins):
    services.match_submit_result(user=goblins.coach, match_id=match.pk, body=result(humes, goblins))

    assert kinds(humes.coach) == [("confirm_result", match.pk, humes.pk)]
    assert kinds(goblins.coach) == []  # he entered it: nothing is his to do until it is confirmed


def test_a_result_the_commissioner_entered_waits_for_either_coach(match, humes, goblins, commissioner):
    services.match_submit_result(user=commissioner, match_id=match.pk, body=result(humes, goblins))

    assert kinds(humes.coach) == [("confirm_result", match.pk, humes.pk)]
    assert kinds(goblins.coach) == [("confirm_result", match.pk, goblins.pk)]


def test_a_confirmed_result_waits_for_each_coachs_post_match_sequence_until_his_is_walked(match, humes, goblins):
    services.match_submit_result(user=goblins.coach, match_id=match.pk, body=result(humes, goblins))
    services.match_confirm(user=humes.coach, match_id=match.pk)

    assert kinds(humes.coach) == [("postmatch_step", match.pk, humes.pk)]
    assert kinds(goblins.coach) == [("postmatch_step", match.pk, goblins.pk)]
    item = user_actions(user=humes.coach)[0]
    assert item.url == reverse("match-aftermath", args=[match.pk, humes.pk])
    assert item.text.startswith(f"Walk the post-match sequence of match #{match.pk}: ")


def test_no_result_waits_while_a_team_of_the_match_has_an_earlier_post_match_sequence_to_walk(
    league, humes, goblins, commissioner
):
    carols = TeamFactory(league=league, coach=UserFactory(username="carol"), name="Carol's side")
    earlier = services.match_schedule(user=commissioner, league=league, team_ids=[carols.pk, goblins.pk])
    services.match_submit_result(user=carols.coach, match_id=earlier.pk, body=result(carols, goblins))
    services.match_confirm(user=goblins.coach, match_id=earlier.pk)

    services.match_schedule(user=humes.coach, league=league, team_ids=[humes.pk, goblins.pk])

    # The Goblins' sequence after the earlier match holds up this result (the service refuses it until then).
    assert kinds(humes.coach) == []
    assert kinds(goblins.coach) == [("postmatch_step", earlier.pk, goblins.pk)]


def test_an_open_shopping_turn_waits_for_the_shopping_team_only(match, humes, goblins):
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})
    fans = {"fans": {str(humes.pk): [5, 6], str(goblins.pk): [2, 1]}}
    prematch_post(user=humes.coach, match_id=match.pk, step="fans", rolls=fans)

    # The Humes have the higher Team Value: theirs is the first turn, and the result waits for the sequence.
    assert kinds(humes.coach) == [("prematch_step", match.pk, humes.pk)]
    assert user_actions(user=humes.coach)[0].url == reverse("match-inducements", args=[match.pk, humes.pk])
    assert kinds(goblins.coach) == []

    prematch_post(user=humes.coach, match_id=match.pk, step="inducements_superior", choices={"done": True})

    assert kinds(humes.coach) == []
    assert kinds(goblins.coach) == [("prematch_step", match.pk, goblins.pk)]


def test_a_started_pre_match_sequence_sends_the_result_to_its_page_first(match, humes, goblins):
    prematch_post(user=humes.coach, match_id=match.pk, step="weather", rolls={"weather": [3, 4]})

    # The next step (the fans) is either coach's to roll; the result waits for the sequence to finish.
    [item] = user_actions(user=goblins.coach)
    assert (item.kind, item.url) == ("prematch_step", reverse("match-prematch", args=[match.pk]))
    assert item.text.endswith(": Fans and FAME")


def test_me_page_lists_the_coachs_teams_and_the_links_to_act(client, match, humes, goblins):
    services.match_submit_result(user=goblins.coach, match_id=match.pk, body=result(humes, goblins))
    client.force_login(humes.coach)

    page = client.get("/me/").content.decode()

    assert f'href="{reverse("team-detail", args=[humes.pk])}">Alice&#x27;s Humes</a>' in page
    words = "Confirm the result of Alice&#x27;s Humes v Bob&#x27;s Goblins"
    link = f'href="{reverse("match-detail", args=[match.pk])}">{words}</a>'
    assert link in page
    assert "(Gil Cup)" in page


def test_me_page_asks_an_anonymous_visitor_to_log_in(client):
    response = client.get("/me/")
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_header_badge_counts_what_waits_on_every_page(client, league, match, humes, goblins, commissioner):
    other = services.match_schedule(user=commissioner, league=league, team_ids=[goblins.pk, humes.pk])
    services.match_submit_result(user=goblins.coach, match_id=match.pk, body=result(humes, goblins))
    client.force_login(humes.coach)

    for url in ("/", reverse("league-detail", args=[league.pk]), reverse("match-detail", args=[other.pk])):
        assert BADGE.format(2) in client.get(url).content.decode(), url
    client.force_login(goblins.coach)
    assert BADGE.format(1) in client.get("/").content.decode()
    assert user_actions_count(user=goblins.coach) == 1


def test_header_badge_is_absent_for_a_coach_with_nothing_waiting(client, stranger):
    client.force_login(stranger)
    page = client.get("/").content.decode()
    assert 'id="me-link"' in page and 'id="waiting-badge"' not in page


def test_header_badge_costs_an_anonymous_visitor_no_query(client, match):
    with CaptureQueriesContext(connection) as anonymous:
        client.get("/")
    client.force_login(UserFactory(username="nobody"))
    with CaptureQueriesContext(connection) as signed_in:
        client.get("/")
    waiting = [q for q in anonymous.captured_queries if "matches_" in q["sql"]]
    assert waiting == []
    # Signed in: the badge adds its two queries (the matches with what they wait for, the leagues' rows) to the
    # page's, besides the session and the user, no more.
    assert len(signed_in.captured_queries) - len(anonymous.captured_queries) == 2 + 2


def _matches_for(coach, league, count: int) -> None:
    """`count` opponents for the coach's team, one match each: half submitted by the opponent."""
    mine = TeamFactory(league=league, coach=coach, name=f"{coach.username}'s side")
    for n in range(count):
        rival = TeamFactory(league=league, coach=UserFactory(username=f"{coach.username}-rival-{n}"), name=f"R{n}")
        played = services.match_schedule(user=coach, league=league, team_ids=[mine.pk, rival.pk])
        if n % 2:
            services.match_submit_result(user=rival.coach, match_id=played.pk, body=result(mine, rival))


@pytest.mark.parametrize("count", [1, 12])
def test_the_list_of_what_waits_costs_two_queries_however_many_matches(league, count):
    coach = UserFactory(username=f"busy{count}")
    _matches_for(coach, league, count)

    with CaptureQueriesContext(connection) as queries:
        items = user_actions(user=coach)

    assert len(items) == count
    assert len(queries) == 2
