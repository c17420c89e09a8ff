"""`{% player_link id name %}`: every player's name on every page links to his page (issue 14), written once."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def player_link(player_id, name):
    """The name as a link to `/players/<id>/` (the name alone when there is no id, e.g. a submitted row naming
    a player the league does not know)."""
    if not player_id:
        return name
    return format_html('<a href="{}" class="player-link">{}</a>', reverse("player-detail", args=[player_id]), name)
