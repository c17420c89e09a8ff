"""What the weekly league report (the commissioner's newsletter) says: the week's facts as plain data.

`build_report(league=, week_start=, week_end=)` returns a JSON-serialisable dict (ints, strs, bools, lists,
dicts; datetimes as ISO strings) for the week [week_start, week_end). The page, the e-mail (HTML and text)
and the feed render it; nothing here renders anything but the chart.

Sources, all read in a fixed number of queries whatever the league size (nothing is queried in a loop):

- results, the table, team scorers, team values: the sides (`MatchTeam`) of final matches, whose `snapshot`
  keeps each team's value before the match; the table a week ago is recomputed from the sides confirmed before
  `week_start` with the standings' own tie-breaking (`matches.selectors._rank`);
- player scorers, MVPs, deaths, injuries, wounds: the per-player match rows (`PlayerMatch`);
- improvements: each post-match sequence's journal (`Aftermath.journal`, "player" entries keep the player as he
  stood before each change) compared with the player's next known state;
- gil (Blitz Bowl only): the ledger entries made in the week, the journals' fan factor and residency entries,
  the sponsorships gained and ended.

A section that does not apply to the league's game is left out (the gil sections outside Blitz Bowl, player
scorers in Bone Cruncher, the chart where a game has no team value).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from django.db.models import Count, F, Sum
from django.db.models.fields.json import KeyTransform

from matches.models import Aftermath, Match, MatchTeam, PlayerMatch
from matches.selectors import league_standings, standings_from
from teams.models import LedgerEntry, Player
from teams.selectors import team_queryset, team_state

from .report_chart import series_from_sides, team_value_chart

#: How many rows a leaderboard shows.
TOP = 5

#: What each game records, as the report reads it.
GAMES: dict[str, dict[str, Any]] = {
    "blitzbowl": {
        "score": "touchdowns",
        "score_one": "touchdown",
        "score_short": "TD",
        "scorers": ("player", "touchdowns", "touchdowns"),
        "casualties": ("player", "casualties", "casualties"),
        "mvps": True,
        "value_unit": "gil",
    },
    "elfball": {
        "score": "Tests",
        "score_one": "Test",
        "score_short": "Tests",
        "scorers": ("player", "goal_points", "Goal Points"),
        "casualties": None,
        "mvps": False,
        "value_unit": "points",
    },
    "bonecruncher": {
        "score": "points",
        "score_one": "point",
        "score_short": "Pts",
        "scorers": ("team", "score", "points"),
        "casualties": ("team", "eliminations", "eliminations"),
        "mvps": False,
        "value_unit": "",
    },
}

OUTCOME_WORDS = {"win": "Won", "draw": "Drawn", "loss": "Lost", "": "—"}
INJURY_WORDS = {
    "miss_next_match": "misses the next match",
    "niggling": "niggling injury",
    "stat_loss": "lasting injury",
    "lasting_injury": "lasting injury",
}
EXPENSIVE_MISTAKE_KINDS = ("expensive_mistake", "expensive_mistakes")
STADIUM_KINDS = ("residency", "stadium_purchase", "stadium_sale", "stadium_fund")


# --- small helpers ---------------------------------------------------------------------------------------------


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _in_week(moment: datetime | None, start: datetime, end: datetime) -> bool:
    return moment is not None and start <= moment < end


def _match_url(match_id: int) -> str:
    return f"/matches/{match_id}/"


def _label(choices, value: str) -> str:
    """A choice's label ("" for none; an unknown value as it is)."""
    return str(dict(choices.choices).get(value, value)) if value else ""


def _title(key: str) -> str:
    return key.replace("_", " ").title()


_EPOCH = datetime.min.replace(tzinfo=UTC)


# --- the standings as of a moment --------------------------------------------------------------------------------


def _tie_breakers(league) -> list[str]:
    return list(league.house_rules.get("tie_breakers", ["points", "touchdown_difference", "name"]))


# --- loading (every query of the report is here) -----------------------------------------------------------------


