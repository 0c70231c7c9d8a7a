"""Rules in words: the pieces a rule's receipt and sentence are written from (a derived field or a
context's element named plainly, a type with its article, values as JSON writes them, a known list
cut short, a number). Knows nothing about checking.
"""

from __future__ import annotations

import json
from typing import Any

from outcome_monitor.checking.paths import display_path
from outcome_monitor.checking.values import MISSING

# a receipt lists at most this many known values of a domain (a database's states: dozens)
MAX_LISTED = 10


_PLAIN_DERIVED = {
    "len": "the number of elements of {}",
    "sum": "the sum of {}",
    "keys": "the keys of {}",
    "each": "every {}",
}


def plain_name(context: str, f: str) -> str | None:
    """A derived field or a context's element in words (``the number of elements of items``,
    ``each element of items``), or None where the path words already read plainly."""
    for fn, words in _PLAIN_DERIVED.items():
        if f.startswith(fn + "(") and f.endswith(")"):
            return words.format(display_path(context, f[len(fn) + 1 : -1]).removeprefix("$."))
    if f == "" and context != "$":
        where = context.removeprefix("$").removeprefix(".")
        if where.endswith("[*]"):
            return f"each element of {where[:-3] or 'the result'}"
        if where.endswith(".*"):
            return f"each entry of {where[:-2]}"
    return None


def article(t: str) -> str:
    return {"integer": "an integer", "object": "an object", "array": "an array", "null": "null"}.get(
        t, f"a {t}"
    )


def json_word(v: Any) -> str:
    """A value as JSON writes it (``true``, ``null``, ``"delivered"``): receipts are read beside JSON
    results, where Python's ``True`` or ``'delivered'`` would read as another value."""
    try:
        return json.dumps(v, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(v)


def listed(values: list[Any]) -> str:
    """Known values for a receipt: all of a short domain, the first ``MAX_LISTED`` of a long one."""
    shown = ", ".join(json_word(v) for v in values[:MAX_LISTED])
    more = len(values) - MAX_LISTED
    return shown if more <= 0 else f"{shown} (or {more} other known values)"


def number_word(x: float) -> str:
    return f"{x:.6g}"


def jsonable(v: Any) -> Any:
    return "<missing>" if v is MISSING else v
