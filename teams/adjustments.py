"""Commissioner gil adjustments: a signed amount with a reason, posted to a team's treasury
through the one ledger writer as an entry of kind `adjustment`, never below 0, and recorded in the audit."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from campaigns.errors import NotPermitted, RuleViolation
from campaigns.rulesets.base import fmt_gil
from league.audit import audit_record
from league.policy import may_run_league

from .models import LedgerEntry, Team
from .services import ledger_post, team_locked

#: The ledger's reason column holds 255 characters.
REASON_MAX = 255
#: No single adjustment moves more than this (a typo guard; the ledger's integers hold far more).
AMOUNT_MAX = 10_000_000


def team_adjust(*, user: AbstractBaseUser, team_id: int, amount: object, reason: object) -> LedgerEntry:
    """The commissioner adds gil to (amount > 0) or takes gil from (amount < 0) a team's treasury, with a
    reason. Refused (RuleViolation, nothing written) when it would take the treasury below 0."""
    team = Team.objects.select_related("league").filter(pk=team_id).first()
    if team is None:
        raise RuleViolation("No such team.", field="team")
    if not may_run_league(user, team.league):
        raise NotPermitted("Only the league's commissioner adjusts a team's gil.")
    if team.league.rules.economy != "gil":
        raise RuleViolation(f"{team.league.rules.name} teams have no gil to adjust.", field="amount")
    if not isinstance(amount, int) or isinstance(amount, bool) or amount == 0:
        raise RuleViolation("amount is a whole number of gil other than 0 (negative takes gil away).", field="amount")
    if abs(amount) > AMOUNT_MAX:
        raise RuleViolation(f"An adjustment moves at most {fmt_gil(AMOUNT_MAX)}.", field="amount")
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise RuleViolation("Give a reason, in words.", field="reason")
    if len(text) > REASON_MAX:
        raise RuleViolation(f"A reason is at most {REASON_MAX} characters.", field="reason")
    with team_locked(team_id=team.pk) as locked:
        entry = ledger_post(team=locked, amount=amount, kind="adjustment", reason=text, user=user)
        audit_record(
            league=locked.league,
            actor=user,
            action="adjustment",
            target=f"team {locked.pk} ({locked.name})",
            before={"treasury": entry.balance_after - amount},
            after={"treasury": entry.balance_after, "amount": amount},
            reason=text,
        )
    return entry