class _Week:
    """Everything the report reads, loaded once."""

    def __init__(self, league, start: datetime, end: datetime):
        self.league, self.start, self.end = league, start, end
        self.rules, self.hr = league.rules, league.house_rules
        self.game = GAMES.get(league.ruleset, GAMES["blitzbowl"])
        self.gil = self.rules.economy == "gil"
        final = {"match__league": league, "match__status": Match.Status.FINAL}

        # Teams with their players (dead and departed included), treasuries and sponsorships.
        self.teams = list(team_queryset().filter(league=league).order_by("name", "pk"))
        self.team_by_id = {t.pk: t for t in self.teams}
        self.players: dict[int, Player] = {p.pk: p for t in self.teams for p in t.players.all()}
        self.value_now = {t.pk: self.rules.team_value(team_state(team=t), self.hr) for t in self.teams}

        # Every final side of the season, in the order the matches became final.
        self.sides = list(
            MatchTeam.objects.filter(**final)
            .order_by("match__confirmed_at", "match_id", "order")
            .values(
                "match_id",
                "team_id",
                "order",
                "score",
                "casualties_inflicted",
                "outcome",
                "league_points",
                "placing",
                "eliminations",
                "conceded",
                "conceded_early",
                confirmed_at=F("match__confirmed_at"),
                kind=F("match__kind"),
                event=F("match__event"),
                stadium=F("match__stadium__name"),
                team_value=KeyTransform("team_value", "snapshot"),
            )
        )
        self.week_sides = [s for s in self.sides if _in_week(s["confirmed_at"], start, end)]
        self.week_match_ids = list(dict.fromkeys(s["match_id"] for s in self.week_sides))
        self.later_matches = any(s["confirmed_at"] is not None and s["confirmed_at"] >= end for s in self.sides)

        # The week's player rows.
        self.rows = list(
            PlayerMatch.objects.filter(**final, match__confirmed_at__gte=start, match__confirmed_at__lt=end)
            .order_by("match__confirmed_at", "match_id", "team_id", "player_id")
            .values(
                "match_id",
                "team_id",
                "player_id",
                "touchdowns",
                "casualties",
                "mvp",
                "spp",
                "goal_points",
                "wounds",
                "injury",
                "injury_detail",
                "detail",
            )
        )
        # Each player's season up to the week's end.
        self.season_rows = {
            r["player_id"]: r
            for r in PlayerMatch.objects.filter(**final, match__confirmed_at__lt=end)
            .order_by("player_id")
            .values("player_id")
            .annotate(
                touchdowns=Sum("touchdowns"),
                casualties=Sum("casualties"),
                goal_points=Sum("goal_points"),
                matches=Count("id"),
            )
        }
        # The journals of the week's matches and of every later one (a change's "after" may be found there).
        self.journal_matches = list(
            Match.objects.filter(league=league, status=Match.Status.FINAL, confirmed_at__gte=start)
            .order_by("confirmed_at", "id")
            .values("id", "journal", "confirmed_at")
        )
        self.aftermaths = list(
            Aftermath.objects.filter(**final, match__confirmed_at__gte=start)
            .order_by("match_id", "team_id")
            .values("match_id", "team_id", "journal")
        )
        # The gil: the week's ledger entries and the league's stadiums.
        self.ledger: list[dict] = []
        self.stadiums: dict[int, str] = {}
        if self.gil:
            self.ledger = list(
                LedgerEntry.objects.filter(team__league=league, created_at__gte=start, created_at__lt=end)
                .order_by("created_at", "team_id", "account", "sequence")
                .values("team_id", "account", "amount", "kind", "reason", "match_id", "created_at")
            )
            self.stadiums = dict(league.stadiums.values_list("pk", "name"))
        # The fixtures: every side of a scheduled match.
        self.fixture_sides = list(
            MatchTeam.objects.filter(match__league=league, match__status=Match.Status.SCHEDULED)
            .order_by("match__created_at", "match_id", "order")
            .values(
                "match_id",
                "team_id",
                kind=F("match__kind"),
                event=F("match__event"),
                stadium=F("match__stadium__name"),
                created_at=F("match__created_at"),
            )
        )

    # --- lookups ------------------------------------------------------------------------------------------------
    def team_name(self, team_id: int) -> str:
        team = self.team_by_id.get(team_id)
        return team.name if team else f"Team #{team_id}"

    def player_ref(self, player_id: int, team_id: int | None = None) -> dict:
        player = self.players.get(player_id)
        team = team_id if team_id is not None else (player.team_id if player else None)
        return {
            "player": player_id,
            "name": player.name if player else f"Player #{player_id}",
            "number": player.number if player else None,
            "team": team,
            "team_name": self.team_name(team) if team is not None else "",
        }


