"""The ledgers, rolls, weekly reports, seasons and the audit."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from dugout.importer.checks import a_list, bad, boolean, choices_of, field, integer, json_value, text, timestamp
from dugout.importer.state import ImportState, create_stamped
from league.models import AuditEntry, LeagueReport, Season
from matches.models import Roll
from matches.rolls import restored_roll
from teams.models import LedgerEntry

ACCOUNTS = choices_of(LedgerEntry.Account.choices)


def read_ledgers(state: ImportState, chunk: list[tuple[str, str, Any]]) -> None:
    entries = []
    for path, key, value in chunk:
        if not key.lstrip("-").isdigit() or int(key) not in state.teams:
            raise bad(path, "Not a team of this document.")
        team = state.teams[int(key)]
        balances: dict[str, tuple[int, int]] = {}
        for i, e in enumerate(a_list(value, path)):
            here = f"{path}[{i}]"
            account = field(e, here, "account", text(choices=ACCOUNTS), "treasury")
            amount = field(e, here, "amount", integer(-(2**31), 2**31 - 1))
            after = field(e, here, "balance_after", integer(-(2**31), 2**31 - 1))
            sequence, balance = balances.get(account, (0, 0))
            if amount == 0:
                raise bad(f"{here}.amount", "A ledger entry moves some gil (never 0).")
            if after != balance + amount:
                raise bad(
                    f"{here}.balance_after", f"Expected {balance + amount:,}: the previous balance plus the amount."
                )
            if after < 0:
                raise bad(f"{here}.balance_after", "A balance is never negative.")
            balances[account] = (sequence + 1, after)
            entries.append(
                LedgerEntry(
                    team=team,
                    account=account,
                    sequence=sequence + 1,
                    amount=amount,
                    balance_after=after,
                    kind=field(e, here, "kind", text(30)),
                    reason=field(e, here, "reason", text(255), ""),
                    match_id=field(e, here, "match", state.match_ref(), None),
                    created_by=None,
                    created_at=field(e, here, "created_at", timestamp(null=True), None) or timezone.now(),
                )
            )
        if team.pk in state.ledgered:
            raise bad(path, "A team's ledger appears twice.")
        state.ledgered.add(team.pk)
    create_stamped(LedgerEntry, entries, ("created_at",))


def read_rolls(state: ImportState, chunk: list[tuple[str, Any]]) -> None:
    rolls = [
        restored_roll(
            league=state.league,
            match_id=field(r, path, "match", state.match_ref(), None),
            team_id=field(r, path, "team", state.team_ref(), None),
            step=field(r, path, "step", text(30), ""),
            key=field(r, path, "key", text(40)),
            expression=field(r, path, "expression", text(10)),
            values=field(r, path, "values", json_value(list)),
            entered=field(r, path, "entered", boolean),
            rolled_by_id=field(r, path, "rolled_by", state.user_ref, None),
            created_at=field(r, path, "created_at", timestamp(null=True), None) or timezone.now(),
        )
        for path, r in chunk
    ]
    create_stamped(Roll, rolls, ("created_at",))


def read_reports(state: ImportState, chunk: list[tuple[str, Any]]) -> None:
    from dugout.reports.services import REPORT_HTML, REPORT_TEXT, site_url

    reports = []
    for path, r in chunk:
        week = field(r, path, "week", text(8))
        if week in state.weeks:
            raise bad(f"{path}.week", "Two reports of the same week.")
        state.weeks.add(week)
        data = field(r, path, "data", json_value(dict))
        context = {"report": data, "league": state.league, "week": week, "base_url": site_url()}
        try:
            html = render_to_string(REPORT_HTML, context)
            plain = render_to_string(REPORT_TEXT, context)
        except Exception:
            raise bad(f"{path}.data", "Not a weekly report's sections.") from None
        reports.append(
            LeagueReport(
                league=state.league,
                week=week,
                season=field(r, path, "season", integer(1, 32767), 1),
                week_start=field(r, path, "week_start", timestamp()),
                week_end=field(r, path, "week_end", timestamp()),
                data=data,
                html=html,
                text=plain,
                created_at=field(r, path, "created_at", timestamp(null=True), None) or timezone.now(),
            )
        )
    create_stamped(LeagueReport, reports, ("created_at",))


def read_seasons(state: ImportState, chunk: list[tuple[str, Any]]) -> None:
    seasons = []
    for path, s in chunk:
        number = field(s, path, "number", integer(1, 32767))
        if number in state.seasons:
            raise bad(f"{path}.number", "Two seasons have this number.")
        status = field(s, path, "status", text(choices=choices_of(Season.Status.choices)))
        if status == Season.Status.OPEN:
            if state.open_season is not None:
                raise bad(f"{path}.status", "A league has one open season.")
            state.open_season = number
        state.seasons.add(number)
        seasons.append(
            Season(
                league=state.league,
                number=number,
                name=field(s, path, "name", text(100), ""),
                status=status,
                started_at=field(s, path, "started_at", timestamp()),
                closed_at=field(s, path, "closed_at", timestamp(null=True), None),
                champion_id=field(s, path, "champion", state.team_ref(), None),
                final_table=state.remap(field(s, path, "final_table", json_value(list), [])),
            )
        )
    Season.objects.bulk_create(seasons)


def read_audit(state: ImportState, chunk: list[tuple[str, Any]]) -> None:
    entries = [
        AuditEntry(
            league=state.league,
            actor_id=field(e, path, "actor", state.user_ref, None),
            action=field(e, path, "action", text(30)),
            target=field(e, path, "target", text(100), ""),
            before=state.remap(field(e, path, "before", json_value(), None)),
            after=state.remap(field(e, path, "after", json_value(), None)),
            reason=field(e, path, "reason", text(), ""),
            at=field(e, path, "at", timestamp(null=True), None) or timezone.now(),
        )
        for path, e in chunk
    ]
    create_stamped(AuditEntry, entries, ("at",))
