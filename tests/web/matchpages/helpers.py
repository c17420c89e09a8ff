"""What the match pages' tests share: reading a page, the URLs, the standard result of Humes v Goblins and
walking a post-match sequence through the service."""

from __future__ import annotations

import html
import re

from django.urls import reverse

from matches import services
from matches.aftermath import aftermath_post
from matches.models import Aftermath, Match, Roll
from teams.models import LedgerEntry, Player, Team
from tests.factories import hire

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


def confirm_url(match: Match) -> str:
    return reverse("match-confirm", args=[match.pk])


def reject_url(match: Match) -> str:
    return reverse("match-reject", args=[match.pk])


def post_step(client, match, team, data, *, htmx=False):
    return client.post(walk_url(match, team), data, headers=HTMX if htmx else {}, follow=not htmx)


DEFAULT_ANSWERS = {
    "reroll_winnings": False,
    "seek_sponsor": False,
    "residency": "reject",
    "end_sponsorships": [],
    "hire_journeymen": [],
    "keep_residency_spend": 0,
}


def walk_to(match: Match, team: Team, target: str | None) -> None:
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