# --- sections ---------------------------------------------------------------------------------------------------


def _results(w: _Week) -> list[dict]:
    by_match: dict[int, list[dict]] = defaultdict(list)
    for side in w.week_sides:
        by_match[side["match_id"]].append(side)
    out = []
    for match_id in w.week_match_ids:
        sides = sorted(by_match[match_id], key=lambda s: s["order"])
        first = sides[0]
        teams = [
            {
                "team": s["team_id"],
                "name": w.team_name(s["team_id"]),
                "score": s["score"],
                "placing": s["placing"],
                "eliminations": s["eliminations"],
                "outcome": s["outcome"],
                "outcome_words": _ordinal(s["placing"]) if s["placing"] else OUTCOME_WORDS.get(s["outcome"], "—"),
                "league_points": s["league_points"],
                "conceded": bool(s["conceded"]),
            }
            for s in sides
        ]
        out.append(
            {
                "id": match_id,
                "url": _match_url(match_id),
                "kind": first["kind"],
                "kind_label": _label(Match.Kind, first["kind"]),
                "event": first["event"] or "",
                "event_label": _label(Match.Event, first["event"]),
                "stadium": first["stadium"] or "",
                "confirmed_at": _iso(first["confirmed_at"]),
                "teams": teams,
                "summary": _scoreline(teams, first["event"]),
                "words": _result_words(teams, first["event"], w.game),
            }
        )
    return out


def _scoreline(teams: list[dict], event: str) -> str:
    if any(t["placing"] for t in teams):
        placed = sorted(teams, key=lambda t: t["placing"] or 99)
        return ", ".join(
            f"{_ordinal(t['placing'])} {t['name']} ({_plural(t['eliminations'], 'elimination')})" for t in placed
        )
    if len(teams) == 2:
        a, b = teams
        return f"{a['name']} {a['score'] or 0}–{b['score'] or 0} {b['name']}"
    return ", ".join(f"{t['name']} {t['score'] or 0}" for t in teams)


def _result_words(teams: list[dict], event: str, game: Mapping) -> str:
    """The result in a sentence: "A beat B 2–1", "A and B drew 1–1", "A won the Terminix"."""
    if any(t["placing"] for t in teams):
        winner = next((t for t in teams if t["placing"] == 1), teams[0])
        return f"{winner['name']} won the {_label(Match.Event, event) or 'match'}."
    conceded = [t for t in teams if t["conceded"]]
    note = f" ({' and '.join(t['name'] for t in conceded)} conceded)" if conceded else ""
    if len(teams) == 2:
        a, b = teams
        if a["outcome"] == "loss" or b["outcome"] == "win":
            a, b = b, a
        if a["outcome"] == "win":
            return f"{a['name']} beat {b['name']} {a['score'] or 0}–{b['score'] or 0}{note}."
        return f"{a['name']} and {b['name']} drew {a['score'] or 0}–{b['score'] or 0}{note}."
    return _scoreline(teams, event) + note + "."


def _table(w: _Week) -> list[dict]:
    breakers = _tie_breakers(w.league)
    if w.later_matches:
        # The report is written after later results: the table as it stood at the end of the week.
        now = standings_from(
            teams=[(t.pk, t.name) for t in w.teams if t.created_at < w.end],
            sides=[s for s in w.sides if (s["confirmed_at"] or _EPOCH) < w.end],
            tie_breakers=breakers,
        )
    else:
        now = league_standings(league=w.league)
    before = standings_from(
        teams=[(t.pk, t.name) for t in w.teams if t.created_at < w.start],
        sides=[s for s in w.sides if (s["confirmed_at"] or _EPOCH) < w.start],
        tie_breakers=breakers,
    )
    previous = {row["team"]: row["position"] for row in before}
    out = []
    for row in now:
        was = previous.get(row["team"])
        movement: int | str = "new" if was is None else was - row["position"]
        out.append(
            {
                **{k: row[k] for k in ("position", "team", "name", "played", "won", "drawn", "lost", "points")},
                "scored": row["scored"],
                "conceded": row["conceded"],
                "difference": row["difference"],
                "casualties_inflicted": row["casualties_inflicted"],
                "previous_position": was,
                "movement": movement,
                "moved": abs(movement) if isinstance(movement, int) else 0,
            }
        )
    return out


