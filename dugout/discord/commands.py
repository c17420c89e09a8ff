"""The four slash commands a league's Discord answers, as Discord registers them (COMMANDS) and as the
interactions endpoint answers them (ANSWERS): each a function of the interaction's context returning
`(content, ephemeral)`.

Nothing is decided here that a domain decides already: the table is `league_standings`, the fixtures
`league_fixtures`, a link is `league.discord.discord_link`, a confirmation is `matches.services.match_confirm`
as the linked user (the same policy and lifecycle as `POST /matches/{id}/confirm/`). A refusal is the
service's own words, answered only to the caller (ephemeral). Times are Discord timestamps (`<t:…>`), which
every reader's client shows in his own time zone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from core.pages import refusal_of
from league.discord import discord_link, discord_linked_user
from league.models import League
from matches import services as match_services
from matches.models import Match, MatchTeam
from matches.selectors import league_fixtures, league_standings, match_lines

#: A message's content is at most 2,000 characters (Discord's limit); the table stops short of it.
CONTENT_MAX = 2000
#: How many of the league's fixtures `/next` lists.
FIXTURES_SHOWN = 5
#: A team's name in the table's fixed-width block.
NAME_WIDTH = 20

# Discord's option types (application command option type): STRING, INTEGER.
_STRING, _INTEGER = 3, 4

#: The commands as `PUT /applications/{id}/commands` takes them (names and descriptions are Discord's
#: identifiers and shown in its picker; registered once, in English).
COMMANDS: list[dict] = [
    {"name": "table", "type": 1, "description": "The league's standings this season."},
    {"name": "next", "type": 1, "description": "Your next match (once linked), or the league's next fixtures."},
    {
        "name": "link",
        "type": 1,
        "description": "Tie your Discord user to your Dugout account with a code from your account page.",
        "options": [{"type": _STRING, "name": "code", "description": "The one-time code", "required": True}],
    },
    {
        "name": "confirm",
        "type": 1,
        "description": "Confirm a submitted result as your linked Dugout account.",
        "options": [
            {"type": _INTEGER, "name": "match", "description": "The match's number", "required": True, "min_value": 1}
        ],
    },
]


@dataclass(frozen=True)
class Context:
    """One command's interaction: the league whose endpoint it came to, the Discord user who sent it (None when
    Discord named none), the command's options by name, and the site's address for links."""

    league: League
    discord_user_id: str | None
    options: dict
    base: str


def _clean(text: str) -> str:
    """A name inside a code block: no backticks to end it early."""
    return text.replace("`", "'")


def _when(moment: datetime | None, style: str = "f") -> str:
    return f"<t:{int(moment.timestamp())}:{style}>" if moment else ""


def table(ctx: Context) -> tuple[str, bool]:
    """`/table`: the open season's standings in a fixed-width block, cut to fit a message, with the link."""
    rows = league_standings(league=ctx.league)
    link = ctx.base + reverse("league-table", args=[ctx.league.pk])
    if not rows:
        return _("%(league)s has no teams yet.") % {"league": ctx.league.name}, False
    title = _("%(league)s, season %(season)s") % {"league": ctx.league.name, "season": ctx.league.season}
    header = f"{'#':>2}  {_('Team'):<{NAME_WIDTH}} {'P':>2} {'W':>2} {'D':>2} {'L':>2} {_('Pts'):>4}"
    lines = [header]
    for row in rows:
        name = _clean(row["name"])[:NAME_WIDTH]
        line = (
            f"{row['position']:>2}  {name:<{NAME_WIDTH}} {row['played']:>2} {row['won']:>2} "
            f"{row['drawn']:>2} {row['lost']:>2} {row['points']:>4}"
        )
        # Keep room for the block's fences, the title, the "more" line and the link.
        if len(title) + sum(len(x) + 1 for x in lines) + len(line) + len(link) + 120 > CONTENT_MAX:
            break
        lines.append(line)
    shown = len(lines) - 1
    more = _("… and %(count)s more teams.") % {"count": len(rows) - shown} + "\n" if shown < len(rows) else ""
    block = "\n".join(lines)
    return f"**{title}**\n```\n{block}\n```\n{more}{link}", False


