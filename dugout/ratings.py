"""The league's Elo ratings: teams and coaches over the league's confirmed matches, in the order they
became final (campaigns/elo.py; the formula in docs/decisions/, "Elo ratings"). Read from the MatchTeam rows
(so a correction changes them) and cached exactly per the league's table version (`league_table_changed` runs on
every confirm, correction and house-rule change). Two queries whatever the league's size: the sides, the teams
with their coaches (a third for the names of former coaches, when a team has changed hands); none when cached.

A match counts for the coach who had the team when it became final (the side's snapshot keeps him), not for
whoever coaches it now: a team handed to another coach (`team_reassign`) does not hand him its past. Matches
made final before the snapshot kept the coach count for the team's coach now.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import BooleanField, ExpressionWrapper, Q
from django.db.models.fields.json import KeyTransform

from campaigns.elo import Game, rate
from matches.models import Match, MatchTeam
from teams.models import Team

#: Raise when the document's shape changes.
KEY_FORMAT = 2
TIMEOUT = 24 * 60 * 60


def _games(league) -> list[Game]:
    sides = (
        MatchTeam.objects.filter(match__league=league, match__status=Match.Status.FINAL)
        .order_by("match__confirmed_at", "match_id", "order")
        .values_list(
            "match_id",
            "team_id",
            "team__coach_id",
            "outcome",
            KeyTransform("coach", "snapshot"),
            ExpressionWrapper(Q(snapshot__has_key="coach"), output_field=BooleanField()),
        )
    )
    by_match: dict[int, list[tuple]] = {}
    for match_id, team_id, coach_now, outcome, coach_then, kept in sides:
        coach_id = coach_then if kept else coach_now
        by_match.setdefault(match_id, []).append((team_id, coach_id, outcome))
    games = []
    for match_id, rows in by_match.items():  # dicts keep the confirmed order
        if len(rows) != 2:
            continue  # only two-sided results are rated (docs/decisions/)
        (a, coach_a, outcome), (b, coach_b, _) = rows
        games.append(Game(match_id, a, b, coach_a, coach_b, outcome))
    return games


def _compute(league) -> dict:
    hr = league.house_rules
    k, start = hr.get("elo_k", 32), hr.get("elo_start", 1500)
    games = _games(league)
    ratings = rate(games, k=k, start=start)
    teams = list(Team.objects.filter(league=league).select_related("coach").order_by("name", "pk"))
    team_rows = [
        {
            "team": t.pk,
            "name": t.name,
            "coach": t.coach_id,
            "rating": round(ratings.teams.get(t.pk, start), 1),
            "matches": ratings.team_games.get(t.pk, 0),
            "history": [{"match": m, "rating": round(r, 1)} for m, r in ratings.history.get(t.pk, [])],
        }
        for t in teams
    ]
    # The league's coaches now, and every coach a rated match counted for (a former coach keeps his rating).
    coaches = {t.coach_id: t.coach.username for t in teams if t.coach_id is not None}
    former = {c for g in games for c in (g.coach_a, g.coach_b) if c is not None} - coaches.keys()
    if former:
        users = get_user_model().objects.filter(pk__in=former)
        coaches |= dict(users.values_list("pk", get_user_model().USERNAME_FIELD))
    coach_rows = [
        {
            "coach": user_id,
            "username": name,
            "rating": round(ratings.coaches.get(user_id, start), 1),
            "matches": ratings.coach_games.get(user_id, 0),
        }
        for user_id, name in coaches.items()
    ]
    order = lambda row: (-row["rating"], -row["matches"], row.get("name") or row.get("username"))  # noqa: E731
    return {
        "league": league.pk,
        "k": k,
        "start": start,
        "teams": sorted(team_rows, key=order),
        "coaches": sorted(coach_rows, key=order),
    }


#: How many of a team's latest ratings the league's document lists (its whole history is the team's own, paged).
RECENT = 20
#: A team's rating history, this many a page.
HISTORY_PAGE = 50


def _documents(league) -> tuple[str, str]:
    base = f"{KEY_FORMAT}:{league.pk}:{league.table_version}"
    return f"ratings:{base}", f"ratings-full:{base}"


def _summary(full: dict) -> dict:
    """The league's document: each team's latest `RECENT` ratings (`history`, oldest first) and how many it has
    (`history_count`), so its size grows with the teams, not with the matches played."""
    teams = [
        {**row, "history": row["history"][-RECENT:], "history_count": len(row["history"])} for row in full["teams"]
    ]
    return {**full, "teams": teams}


def _compute_and_keep(league) -> tuple[dict, dict]:
    """The full document and the league's summary of it, computed and cached together."""
    summary_key, full_key = _documents(league)
    full = _compute(league)
    summary = _summary(full)
    cache.set_many({full_key: full, summary_key: summary}, TIMEOUT)
    return full, summary


def _full(league) -> dict:
    full = cache.get(_documents(league)[1])
    return _compute_and_keep(league)[0] if full is None else full


def league_ratings(league) -> dict:
    """The league's ratings document at the table version `league` was loaded with (cached, exact), each team's
    history its latest `RECENT` ratings."""
    summary_key, full_key = _documents(league)
    body = cache.get(summary_key)
    if body is None:
        full = cache.get(full_key)
        if full is None:
            return _compute_and_keep(league)[1]
        body = _summary(full)  # the summary was evicted without the full document
        cache.set(summary_key, body, TIMEOUT)
    return body


def team_rating_history(league, team_id: int, *, page: int = 1) -> dict | None:
    """One team's row with its whole rating history, oldest first, `HISTORY_PAGE` a page (an unknown page is the
    nearest one): `{..., history, history_page: {page, pages, count}}`; None for a team not of the league."""
    row = next((row for row in _full(league)["teams"] if row["team"] == team_id), None)
    if row is None:
        return None
    count = len(row["history"])
    pages = max(1, -(-count // HISTORY_PAGE))
    page = min(max(1, page), pages)
    history = row["history"][(page - 1) * HISTORY_PAGE : page * HISTORY_PAGE]
    return {**row, "history": history, "history_page": {"page": page, "pages": pages, "count": count}}


def rating_chart(body: dict, *, title: str, limit: int = 10) -> str:
    """An SVG of the highest-rated teams' latest ratings (core.charts): each line the team's last `RECENT`
    ratings, ending at its latest (x: matches before it), and its start rating when that is all it has played."""
    from core.charts import line_chart

    shown = [row for row in body["teams"] if row["history"]][:limit]
    series = {}
    for row in shown:
        history, count = row["history"], row.get("history_count", len(row["history"]))
        points = [(_ago(len(history) - 1 - n), p["rating"]) for n, p in enumerate(history)]
        if count == len(history):  # the team's first match is shown: start from the start rating
            points.insert(0, (_ago(len(history)), body["start"]))
        series[row["name"]] = points
    desc = f"{title}: " + (
        "; ".join(f"{name} {points[-1][1]:,}" for name, points in series.items()) or "no match rated yet"
    )
    return line_chart(
        series,
        title=title,
        y_label="Elo rating",
        x_label="Matches before the latest",
        empty="No match rated yet",
        desc=desc,
        legend=lambda name, last: f"{name} — {last:,.1f}" if last is not None else name,
    )


def _ago(n: int) -> str:
    return "latest" if n == 0 else f"−{n}"