def _leaders(totals: Mapping[int, int], ref, limit: int = TOP) -> list[dict]:
    entries = [{**ref(key), "value": int(value)} for key, value in totals.items() if value]
    entries.sort(key=lambda e: (-e["value"], e["name"].lower(), e.get("player") or 0))
    return entries[:limit]


def _board(w: _Week, spec: tuple[str, str, str]) -> dict:
    """A leaderboard of the week and the season: by player (a PlayerMatch field) or by team (a side field)."""
    by, field, unit = spec
    if by == "player":
        week: dict[int, int] = defaultdict(int)
        for row in w.rows:
            week[row["player_id"]] += row[field] or 0
        season = {pid: r[field] or 0 for pid, r in w.season_rows.items()}

        def ref(pid: int) -> dict:
            return w.player_ref(pid)

    else:
        week = defaultdict(int)
        season = defaultdict(int)
        for side in w.sides:
            if (side["confirmed_at"] or _EPOCH) >= w.end:
                continue
            value = side[field] or 0
            season[side["team_id"]] += value
            if _in_week(side["confirmed_at"], w.start, w.end):
                week[side["team_id"]] += value

        def ref(team_id: int) -> dict:
            name = w.team_name(team_id)
            return {"player": None, "name": name, "number": None, "team": team_id, "team_name": name}

    return {"by": by, "unit": unit, "week": _leaders(week, ref), "season": _leaders(season, ref)}


def _mvps(w: _Week) -> list[dict]:
    return [
        {**w.player_ref(r["player_id"], r["team_id"]), "match": r["match_id"], "url": _match_url(r["match_id"])}
        | {"spp": r["spp"]}
        for r in w.rows
        if r["mvp"]
    ]


# --- improvements: the journals' "player" entries against each player's next known state -----------------------


def _player_timeline(w: _Week) -> dict[int, list[tuple[int, str, dict]]]:
    """Each player's known states from the week on, in order: (match, "confirm" | "journal", state).

    A match's own journal keeps how its players stood just before the result became final; each "player" entry
    of a post-match journal keeps how the player stood before that change."""
    by_match: dict[int, list[dict]] = defaultdict(list)
    for aftermath in w.aftermaths:
        by_match[aftermath["match_id"]].append(aftermath)
    timeline: dict[int, list[tuple[int, str, dict]]] = defaultdict(list)
    for match in w.journal_matches:
        for pid, state in ((match["journal"] or {}).get("players") or {}).items():
            if isinstance(state, dict) and str(pid).isdigit():
                timeline[int(pid)].append((match["id"], "confirm", state))
        for aftermath in by_match.get(match["id"], ()):
            for entry in aftermath["journal"] or ():
                if isinstance(entry, dict) and entry.get("type") == "player" and isinstance(entry.get("before"), dict):
                    timeline[int(entry["id"])].append((match["id"], "journal", entry["before"]))
    return timeline


def _after(timeline: list[tuple[int, str, dict]], index: int, field: str, player: Player) -> Any:
    for _, _, state in timeline[index + 1 :]:
        if field in state:
            return state[field]
    return getattr(player, field)


