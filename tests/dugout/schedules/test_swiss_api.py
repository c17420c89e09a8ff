"""Swiss rounds for an ElfBall league through the API (issue 13, "Schedules"; rules: ../shared/rules/elfball.md
"Matches"; the Swiss house defaults: docs/decisions/ "Pure schedule generators")."""

from __future__ import annotations

import pytest

from matches.models import Match
from tests.dugout.schedules.helpers import pairs
from tests.factories import LeagueFactory, UserFactory, hire
from tests.matches.elfball_helpers import STEPS

pytestmark = pytest.mark.django_db

URL = "/api/v1/leagues/{}/schedule/"


@pytest.fixture
def elves(commissioner):
    """An ElfBall league of five Black Widows teams, Elf A … Elf E, four midfielders and two hunters each, ready
    to play."""
    from django.utils import timezone

    from teams.models import Team
    from tests.factories import TeamFactory

    league = LeagueFactory(created_by=commissioner, ruleset="elfball", name="Elf Swiss")
    teams = []
    for letter in "ABCDE":
        team = TeamFactory(league=league, coach=UserFactory(), name=f"Elf {letter}", roster="black_widows")
        for n, position in enumerate(["midfielder"] * 4 + ["hunter"] * 2, start=1):
            hire(team, position, name=f"{letter}{n}", number=n)
        teams.append(team)
    Team.objects.filter(league=league).update(creation_closed_at=timezone.now())
    return league, teams


def result(api_as, mid: int, home, away, score: tuple[int, int]) -> None:
    """Enter and confirm `home` score[0]–score[1] `away` (each goal one Test, scored with the side's first
    three players on the field), then walk both teams' post-match sequences."""
    goals = []
    for team, n in ((home, score[0]), (away, score[1])):
        on_field = list(team.players.order_by("number").values_list("pk", flat=True)[:3])
        goals += [{"team": team.pk, "on_field": on_field} for _ in range(n)]
    body = {"teams": [{"team": home.pk, "score": score[0]}, {"team": away.pk, "score": score[1]}], "goals": goals}
    r = api_as(home.coach).post(f"/api/v1/matches/{mid}/result/", body, format="json")
    assert r.status_code == 201, r.json()
    assert api_as(away.coach).post(f"/api/v1/matches/{mid}/confirm/").status_code == 200
    for team in (home, away):
        for step in STEPS:
            r = api_as(team.coach).post(f"/api/v1/matches/{mid}/aftermath/{team.pk}/", {"step": step}, format="json")
            assert r.status_code == 200 and r.json()["pending"] is None, (step, r.json())


def test_golden_an_elfball_league_runs_three_swiss_rounds(api_as, commissioner, elves):
    """Worked by hand (ElfBall tie-breakers H: points, goal difference, casualties, head-to-head, name; league
    points R/H: win 3, loss 0; Monrad pairing down the table, the better ranked at home, the bye to the
    lowest-ranked team without one):

    R1  all level, so by name A B C D E: E rests; A–B, C–D.   A 2–0 B, C 1–2 D.
        table A 3 (+2), D 3 (+1), E 0 (0), C 0 (−1), B 0 (−2)
    R2  B rests (E has had its bye); A–D, E–C.                A 1–2 D, E 2–0 C.
        table D 6 (+2), E 3 (+2), A 3 (+1), B 0 (−2), C 0 (−3)
    R3  C rests; D–E would leave A–B, a rematch, while D–B, E–A has none: D–B, E–A."""
    league, (A, B, C, D, E) = elves
    client = api_as(commissioner)

    r = client.post(URL.format(league.pk), {"format": "swiss", "start": "2027-03-01"}, format="json")
    assert r.status_code == 201, r.json()
    (r1,) = r.json()["rounds"]
    assert (r1["round"], r1["starts"], r1["deadline"], r1["bye"]) == (1, "2027-03-01", "2027-03-07", E.pk)
    assert pairs(r1["matches"]) == [(A.pk, B.pk), (C.pk, D.pk)]
    # The next round waits for this one.
    r = client.post(URL.format(league.pk), {"format": "swiss"}, format="json")
    assert r.status_code == 409 and "detail" in r.json()
    result(api_as, r1["matches"][0], A, B, (2, 0))
    result(api_as, r1["matches"][1], C, D, (1, 2))

    r = client.post(URL.format(league.pk), {"format": "swiss"}, format="json")
    assert r.status_code == 201, r.json()
    (r2,) = r.json()["rounds"]
    assert (r2["round"], r2["starts"], r2["bye"]) == (2, "2027-03-08", B.pk)  # the day after round 1's deadline
    assert pairs(r2["matches"]) == [(A.pk, D.pk), (E.pk, C.pk)]
    result(api_as, r2["matches"][0], A, D, (1, 2))
    result(api_as, r2["matches"][1], E, C, (2, 0))
    table = api_as(None).get(f"/api/v1/leagues/{league.pk}/standings/").json()["rows"]
    assert [(row["team"], row["points"]) for row in table] == [(D.pk, 6), (E.pk, 3), (A.pk, 3), (B.pk, 0), (C.pk, 0)]

    r = client.post(URL.format(league.pk), {"format": "swiss", "start": "2027-03-20"}, format="json")
    assert r.status_code == 201, r.json()
    (r3,) = r.json()["rounds"]
    assert (r3["round"], r3["starts"], r3["bye"]) == (3, "2027-03-20", C.pk)
    assert pairs(r3["matches"]) == [(D.pk, B.pk), (E.pk, A.pk)]
    assert Match.objects.filter(league=league, round=3, kind="league").count() == 2
    assert [s["format"] for s in api_as(None).get(URL.format(league.pk)).json()] == ["swiss"]
