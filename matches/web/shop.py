"""`/matches/<id>/inducements/<team_id>/`: a team's shopping turn for inducements (Blitz Bowl's pre-match)."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from campaigns.errors import RuleViolation
from campaigns.rulesets.base import fmt_gil
from core.pages import refusals, show_on_form
from matches import lifecycle, policy
from matches.aftermath import StepConflict
from matches.models import Inducement, Match, MatchTeam
from matches.prematch import inducement_add, inducement_remove, prematch_state
from matches.web.common import refused
from matches.web.forms.common import words
from matches.web.forms.prematch import InducementForm
from matches.web.prematch import inducement_words, prematch_match
from teams.models import Player, Team
from teams.selectors import team_treasury


def _clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _not_your_turn(match: Match, state: Mapping, team: Team, teams: Mapping[int, Team]) -> str:
    """Why the team cannot shop now, in words."""
    if not lifecycle.allowed(match.status, lifecycle.Action.PREMATCH):
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
    item_words = match.league.rules.inducement_items
    for key in item_words:
        if key in ("star_player", "mercenary") or key not in rule:
            continue
        if key == "wandering_white_mage" and not roster.extra.get("white_mage"):
            continue  # R: only for a roster that may buy a permanent White Mage
        items.append(
            {
                "key": key,
                "name": item_words[key],
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
    turn_open = state["shopping"] == team.pk and lifecycle.allowed(match.status, lifecycle.Action.PREMATCH)
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
    match, sides = prematch_match(pk)
    side = next((s for s in sides if s.team_id == team_id), None)
    if side is None:
        raise Http404("That team does not play in this match.")
    league, team = match.league, side.team
    if "inducements" not in league.house_rules or not league.rules.prematch_steps:
        raise Http404(f"{league.rules.name} has no inducements.")
    if not policy.may_run_prematch(request.user, match):
        return refused(request, "Only a coach of this match or the commissioner can see its inducements.")
    may_shop_for = policy.may_act_for_side(request.user, match, team)
    status, error, notice, form = 200, "", "", None
    if request.method == "POST":
        positions = list(team.roster.positions.order_by("order", "id"))
        stars = {s["key"]: s["name"] for s in league.house_rules.get("star_players", [])}
        removing = "remove" in request.POST
        if not removing:
            form = _inducement_form(league.house_rules, positions, data=request.POST)
        with refusals() as outcome:
            if removing:
                try:
                    inducement_id = int(request.POST["remove"])
                except ValueError:
                    raise RuleViolation("No such inducement of this team in this match.") from None
                gone = Inducement.objects.filter(pk=inducement_id, match=match, team=team).first()
                inducement_remove(user=request.user, match_id=pk, team_id=team_id, inducement_id=inducement_id)
                done = f"Given back: {inducement_words(gone, stars)}." if gone else "Given back."
            elif form.is_valid():
                bought = inducement_add(user=request.user, match_id=pk, team_id=team_id, **form.purchase())
                bought = Inducement.objects.select_related("position").get(pk=bought.pk)
                done = f"Bought: {inducement_words(bought, stars)} for {fmt_gil(bought.price)}."
            else:
                status, error = 400, "Nothing was bought: check the form."
            if status == 200:
                if request.htmx:
                    notice, form = done, None
                else:
                    messages.success(request, done)
                    return redirect("match-inducements", pk=pk, team_id=team_id)
        if outcome.forbidden:
            return refused(request, outcome.message)
        if isinstance(outcome.error, StepConflict):
            status, error, form = 409, "It is not your turn to shop: nothing was changed.", None
        elif outcome:
            status = outcome.status
            if form is not None:
                show_on_form(form, outcome.refusal)
                error = "Nothing was bought."
            else:
                error = f"{outcome.message} Nothing was changed."
    context = _shop_context(match, sides, team, may_shop_for=may_shop_for, form=form, error=error, notice=notice)
    template = "matches/_inducements.html" if request.htmx else "matches/inducements.html"
    return render(request, template, context, status=status)
