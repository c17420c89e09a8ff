"""The weekly report's money sections: treasury movers, team-value movers, fan factor, sponsorships, stadium
deals and expensive mistakes. They read the week's ledger entries (loaded when the game's economy is gil), the
journals' fan factor and residency entries, and the team values the final sides kept before each match."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from dugout.reports.common import in_week, iso
from dugout.reports.week import Week
from teams.models import LedgerEntry

EXPENSIVE_MISTAKE_KINDS = ("expensive_mistake", "expensive_mistakes")
STADIUM_KINDS = ("residency", "stadium_purchase", "stadium_sale", "stadium_fund")


def treasury_movers(w: Week) -> list[dict]:
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


def tv_movers(w: Week) -> list[dict]:
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


def _week_journals(w: Week) -> Iterable[tuple[dict, dict]]:
    """(aftermath, entry) for each journal entry of the week's matches, in the order the matches became final."""
    order = {m: i for i, m in enumerate(w.week_match_ids)}
    for aftermath in sorted(
        (a for a in w.aftermaths if a["match_id"] in order), key=lambda a: (order[a["match_id"]], a["team_id"])
    ):
        for entry in aftermath["journal"] or ():
            if isinstance(entry, dict):
                yield aftermath, entry


def fan_factor_changes(w: Week) -> list[dict]:
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


def sponsorships(w: Week) -> dict:
    gained, ended = [], []
    for team in w.teams:
        for sponsorship in team.sponsorship_list:
            ref = {"team": team.pk, "team_name": team.name, "sponsor": sponsorship.name or f"#{sponsorship.pk}"}
            if in_week(sponsorship.gained_at, w.start, w.end):
                gained.append({**ref, "at": iso(sponsorship.gained_at)})
            if in_week(sponsorship.ended_at, w.start, w.end):
                ended.append({**ref, "at": iso(sponsorship.ended_at)})
    gained.sort(key=lambda e: (e["at"], e["team_name"]))
    ended.sort(key=lambda e: (e["at"], e["team_name"]))
    return {"gained": gained, "ended": ended}


def stadium_deals(w: Week) -> list[dict]:
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


def _deal(w: Week, team_id: int, match_id: int | None, deal: str, stadium_id: int | None, amount: int | None) -> dict:
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


def expensive_mistakes(w: Week) -> list[dict]:
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
