"""The league's Elo ratings (issue 14): teams and coaches over the league's confirmed matches, in the order they
became final (campaigns/elo.py; the formula in docs/decisions.md, "Elo ratings"). Read from the MatchTeam rows
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
KEY_FORMAT = 1
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
            continue  # only two-sided results are rated (docs/decisions.md)
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


def league_ratings(league) -> dict:
    """The league's ratings document at the table version `league` was loaded with (cached, exact)."""
    key = f"ratings:{KEY_FORMAT}:{league.pk}:{league.table_version}"
    body = cache.get(key)
    if body is None:
        body = _compute(league)
        cache.set(key, body, TIMEOUT)
    return body


def rating_chart(body: dict, *, title: str, limit: int = 10) -> str:
    """An SVG of the highest-rated teams' rating after each of their matches (league.charts)."""
    from .charts import line_chart

    shown = [row for row in body["teams"] if row["history"]][:limit]
    series = {
        row["name"]: [("start", body["start"])] + [(str(n), p["rating"]) for n, p in enumerate(row["history"], start=1)]
        for row in shown
    }
    desc = f"{title}: " + (
        "; ".join(f"{name} {points[-1][1]:,}" for name, points in series.items()) or "no match rated yet"
    )
    return line_chart(
        series,
        title=title,
        y_label="Elo rating",
        x_label="Matches played",
        empty="No match rated yet",
        desc=desc,
        legend=lambda name, last: f"{name} — {last:,.1f}" if last is not None else name,
    )
