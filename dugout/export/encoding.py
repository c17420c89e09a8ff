"""The export's JSON plumbing: DRF's JSON written by orjson a batch of records at a time, and the pages and
batches the sections read and encode in (docs/decisions/, 2026-12-01 "The export in batches through orjson")."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import orjson
from rest_framework.utils.encoders import JSONEncoder

# The same JSON as DRF's renderer writes for a `Response` (UNICODE_JSON, COMPACT_JSON, STRICT_JSON).
_encoder = JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
# orjson writes what json writes (compact, UTF-8, keys in order); datetimes and everything it does not know
# natively go to DRF's encoder's `default`.
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def dumps(value) -> bytes:
    """`value` as DRF's renderer writes it, in UTF-8. A value orjson refuses (a key that is not a string, an
    integer past 64 bits, nesting past 254 levels) is written by DRF's encoder itself, which also raises what
    DRF would."""
    try:
        return orjson.dumps(value, default=_encoder.default, option=_OPTIONS)
    except orjson.JSONEncodeError:
        return _encoder.encode(value).encode()


def json_array(records: Iterable, batch: int) -> Iterator[bytes]:
    """A JSON array of the records, encoded `batch` at a time as they are made (one orjson call a batch): a
    record's objects, its parsed JSON above all, live only until its batch is written, so the cyclic garbage
    collector rarely meets them (pages of parsed records kept alive were half the export's time in it)."""
    yield b"["
    comma = b""
    for group in batches(records, batch):
        yield comma + dumps(group)[1:-1]  # the batch's records, without its own brackets
        comma = b","
    yield b"]"


def json_object(members: Iterable[tuple[str, object]], batch: int) -> Iterator[bytes]:
    """A JSON object of the (key, value) members, encoded `batch` at a time as they are made."""
    yield b"{"
    comma = b""
    for group in batches(members, batch):
        yield comma + dumps(dict(group))[1:-1]
        comma = b","
    yield b"}"


def pages(ids: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def batches(rows: Iterable, size: int) -> Iterator[list]:
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
