"""Template filters for markup Dugout wrote itself.

The weekly report's HTML is written once for the e-mail, where clients read only inline `style=` attributes;
a page served under the Content-Security-Policy (style-src 'self') must carry none, or the browser refuses
each one. `without_inline_styles` drops them for the page, whose stylesheet (static/css/dugout.css,
`.report …`) stands in for them.
"""

from __future__ import annotations

import re

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

# Our templates quote every attribute with double quotes and autoescape turns a quote in a value into
# &quot;, so an attribute value never contains a raw '"': this pattern cannot cut one short.
_STYLE_ATTRIBUTE = re.compile(r'\sstyle="[^"]*"')


@register.filter
def without_inline_styles(html: str) -> SafeString:
    """The report's own (trusted, already-escaped) markup without its style attributes."""
    return mark_safe(_STYLE_ATTRIBUTE.sub("", str(html)))  # noqa: S308 - Dugout's own rendered markup
