"""The live match sheet in a real browser, for each ruleset: a coach taps the game as it happens, the signal drops
in the middle (`context.set_offline(True)`: more taps and an undo are kept on the phone and shown as waiting),
comes back (the queue is sent in order, each event once), and "Submit result" enters exactly what was tapped;
after the other coach confirms, the team sheets show it. Plus: a reload and the other coach see the same sheet.

Playwright's sync API drives Debian's Chromium against pytest-django's live server (tests/web/conftest.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.web.conftest import CHROMIUM

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed in this environment")
expect = sync_api.expect

from django.conf import settings  # noqa: E402

from matches import services  # noqa: E402
from matches.models import DraftEvent, Match  # noqa: E402
from teams.models import Player  # noqa: E402
from tests.factories import LeagueFactory, TeamFactory, UserFactory, hire  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = Path(settings.BASE_DIR) / "var" / "live-sheet-390.png"


# --- taps -------------------------------------------------------------------------------------------------------


def pick(page, *players: Player) -> None:
    for player in players:
        page.locator(f"#player-{player.pk}").click()
        expect(page.locator(f"#player-{player.pk}")).to_have_attribute("aria-pressed", "true")


def tap(page, player: Player, kind: str, option: str = "") -> None:
    """Tap the player, then what happened (and its option)."""
    pick(page, player)
    page.locator(f'#live .live-kind:not(.live-team-kind)[data-kind="{kind}"]').click()
    if option:
        page.locator(f'.live-option[data-kind="{kind}"][data-option="{option}"]').click()


def tap_team(page, team, kind: str, option: str = "") -> None:
    page.locator(f'.live-team[data-team="{team.pk}"] .live-team-kind[data-kind="{kind}"]').click()
    if option:
        page.locator(f'.live-option[data-kind="{kind}"][data-option="{option}"]').click()


def goal(page, *on_field: Player) -> None:
    pick(page, *on_field)
    page.locator('#live .live-kind[data-kind="goal"]').click()


def saved(page, events: int) -> None:
    """Every tap is on the server: nothing waits, and the sheet lists `events` events (undone ones included)."""
    expect(page.locator("#live-status")).to_have_attribute("data-unsent", "0")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "online")
    expect(page.locator("#live-log li.live-saved")).to_have_count(events)


def offline(page) -> None:
    page.context.set_offline(True)


def back_online(page, events: int) -> None:
    page.context.set_offline(False)
    saved(page, events)


def undo(page) -> None:
    page.locator("#live-undo").click()


def score(page, team) -> str:
    return page.locator(f"#score-{team.pk}").text_content()


def submit(page, match) -> None:
    page.locator("#live-submit").click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    expect(page.locator("#match-status")).to_have_attribute("data-status", "submitted")


def open_sheet(page, match, errors: list[str]):
    """Open the sheet from the match page; a Content-Security-Policy refusal on it is a JavaScript error."""
    page.on(
        "console",
        lambda m: "Content Security Policy" in m.text and errors.append(m.text),
    )
    page.goto(f"/matches/{match.pk}/")
    page.locator("#live-link").click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/live/$"))
    expect(page.locator("#live-status")).to_have_attribute("data-state", "online")
    return page


def by_number(team) -> dict[int, Player]:
    return {p.number: p for p in team.players.all()}


# --- Blitz Bowl (rules/blitzbowl.md "Star Player Points", "Injuries recorded on a result") ---------------------


def test_blitzbowl_a_game_tapped_through_a_lost_signal_is_the_result_and_the_team_sheets(
    log_in, js_errors, league, humes, goblins, match
):
    h, g = by_number(humes), by_number(goblins)
    alice = open_sheet(log_in("alice"), match, js_errors)
    tap(alice, h[1], "touchdown")
    tap(alice, h[2], "completion")
    tap(alice, g[3], "casualty")
    saved(alice, 3)
    expect(alice.locator(f"#score-{humes.pk}")).to_have_text("1")

    offline(alice)
    tap(alice, g[4], "touchdown")
    tap(alice, h[5], "interception")
    tap(alice, h[6], "injury", "miss_next_match")
    tap(alice, h[1], "touchdown")  # a mistake…
    undo(alice)  # … taken back while still offline
    tap(alice, h[7], "touchdown")
    expect(alice.locator("#live-status")).to_have_attribute("data-state", "offline")
    expect(alice.locator("#live-log li.live-pending")).to_have_count(5)
    expect(alice.locator(f"#score-{humes.pk}")).to_have_text("2")
    assert DraftEvent.objects.filter(draft__match=match).count() == 3

    back_online(alice, 8)
    tap(alice, h[2], "mvp")
    tap(alice, g[1], "mvp")
    saved(alice, 10)
    assert DraftEvent.objects.filter(draft__match=match).count() == 10  # each tap once, never twice
    assert DraftEvent.objects.filter(draft__match=match, undone=True).count() == 1
    submit(alice, match)

    submitted = Match.objects.get(pk=match.pk)
    assert submitted.submitted_by == humes.coach
    assert submitted.result_body == {
        "teams": [
            {"team": humes.pk, "score": 2, "casualties_inflicted": 0, "mvp": h[2].pk},
            {"team": goblins.pk, "score": 1, "casualties_inflicted": 1, "mvp": g[1].pk},
        ],
        "players": [
            {"player": h[1].pk, "touchdowns": 1},
            {"player": h[2].pk, "completions": 1},
            {"player": h[5].pk, "interceptions": 1},
            {"player": h[6].pk, "injury": "miss_next_match"},
            {"player": h[7].pk, "touchdowns": 1},
            {"player": g[3].pk, "casualties": 1},
            {"player": g[4].pk, "touchdowns": 1},
        ],
    }
    services.match_confirm(user=goblins.coach, match_id=match.pk)
    spp = league.house_rules["spp"]
    h, g = by_number(humes), by_number(goblins)
    assert h[1].spp == h[7].spp == g[4].spp == spp["touchdown"]
    assert h[2].spp == spp["completion"] + spp["mvp"]
    assert h[5].spp == spp["interception"]
    assert g[3].spp == spp["casualty"]
    assert h[6].status == Player.Status.MISS_NEXT_MATCH
    assert sum(p.spp for p in h.values()) == spp["touchdown"] * 2 + spp["completion"] + spp["mvp"] + spp["interception"]
    assert not js_errors


# --- ElfBall (rules/elfball.md "Matches", "Goal Points and abilities", "Injuries") -------------------------------


def test_elfball_goals_tapped_with_the_players_on_the_field_through_a_lost_signal_are_the_result(log_in, js_errors):
    commissioner = UserFactory(username="commish")
    league = LeagueFactory(name="Treetop Cup", ruleset="elfball", created_by=commissioner)
    winds = TeamFactory(league=league, coach=UserFactory(username="alice"), name="Divine Wind", roster="divine_wind")
    widows = TeamFactory(league=league, coach=UserFactory(username="bob"), name="Black Widows", roster="black_widows")
    for n, position in enumerate(["defender", "hunter", "hunter", "midfielder", "midfielder", "midfielder"], 1):
        hire(winds, position, name=f"Wind {n}", number=n)
    for n, position in enumerate(["hunter", "hunter", "midfielder", "midfielder", "striker", "striker"], 1):
        hire(widows, position, name=f"Widow {n}", number=n)
    match = services.match_schedule(user=winds.coach, league=league, team_ids=[winds.pk, widows.pk])
    w, b = by_number(winds), by_number(widows)

    alice = open_sheet(log_in("alice"), match, js_errors)
    expect(alice.locator('.live-kind[data-kind="mvp"]')).to_have_count(0)  # ElfBall has no MVP
    goal(alice, w[1], w[2], w[3])
    saved(alice, 1)

    offline(alice)
    goal(alice, b[5], b[6])
    goal(alice, w[2])  # a mistake…
    undo(alice)
    tap(alice, b[3], "injury", "out_for_game")
    goal(alice, w[1], w[4])
    expect(alice.locator("#live-log li.live-pending")).to_have_count(4)
    expect(alice.locator(f"#score-{winds.pk}")).to_have_text("2")
    expect(alice.locator(f"#score-{widows.pk}")).to_have_text("1")

    back_online(alice, 5)
    assert DraftEvent.objects.filter(draft__match=match).count() == 5
    submit(alice, match)

    assert Match.objects.get(pk=match.pk).result_body == {
        "teams": [{"team": winds.pk, "score": 2}, {"team": widows.pk, "score": 1}],
        "goals": [
            {"team": winds.pk, "on_field": [w[1].pk, w[2].pk, w[3].pk]},
            {"team": widows.pk, "on_field": [b[5].pk, b[6].pk]},
            {"team": winds.pk, "on_field": [w[1].pk, w[4].pk]},
        ],
        "players": [{"player": b[3].pk, "injury": "out_for_game"}],
    }
    services.match_confirm(user=widows.coach, match_id=match.pk)
    w, b = by_number(winds), by_number(widows)
    per_goal = league.house_rules["goal_points_per_goal"]
    assert [w[n].goal_points for n in range(1, 7)] == [2 * per_goal, per_goal, per_goal, per_goal, 0, 0]
    assert [b[n].goal_points for n in range(1, 7)] == [0, 0, 0, 0, per_goal, per_goal]
    assert not js_errors


# --- Bone Cruncher (rules/bonecruncher.md "Events", "Wounds") ----------------------------------------------------


def squad(league, coach, name: str, roster: str, n: int = 8):
    """A squad of `n`: #1 the Great Captain, #2 the Goalie."""
    team = TeamFactory(league=league, coach=coach, name=name, roster=roster)
    for number in range(1, n + 1):
        hire(
            team,
            "player",
            name=f"{name.split()[0]} {number}",
            number=number,
            role={1: "captain", 2: "goalie"}.get(number, ""),
        )
    return team