def _improvements(w: _Week) -> list[dict]:
    week_matches = set(w.week_match_ids)
    order = {m: i for i, m in enumerate(w.week_match_ids)}
    out = []
    for pid, timeline in _player_timeline(w).items():
        player = w.players.get(pid)
        if player is None:
            continue
        for index, (match_id, source, before) in enumerate(timeline):
            if source != "journal" or match_id not in week_matches:
                continue
            ref = {**w.player_ref(pid), "match": match_id, "url": _match_url(match_id)}
            gains: list[tuple[str, str]] = []
            if "skills" in before:
                after = _after(timeline, index, "skills", player) or []
                gains += [("skill", s) for s in after if s not in before["skills"]]
            if "attributes" in before:
                after = _after(timeline, index, "attributes", player) or {}
                for key, value in after.items():
                    old = before["attributes"].get(key)
                    if isinstance(value, int) and isinstance(old, int) and value > old:
                        gains.append(("attribute", f"+{value - old} {key.upper() if len(key) <= 2 else _title(key)}"))
            if "abilities" in before:
                after = _after(timeline, index, "abilities", player) or []
                gains += [("ability", _title(a)) for a in after if a not in before["abilities"]]
            if "elite" in before and not before["elite"] and _after(timeline, index, "elite", player):
                gains.append(("elite", "Elite"))
            for kind, what in gains:
                words = {
                    "skill": f"{ref['name']} learned {what}",
                    "attribute": f"{ref['name']} gained {what}",
                    "ability": f"{ref['name']} learned {what}",
                    "elite": f"{ref['name']} was promoted to Elite",
                }[kind]
                out.append({**ref, "kind": kind, "what": what, "words": words + "."})
    out.sort(key=lambda e: (order.get(e["match"], 0), e["team_name"].lower(), e["number"] or 0, e["player"]))
    return out


# --- deaths and injuries ------------------------------------------------------------------------------------------


def _in_memoriam(w: _Week) -> list[dict]:
    by_player: dict[int, list[dict]] = defaultdict(list)
    for row in w.rows:
        by_player[row["player_id"]].append(row)
    out = []
    for pid, rows in by_player.items():
        player = w.players.get(pid)
        if player is None:
            continue
        if player.status == Player.Status.DEAD:
            cause = "dead"
        elif player.status == Player.Status.RETIRED and any(r["injury"] == "career_ending" for r in rows):
            cause = "career_ending"
        else:
            continue
        row = next((r for r in rows if r["injury"] in ("dead", "career_ending")), rows[-1])
        season = w.season_rows.get(pid, {})
        out.append(
            {
                **w.player_ref(pid, row["team_id"]),
                "position": player.position.name,
                "match": row["match_id"],
                "url": _match_url(row["match_id"]),
                "cause": cause,
                "cause_words": "Killed" if cause == "dead" else "Career-ending injury",
                "spp": player.spp,
                "goal_points": player.goal_points,
                "matches_survived": player.matches_survived,
                "matches": season.get("matches") or 0,
                "touchdowns": season.get("touchdowns") or 0,
                "casualties": season.get("casualties") or 0,
            }
        )
    return out


def _criticals(w: _Week, row: Mapping) -> list[str]:
    chart = (w.hr.get("critical_wound_chart") or {}).get("results", {})
    names = []
    for item in (row["detail"] or {}).get("critical") or ():
        roll = item if isinstance(item, int) else item.get("roll")
        entry = chart.get(str(roll), {})
        name = entry.get("name") or _title(str(item.get("key", roll)) if isinstance(item, dict) else str(roll))
        side = item.get("side") if isinstance(item, dict) else None
        names.append(f"{name} ({side})" if side else name)
    return names


def _serious_injuries(w: _Week, dead: set[int]) -> list[dict]:
    out = []
    for row in w.rows:
        if row["player_id"] in dead:
            continue
        injury, words = row["injury"], []
        detail = row["detail"] or {}
        if w.league.ruleset == "blitzbowl" and injury in ("stat_loss", "niggling", "miss_next_match"):
            if injury == "stat_loss":
                detail_words = f": −1 {row['injury_detail'].upper()}" if row["injury_detail"] else ""
                words.append(f"lasting injury{detail_words}")
            else:
                words.append(INJURY_WORDS[injury])
        elif w.league.ruleset == "elfball":
            lasting = detail.get("lasting")
            if lasting:
                for item in lasting:
                    what = "lasting injury" if item.get("cause") == "grit" else "seizure (Magic Potion)"
                    words.append(f"{what}: {_title(item.get('attribute', ''))} −1")
                injury = injury or "lasting_injury"
            elif injury == "lasting_injury":
                attribute = f": {_title(row['injury_detail'])} −1" if row["injury_detail"] else ""
                words.append(f"lasting injury{attribute}")
        elif w.league.ruleset == "bonecruncher":
            criticals = _criticals(w, row)
            if criticals:
                injury = "critical_wound"
                words += criticals
        words = [x for x in words if x]
        if words:
            out.append(
                {
                    **w.player_ref(row["player_id"], row["team_id"]),
                    "match": row["match_id"],
                    "url": _match_url(row["match_id"]),
                    "injury": injury,
                    "words": ", ".join(words),
                }
            )
    return out


