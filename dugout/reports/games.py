"""The weekly report's sections only one game lists (its ruleset's `weekly_report_sections`): the week's Goal Points and
abilities learned ("elfball"), and the week's wounds, deaths and new Elites ("bonecruncher", the critical wounds
in the ruleset's words: `words.critical_wounds`, a lasting one in the one condition wording)."""

from __future__ import annotations

from collections import defaultdict

from dugout.reports.common import match_url
from dugout.reports.week import Week


def elfball(w: Week, improvements: list[dict]) -> dict:
    week: dict[int, int] = defaultdict(int)
    for row in w.rows:
        week[row["player_id"]] += row["goal_points"] or 0
    goal_points = [
        {
            **w.player_ref(pid),
            "goal_points": gp,
            "total": w.players[pid].goal_points if pid in w.players else None,
        }
        for pid, gp in week.items()
        if gp
    ]
    goal_points.sort(key=lambda e: (-e["goal_points"], e["team_name"].lower(), e["number"] or 0))
    return {"goal_points": goal_points, "abilities": [i for i in improvements if i["kind"] == "ability"]}


def bonecruncher(w: Week, improvements: list[dict], memoriam: list[dict]) -> dict:
    dead = {m["player"] for m in memoriam}
    wounds = [
        {
            **w.player_ref(row["player_id"], row["team_id"]),
            "match": row["match_id"],
            "url": match_url(row["match_id"]),
            "wounds": row["wounds"],
            "critical": w.words.critical_wounds((row["detail"] or {}).get("critical") or (), hr=w.hr),
            "dead": row["player_id"] in dead,
        }
        for row in w.rows
        if row["wounds"]
    ]
    wounds.sort(key=lambda e: (-e["wounds"], e["team_name"].lower(), e["number"] or 0))
    return {
        "wounds": wounds,
        "deaths": [m for m in memoriam if m["cause"] == "dead"],
        "elite": [i for i in improvements if i["kind"] == "elite"],
    }
