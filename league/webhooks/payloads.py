"""The body each kind of hook receives for an event, from the event's stored facts (pure functions).

Facts (written by the emitter): `league` {id, name}; for `result_confirmed` a `match` {id, path, card_path?,
teams: [{id, name, score}]}; for `report_published` a `report` {week, path}; for `player_died` a `player`
{id, name, team: {id, name}} and the `match` {id, path}. Paths are made absolute on `base` (the site's URL)."""

from __future__ import annotations

from typing import Any

TITLES = {
    "result_confirmed": "Result confirmed",
    "report_published": "The week's report is out",
    "player_died": "In memoriam",
}


def _url(base: str, path: str | None) -> str | None:
    return f"{base}{path}" if path else None


def summary(event: str, facts: dict) -> str:
    """One line saying what happened."""
    if event == "result_confirmed":
        teams = facts["match"]["teams"]
        return " – ".join(f"{t['name']} {t['score'] if t['score'] is not None else ''}".strip() for t in teams)
    if event == "report_published":
        return f"{facts['league']['name']}: the report of {facts['report']['week']}"
    if event == "player_died":
        player = facts["player"]
        return f"{player['name']} ({player['team']['name']}) has died."
    return event


def _link(event: str, facts: dict, base: str) -> str | None:
    section = facts.get("report") if event == "report_published" else facts.get("match")
    return _url(base, section.get("path")) if section else None


def json_body(event: str, facts: dict, base: str) -> dict[str, Any]:
    body: dict[str, Any] = {"event": event, **facts}
    for name in ("match", "report"):
        if isinstance(body.get(name), dict):
            section = dict(body[name])
            section["url"] = _url(base, section.pop("path", None))
            if "card_path" in section:
                section["card_url"] = _url(base, section.pop("card_path"))
            body[name] = section
    return body


def discord_body(event: str, facts: dict, base: str) -> dict[str, Any]:
    embed: dict[str, Any] = {
        "title": f"{facts['league']['name']}: {TITLES.get(event, event)}",
        "description": summary(event, facts),
    }
    if url := _link(event, facts, base):
        embed["url"] = url
    if event == "result_confirmed":
        embed["fields"] = [
            {"name": t["name"], "value": str(t["score"] if t["score"] is not None else "–"), "inline": True}
            for t in facts["match"]["teams"]
        ]
        if card := _url(base, facts["match"].get("card_path")):
            embed["image"] = {"url": card}
    return {"embeds": [embed]}


def slack_body(event: str, facts: dict, base: str) -> dict[str, Any]:
    text = f"*{facts['league']['name']}*: {TITLES.get(event, event)}\n{summary(event, facts)}"
    blocks: list[dict[str, Any]] = [{"type": "section", "text": {"type": "mrkdwn", "text": text}}]
    if url := _link(event, facts, base):
        blocks.append(
            {
                "type": "actions",
                "elements": [{"type": "button", "text": {"type": "plain_text", "text": "Open"}, "url": url}],
            }
        )
    return {"text": summary(event, facts), "blocks": blocks}


BUILDERS = {"discord": discord_body, "slack": slack_body, "json": json_body}


def body(kind: str, event: str, facts: dict, base: str) -> dict[str, Any]:
    return BUILDERS[kind](event, facts, base)