def test_bonecruncher_points_and_wounds_per_area_tapped_through_a_lost_signal_are_the_result(log_in, js_errors):
    commissioner = UserFactory(username="commish")
    league = LeagueFactory(
        name="Crunch League",
        ruleset="bonecruncher",
        created_by=commissioner,
        house_rules_overrides={"advanced_wounds": True},
    )
    barbs = squad(league, UserFactory(username="alice"), "Barb Brawlers", "humans_barbarians")
    orcs = squad(league, UserFactory(username="bob"), "Orc Maulers", "orcs_goblins")
    match = services.match_schedule(user=barbs.coach, league=league, team_ids=[barbs.pk, orcs.pk], event="scorchball")
    b, o = by_number(barbs), by_number(orcs)

    alice = open_sheet(log_in("alice"), match, js_errors)
    tap_team(alice, barbs, "point")
    tap(alice, o[4], "wound", "torso")
    saved(alice, 2)

    offline(alice)
    tap(alice, b[3], "wound", "head")
    tap(alice, b[3], "wound", "left_leg")
    tap(alice, b[3], "critical", "2")
    tap_team(alice, orcs, "point")
    tap_team(alice, barbs, "point")  # a mistake…
    undo(alice)
    tap_team(alice, barbs, "point")
    expect(alice.locator("#live-log li.live-pending")).to_have_count(6)
    expect(alice.locator(f"#score-{barbs.pk}")).to_have_text("2")

    back_online(alice, 8)
    submit(alice, match)

    assert Match.objects.get(pk=match.pk).result_body == {
        "teams": [{"team": barbs.pk, "score": 2}, {"team": orcs.pk, "score": 1}],
        "wounds": [
            {"player": b[3].pk, "wounds": 2, "critical": [2], "areas": {"head": 1, "left_leg": 1}},
            {"player": o[4].pk, "wounds": 1, "critical": [], "areas": {"torso": 1}},
        ],
    }
    services.match_confirm(user=orcs.coach, match_id=match.pk)
    final = Match.objects.get(pk=match.pk)
    assert [(s.team_id, s.score, s.outcome) for s in final.sides.order_by("order")] == [
        (barbs.pk, 2, "win"),
        (orcs.pk, 1, "loss"),
    ]
    rows = {r.player_id: r for r in final.player_rows.all()}
    assert rows[b[3].pk].detail["areas"] == {"head": 1, "left_leg": 1}
    assert [c["roll"] for c in rows[b[3].pk].detail["critical"]] == [2]
    assert rows[o[4].pk].detail["areas"] == {"torso": 1}
    assert len(rows) == 16  # both squads of eight played
    assert not js_errors


