"""Who must act on a match, in words, for the match page's banner and the live sheet's warning: "Waiting for
coach_gil: Inducements: the underdog — you can enter the result meanwhile". Read from `matches.waiting` (the one
answer), grouped so a step either coach may take names them both once."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from matches.waiting import ENTER_RESULT, POSTMATCH_STEP, PREMATCH_STEP, Waiting


@dataclass(frozen=True)
class Banner:
    """The match's waiting in words for one viewer: `line` (safe HTML, links to each step) or "" when nothing
    waits; `blocked`: the viewer may enter results but the result waits for someone else's step first (the live
    sheet warns as it opens); `theirs`: the first step that holds the viewer up, for the sheet's link."""

    line: SafeString | str
    blocked: bool
    theirs: Waiting | None


def _groups(items: list[Waiting]) -> list[list[Waiting]]:
    """Items of the same act on the same page together (both coaches of a shared step), in their order."""
    groups: dict[tuple, list[Waiting]] = {}
    for item in items:
        groups.setdefault((item.kind, item.match_id, item.url), []).append(item)
    return list(groups.values())


def waiting_banner(user: AbstractBaseUser, items: list[Waiting], *, may_enter_result: bool = False) -> Banner:
    """The banner for `user` over `items` (`matches.waiting.waiting_for` of the match). `may_enter_result`: the
    policy lets him enter this match's result (a coach of it, or the commissioner)."""
    groups = _groups(items)
    mine = [g for g in groups if any(i.user_id == user.pk for i in g)]
    theirs = [g for g in groups if g not in mine]
    # The result waits for someone else's step (as the result services would refuse it): no one may enter it.
    holding = [g for g in theirs if g[0].kind in (PREMATCH_STEP, POSTMATCH_STEP)]
    blocked = may_enter_result and bool(holding) and not any(g[0].kind == ENTER_RESULT for g in groups)
    if not groups:
        return Banner("", False, None)
    if not theirs:
        links = format_html_join(", ", '<a href="{}">{}</a>', ((g[0].url, g[0].text) for g in mine))
        return Banner(format_html(_("Waiting for you: {links}."), links=links), False, None)
    # Who must act and on what, in words: the links are the viewer's own doors only (another team's walk is not
    # his to open; the live sheet links the step that holds him up on its own).
    who = format_html_join(
        "; ", "<strong>{}</strong>: {}", ((_(" or ").join(i.username for i in g), g[0].what) for g in theirs)
    )
    line = format_html(_("Waiting for {who}"), who=who)
    if mine:
        doing = format_html_join(_(" or "), '<a href="{}">{}</a>', ((g[0].url, g[0].do) for g in mine))
        line = format_html(_("{line} — you can {doing} meanwhile"), line=line, doing=doing)
    return Banner(format_html("{}.", line), blocked, holding[0][0] if holding else None)
