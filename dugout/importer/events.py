"""The import document read as a stream of JSON events (ijson), one whole value at a time, refused past its
limit in bytes or in depth."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import ijson

from campaigns.errors import RuleViolation
from core.api.parsers import MAX_JSON_DEPTH
from dugout.importer.checks import TooLarge, bad


class Limited:
    """The request body, refused past MAX_BYTES as it is read."""

    def __init__(self, stream, limit: int):
        self.stream, self.left, self.limit = stream, limit, limit

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(65536 if size is None or size < 0 else size)
        self.left -= len(data)
        if self.left < 0:
            raise TooLarge(f"The document is longer than {self.limit:,} bytes.")
        return data


class Events:
    """The document's JSON events, read as they come, with a builder of one whole value at a time."""

    def __init__(self, stream):
        self._events = ijson.basic_parse(stream, use_float=True)
        self.path = ""
        #: How deep the document is open here: past the API's limit (core/api/parsers.py) it is refused, so
        #: neither the builder nor the checks ever recurse far.
        self.depth = 0

    def next(self) -> tuple[str, Any]:
        try:
            event = next(self._events)
            if event[0] in ("start_map", "start_array"):
                self.depth += 1
                if self.depth > MAX_JSON_DEPTH:
                    raise RuleViolation(f"JSON nested deeper than {MAX_JSON_DEPTH} levels.")
            elif event[0] in ("end_map", "end_array"):
                self.depth -= 1
            return event
        except StopIteration:
            raise bad(self.path, "The document ends too early.") from None
        except ijson.JSONError as error:
            raise bad(self.path, f"The document is not valid JSON here ({error}).") from None

    def trailing(self) -> bool:
        """Whether anything follows the document's end."""
        try:
            next(self._events)
        except StopIteration:
            return False
        except ijson.JSONError:
            return True
        return True

    def value(self, first: tuple[str, Any] | None = None) -> Any:
        """One whole JSON value (an object or array built in memory: call it on records, not sections)."""
        event, value = first or self.next()
        if event not in ("start_map", "start_array"):
            if event in ("end_map", "end_array", "map_key"):
                raise bad(self.path, "A value is missing here.")
            return value
        builder = ijson.ObjectBuilder()
        builder.event(event, value)
        depth = 1
        while depth:
            event, value = self.next()
            builder.event(event, value)
            depth += event in ("start_map", "start_array")
            depth -= event in ("end_map", "end_array")
        return builder.value

    def items(self, path: str) -> Iterator[tuple[str, Any]]:
        """The (path, record) of each item of the array that comes next."""
        self.path = path
        event, _ = self.next()
        if event != "start_array":
            raise bad(path, "Expected a list.")
        index = 0
        while True:
            first = self.next()
            if first[0] == "end_array":
                return
            self.path = f"{path}[{index}]"
            yield self.path, self.value(first)
            index += 1

    def members(self, path: str) -> Iterator[tuple[str, str, Any]]:
        """The (path, key, value) of each member of the object that comes next."""
        self.path = path
        event, _ = self.next()
        if event != "start_map":
            raise bad(path, "Expected an object.")
        while True:
            event, key = self.next()
            if event == "end_map":
                return
            self.path = f"{path}[{key!r}]" if path else key
            yield self.path, key, self.value()
