"""Register the league's slash commands (/table, /next, /link, /confirm) with its Discord application.

    python manage.py discord_register_commands --league 3 --token "$DISCORD_BOT_TOKEN"

The league's commissioner first connects it to the application (its id and public key, on the dashboard or by
`PUT /api/v1/leagues/{id}/discord/`); the bot token, from Discord's developer portal, is sent with this one
request and kept nowhere. `--token` may be left out when DISCORD_BOT_TOKEN is set (a token typed on a command
line stays in the shell's history)."""

from __future__ import annotations

import os
import urllib.error

from django.core.management.base import BaseCommand, CommandError

from dugout.discord.register import register_commands
from league.discord import discord_application


class Command(BaseCommand):
    help = "Register the slash commands /table, /next, /link and /confirm with a league's Discord application."

    def add_arguments(self, parser):
        parser.add_argument("--league", type=int, required=True, help="The league's id.")
        parser.add_argument(
            "--token", default=os.environ.get("DISCORD_BOT_TOKEN", ""), help="The application's bot token."
        )

    def handle(self, *args, league: int, token: str, **options):
        if not token.strip():
            raise CommandError("Give the bot's token: --token, or DISCORD_BOT_TOKEN in the environment.")
        application = discord_application(league_id=league)
        if application is None:
            raise CommandError(f"League {league} is not connected to a Discord application (or does not exist).")
        try:
            registered = register_commands(application=application, token=token.strip())
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:300].decode(errors="replace")
            raise CommandError(f"Discord refused the registration ({exc.code}): {detail}") from exc
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise CommandError(f"Discord could not be reached: {exc}") from exc
        names = ", ".join(f"/{c.get('name')}" for c in registered if isinstance(c, dict))
        self.stdout.write(f"Registered for {application.league.name}: {names or 'nothing'}.")
