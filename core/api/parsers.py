"""The API's request parsers: bounded before parsing, and no control characters let through.

Python's json decoder recurses once per nesting level, so `"[" * 5000` raised RecursionError (a 500) before
any view ran; a body's size was only bounded by Django for form posts. Both limits are checked here, on the
raw bytes, before `json.loads`; and every string of a parsed body (keys included) is refused when it carries a
NUL or another control character, which PostgreSQL refuses in text (NUL) or no field of Dugout means.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.http import QueryDict
from rest_framework import parsers
from rest_framework.exceptions import ParseError

#: Deepest nesting of arrays and objects a body may have. Dugout's deepest body (a result's teams → players →
#: wound areas → critical entries) is 5 levels; 32 leaves room without nearing the interpreter's limit.
MAX_JSON_DEPTH = 32

# Inside strings only `"` and escapes matter; outside them only brackets. One token per escape pair, so an
# escaped quote never ends a string.
_JSON_TOKENS = re.compile(r'\\.|["\[\]{}]', re.S)
# C0 controls and DEL, except tab, line feed and carriage return, which a multi-line text may hold.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def max_body_bytes() -> int:
    """The one size limit for every request body: Django's own, so form posts and the API agree."""
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2_621_440


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """True if the JSON text nests arrays/objects deeper than `limit`; a linear scan, stops at the first excess.
    It does not validate the JSON: json.loads does that afterwards, on a text known to be shallow."""
    depth = 0
    in_string = False
    for token in _JSON_TOKENS.finditer(text):
        char = token.group()
        if char == '"':
            in_string = not in_string
        elif in_string or len(char) == 2:
            continue
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def has_control_character(value: str) -> bool:
    return _CONTROL.search(value) is not None


def refuse_control_characters(data: Any) -> None:
    """Raise ParseError if any string in a parsed body (or any key) holds a control character. Recursion is
    safe: the depth was bounded before parsing."""
    if isinstance(data, str):
        if has_control_character(data):
            raise ParseError("Text may not contain NUL or other control characters.")
    elif isinstance(data, dict):
        for key, value in data.items():
            refuse_control_characters(key)
            refuse_control_characters(value)
    elif isinstance(data, (list, tuple)):
        for value in data:
            refuse_control_characters(value)


def _read_bounded(stream) -> bytes:
    limit = max_body_bytes()
    raw = stream.read(limit + 1) if stream is not None else b""
    if len(raw) > limit:
        raise ParseError(f"The request body is larger than {limit} bytes.")
    return raw


class BoundedJSONParser(parsers.JSONParser):
    """DRF's JSON parser with the body's size and depth bounded before decoding and control characters refused."""

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        raw = _read_bounded(stream)
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"The request body is not valid {encoding}.") from exc
        if json_too_deep(text):
            raise ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels.")
        try:
            data = json.loads(text, parse_constant=self._refuse_constant)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc
        refuse_control_characters(data)
        return data

    @staticmethod
    def _refuse_constant(name: str):
        # NaN and Infinity are not JSON; accepting them would hand float('nan') to integer fields.
        raise ValueError(f"{name} is not valid JSON")


class GuardedFormParser(parsers.FormParser):
    """A form-encoded body: the same size bound (DRF's parser read it whole), Django's field-count limit as a
    400, and control characters refused."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = QueryDict(_read_bounded(stream), encoding=encoding)
        except (SuspiciousOperation, UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"Form parse error - {exc}") from exc
        for key, values in data.lists():
            refuse_control_characters(key)
            refuse_control_characters(values)
        return data


class GuardedMultiPartParser(parsers.MultiPartParser):
    """Django's multipart parser already bounds fields by DATA_UPLOAD_MAX_MEMORY_SIZE; its refusals become
    400s here instead of escaping the view, and control characters are refused."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            result = super().parse(stream, media_type, parser_context)
        except (SuspiciousOperation, UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"Multipart form parse error - {exc}") from exc
        for key, values in result.data.lists():
            refuse_control_characters(key)
            refuse_control_characters(values)
        return result
