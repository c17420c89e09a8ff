"""Match pages for people (api-v1 "Web pages"): schedule a match, the public match report, the result
form, confirming or rejecting a result, walking the pre-match sequence (and a team's inducement shopping),
and walking a team's post-match sequence step by step.

Thin views over `matches.services`, `matches.prematch` and `matches.aftermath`: the forms shape what people
type into the bodies the services take, the services decide, and a refusal (RuleViolation; NotPermitted →
403; StepConflict) is shown on the page with nothing changed.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import F, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from campaigns.errors import NotPermitted, RuleViolation
from campaigns.rulesets.base import fmt_gil
from campaigns.rulesets.blitzbowl.prematch import ITEM_WORDS, weather_words
from campaigns.rulesets.bonecruncher.pregame import terrain_words
from league.models import League
from league.policy import may_run_league
from teams.models import Player, Sponsorship, Team
from teams.selectors import player_race, team_queryset, team_races, team_state, team_treasury

from . import policy, services
from .aftermath import StepConflict, aftermath_post
from .forms import (
    BODY_AREAS,
    GRIT_WORDS,
    OPTIONAL_CHOICES,
    POTION_WORDS,
    BoneCruncherResultForm,
    ElfBallResultForm,
    InducementForm,
    PrematchStepForm,
    ResultForm,
    ScheduleForm,
    StepForm,
    critical_chart,
    words,
)
from .models import Aftermath, Inducement, Match, MatchTeam, Prematch
from .prematch import inducement_add, inducement_remove, prematch_post, prematch_state
from .selectors import match_report_queryset


def _refused(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "matches/refused.html", {"message": message}, status=403)


def _id(value: str | None) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise Http404("No such league.") from None


# --- scheduling ------------------------------------------------------------------------------------------------


@login_required
def match_schedule(request: HttpRequest) -> HttpResponse:
    """`/matches/new/?league=<id>`: the commissioner schedules any match, a coach one his team plays in."""
    league = get_object_or_404(League.objects.prefetch_related("stadiums"), pk=_id(request.GET.get("league")))
    is_commissioner = may_run_league(request.user, league)
    teams = list(Team.objects.filter(league=league).select_related("coach").order_by("name", "id"))
    own = [t for t in teams if t.coach_id == request.user.pk]
    if not policy.may_schedule_match(request.user, league, teams):
        return _refused(
            request, "Only the commissioner or a coach with a team in this league can schedule its matches."
        )
    initial = {"home": own[0].pk} if own and not is_commissioner else {}
    rules, hr = league.rules, league.house_rules
    form = ScheduleForm(
        request.POST or None,
        teams=teams,
        stadiums=league.stadiums.all(),
        initial=initial,
        events=[event for event in rules.teams_per_match if event],
        more_teams=any(most > 2 for _, most in rules.teams_per_match.values()),
        tests_to_win=hr.get("tests_to_win"),
    )
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            match = services.match_schedule(
                user=request.user,
                league=league,
                team_ids=form.team_ids(),
                kind=data["kind"],
                stadium_id=data["stadium"],
                event=data.get("event", ""),
                tests_to_win=data.get("tests_to_win"),
            )
        except NotPermitted as exc:
            form.add_error(None, exc.message)
            status = 403
        except RuleViolation as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, "The match is scheduled.")
            return redirect("match-detail", pk=match.pk)
    return render(request, "matches/schedule.html", {"league": league, "form": form}, status=status)


# --- the match report ---------------------------------------------------------------------------------------------


def _injury(injury: str, detail: str) -> str:
    if not injury:
        return ""
    return f"{words(injury)} (−{detail.upper()})" if detail else words(injury)


def _player_name(player) -> str:
    return f"#{player.number} {player.name}" if player and player.number is not None else getattr(player, "name", "")


def _number_key(player) -> tuple[bool, int]:
    """Shirt-number order, players without a number (or unknown) last."""
    number = getattr(player, "number", None)
    return (number is None, number or 0)


def _result_lines(match: Match, sides: list[MatchTeam], names: dict[int, Player]) -> list[dict]:
    """Each team's line: from the final sides, or from the submitted result waiting for confirmation."""
    stored = {line.get("team"): line for line in match.result.get("teams", [])}
    if match.status == Match.Status.FINAL:
        return [
            {
                "team": s.team,
                "score": s.score,
                "casualties_inflicted": s.casualties_inflicted,
                "mvp": _player_name(s.mvp),
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
    if match.status == Match.Status.SUBMITTED:
        by_team = {line["team"]: line for line in match.result.get("teams", [])}
        lines = []
        for s in sides:
            line = by_team.get(s.team_id, {})
            lines.append(
                {
                    "team": s.team,
                    "score": line.get("score"),
                    "casualties_inflicted": line.get("casualties_inflicted", 0),
                    "mvp": _player_name(names.get(line.get("mvp"))),
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


def _performances(match: Match, teams: dict[int, Team], order: dict[int, int], names: dict[int, Player]) -> list:
    if match.status == Match.Status.FINAL:
        rows = [
            {
                "team": teams[r.team_id],
                "player": _player_name(r.player),
                "touchdowns": r.touchdowns,
                "casualties": r.casualties,
                "completions": r.completions,
                "interceptions": r.interceptions,
                "mvp": r.mvp,
                "spp": r.spp,
                "injury": _injury(r.injury, r.injury_detail),
                "sort": (order[r.team_id], _number_key(r.player), r.player_id),
            }
            for r in match.player_rows.all()
        ]
    elif match.status == Match.Status.SUBMITTED:
        mvps = {line.get("mvp") for line in match.result.get("teams", [])}
        listed = {row["player"] for row in match.result.get("players", [])}
        result_rows = list(match.result.get("players", [])) + [
            {"player": m, "team": names[m].team_id} for m in mvps if m and m not in listed and m in names
        ]
        rows = []
        for r in result_rows:
            player = names.get(r["player"])
            team_id = r.get("team") or (player.team_id if player else None)
            rows.append(
                {
                    "team": teams.get(team_id),
                    "player": _player_name(player) or f"#{r['player']}",
                    "touchdowns": r.get("touchdowns", 0),
                    "casualties": r.get("casualties", 0),
                    "completions": r.get("completions", 0),
                    "interceptions": r.get("interceptions", 0),
                    "mvp": r["player"] in mvps,
                    "spp": None,
                    "injury": _injury(r.get("injury", ""), r.get("stat", "")),
                    "sort": (order.get(team_id, 0), _number_key(player), r["player"]),
                }
            )
    else:
        return []
    return sorted(rows, key=lambda row: row["sort"])


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


def _named(names: dict[int, Player], player_id) -> str:
    return _player_name(names.get(player_id)) or f"#{player_id}"


def _grit(injury: str, attribute: str = "") -> str:
    """An ElfBall Grit Challenge outcome in words (the lasting injury with the attribute lowered)."""
    if not injury:
        return ""
    if injury == "lasting_injury":
        return f"Lasting injury (−1 {words(attribute)})" if attribute else "Lasting injury"
    return GRIT_WORDS.get(injury, words(injury))


def _potion(roll, ability: str, attribute: str, hr: Mapping) -> str:
    if roll in (None, ""):
        return ""
    result = hr.get("magic_potion_table", {}).get(str(roll), {}).get("result", "no_effect")
    text = f"{roll}: {POTION_WORDS.get(result, words(result))}"
    extras = [words(x) for x in (ability, attribute) if x]
    return f"{text} ({', '.join(extras)})" if extras else text


def _elfball_report(match: Match, teams: dict, order: dict, names: dict[int, Player], hr: Mapping) -> dict:
    """Tests won (the result lines), each goal with the players on the field, Grit outcomes, potions and the
    Goal Points earned."""
    result = match.result
    numbers: dict = {}
    goals = []
    for goal in result.get("goals", []):
        team_id = goal.get("team")
        numbers[team_id] = numbers.get(team_id, 0) + 1
        goals.append(
            {
                "team": teams.get(team_id),
                "number": numbers[team_id],
                "on_field": [_named(names, i) for i in goal.get("on_field", [])],
                "sort": (order.get(team_id, 0), numbers[team_id]),
            }
        )
    rows = []
    if match.status == Match.Status.FINAL:
        for r in match.player_rows.all():
            detail = r.detail or {}
            row = {
                "team": teams.get(r.team_id),
                "player": _player_name(r.player),
                "goal_points": r.goal_points,
                "injury": _grit(r.injury, r.injury_detail),
                "potion": _potion(
                    detail.get("potion"), detail.get("potion_ability", ""), detail.get("potion_attribute", ""), hr
                ),
                "infirmary": bool(detail.get("infirmary")),
                "sort": (order.get(r.team_id, 0), _number_key(r.player), r.player_id),
            }
            if row["goal_points"] or row["injury"] or row["potion"] or row["infirmary"]:
                rows.append(row)
    elif match.status == Match.Status.SUBMITTED:
        # The stored result's rows: every player with a Goal Point, a Grit outcome or a potion.
        potions = {r.get("player"): r for r in result.get("potions", [])}
        for r in result.get("players", []):
            player_id = r.get("player")
            player = names.get(player_id)
            potion = potions.get(player_id, {})
            rows.append(
                {
                    "team": teams.get(r.get("team") or (player.team_id if player else None)),
                    "player": _named(names, player_id),
                    "goal_points": r.get("goal_points", 0),
                    "injury": _grit(r.get("injury") or "", r.get("attribute") or ""),
                    "potion": _potion(
                        r.get("potion", potion.get("roll")),
                        r.get("potion_ability") or potion.get("ability") or "",
                        r.get("potion_attribute") or potion.get("attribute") or "",
                        hr,
                    ),
                    "infirmary": bool(r.get("infirmary")),
                    "sort": (order.get(r.get("team"), 0), _number_key(player), player_id),
                }
            )
    return {
        "goals": sorted(goals, key=lambda g: g["sort"]),
        "players": sorted(rows, key=lambda row: row["sort"]),
        "final": match.status == Match.Status.FINAL,
    }


def _criticals(items, chart: Mapping) -> str:
    out = []
    for item in items or []:
        roll = item.get("roll") if isinstance(item, Mapping) else item
        side = item.get("side") if isinstance(item, Mapping) else None
        name = chart.get(roll, (f"Critical {roll}", ""))[0]
        out.append(f"{name} ({side})" if side else name)
    return ", ".join(out)


def _areas(areas: Mapping) -> str:
    return ", ".join(f"{words(a)} {areas[a]}" for a in BODY_AREAS if (areas or {}).get(a))


def _bonecruncher_report(match: Match, sides: list, teams: dict, order: dict, names: dict, hr: Mapping) -> dict:
    """The event, each team's squad, and the wounds and critical wounds each player took."""
    chart = critical_chart(hr)
    lines = {line.get("team"): line for line in match.result.get("teams", [])}
    squads = [
        {"team": s.team, "players": [_named(names, i) for i in lines.get(s.team_id, {}).get("squad") or []]}
        for s in sides
    ]
    rows = []
    if match.status == Match.Status.FINAL:
        for r in match.player_rows.all():
            detail = r.detail or {}
            row = {
                "team": teams.get(r.team_id),
                "player": _player_name(r.player),
                "wounds": r.wounds,
                "areas": _areas(detail.get("areas") or {}),
                "critical": _criticals(detail.get("critical"), chart),
                "sort": (order.get(r.team_id, 0), _number_key(r.player), r.player_id),
            }
            if row["wounds"] or row["areas"] or row["critical"]:
                rows.append(row)
    elif match.status == Match.Status.SUBMITTED:
        # The stored result keeps each squad player's wounds on his row.
        for w in match.result.get("wounds") or match.result.get("players", []):
            player = names.get(w.get("player"))
            areas = w.get("areas") or {}
            if not (w.get("wounds") or any(areas.values()) or w.get("critical")):
                continue
            rows.append(
                {
                    "team": teams.get(player.team_id) if player else None,
                    "player": _named(names, w.get("player")),
                    "wounds": w.get("wounds", sum(areas.values()) if areas else 0),
                    "areas": _areas(areas),
                    "critical": _criticals(w.get("critical"), chart),
                    "sort": (order.get(player.team_id, 0) if player else 0, _number_key(player), w.get("player")),
                }
            )
    return {
        "event": words(match.event or "scorchball"),
        "terminix": match.event == "terminix",
        "squads": [s for s in squads if s["players"]],
        "wounds": sorted(rows, key=lambda row: row["sort"]),
        "advanced": bool(hr.get("advanced_wounds")),
    }


def match_report(request: HttpRequest, pk: int) -> HttpResponse:
    """`/matches/<id>/`, public: the teams, the result, each team's post-match log, the rolls, the teams as
    they stood before the match, and the buttons for whoever may act on it."""
    # The league's memberships come with the match: the buttons' predicates then cost no query each.
    match = get_object_or_404(match_report_queryset().prefetch_related("league__memberships"), pk=pk)
    league, user = match.league, request.user
    rules = league.rules
    sides = list(match.sides.all())
    teams = {s.team_id: s.team for s in sides}
    order = {s.team_id: s.order for s in sides}
    names: dict[int, Player] = {}
    if rules.key == "blitzbowl" and match.status == Match.Status.SUBMITTED:
        wanted = {row["player"] for row in match.result.get("players", [])}
        wanted |= {line["mvp"] for line in match.result.get("teams", []) if line.get("mvp")}
        names = {p.pk: p for p in Player.objects.filter(pk__in=wanted)}
    elif rules.key != "blitzbowl" and match.status != Match.Status.SCHEDULED:
        # Goals, squads, potions and wounds name players: one query for all of them.
        names = {p.pk: p for p in Player.objects.filter(pk__in=_result_player_ids(match.result))}
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
    submitted = match.status == Match.Status.SUBMITTED
    context = {
        "match": match,
        "league": league,
        "sides": sides,
        "lines": _result_lines(match, sides, names),
        "performances": _performances(match, teams, order, names) if rules.key == "blitzbowl" else [],
        "ruleset": rules.key,
        "elfball": _elfball_report(match, teams, order, names, league.house_rules) if rules.key == "elfball" else None,
        "bonecruncher": _bonecruncher_report(match, sides, teams, order, names, league.house_rules)
        if rules.key == "bonecruncher"
        else None,
        "snapshots": [(s.team, s.snapshot) for s in sides if s.snapshot],
        "aftermaths": aftermaths,
        "rolls": rolls,
        "economy": rules.economy,
        "may_enter_result": match.status != Match.Status.FINAL and policy.may_enter_result(user, match),
        "may_confirm": submitted and policy.may_confirm_result(user, match),
        "may_reject": submitted and policy.may_reject_result(user, match),
        # The pre-match sequence (Blitz Bowl, Bone Cruncher): what it settled, and its page while scheduled.
        "prematch": _prematch_summary(
            match, sides, getattr(match, "prematch", None), list(match.inducements.all()), league.house_rules
        )
        if rules.prematch_steps
        else None,
        "may_prematch": bool(rules.prematch_steps)
        and match.status == Match.Status.SCHEDULED
        and policy.may_run_prematch(user, match),
    }
    return render(request, "matches/report.html", context)


# --- the result ---------------------------------------------------------------------------------------------------


@login_required
def match_result(request: HttpRequest, pk: int) -> HttpResponse:
    """`/matches/<id>/result/`: a coach of the match or the commissioner enters the result."""
    match = get_object_or_404(
        Match.objects.select_related("league").prefetch_related(
            Prefetch("sides", queryset=MatchTeam.objects.select_related("team").order_by("order"))
        ),
        pk=pk,
    )
    league = match.league
    teams = [s.team for s in match.sides.all()]
    if not policy.may_enter_result(request.user, match):
        return _refused(request, "Only a coach of a team in this match or the commissioner can enter its result.")
    if match.status == Match.Status.FINAL:
        messages.error(request, "This match's result is final.")
        return redirect("match-detail", pk=pk)
    players: dict[int, list[Player]] = {t.pk: [] for t in teams}
    able = Player.objects.filter(
        team__in=teams, left_at__isnull=True, status__in=[Player.Status.ACTIVE, Player.Status.JOURNEYMAN]
    )
    for player in able.select_related("position", "team__roster").order_by(F("number").asc(nulls_last=True), "id"):
        players[player.team_id].append(player)
    form = _result_form(request, match, teams, players)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            services.match_submit_result(user=request.user, match_id=match.pk, body=form.body())
        except NotPermitted as exc:
            form.add_error(None, exc.message)
            status = 403
        except RuleViolation as exc:
            form.add_service_error(exc)
        else:
            messages.success(
                request, "Result entered. It becomes final when the other coach or the commissioner confirms it."
            )
            return redirect("match-detail", pk=pk)
    missing = Player.objects.filter(team__in=teams, left_at__isnull=True, status=Player.Status.MISS_NEXT_MATCH)
    context = {"match": match, "league": league, "form": form, "missing": list(missing.order_by("team_id", "name"))}
    return render(request, getattr(form, "template", "matches/result.html"), context, status=status)


def _result_form(request: HttpRequest, match: Match, teams: list[Team], players: dict[int, list[Player]]):
    """The result form of the league's ruleset, filled with the result waiting for confirmation (if any)."""
    rules, hr = match.league.rules, match.league.house_rules
    result = match.result if match.status == Match.Status.SUBMITTED else None
    data = request.POST or None
    if rules.key == "elfball":
        return ElfBallResultForm(
            data,
            teams=teams,
            players=players,
            hr=hr,
            tests_to_win=match.tests_to_win,
            stock={t.pk: t.staff.get("magic_potion", 0) for t in teams},
            result=result,
        )
    if rules.key == "bonecruncher":
        templates = {}
        if hr.get("advanced_wounds") and teams:
            races = team_races(team=teams[0])
            for player in (p for roster in players.values() for p in roster):
                race = races.get(player_race(player=player))
                templates[player.pk] = race.extra.get("health_template", {}) if race else {}
        return BoneCruncherResultForm(
            data, teams=teams, players=players, hr=hr, event=match.event, templates=templates, result=result
        )
    return ResultForm(
        data,
        teams=teams,
        players=players,
        injuries=hr.get("injuries", ()),
        stat_names=hr.get("stat_loss_attributes", ()),
        result=result,
    )


def _match_action(service, done: str):
    """A POST button of the report (confirm, reject); a GET (e.g. back from the log-in page) shows the report."""

    @login_required
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        get_object_or_404(Match, pk=pk)
        if request.method != "POST":
            return redirect("match-detail", pk=pk)
        try:
            service(user=request.user, match_id=pk)
        except NotPermitted as exc:
            return _refused(request, exc.message)
        except RuleViolation as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, done)
        return redirect("match-detail", pk=pk)

    return view


match_confirm = _match_action(
    services.match_confirm, "Result confirmed: it is final, and each team's post-match sequence is open."
)
match_reject = _match_action(services.match_reject, "Result rejected: the match is scheduled again.")


# --- the post-match sequence ---------------------------------------------------------------------------------------


def _dice_words(key: str, catalogue: dict, hr: dict) -> str:
    variants = hr.get("roll_key_variants", {}).get(key)
    if variants:
        return " / ".join(f"{expression} {case}" for case, expression in variants.items())
    return catalogue[key]


def _step_form(aftermath: Aftermath, team: Team, *, data=None) -> StepForm | None:
    if aftermath.complete:
        return None
    league = aftermath.match.league
    rules, hr = league.rules, league.house_rules
    step = rules.postmatch_steps[aftermath.step_index]
    pending = aftermath.pending or None
    catalogue = rules.roll_catalogue(hr)
    # The dice a step may use are the ones it declares (ElfBall and Bone Cruncher steps take none).
    keys = step.rolls
    rolled = {r["key"] for r in (pending or {}).get("rolls", [])}
    roll_keys = [(k, _dice_words(k, catalogue, hr)) for k in keys if k in catalogue and k not in rolled]
    names: dict[str, dict[int, str]] = {}
    if pending:
        names["players"] = dict(Player.objects.filter(team=team).values_list("pk", "name"))
        names["sponsorships"] = {
            pk: name or f"Sponsorship #{pk}"
            for pk, name in Sponsorship.objects.filter(team=team).values_list("pk", "name")
        }
    state = {
        "owns_stadium": team.owns_stadium,
        "resident_tenant": team.home_stadium_id is not None and not team.owns_stadium,
        "resident": team.home_stadium_id is not None,
    }
    optional = (
        []
        if pending
        else [(name, kind, label) for name, kind, label, when in OPTIONAL_CHOICES.get(step.key, ()) if state[when]]
    )
    # Dice entered before a pause that no roll has taken yet: the service keeps them for the resumed step.
    kept = {f"roll_{k}": ", ".join(map(str, v)) for k, v in (pending or {}).get("entered", {}).items()}
    return StepForm(
        data, step=step.key, pending=pending, roll_keys=roll_keys, names=names, optional=optional, initial=kept
    )


def _already_run(now: str) -> str:
    """A page left open on a step that another tab or coach has run meanwhile."""
    return f"That step was already run: the sequence is now {now}. Nothing was changed."


def _answer(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def _step_state(aftermath: Aftermath, index: int) -> str:
    if aftermath.complete or index < aftermath.step_index:
        return "done"
    return "current" if index == aftermath.step_index else "todo"


def _walk_context(aftermath: Aftermath, team_id: int, *, form: StepForm | None, error: str = "") -> dict:
    match, league = aftermath.match, aftermath.match.league
    rules, hr = league.rules, league.house_rules
    steps = list(rules.postmatch_steps)
    team = team_queryset().get(pk=team_id)
    pending = aftermath.pending or {}
    answered = {k: v for k, v in pending.get("choices", {}).items() if k != pending.get("decision")}
    return {
        "match": match,
        "league": league,
        "team": team,
        "aftermath": aftermath,
        "steps": [{"title": s.title, "state": _step_state(aftermath, i)} for i, s in enumerate(steps)],
        "step_number": aftermath.step_index + 1,
        "current": None if aftermath.complete else steps[aftermath.step_index],
        "pending": pending,
        "answered": [(words(k), _answer(v)) for k, v in answered.items()],
        "form": form,
        "error": error,
        "economy": rules.economy,
        "team_value": rules.team_value(team_state(team=team), hr),
    }


@login_required
def aftermath_walk(request: HttpRequest, pk: int, team_id: int) -> HttpResponse:
    """`/matches/<id>/aftermath/<team_id>/`: the team's coach (or the commissioner) runs the current step, answers
    its pending decision, and enters the dice rolled at the table. htmx swaps the step panel; without
    JavaScript the form posts and the page reloads."""
    match = get_object_or_404(Match.objects.select_related("league"), pk=pk)
    team = get_object_or_404(Team.objects.filter(match_sides__match=match), pk=team_id)
    if not policy.may_act_for_side(request.user, match, team):
        return _refused(request, "Only this team's coach or the commissioner can walk its post-match sequence.")
    aftermath = Aftermath.objects.select_related("match__league").filter(match=match, team=team).first()
    if aftermath is None:
        messages.error(request, "The post-match sequence opens when the result is final.")
        return redirect("match-detail", pk=pk)
    error = ""
    steps = match.league.rules.postmatch_steps
    if request.method == "POST":
        form = _step_form(aftermath, team, data=request.POST)
        if form is None:
            error = "The post-match sequence is complete: nothing was changed."
        elif request.POST.get("step") != steps[aftermath.step_index].key:
            # A page left open on an earlier step: say so rather than ask for this step's decision.
            error = _already_run(f"at {steps[aftermath.step_index].title}")
            form = _step_form(aftermath, team)
        elif form.is_valid():
            try:
                aftermath = aftermath_post(
                    user=request.user,
                    match_id=pk,
                    team_id=team_id,
                    step=form.cleaned_data["step"],
                    choices=form.choices(),
                    rolls=form.rolls(),
                )
            except NotPermitted as exc:
                return _refused(request, exc.message)
            except StepConflict:  # another tab or coach ran it meanwhile
                aftermath.refresh_from_db()
                now = "complete" if aftermath.complete else f"at {steps[aftermath.step_index].title}"
                error = _already_run(now)
                form = _step_form(aftermath, team)
            except RuleViolation as exc:
                form.add_service_error(exc)
            else:
                team.refresh_from_db()  # the step may have changed its stadium
                if request.htmx:
                    context = _walk_context(aftermath, team_id, form=_step_form(aftermath, team))
                    return render(request, "matches/_aftermath.html", context)
                return redirect("match-aftermath", pk=pk, team_id=team_id)
    else:
        form = _step_form(aftermath, team)
    context = _walk_context(aftermath, team_id, form=form, error=error)
    return render(request, "matches/_aftermath.html" if request.htmx else "matches/aftermath.html", context)


# --- the pre-match sequence ----------------------------------------------------------------------------------------


def _inducement_words(inducement: Inducement, stars: Mapping[str, str]) -> str:
    """ "2 × Blitzweiser Keg", "Mercenary Lineman with Block", "Star Player Rolf Stormhand"."""
    if inducement.item == Inducement.Item.MERCENARY and inducement.position_id:
        what = f"Mercenary {inducement.position.name}" + (f" with {inducement.skill}" if inducement.skill else "")
    elif inducement.item == Inducement.Item.STAR_PLAYER:
        what = f"Star Player {stars.get(inducement.star) or words(inducement.star)}"
    else:
        what = inducement.get_item_display()
    return f"{inducement.quantity} × {what}" if inducement.quantity > 1 else what


def _shared_stars(inducements: list[Inducement]) -> set[str]:
    """R: a Star Player induced by both teams plays for neither (and keeps both fees)."""
    teams_of: dict[str, set[int]] = {}
    for i in inducements:
        if i.item == Inducement.Item.STAR_PLAYER and i.star:
            teams_of.setdefault(i.star, set()).add(i.team_id)
    return {star for star, teams in teams_of.items() if len(teams) > 1}


def _prematch_summary(
    match: Match, sides: list[MatchTeam], prematch: Prematch | None, inducements: list[Inducement], hr: Mapping
) -> dict:
    """What the pre-match sequence settled, in words: weather, gate and Aggressor; per team its fans, FAME,
    Team Value, inducement gil, inducements and terrain. Reads only what it is given (no query)."""
    steps = list(match.league.rules.prematch_steps)
    stars = {s["key"]: s["name"] for s in hr.get("star_players", [])}
    shared = _shared_stars(inducements)
    started = prematch is not None and prematch.pk is not None
    p = prematch if started else Prematch(match=match)
    names = {s.team_id: s.team.name for s in sides}
    teams = []
    for side in sides:
        key = str(side.team_id)
        bought = [i for i in inducements if i.team_id == side.team_id]
        terrain = p.terrain.get(key)
        teams.append(
            {
                "team": side.team,
                "fans": p.fans.get(key),
                "fame": p.fame.get(key),
                "team_value": p.team_values.get(key),
                "induced": p.induced.get(key),
                "role": "shops first"
                if p.superior_id == side.team_id
                else ("underdog" if p.underdog_id == side.team_id else ""),
                "inducements": [
                    {
                        "words": _inducement_words(i, stars),
                        "price": i.price,
                        "shared": i.item == Inducement.Item.STAR_PLAYER and i.star in shared,
                    }
                    for i in bought
                ],
                "spent": sum(i.price for i in bought),
                "terrain": terrain_words(terrain) if isinstance(terrain, Mapping) and "pieces" in terrain else "",
            }
        )
    current = None if p.complete or not steps or p.step_index >= len(steps) else steps[p.step_index]
    return {
        "started": started,
        "complete": p.complete,
        "current": current.title if current else "",
        "weather": weather_words(p.weather) if p.weather else "",
        "gate": sum(p.fans.values()) if p.fans else None,
        "aggressor": names.get(p.aggressor_id, ""),
        "teams": teams,
        "fans": bool(p.fans),
        "team_values": bool(p.team_values),
        "shopping": bool(p.induced) or bool(inducements),
        "terrain": any(t["terrain"] for t in teams),
        "shared": sorted(stars.get(s) or words(s) for s in shared),
    }


def _prematch_match(pk: int) -> tuple[Match, list[MatchTeam]]:
    match = get_object_or_404(Match.objects.select_related("league", "stadium"), pk=pk)
    sides = list(match.sides.select_related("team__coach", "team__roster").order_by("order"))
    return match, sides


def _prematch_form(match: Match, state: Mapping, sides: list[MatchTeam], *, data=None) -> PrematchStepForm | None:
    if state["complete"] or not state["step"]:
        return None
    rules, hr = match.league.rules, match.league.house_rules
    step = next(s for s in rules.prematch_steps if s.key == state["step"])
    catalogue = rules.roll_catalogue(hr)
    return PrematchStepForm(
        data,
        step=step.key,
        roll_keys=[(k, _dice_words(k, catalogue, hr)) for k in step.rolls if k in catalogue],
        teams=[(s.team_id, s.team.name) for s in sides],
        per_team=step.per_team,
        shopping=step.turn is not None,
    )


def _prematch_context(match: Match, sides: list[MatchTeam], user, *, form, error: str = "") -> dict:
    rules, hr = match.league.rules, match.league.house_rules
    steps = list(rules.prematch_steps)
    state = prematch_state(match)
    index = len(steps) if state["complete"] else state["steps"].index(state["step"])
    current = None if state["complete"] else steps[index]
    teams = {s.team_id: s.team for s in sides}
    shopper = teams.get(state["shopping"]) if state["shopping"] else None
    prematch = Prematch.objects.filter(match=match).first()
    inducements = list(match.inducements.select_related("position").order_by("id"))
    return {
        "match": match,
        "league": match.league,
        "sides": sides,
        "steps": [
            {"title": s.title, "state": "done" if i < index else ("current" if i == index else "todo")}
            for i, s in enumerate(steps)
        ],
        "step_number": index + 1,
        "current": current,
        "form": form,
        "error": error,
        "closed": match.status != Match.Status.SCHEDULED,
        "summary": _prematch_summary(match, sides, prematch, inducements, hr),
        "log": state["log"],
        "shopper": shopper,
        "budget": state["budgets"].get(str(shopper.pk)) if shopper else None,
        "may_close": shopper is not None and policy.may_act_for_side(user, match, shopper),
    }


def _step_title(match: Match, key: str | None) -> str:
    return next((s.title for s in match.league.rules.prematch_steps if s.key == key), "")


@login_required
def prematch_walk(request: HttpRequest, pk: int) -> HttpResponse:
    """`/matches/<id>/prematch/`: a coach of the match or the commissioner runs the current pre-match step with
    the dice rolled at the table (empty: the server rolls); in a shopping turn, the page sends the team to its
    inducement page and its coach closes the turn with "Done shopping". htmx swaps the step panel; without
    JavaScript the form posts and the page reloads."""
    match, sides = _prematch_match(pk)
    league = match.league
    if not policy.may_run_prematch(request.user, match):
        return _refused(request, "Only a coach of this match or the commissioner can run its pre-match sequence.")
    if not league.rules.prematch_steps:
        messages.error(request, f"{league.rules.name} has no pre-match sequence.")
        return redirect("match-detail", pk=pk)
    state = prematch_state(match)
    error = ""
    form = _prematch_form(match, state, sides)
    if request.method == "POST":
        if form is None:
            error = "The pre-match sequence is complete: nothing was changed."
        elif request.POST.get("step") != state["step"]:
            # A page left open on an earlier step.
            error = _already_run(f"at {_step_title(match, state['step'])}")
        else:
            form = _prematch_form(match, state, sides, data=request.POST)
            if form.is_valid():
                try:
                    prematch_post(
                        user=request.user,
                        match_id=pk,
                        step=form.cleaned_data["step"],
                        choices=form.choices(),
                        rolls=form.rolls(),
                    )
                except NotPermitted as exc:
                    return _refused(request, exc.message)
                except StepConflict:  # another tab or coach ran it meanwhile
                    state = prematch_state(match)
                    now = "complete" if state["complete"] else f"at {_step_title(match, state['step'])}"
                    error = _already_run(now)
                    form = _prematch_form(match, state, sides)
                except RuleViolation as exc:
                    form.add_service_error(exc, league.rules.roll_catalogue(league.house_rules))
                else:
                    if request.htmx:
                        form = _prematch_form(match, prematch_state(match), sides)
                        context = _prematch_context(match, sides, request.user, form=form)
                        return render(request, "matches/_prematch.html", context)
                    return redirect("match-prematch", pk=pk)
    context = _prematch_context(match, sides, request.user, form=form, error=error)
    return render(request, "matches/_prematch.html" if request.htmx else "matches/prematch.html", context)


# --- inducements ---------------------------------------------------------------------------------------------------


def _clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _not_your_turn(match: Match, state: Mapping, team: Team, teams: Mapping[int, Team]) -> str:
    """Why the team cannot shop now, in words."""
    if match.status != Match.Status.SCHEDULED:
        return "the result is in and the pre-match sequence is closed"
    if state["complete"]:
        return "the pre-match sequence is complete"
    steps = list(match.league.rules.prematch_steps)
    now = state["steps"].index(state["step"])
    own = next((i for i, s in enumerate(steps) if s.turn and state.get(s.turn) == team.pk), None)
    if own is None:
        return f"the pre-match sequence is at {steps[now].title}; shopping opens after it"
    if now > own:
        shopper = teams.get(state["shopping"]) if state["shopping"] else None
        return "its shopping turn is over" + (f"; {shopper.name} is shopping now" if shopper else "")
    if state["shopping"]:
        return f"{teams[state['shopping']].name} shops first"
    return f"the pre-match sequence is at {steps[now].title}"


def _shop_context(
    match: Match,
    sides: list[MatchTeam],
    team: Team,
    *,
    may_shop_for: bool,
    form: InducementForm | None = None,
    error: str = "",
    notice: str = "",
) -> dict:
    hr = match.league.house_rules
    rule = hr["inducements"]
    state = prematch_state(match)
    teams = {s.team_id: s.team for s in sides}
    roster = team.roster
    special = roster.extra.get("special_prices", {}) or {}
    bought = state["inducements"].get(str(team.pk), [])
    counts: dict[str, int] = {}
    for i in bought:
        counts[i["item"]] = counts.get(i["item"], 0) + i["quantity"]
    posted = form.data.get("item", "") if form is not None and form.is_bound else ""
    posted_star = form.data.get("star", "") if form is not None and form.is_bound else ""
    form_errors = [e for errors in form.errors.values() for e in errors] if form is not None else []
    # Each refusal is shown next to what it is about: the item's row, the star's row, the mercenary's fields;
    # the rest at the top.
    unplaced = form_errors
    items = []
    for key in ITEM_WORDS:
        if key in ("star_player", "mercenary") or key not in rule:
            continue
        if key == "wandering_white_mage" and not roster.extra.get("white_mage"):
            continue  # R: only for a roster that may buy a permanent White Mage
        items.append(
            {
                "key": key,
                "name": ITEM_WORDS[key],
                "max": rule[key]["max"],
                "price": int(special.get(key, rule[key]["price"])),
                "special": key in special,
                "bought": counts.get(key, 0),
                "errors": form_errors if posted == key else [],
            }
        )
    other_stars = {
        i["star"] for tid, rows in state["inducements"].items() if tid != str(team.pk) for i in rows if i["star"]
    }
    own_stars = {i["star"] for i in bought if i["star"]}
    stars = [
        {
            **s,
            "bought": s["key"] in own_stars,
            "other": s["key"] in other_stars,
            "errors": form_errors if posted == "star_player" and posted_star == s["key"] else [],
        }
        for s in hr.get("star_players", [])
        if roster.key in s.get("plays_for", [])
    ]
    star_names = {s["key"]: s["name"] for s in hr.get("star_players", [])}
    if any(row["errors"] for row in items) or any(row["errors"] for row in stars):
        unplaced = []
    elif posted == Inducement.Item.MERCENARY:
        unplaced = [*form.non_field_errors(), *form.errors.get("item", []), *form.errors.get("star", [])]
    merc = rule.get("mercenary", {})
    surcharge, extra_skill = merc.get("surcharge", 0), merc.get("extra_skill", 0)
    positions = list(roster.positions.order_by("order", "id"))
    if form is None or posted != Inducement.Item.MERCENARY:
        form = _inducement_form(hr, positions)
    budget = state["budgets"].get(str(team.pk))
    treasury = team_treasury(team=team)
    turn_open = state["shopping"] == team.pk and match.status == Match.Status.SCHEDULED
    able = team.players.filter(left_at__isnull=True, status__in=[Player.Status.ACTIVE, Player.Status.JOURNEYMAN])
    induced_players = sum(i["quantity"] for i in bought if i["item"] in ("star_player", "mercenary"))
    seconds = int(state["time_limit_seconds"] or 0)
    return {
        "match": match,
        "league": match.league,
        "sides": sides,
        "team": team,
        "may_shop": may_shop_for and turn_open,
        "may_shop_for": may_shop_for,
        "turn_open": turn_open,
        "why_not": "" if turn_open else _not_your_turn(match, state, team, teams),
        "step": state["step"],
        "error": error,
        "notice": notice,
        "form": form,
        "unplaced": unplaced,
        "items": items,
        "stars": stars,
        "mercenary": {"surcharge": surcharge, "extra_skill": extra_skill},
        "positions": [
            {
                "name": p.name,
                "cost": p.cost,
                "price": p.cost + surcharge,
                "max": p.max_count,
                "access": _access_words(p),
            }
            for p in positions
        ],
        "bought": [
            {
                **i,
                "words": _inducement_words_out(i, star_names),
                "shared": bool(i["star"]) and i["star"] in other_stars,
            }
            for i in bought
        ],
        "budget": budget,
        "spent": sum(i["price"] for i in bought),
        "treasury": treasury,
        "treasury_after": treasury - (budget or {}).get("treasury_spent", 0),
        "spendable": (budget or {}).get("remaining", 0) + treasury - (budget or {}).get("treasury_spent", 0),
        "able_players": able.count(),
        "induced_players": induced_players,
        "max_players": hr.get("inducement_max_players"),
        "time_limit": seconds,
        "clock": _clock(seconds),
    }


def _inducement_words_out(row: Mapping, stars: Mapping[str, str]) -> str:
    """The words of `_inducement_words` for an inducement as the service shows it (`inducement_out`)."""
    if row["item"] == Inducement.Item.MERCENARY and row["position_name"]:
        what = f"Mercenary {row['position_name']}" + (f" with {row['skill']}" if row["skill"] else "")
    elif row["item"] == Inducement.Item.STAR_PLAYER:
        what = f"Star Player {stars.get(row['star']) or words(row['star'])}"
    else:
        what = row["name"]
    return f"{row['quantity']} × {what}" if row["quantity"] > 1 else what


def _inducement_form(hr: Mapping, positions: list, data=None) -> InducementForm:
    merc = hr["inducements"].get("mercenary", {})
    surcharge = merc.get("surcharge", 0)
    return InducementForm(
        data,
        positions=[(p.key, f"{p.name} — {fmt_gil(p.cost + surcharge)}") for p in positions],
        skill_groups=[(f"{p.name} ({_access_words(p)})", _mercenary_skills(p, hr)) for p in positions],
        extra_skill_price=fmt_gil(merc.get("extra_skill", 0)),
    )


def _access_words(position) -> str:
    return " or ".join(words(c) for c in (position.skill_access or {}).get("normal", [])) or "none"


def _mercenary_skills(position, hr: Mapping) -> list[str]:
    """R: a mercenary's extra skill is one of his Normal access that he does not have (the service decides)."""
    normal = (position.skill_access or {}).get("normal", [])
    return [s for c in normal for s in hr.get("skills", {}).get(c, []) if s not in position.skills]


@login_required
def match_inducements(request: HttpRequest, pk: int, team_id: int) -> HttpResponse:
    """`/matches/<id>/inducements/<team_id>/`: the team's shopping for inducements (Blitz Bowl). Its coach or the
    commissioner buys in the team's turn — the budget, the list with limits and prices, the Star Players who
    play for its roster, Mercenaries, and a "Give back" for each purchase; outside the turn the page is
    read-only (a POST is a 409). The four-minute limit is a countdown in the browser, not enforced."""
    match, sides = _prematch_match(pk)
    side = next((s for s in sides if s.team_id == team_id), None)
    if side is None:
        raise Http404("That team does not play in this match.")
    league, team = match.league, side.team
    if "inducements" not in league.house_rules or not league.rules.prematch_steps:
        raise Http404(f"{league.rules.name} has no inducements.")
    if not policy.may_run_prematch(request.user, match):
        return _refused(request, "Only a coach of this match or the commissioner can see its inducements.")
    may_shop_for = policy.may_act_for_side(request.user, match, team)
    status, error, notice, form = 200, "", "", None
    if request.method == "POST":
        positions = list(team.roster.positions.order_by("order", "id"))
        stars = {s["key"]: s["name"] for s in league.house_rules.get("star_players", [])}
        removing = "remove" in request.POST
        if not removing:
            form = _inducement_form(league.house_rules, positions, data=request.POST)
        try:
            if removing:
                try:
                    inducement_id = int(request.POST["remove"])
                except ValueError:
                    raise RuleViolation("No such inducement of this team in this match.") from None
                gone = Inducement.objects.filter(pk=inducement_id, match=match, team=team).first()
                inducement_remove(user=request.user, match_id=pk, team_id=team_id, inducement_id=inducement_id)
                done = f"Given back: {_inducement_words(gone, stars)}." if gone else "Given back."
            elif form.is_valid():
                bought = inducement_add(user=request.user, match_id=pk, team_id=team_id, **form.purchase())
                bought = Inducement.objects.select_related("position").get(pk=bought.pk)
                done = f"Bought: {_inducement_words(bought, stars)} for {fmt_gil(bought.price)}."
            else:
                status, error = 400, "Nothing was bought: check the form."
        except NotPermitted as exc:
            return _refused(request, exc.message)
        except StepConflict:
            status, error = 409, "It is not your turn to shop: nothing was changed."
            form = None
        except RuleViolation as exc:
            status = 400
            if form is not None:
                form.add_service_error(exc)
                error = "Nothing was bought."
            else:
                error = f"{exc.message} Nothing was changed."
        else:
            if status == 200:
                if request.htmx:
                    notice, form = done, None
                else:
                    messages.success(request, done)
                    return redirect("match-inducements", pk=pk, team_id=team_id)
    context = _shop_context(match, sides, team, may_shop_for=may_shop_for, form=form, error=error, notice=notice)
    template = "matches/_inducements.html" if request.htmx else "matches/inducements.html"
    return render(request, template, context, status=status)
