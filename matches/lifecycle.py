"""A match's lifecycle, declared: its statuses, the one table of what each action does to a match in each
status, and the one function every match service calls before it changes (or acts on) a match's status.

    scheduled --submit--> submitted --confirm--> final --correct--> final
        ^                  |    ^
        +-----reject-------+    +--submit (a coach replaces the result before it is confirmed)

    submitted --dispute--> disputed   (the other coach, with a reason; then the commissioner rules:)
    disputed --confirm--> final       (as is)
    disputed --submit--> submitted    (corrected, and confirmed in the same ruling)
    disputed --reject--> scheduled
    scheduled --forfeit--> final      (the commissioner, for an overdue match: no post-match sequence)
    scheduled --void--> void          (the commissioner, or the season's turn for the teams a redraft rebuilds:
                                       never to be played)

`void` is an end like `final`, but of a match that was not played: it takes no result, counts in no table and
waits for no one (it is neither `OPEN` nor `WAITING`); every action on it is refused in its own words.

The pre-match sequence (its steps and the inducement shopping) runs only while the match is scheduled: it is
in the table as an action that keeps the status. Anything not in the table is refused with
`TransitionRefused`, before anything is written. The `Match.status` column's `CheckConstraint` is built from
`STATUSES` (matches/models.py), so the database knows no status the table does not.

Pure: no ORM, no I/O — `transition` only reads and sets `match.status`; the service saves.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.errors import RuleViolation


class Status(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    SUBMITTED = "submitted", "Result submitted"
    DISPUTED = "disputed", "Result disputed"
    FINAL = "final", "Final"
    VOID = "void", _("Void")


class Action(models.TextChoices):
    SUBMIT = "submit", "Submit the result"
    REJECT = "reject", "Reject the result"
    CONFIRM = "confirm", "Confirm the result"
    CORRECT = "correct", "Correct the final result"
    PREMATCH = "prematch", "Run the pre-match sequence"
    DISPUTE = "dispute", "Dispute the submitted result"
    FORFEIT = "forfeit", "Record a forfeit"
    VOID = "void", _("Void the match")


#: (status now, action) → status after. The whole lifecycle: what is not here is refused.
TRANSITIONS: dict[tuple[str, str], str] = {
    (Status.SCHEDULED, Action.SUBMIT): Status.SUBMITTED,
    (Status.SUBMITTED, Action.SUBMIT): Status.SUBMITTED,
    (Status.SUBMITTED, Action.REJECT): Status.SCHEDULED,
    (Status.SUBMITTED, Action.CONFIRM): Status.FINAL,
    (Status.FINAL, Action.CORRECT): Status.FINAL,
    (Status.SCHEDULED, Action.PREMATCH): Status.SCHEDULED,
    (Status.SUBMITTED, Action.DISPUTE): Status.DISPUTED,
    (Status.DISPUTED, Action.CONFIRM): Status.FINAL,
    (Status.DISPUTED, Action.REJECT): Status.SCHEDULED,
    (Status.DISPUTED, Action.SUBMIT): Status.SUBMITTED,
    (Status.SCHEDULED, Action.FORFEIT): Status.FINAL,
    (Status.SCHEDULED, Action.VOID): Status.VOID,
}

#: The statuses in which a result waits for someone (a season cannot close while a match is in one).
WAITING: tuple[str, ...] = (Status.SUBMITTED, Status.DISPUTED)
#: Not final yet: the league's fixtures (to be played, or a result waiting).
OPEN: tuple[str, ...] = (Status.SCHEDULED, *WAITING)

#: Every status the table knows, in the order of `Status` (the database constraint lists exactly these).
STATUSES: tuple[str, ...] = tuple(
    s.value for s in Status if any(s in (before, after) for (before, _), after in TRANSITIONS.items())
)

#: What a refused action says, whatever the status it was refused in (the words the API has always answered).
REFUSALS: dict[str, str] = {
    Action.SUBMIT: "This match's result is final.",
    Action.REJECT: "Only a submitted result can be rejected.",
    Action.CONFIRM: "There is no submitted result to confirm.",
    Action.CORRECT: "Only a final result can be corrected; a submitted one can be rejected.",
    Action.PREMATCH: "The result is in: the pre-match sequence is closed.",
    Action.DISPUTE: "Only a submitted result can be disputed.",
    Action.FORFEIT: "Only a match still to be played can be forfeited.",
    Action.VOID: _("Only a match still to be played can be made void."),
}
#: What any action on a void match says (it has no next move at all, whatever is asked of it).
VOID_REFUSAL = _("This match is void: it will not be played, and nothing more is recorded for it.")


class TransitionRefused(RuleViolation):
    """The action is not one the match's lifecycle allows in its status (nothing was changed).

    Answered 400 like the other refusals of the rules: the public contract pins 400 for confirming a final
    match, rejecting a scheduled one and resubmitting a final one (tests/matches/test_results.py)."""

    def __init__(self, message: str, *, status: str, action: str) -> None:
        super().__init__(message)
        self.status = status
        self.action = action


def allowed(status: str, action: str) -> bool:
    return (status, action) in TRANSITIONS


def next_status(status: str, action: str) -> str:
    """The status `action` leads to from `status`; `TransitionRefused` when the table has no such move."""
    try:
        return TRANSITIONS[(status, action)]
    except KeyError:
        raise TransitionRefused(refusal(status, action), status=status, action=action) from None


def refusal(status: str, action: str) -> str:
    """What `action` refused in `status` says: a void match's own words whatever is asked of it, else the
    action's."""
    return str(VOID_REFUSAL if status == Status.VOID else REFUSALS[action])


def transition(match, action: str) -> str:
    """Move `match` (anything with a `status`) by `action`: sets and returns its new status (the caller saves).
    Refuses, changing nothing, when the table does not allow `action` in the match's status."""
    match.status = next_status(match.status, action)
    return match.status