def test_bonecruncher_terminix_placings_and_eliminations_are_tapped_at_the_end(log_in, js_errors):
    commissioner = UserFactory(username="commish")
    league = LeagueFactory(name="Crunch League", ruleset="bonecruncher", created_by=commissioner)
    alice = UserFactory(username="alice")
    barbs = squad(league, alice, "Barb Brawlers", "humans_barbarians")
    orcs = squad(league, UserFactory(username="bob"), "Orc Maulers", "orcs_goblins")
    elves = squad(league, UserFactory(username="cyd"), "Elf Blades", "elves")
    teams = [barbs, orcs, elves]
    match = services.match_schedule(user=alice, league=league, team_ids=[t.pk for t in teams], event="terminix")
    page = open_sheet(log_in("alice"), match, js_errors)
    expect(page.locator(".live-score")).to_have_count(0)  # Terminix is placed, not scored
    tap_team(page, orcs, "elimination")
    tap_team(page, orcs, "elimination")
    tap_team(page, barbs, "elimination")
    for team, place in ((orcs, "1"), (barbs, "2"), (elves, "3")):
        page.locator(f'.live-end .live-team-kind[data-kind="placing"][data-team="{team.pk}"]').click()
        page.locator(f'.live-option[data-kind="placing"][data-option="{place}"]').click()
    saved(page, 6)
    submit(page, match)
    assert Match.objects.get(pk=match.pk).result_body["teams"] == [
        {"team": barbs.pk, "placing": 2, "eliminations": 1},
        {"team": orcs.pk, "placing": 1, "eliminations": 2},
        {"team": elves.pk, "placing": 3, "eliminations": 0},
    ]
    assert not js_errors


