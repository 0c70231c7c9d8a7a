"""The skeptic's own plausibility checks on a raw tool result (no monitor, no contracts).

Deliberately shallow, like a careful reader without domain knowledge: non-positive money or
counts, HTML markup, empty lists, an end date before its start date, an echoed identifier that
differs from what was asked. It cannot know small categorical domains or exact relations between
fields, so an outcome monitor still has room to help.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from core.players import FROM_REQUEST, ToolInfo

_POSITIVE = re.compile(r"price|amount|total|quantity|qty|balance|cost|subtotal", re.I)
_HTML = re.compile(r"<\s*/?\s*(html|head|body|title|div|p|h\d|span|br|!doctype)\b", re.I)
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")
# (start word, end word): a field named with the end word must not precede its start twin
_PAIRS = (
    ("start", "end"),
    ("checkin", "checkout"),
    ("depart", "return"),
    ("departure", "return"),
    ("departure", "arrival"),
    ("from", "to"),
    ("begin", "end"),
)


def implausible(raw: Any, args: Mapping[str, Any], tool: ToolInfo | None = None) -> str | None:
    """Why ``raw`` looks wrong to a careful reader, or None."""
    if not isinstance(raw, Mapping):
        return None
    for key, value in raw.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)) and _POSITIVE.search(key) and value <= 0:
            return f"{key} is {value}, expected a positive value"
        if isinstance(value, str) and _HTML.search(value):
            return f"{key} contains HTML markup"
        if isinstance(value, list) and not value:
            return f"{key} is an empty list"
    why = _date_order(raw)
    if why:
        return why
    return _echo_mismatch(raw, args, tool)


def _date_order(raw: Mapping[str, Any]) -> str | None:
    dates = {k: v[:10] for k, v in raw.items() if isinstance(v, str) and _DATE.match(v)}
    for key, value in dates.items():
        words = key.lower().split("_")
        for start, end in _PAIRS:
            if end in words:
                twin = "_".join(start if w == end else w for w in words)
                if twin in dates and value < dates[twin]:
                    return f"{key} {value} is before {twin} {dates[twin]}"
    return None


def _echo_mismatch(raw: Mapping[str, Any], args: Mapping[str, Any], tool: ToolInfo | None) -> str | None:
    canonical = {p.name: p.key for p in tool.params if p.source == FROM_REQUEST} if tool else {}
    for name, value in args.items():
        for key in {name, canonical.get(name, name)}:
            if key in raw and isinstance(raw[key], (str, int)) and not isinstance(raw[key], bool):
                if str(raw[key]).strip().lower() != str(value).strip().lower():
                    return f"{key} is {raw[key]!r} but the call asked for {value!r}"
    return None
