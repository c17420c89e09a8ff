"""The Blitz Bowl team sheet: SPP beside the skills, values in gil (rules/blitzbowl.md)."""

from __future__ import annotations

from campaigns.rulesets.sheet import ATTRIBUTES, NAME, NUMBER, POSITION, SKILLS, STATUS, VALUE, Column, hint, values

__all__ = ["COLUMNS", "STAFF", "hint", "values"]

COLUMNS = (
    NUMBER,
    NAME,
    POSITION,
    ATTRIBUTES,
    SKILLS,
    Column("SPP", "spp", css="num", abbr="Star Player Points"),
    VALUE,
    STATUS,
)

STAFF = {"assistant_coach": "Assistant coach", "white_mage": "White mage"}
