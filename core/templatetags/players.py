"""`{% player_link id name %}`: every player's name on every page links to his page, written once."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def player_link(player_id, name, base_url=""):
    """The name as a link to `/players/<id>/` (the name alone when there is no id, e.g. a submitted row naming
    a player the league does not know, or a team's line). `base_url`: absolute links (the weekly report's
    e-mail, whose links carry the inline colour it uses; the page drops inline styles)."""
    if not player_id:
        return name
    url = base_url + reverse("player-detail", args=[player_id])
    if base_url:
        return format_html('<a href="{}" class="player-link" style="color:#0b5cad">{}</a>', url, name)
    return format_html('<a href="{}" class="player-link">{}</a>', url, name)
