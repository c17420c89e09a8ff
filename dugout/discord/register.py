"""Registering the league's slash commands with Discord: one `PUT` of the whole list (COMMANDS) to
`/applications/{application_id}/commands`, authorised by the bot's token. Discord replaces the application's
global commands with the list, so running it again is harmless. Used by the `discord_register_commands`
management command; the bot token is used for this request only and never stored."""

from __future__ import annotations

import json
import urllib.request

from dugout.discord.commands import COMMANDS
from dugout.reports.services import site_url
from league.models import DiscordApplication

API = "https://discord.com/api/v10"
TIMEOUT_SECONDS = 15


def registration_request(*, application: DiscordApplication, token: str) -> urllib.request.Request:
    """The request that registers COMMANDS for the league's application."""
    # A fixed https address (API), never a caller's: S310's file: and custom schemes cannot reach it.
    return urllib.request.Request(  # noqa: S310
        f"{API}/applications/{application.application_id}/commands",
        data=json.dumps(COMMANDS).encode(),
        method="PUT",
        headers={
            "Authorization": f"Bot {token}",
            "Content-Type": "application/json",
            # Discord asks bots to name themselves as `DiscordBot (url, version)`.
            "User-Agent": f"DiscordBot ({site_url()}, 1.2)",
        },
    )


def register_commands(*, application: DiscordApplication, token: str) -> list[dict]:
    """Send the registration; Discord's answer: the commands as registered (urllib's HTTPError on a refusal)."""
    with urllib.request.urlopen(  # noqa: S310 (the request above: Discord's https API only)
        registration_request(application=application, token=token), timeout=TIMEOUT_SECONDS
    ) as r:
        return json.loads(r.read() or b"[]")