# --- the gil (Blitz Bowl) -------------------------------------------------------------------------------------------


def _treasury_movers(w: _Week) -> list[dict]:
    change: dict[int, int] = defaultdict(int)
    by_kind: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for entry in w.ledger:
        if entry["account"] != LedgerEntry.Account.TREASURY:
            continue
        change[entry["team_id"]] += entry["amount"]
        by_kind[entry["team_id"]][entry["kind"]] += entry["amount"]
    out = [
        {
            "team": team_id,
            "name": w.team_name(team_id),
            "change": amount,
            "treasury": w.team_by_id[team_id].treasury if team_id in w.team_by_id else None,
            "by_kind": dict(sorted(by_kind[team_id].items())),
        }
        for team_id, amount in change.items()
        if amount
    ]
    out.sort(key=lambda e: (-abs(e["change"]), -e["change"], e["name"].lower()))
    return out


def _tv_movers(w: _Week) -> list[dict]:
    before: dict[int, int] = {}
    for side in w.week_sides:
        value = side["team_value"]
        if side["team_id"] not in before and isinstance(value, int) and not isinstance(value, bool):
            before[side["team_id"]] = value
    out = []
    for team_id, value in before.items():
        now = w.value_now.get(team_id)
        if now is None or now == value:
            continue
        out.append({"team": team_id, "name": w.team_name(team_id), "before": value, "now": now, "change": now - value})
    out.sort(key=lambda e: (-abs(e["change"]), -e["change"], e["name"].lower()))
    return out


def _week_journals(w: _Week) -> Iterable[tuple[dict, dict]]:
    """(aftermath, entry) for each journal entry of the week's matches, in the order the matches became final."""
    order = {m: i for i, m in enumerate(w.week_match_ids)}
    for aftermath in sorted(
        (a for a in w.aftermaths if a["match_id"] in order), key=lambda a: (order[a["match_id"]], a["team_id"])
    ):
        for entry in aftermath["journal"] or ():
            if isinstance(entry, dict):
                yield aftermath, entry


def _fan_factor_changes(w: _Week) -> list[dict]:
    change: dict[int, int] = defaultdict(int)
    for aftermath, entry in _week_journals(w):
        if entry.get("type") == "fan_factor":
            change[aftermath["team_id"]] += int(entry.get("delta") or 0)
    out = [
        {
            "team": team_id,
            "name": w.team_name(team_id),
            "change": delta,
            "fan_factor": w.team_by_id[team_id].fan_factor if team_id in w.team_by_id else None,
        }
        for team_id, delta in change.items()
        if delta
    ]
    out.sort(key=lambda e: (-e["change"], e["name"].lower()))
    return out


def _sponsorships(w: _Week) -> dict:
    gained, ended = [], []
    for team in w.teams:
        for sponsorship in team.sponsorships.all():
            ref = {"team": team.pk, "team_name": team.name, "sponsor": sponsorship.name or f"#{sponsorship.pk}"}
            if _in_week(sponsorship.gained_at, w.start, w.end):
                gained.append({**ref, "at": _iso(sponsorship.gained_at)})
            if _in_week(sponsorship.ended_at, w.start, w.end):
                ended.append({**ref, "at": _iso(sponsorship.ended_at)})
    gained.sort(key=lambda e: (e["at"], e["team_name"]))
    ended.sort(key=lambda e: (e["at"], e["team_name"]))
    return {"gained": gained, "ended": ended}