def _fixture_line(match: Match, base: str) -> str:
    teams = " v ".join(side.team.name for side in match.lines)
    parts = [f"**{teams}**"]
    if match.round:
        parts.append(_("round %(round)s") % {"round": match.round})
    if match.scheduled_for:
        parts.append(_when(match.scheduled_for))
    if match.deadline:
        parts.append(_("due %(when)s") % {"when": _when(match.deadline, "R")})
    if match.status != Match.Status.SCHEDULED:
        parts.append(str(match.get_status_display()))
    return " · ".join(parts) + f"\n<{base}{reverse('match-detail', args=[match.pk])}>"


def _theirs(fixtures: QuerySet[Match], user) -> QuerySet[Match]:
    return fixtures.filter(pk__in=MatchTeam.objects.filter(team__coach=user).values("match_id"))


def next_match(ctx: Context) -> tuple[str, bool]:
    """`/next`: a linked coach's next match in this league; anyone else (or a coach with none) the league's
    next fixtures."""
    fixtures = league_fixtures(league=ctx.league)
    user = discord_linked_user(discord_user_id=ctx.discord_user_id)
    intro = ""
    if user is not None:
        mine = match_lines(_theirs(fixtures, user)[:1])
        if mine:
            return _("Your next match:") + "\n" + _fixture_line(mine[0], ctx.base), False
        intro = _("No match waits for you in %(league)s.") % {"league": ctx.league.name} + " "
    upcoming = match_lines(fixtures[:FIXTURES_SHOWN])
    if not upcoming:
        return intro + _("%(league)s has no fixtures to play.") % {"league": ctx.league.name}, False
    heading = intro + _("The next fixtures of %(league)s:") % {"league": ctx.league.name}
    return heading + "\n" + "\n".join(_fixture_line(m, ctx.base) for m in upcoming), False


def link(ctx: Context) -> tuple[str, bool]:
    """`/link code:<code>`: spend the code, tie this Discord user to its account (answered to him only)."""
    if ctx.discord_user_id is None:
        return _("Discord did not say who you are: try again."), True
    try:
        user = discord_link(discord_user_id=ctx.discord_user_id, code=ctx.options.get("code"))
    except Exception as exc:  # a refusal is answered in words; anything else rises
        refused = refusal_of(exc)
        if refused is None:
            raise
        return refused.message, True
    return _("Linked: here you act as %(username)s of Dugout.") % {"username": user.get_username()}, True


def _match_number(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip())
    return value if isinstance(value, int) and 0 < value < 2**63 else None


def confirm(ctx: Context) -> tuple[str, bool]:
    """`/confirm match:<id>`: confirm the result as the linked account, through `match_confirm` and its policy;
    a refusal in words to the caller only, nothing changed; a confirmation said to the channel."""
    user = discord_linked_user(discord_user_id=ctx.discord_user_id)
    if user is None:
        account = ctx.base + reverse("me")
        return _(
            "Link your Discord first: make a code on your Dugout account page (%(url)s), then send /link code:<code>."
        ) % {"url": account}, True
    number = _match_number(ctx.options.get("match"))
    if number is None or not Match.objects.filter(pk=number, league=ctx.league).exists():
        return _("%(league)s has no match #%(number)s.") % {
            "league": ctx.league.name,
            "number": ctx.options.get("match"),
        }, True
    try:
        match = match_services.match_confirm(user=user, match_id=number)
    except Exception as exc:  # a refusal is answered in words; anything else rises
        refused = refusal_of(exc)
        if refused is None:
            raise
        return _("Not confirmed: %(reason)s") % {"reason": refused.message}, True
    score = " – ".join(f"{side.team.name} {'' if side.score is None else side.score}".strip() for side in _sides(match))
    url = ctx.base + reverse("match-detail", args=[match.pk])
    return _("Result confirmed by %(username)s: %(score)s. %(url)s") % {
        "username": user.get_username(),
        "score": score,
        "url": url,
    }, False


def _sides(match: Match) -> list[MatchTeam]:
    return list(MatchTeam.objects.filter(match=match).select_related("team").order_by("order"))


ANSWERS: dict[str, Callable[[Context], tuple[str, bool]]] = {
    "table": table,
    "next": next_match,
    "link": link,
    "confirm": confirm,
}
