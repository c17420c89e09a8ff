"""The kinds of notification (contract v1.2 "Notifications"), what each is about in words, and the channels a
new account gets for each. Pure data: the writer, the settings API, the settings page and the mail templates all
read this one table, so a kind is added here once."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

#: Delivery channels besides the in-app list (which is always on).
EMAIL, PUSH = "email", "push"
CHANNELS: tuple[str, ...] = (EMAIL, PUSH)

#: The digest choices: single mails as events happen, or one mail a day.
DIGEST_OFF, DIGEST_DAILY = "off", "daily"
DIGESTS: tuple[str, ...] = (DIGEST_OFF, DIGEST_DAILY)


@dataclass(frozen=True)
class Kind:
    name: str
    label: object  # lazy translated words, for the settings page
    email: bool = True  # the default for a new account
    push: bool = True


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("result_submitted", _("A result waits for your confirmation")),
        Kind("result_confirmed", _("A result was confirmed")),
        Kind("result_rejected", _("A result was rejected")),
        Kind("result_disputed", _("A result was disputed")),
        Kind("dispute_ruled", _("A dispute was ruled on")),
        Kind("your_turn", _("A pre- or post-match step waits for you")),
        Kind("invitation", _("You are invited to a league")),
        Kind("join_request", _("A coach asks to join your league")),
        Kind("transfer_offer", _("A transfer offer")),
        Kind("round_published", _("A round of matches was published")),
        Kind("time_proposed", _("A match time was proposed")),
        Kind("time_agreed", _("A match time was agreed")),
        Kind("deadline_soon", _("A match deadline is near"), push=False),
        Kind("deadline_passed", _("A match deadline has passed")),
        Kind("extension_requested", _("A coach asks for more time")),
        Kind("extension_decided", _("Your request for more time was answered")),
    )
}

KIND_CHOICES: list[tuple[str, object]] = [(k.name, k.label) for k in KINDS.values()]


def default_channels() -> dict[str, dict[str, bool]]:
    """Every kind's channels as a new account has them (the settings API's full shape)."""
    return {k.name: {EMAIL: k.email, PUSH: k.push} for k in KINDS.values()}
