"""`/matches/<id>/`: the public match report."""

from __future__ import annotations

import json
from collections.abc import Mapping

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.selectors import hold_viewer_roles, viewer_roles
from matches import lifecycle, policy
from matches.available import available
from matches.disputes import match_open_dispute
from matches.models import Match, MatchTeam
from matches.selectors import match_inducements, match_report_queryset
from matches.sharing.views import match_share_tags
from matches.waiting import waiting_for
from matches.waiting_reads import waiting_annotations
from matches.web.common import player_name
from matches.web.forms.common import words
from matches.web.prematch import prematch_summary
from matches.web.report_sections import Report, report_sections
from matches.web.waiting import waiting_banner
from teams.models import Player


def result_lines(match: Match, sides: list[MatchTeam], names: dict[int, Player]) -> list[dict]:
    """Each team's line: from the final sides, or from the submitted result waiting for confirmation."""
    stored = {line.get("team"): line for line in match.result.get("teams", [])}
    if match.status == Match.Status.FINAL:
        return [
            {
                "team": s.team,
                "score": s.score,
                "casualties_inflicted": s.casualties_inflicted,
                "mvp": player_name(s.mvp),
                "fame": s.fame,
                "conceded": "early (no penalty)" if s.conceded_early else ("yes" if s.conceded else ""),
                "outcome": s.get_outcome_display() if s.outcome else "",
                "league_points": s.league_points,
                "placing": s.placing,
                "eliminations": s.eliminations,
                "no_face_off": bool(stored.get(s.team_id, {}).get("no_face_off")),
            }
            for s in sides
        ]
    if match.status in lifecycle.WAITING:  # submitted or disputed: the entered result, not final yet
        by_team = {line["team"]: line for line in match.result.get("teams", [])}
        lines = []
        for s in sides:
            line = by_team.get(s.team_id, {})
            lines.append(
                {
                    "team": s.team,
                    "score": line.get("score"),
                    "casualties_inflicted": line.get("casualties_inflicted", 0),
                    "mvp": player_name(names.get(line.get("mvp"))),
                    "fame": line.get("fame", 0),
                    "conceded": "early (no penalty)"
                    if line.get("conceded_early")
                    else ("yes" if line.get("conceded") else ""),
                    "outcome": {"win": "Won", "draw": "Drawn", "loss": "Lost"}.get(line.get("outcome"), ""),
                    "league_points": None,
                    "placing": line.get("placing"),
                    "eliminations": line.get("eliminations", 0),
                    "no_face_off": bool(line.get("no_face_off")),
                }
            )
        return lines
    return []


def _result_player_ids(result: Mapping) -> set[int]:
    """Every player a stored result names: rows, MVPs, squads, goals' players on the field, potions, wounds."""
    ids: set = set()
    for line in result.get("teams", []):
        ids.add(line.get("mvp"))
        ids.update(line.get("squad") or [])
    for goal in result.get("goals", []):
        ids.update(goal.get("on_field") or [])
    for key in ("players", "potions", "wounds"):
        ids.update(row.get("player") for row in result.get(key, []))
    return {i for i in ids if isinstance(i, int) and not isinstance(i, bool)}


def match_report(request: HttpRequest, pk: int) -> HttpResponse:
    """`/matches/<id>/`, public: the teams, the result, the sections the ruleset declares (players, goals,
    wounds …), each team's post-match log, the rolls, the teams as they stood before the match, and the buttons
    for whoever may act on it."""
    # The viewer's roles in the league come with the match (none for a visitor, who may do nothing): the
    # buttons' predicates then cost no query each, and no other member is read.
    user = request.user
    annotations = {**viewer_roles(user=user, league="league_id"), **waiting_annotations()}
    match = get_object_or_404(match_report_queryset().annotate(**annotations), pk=pk)
    hold_viewer_roles(league=match.league, user=user, annotated=match)
    league = match.league
    rules = league.rules
    sides = list(match.sides.all())
    teams = {s.team_id: s.team for s in sides}
    order = {s.team_id: s.order for s in sides}
    names: dict[int, Player] = {}
    if match.status != Match.Status.SCHEDULED:
        # Rows, MVPs, goals, squads, potions and wounds name players: those without a row of this match
        # (read with it) in one query — none once the result is final and every named player has his row.
        names = {row.player_id: row.player for row in match.player_rows.all()}
        missing = _result_player_ids(match.result) - names.keys()
        names |= {p.pk: p for p in Player.objects.filter(pk__in=missing)} if missing else {}
    report = Report(
        match=match, sides=sides, teams=teams, order=order, names=names, hr=league.house_rules, pages=rules.pages
    )
    steps = list(rules.postmatch_steps)
    titles = {s.key: s.title for s in steps}
    aftermaths = [
        {
            "team": teams[a.team_id],
            "complete": a.complete,
            "current": None if a.complete else steps[a.step_index].title,
            "waiting": bool(a.pending),
            "log": a.log,
            "may_walk": policy.may_act_for_side(user, match, teams[a.team_id]),
        }
        for a in match.aftermaths.all()
        if a.team_id in teams
    ]
    rolls = [
        {
            "team": teams.get(r.team_id),
            "step": titles.get(r.step, words(r.step)) if r.step else "",
            "key": r.key,
            "expression": r.expression,
            "values": ", ".join(str(v) for v in r.values),
            "total": sum(r.values),
            "entered": r.entered,
            "by": r.rolled_by.username if r.rolled_by else "",
        }
        for r in match.rolls.all()
    ]
    # What the viewer may do now (the lifecycle table × the policy; his roles are held: no query). A disputed
    # result is confirmed or rejected through the ruling form (its reason goes in the audit), not the buttons.
    can = available(user, match)
    context = {
        "match": match,
        "league": league,
        "sides": sides,
        "lines": result_lines(match, sides, names),
        "sections": (
            report_sections(report, rules.match_report_sections) if match.status != Match.Status.SCHEDULED else []
        ),
        "snapshots": [(s.team, s.snapshot) for s in sides if s.snapshot],
        "aftermaths": aftermaths,
        "rolls": rolls,
        "economy": rules.economy,
        "may_enter_result": can.submit,
        "may_confirm": can.confirm and not can.rule,
        "may_reject": can.reject and not can.rule,
        # The commissioner corrects a final result, with a reason for the audit.
        "may_correct": can.correct,
        "result_body_json": json.dumps(match.result_body) if can.correct else "",
        # A dispute: the other coach raises it instead of confirming; the commissioner rules on it.
        "may_dispute": can.dispute,
        "dispute": match_open_dispute(match) if match.status == Match.Status.DISPUTED else None,
        "may_rule": can.rule,
        # The pre-match sequence (Blitz Bowl, Bone Cruncher): what it settled, and its page while scheduled.
        "prematch": prematch_summary(
            match, sides, getattr(match, "prematch", None), match_inducements(match), league.house_rules
        )
        if rules.prematch_steps
        else None,
        "may_prematch": can.prematch,
        # Who must act next, and what the viewer can do meanwhile (the facts came with the match: no query).
        "waiting": waiting_banner(user, waiting_for(match), may_enter_result=policy.may_enter_result(user, match)),
    }
    context.update(match_share_tags(request, match, sides))
    return render(request, "matches/report.html", context)
