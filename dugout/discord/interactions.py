"""The answer to one request at a league's interactions endpoint, as Discord's interaction protocol asks:

- no such league, or a league not connected to Discord: 404 (there is no key to check a signature with);
- a missing, malformed, wrong or stale signature (league.discord.signature_valid): 401, before the body is read;
- a signed body that is not an interaction Dugout answers (not JSON, not an object, an unknown type): 400;
- PING (`type` 1): `{type: 1}`;
- an application command (`type` 2): `{type: 4, data: {content, allowed_mentions, flags?}}`, the command's answer
  (commands.py) in the caller's Discord language when Dugout speaks it; `flags` 64 (ephemeral) for an answer
  meant for the caller only. Mentions in the content never ping anyone (a team may be called "@everyone").
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from dugout.discord.commands import ANSWERS, Context
from league.discord import discord_application, signature_valid

PING, APPLICATION_COMMAND = 1, 2
PONG, CHANNEL_MESSAGE = 1, 4
EPHEMERAL = 64


def _caller(payload: Mapping) -> str | None:
    """The Discord user id of whoever sent the command: `member.user` in a guild, `user` in a DM."""
    for holder in (payload.get("member"), payload):
        if isinstance(holder, Mapping) and isinstance(holder.get("user"), Mapping):
            user_id = holder["user"].get("id")
            if isinstance(user_id, str):
                return user_id
    return None


def _options(data: Mapping) -> dict:
    options = data.get("options")
    if not isinstance(options, list):
        return {}
    return {o["name"]: o.get("value") for o in options if isinstance(o, Mapping) and isinstance(o.get("name"), str)}


def _language(payload: Mapping) -> str:
    """The caller's Discord locale ("de", "en-US", "es-ES") as one of the served languages, else the site's."""
    locale = payload.get("locale")
    if isinstance(locale, str) and locale.isascii() and 0 < len(locale) <= 10:
        try:
            return translation.get_supported_language_variant(locale.lower())
        except LookupError:
            pass
    return settings.LANGUAGE_CODE


def _message(content: str, ephemeral: bool) -> dict:
    data: dict = {"content": content[:2000], "allowed_mentions": {"parse": []}}
    if ephemeral:
        data["flags"] = EPHEMERAL
    return {"type": CHANNEL_MESSAGE, "data": data}


def interaction_answer(*, league_id: int, signature: str | None, timestamp: str | None, body: bytes, base: str):
    """`(status, answer)` for one request to the league's endpoint (see the module's docstring)."""
    application = discord_application(league_id=league_id)
    if application is None:
        return 404, {"detail": "This league is not connected to Discord."}
    if not signature_valid(public_key=application.public_key, signature=signature, timestamp=timestamp, body=body):
        return 401, {"detail": "Invalid request signature."}
    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        return 400, {"detail": "The body is not JSON."}
    if not isinstance(payload, Mapping):
        return 400, {"detail": "An interaction is a JSON object."}
    kind = payload.get("type")
    if kind == PING and not isinstance(kind, bool):
        return 200, {"type": PONG}
    if kind != APPLICATION_COMMAND or isinstance(kind, bool):
        return 400, {"detail": "Dugout answers pings and application commands only."}
    data = payload.get("data") if isinstance(payload.get("data"), Mapping) else {}
    answer = ANSWERS.get(data.get("name")) if isinstance(data.get("name"), str) else None
    with translation.override(_language(payload)):
        if answer is None:
            return 200, _message(_("Dugout does not know that command: try /table, /next, /link or /confirm."), True)
        context = Context(
            league=application.league, discord_user_id=_caller(payload), options=_options(data), base=base
        )
        content, ephemeral = answer(context)
        return 200, _message(content, ephemeral)