def _stadium_deals(w: _Week) -> list[dict]:
    """Residencies won, stadiums bought and sold, residencies lost (the journals' residency entries, each compared
    with the team's next state), with their gil from the ledger; and Stadium Fund payments."""
    gil: dict[tuple[int, int | None, str], int] = defaultdict(int)
    for entry in w.ledger:
        if entry["kind"] in STADIUM_KINDS and entry["account"] == LedgerEntry.Account.TREASURY:
            gil[(entry["team_id"], entry["match_id"], entry["kind"])] += entry["amount"]
        elif entry["kind"] == "stadium_purchase":  # the Stadium Fund's part of the price
            gil[(entry["team_id"], entry["match_id"], "stadium_purchase")] += entry["amount"]
    changes: dict[int, list[tuple[int, list]]] = defaultdict(list)
    for aftermath, entry in _week_journals(w):
        if entry.get("type") == "residency" and isinstance(entry.get("before"), list):
            changes[aftermath["team_id"]].append((aftermath["match_id"], entry["before"]))
    out = []
    used: set[tuple[int, int | None, str]] = set()
    for team_id, steps in changes.items():
        team = w.team_by_id.get(team_id)
        if team is None:
            continue
        states = [before for _, before in steps] + [[team.home_stadium_id, team.owns_stadium]]
        for (match_id, (home, owned)), (new_home, new_owned) in zip(steps, states[1:], strict=True):
            if new_home and new_home != home:
                deal, stadium, kind = ("purchase" if new_owned else "residency"), new_home, "residency"
            elif home and new_home == home and new_owned and not owned:
                deal, stadium, kind = "purchase", home, "stadium_purchase"
            elif home and new_home == home and owned and not new_owned:
                deal, stadium, kind = "sale", home, "stadium_sale"
            elif home and not new_home:
                deal, stadium, kind = "loss", home, "residency"
            else:
                continue
            key = (team_id, match_id, kind)
            amount = gil.get(key)
            used.add(key)
            out.append(_deal(w, team_id, match_id, deal, stadium, amount))
    for (team_id, match_id, kind), amount in gil.items():
        if (team_id, match_id, kind) in used or not amount:
            continue
        team = w.team_by_id.get(team_id)
        deal = {"stadium_fund": "fund", "residency": "kept_residency", "stadium_purchase": "purchase"}.get(kind, kind)
        deal = "sale" if kind == "stadium_sale" else deal
        out.append(_deal(w, team_id, match_id, deal, team.home_stadium_id if team else None, amount))
    return out


DEAL_WORDS = {
    "residency": "moved into {stadium}",
    "purchase": "bought {stadium}",
    "sale": "sold {stadium} (staying resident)",
    "loss": "lost the residency at {stadium}",
    "fund": "paid into the Stadium Fund for {stadium}",
    "kept_residency": "paid to keep the residency at {stadium}",
}


def _deal(w: _Week, team_id: int, match_id: int | None, deal: str, stadium_id: int | None, amount: int | None) -> dict:
    stadium = w.stadiums.get(stadium_id, "") if stadium_id else ""
    words = f"{w.team_name(team_id)} " + DEAL_WORDS.get(deal, deal.replace("_", " ")).format(
        stadium=stadium or "its stadium"
    )
    if amount:
        words += f" ({amount:+,} gil)"
    return {
        "team": team_id,
        "team_name": w.team_name(team_id),
        "deal": deal,
        "stadium": stadium,
        "gil": amount,
        "match": match_id,
        "words": words + ".",
    }


def _expensive_mistakes(w: _Week) -> list[dict]:
    out = []
    for entry in w.ledger:
        if entry["kind"] not in EXPENSIVE_MISTAKE_KINDS or entry["account"] != LedgerEntry.Account.TREASURY:
            continue
        found = re.search(r"\((minor|major|catastrophe)\)", entry["reason"])
        out.append(
            {
                "team": entry["team_id"],
                "team_name": w.team_name(entry["team_id"]),
                "amount": -entry["amount"],
                "severity": found.group(1) if found else "",
                "reason": entry["reason"],
                "match": entry["match_id"],
            }
        )
    return out


# --- the games' own sections ----------------------------------------------------------------------------------------


def _elfball(w: _Week, improvements: list[dict]) -> dict:
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


