"""The one exception the rules raise when an action is not allowed."""


class RuleViolation(Exception):
    """An action the rules forbid. `field` names the input at fault (for a 400 naming it)."""

    def __init__(self, message: str, *, field: str | None = None, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule

    def as_dict(self) -> dict:
        if self.field:
            return {self.field: [self.message]}
        return {"detail": self.message}


class NotPermitted(RuleViolation):
    """The action is allowed by the rules, but not to this user (answered 403)."""


class Conflict(RuleViolation):
    """The action is allowed to this user, but not in the state the thing is in now (answered 409): e.g. a
    residency cancelled when the team has none (any more). The base of every typed conflict (a pre- or
    post-match step out of turn, an invitation answered twice): the API maps it by type."""
