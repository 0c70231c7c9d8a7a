"""Records printed as blocks of ``key: value`` lines: a SQL tool's rows one field per line (``1. row``,
``id: 67``, ``title: The Copper House``, a blank line, the next row), a directory's entries, a
list of contacts. Read as ``{"records": [{...}, ...], "text": <the rest>}`` (and the rest's own
``key: value`` lines as fields: ``Result: 6 rows``), each record's values are read again by the
views (numbers, dates), so rows keep types, signs and domains and ``len(records)`` is a length.

A block is a record where at least two of its lines are ``key: value`` lines and every other line
but a first header line (``1. row``, ``Row 3``, ``--- entry ---``) is one too. A text without such
blocks reads as no records and its text (a write's ``Success: 1 rows affected``), so every text of
a tool that prints rows reads the same way. Learned (``consistent``) where ``MIN_DISTINCT`` texts
held records and at least half of them did. Used by ``views``; knows nothing of rules.
"""

from __future__ import annotations

import re
from typing import Any

RECORDS = "records"
TEXT = "text"
MIN_DISTINCT = 3
MAX_TEXT = 200_000
_KEY = re.compile(
    r"^\s*([A-Za-z_][\w .()/-]{0,40}?)\s*:\s+(.*?)\s*$|^\s*([A-Za-z_][\w .()/-]{0,40}?)\s*:\s*$"
)
_BLOCKS = re.compile(r"\n\s*\n")


def _pair(line: str) -> tuple[str, str] | None:
    m = _KEY.match(line)
    if m is None:
        return None
    return (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), "")


def _record(lines: list[str]) -> dict[str, str] | None:
    pairs = [_pair(ln) for ln in lines]
    body = pairs[1:] if pairs and pairs[0] is None else pairs
    if len(body) < 2 or any(p is None for p in body):
        return None
    out: dict[str, str] = {}
    for p in body:
        assert p is not None
        if p[0] in out:
            return None
        out[p[0]] = p[1]
    return out


def read_records(text: str, fail: Any) -> Any:
    """``text`` as records and the rest (above), or ``fail`` past ``MAX_TEXT``."""
    if type(text) is not str or len(text) > MAX_TEXT:
        return fail
    records: list[dict[str, str]] = []
    rest: list[str] = []
    for block in _BLOCKS.split(text.strip("\n")):
        lines = [ln for ln in block.splitlines() if ln.strip()]
        rec = _record(lines) if lines else None
        if rec is not None:
            records.append(rec)
        else:
            rest.extend(lines)
    out: dict[str, Any] = {RECORDS: records}
    other: list[str] = []
    for ln in rest:
        p = _pair(ln)
        if p is not None and p[0] not in (RECORDS, TEXT) and p[0] not in out:
            out[p[0]] = p[1]
        else:
            other.append(ln)
    out[TEXT] = "\n".join(other)
    return out


def consistent(parsed: list[Any]) -> bool:
    """Records in ``MIN_DISTINCT`` of the distinct texts and in at least half of them."""
    held = sum(bool(p[RECORDS]) for p in parsed)
    return held >= MIN_DISTINCT and 2 * held >= len(parsed)


__all__ = ["RECORDS", "TEXT", "consistent", "read_records"]