def _bonecruncher(w: _Week, improvements: list[dict], memoriam: list[dict]) -> dict:
    dead = {m["player"] for m in memoriam}
    wounds = [
        {
            **w.player_ref(row["player_id"], row["team_id"]),
            "match": row["match_id"],
            "url": _match_url(row["match_id"]),
            "wounds": row["wounds"],
            "critical": _criticals(w, row),
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


def _fixtures(w: _Week) -> list[dict]:
    by_match: dict[int, list[dict]] = defaultdict(list)
    for side in w.fixture_sides:
        by_match[side["match_id"]].append(side)
    out = []
    for match_id, sides in by_match.items():
        first = sides[0]
        teams = [{"team": s["team_id"], "name": w.team_name(s["team_id"])} for s in sides]
        out.append(
            {
                "id": match_id,
                "url": _match_url(match_id),
                "kind": first["kind"],
                "kind_label": _label(Match.Kind, first["kind"]),
                "event": first["event"] or "",
                "event_label": _label(Match.Event, first["event"]),
                "stadium": first["stadium"] or "",
                "scheduled_at": _iso(first["created_at"]),
                "teams": teams,
                "summary": " v ".join(t["name"] for t in teams),
            }
        )
    return out


def _headline(w: _Week, results: list[dict], memoriam: list[dict]) -> str:
    if not results:
        return "No matches played this week"
    parts = [_plural(len(results), "match", "matches")]
    sides = w.week_sides
    if w.league.ruleset == "bonecruncher":
        points = sum(s["score"] or 0 for s in sides)
        eliminations = sum(s["eliminations"] or 0 for s in sides)
        if points:
            parts.append(_plural(points, "point") + " scored")
        if eliminations:
            parts.append(_plural(eliminations, "elimination"))
    elif w.league.ruleset == "elfball":
        parts.append(_plural(sum(s["score"] or 0 for s in sides), "Test") + " won")
        gp = sum(r["goal_points"] or 0 for r in w.rows)
        if gp:
            parts.append(_plural(gp, "Goal Point"))
    else:
        parts.append(_plural(sum(s["score"] or 0 for s in sides), "touchdown"))
        casualties = sum(s["casualties_inflicted"] or 0 for s in sides)
        if casualties:
            parts.append(_plural(casualties, "casualty", "casualties"))
    deaths = sum(1 for m in memoriam if m["cause"] == "dead")
    careers = len(memoriam) - deaths
    if deaths:
        parts.append(_plural(deaths, "death"))
    if careers:
        parts.append(_plural(careers, "career ended", "careers ended"))
    return ", ".join(parts)


# --- the report ------------------------------------------------------------------------------------------------------


def build_report(*, league, week_start: datetime, week_end: datetime) -> dict:
    """The week's report as plain data (see the module docstring). Fixed queries whatever the league size."""
    w = _Week(league, week_start, week_end)
    results = _results(w)
    memoriam = _in_memoriam(w)
    improvements = _improvements(w)
    game = w.game
    report: dict[str, Any] = {
        "league": {"id": league.pk, "name": league.name, "ruleset": league.ruleset, "ruleset_name": w.rules.name},
        "week_start": _iso(week_start),
        "week_end": _iso(week_end),
        "headline": _headline(w, results, memoriam),
        "no_matches": not results,
        "terms": {
            "score": game["score"],
            "score_short": game["score_short"],
            "casualties": game["casualties"][2] if game["casualties"] else "",
            "value_unit": game["value_unit"],
        },
        "results": results,
        "table": _table(w),
        "top_scorers": _board(w, game["scorers"]),
    }
    if game["casualties"]:
        report["top_casualties"] = _board(w, game["casualties"])
    if game["mvps"]:
        report["mvps"] = _mvps(w)
    report["improvements"] = improvements
    report["in_memoriam"] = memoriam
    report["serious_injuries"] = _serious_injuries(w, {m["player"] for m in memoriam})
    if w.gil:
        report["treasury_movers"] = _treasury_movers(w)
    has_value = any(v is not None for v in w.value_now.values())
    if has_value:
        report["tv_movers"] = _tv_movers(w)
    if w.gil:
        report["fan_factor_changes"] = _fan_factor_changes(w)
        report["sponsorships"] = _sponsorships(w)
        report["stadium_deals"] = _stadium_deals(w)
        report["expensive_mistakes"] = _expensive_mistakes(w)
    if league.ruleset == "elfball":
        report["elfball"] = _elfball(w, improvements)
    if league.ruleset == "bonecruncher":
        report["bonecruncher"] = _bonecruncher(w, improvements, memoriam)
    report["fixtures"] = _fixtures(w)
    if has_value:
        series = series_from_sides(
            w.sides, names={t.pk: t.name for t in w.teams}, current={t.pk: w.value_now[t.pk] for t in w.teams}
        )
        report["chart"] = team_value_chart(
            series, title=f"{league.name}: team value over the season", unit=game["value_unit"] or "value"
        )
    return report