# --- one sheet for every device -----------------------------------------------------------------------------


def test_a_reload_and_the_other_coach_see_the_same_sheet_and_the_other_coachs_taps_reach_it(
    log_in, js_errors, humes, goblins, match
):
    h, g = by_number(humes), by_number(goblins)
    alice = log_in("alice")
    alice.set_viewport_size({"width": 390, "height": 844})
    open_sheet(alice, match, js_errors)
    # Built for a phone: no sideways scrolling, every player a large tap target.
    assert alice.evaluate("document.documentElement.scrollWidth") <= 390
    heights = alice.locator(".live-player").evaluate_all("bs => bs.map(b => b.getBoundingClientRect().height)")
    assert len(heights) == 22 and min(heights) >= 44
    alice.screenshot(path=str(SCREENSHOT), full_page=True)

    # The first answer is lost on the way back (the server kept the event): the phone sends it again, same key.
    lost = []

    def lose_the_answer(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch().status)
            route.abort()
        else:
            route.continue_()

    events_url = re.compile(r"/api/v1/matches/\d+/draft/$")
    alice.route(events_url, lose_the_answer)
    tap(alice, h[1], "touchdown")
    tap(alice, g[2], "casualty")
    saved(alice, 2)
    assert lost == [201]
    assert DraftEvent.objects.filter(draft__match=match).count() == 2  # the repeat was kept once
    alice.unroute(events_url)
    log = alice.locator("#live-log li").all_inner_texts()

    alice.reload()
    saved(alice, 2)
    expect(alice.locator("#live-log li")).to_have_text(log)
    expect(alice.locator(f"#score-{humes.pk}")).to_have_text("1")

    # The service worker keeps the sheet: with no signal, a reload still opens it, with the same events.
    assert alice.evaluate("navigator.serviceWorker.ready.then(r => r.active.scriptURL)").endswith("/sw.js")
    alice.reload()  # now under the worker's control, so the sheet is in its cache
    saved(alice, 2)
    offline(alice)
    alice.reload()
    expect(alice.locator("#live-status")).to_have_attribute("data-state", "offline")
    expect(alice.locator("#live-log li")).to_have_text(log)
    alice.context.set_offline(False)
    alice.reload()

    bob = open_sheet(log_in("bob"), match, js_errors)
    saved(bob, 2)
    expect(bob.locator("#live-log li")).to_have_text(log)
    tap(bob, g[5], "touchdown")
    saved(bob, 3)
    saved(alice, 3)  # alice's sheet fetches what bob tapped
    expect(alice.locator(f"#score-{goblins.pk}")).to_have_text("1")
    assert not js_errors
