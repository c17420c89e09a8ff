"""What a user may do to a match now: the lifecycle table (`matches.lifecycle`: what the match's status allows)
crossed with the policy (`matches.policy`: who may do it). One answer for every reader that offers actions —
the match page's buttons, the coach's `/me/` list, the API's `actions` — so none of them rebuilds it from the
status by hand.

The services do not ask it: each keeps its own checks inside its transaction, on the locked row (the page
asks `available`, the service enforces). The two agree by construction (the same table, the same predicates),
and a test walks every status × role to hold them to it (tests/matches/test_available.py).

Pure over what the caller holds: a predicate is asked only for an action the status allows, and it reads the
match's sides and its league's memberships, so a caller that prefetched the sides and held the viewer's roles
(`league.selectors.hold_viewer_roles`) pays no query.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

from django.contrib.auth.models import AbstractBaseUser

from . import lifecycle, policy
from .lifecycle import Action, Status
from .models import Match

#: The commissioner's ruling on a disputed result (confirm it as is, correct it, or reject it: one form). Not a
#: move of its own in the lifecycle table: it makes the disputed status's confirm, submit or reject move.
RULE = "rule"


@dataclass(frozen=True)
class Available:
    """The actions `user` may take on the match now, one flag each (templates read `available.confirm`)."""

    submit: bool = False  # enter (or re-enter) the result
    confirm: bool = False
    reject: bool = False
    correct: bool = False  # correct a final result
    dispute: bool = False
    rule: bool = False  # rule on a dispute
    prematch: bool = False  # walk the pre-match sequence
    forfeit: bool = False
    void: bool = False  # a match still to be played will not be: no result, no table

    @property
    def actions(self) -> frozenset[str]:
        """The names of the actions allowed (lifecycle `Action` values, and `RULE`)."""
        return frozenset(f.name for f in fields(self) if getattr(self, f.name))

    def __contains__(self, action: str) -> bool:
        return action in self.actions


#: Who may make each move of the lifecycle table (the predicate its service enforces).
_MAY: dict[str, Callable[[AbstractBaseUser, Match], bool]] = {
    Action.SUBMIT: policy.may_enter_result,
    Action.CONFIRM: policy.may_confirm_result,
    Action.REJECT: policy.may_reject_result,
    Action.CORRECT: policy.may_correct_result,
    Action.DISPUTE: policy.may_dispute_result,
    Action.PREMATCH: policy.may_run_prematch,
    Action.FORFEIT: policy.may_forfeit_match,
    Action.VOID: lambda user, match: policy.may_void_match(user, match.league),
}

#: Every action `available` answers, in `Available`'s order.
ACTIONS: tuple[str, ...] = tuple(f.name for f in fields(Available))


def _opens(match: Match, action: str) -> bool:
    """Whether the match's status (and, for the pre-match sequence, its ruleset) lets anyone take `action`."""
    if action == RULE:
        return match.status == Status.DISPUTED
    if action == Action.PREMATCH and not match.league.rules.prematch_steps:
        return False  # a ruleset without a pre-match sequence has none to walk
    if action == Action.VOID and match.kind in (match.Kind.PLAYOFF, match.Kind.FINAL):
        return False  # a knockout's match decides who goes on: a forfeit, not a void
    return lifecycle.allowed(match.status, action)


def available(user: AbstractBaseUser, match: Match) -> Available:
    """What `user` may do to `match` in its status now. A predicate is asked only where the status allows."""
    may = {**_MAY, RULE: policy.may_rule_on_dispute}
    return Available(**{action: _opens(match, action) and may[action](user, match) for action in ACTIONS})
