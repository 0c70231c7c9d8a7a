"""Value helpers shared by mining and checking: JSON type names, date keys, numeric precision, the
band a spread of numbers keeps (``band_bound``, ``halves_agree``: numeric bands, text lengths).

Pure functions of one value; no knowledge of rules, tools or environments.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from collections.abc import Sequence
from typing import Any, TypeGuard

# Sentinel for "field absent" (distinct from a JSON null).
MISSING: Any = type("Missing", (), {"__repr__": lambda self: "<missing>", "__bool__": lambda self: False})()

# ISO-8601 dates and datetimes, compiled once at import (never per check).
_DATE_RE = re.compile(
    r"^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$"
)


def json_type(value: Any) -> str:
    """The JSON type name of a Python value ("integer" for ints, "number" for floats)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return "unknown"


def is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def same_value(a: Any, b: Any) -> bool:
    """Numbers within a relative 1e-9 (a float copied through arithmetic), anything else of one type and equal."""
    if is_number(a) and is_number(b):
        return abs(a - b) <= 1e-9 * max(1.0, abs(b))
    return type(a) is type(b) and a == b


def date_key(value: Any) -> str | None:
    """A string that orders like the instant ``value`` names, or None when it is not an ISO date.

    A bare date sorts before any time on that day; offsets are ignored (same-zone assumption).
    """
    if not isinstance(value, str) or len(value) < 10 or len(value) > 40:
        return None
    m = _DATE_RE.match(value)
    if m is None:
        return None
    time = m.group(2) or ""
    if len(time) == 5:
        time += ":00"
    return m.group(1) + time


def key_day(key: str) -> int | None:
    """The day number (proleptic ordinal) of a ``date_key``'s date part, or None for no real date."""
    return _day(key[:10])


@functools.lru_cache(maxsize=1 << 16)  # bounded, as the date keys are
def _day(date: str) -> int | None:
    try:
        return dt.date(int(date[:4]), int(date[5:7]), int(date[8:10])).toordinal()
    except ValueError:
        return None


def days_over(ka: str, kb: str, most: int) -> bool:
    """Whether the date of key ``kb`` falls more than ``most`` days after that of key ``ka``."""
    if ka[:10] == kb[:10]:
        return False  # one day (the common case of a pair checked: no memo lookup)
    da, db = key_day(ka), key_day(kb)
    return da is not None and db is not None and db - da > most


class _DateKeys(dict[str, str | None]):
    """``date_key`` of strings, memoized: mining and checking see the same few dates again and
    again. Bounded: cleared when full."""

    MAX = 1 << 17

    def __missing__(self, value: str) -> str | None:
        if len(self) >= self.MAX:
            self.clear()
        k = self[value] = date_key(value)
        return k


_DATE_KEYS = _DateKeys()


def cached_date_key(value: Any) -> str | None:
    """``date_key``, memoized for strings (the only values that can be dates)."""
    return _DATE_KEYS[value] if type(value) is str else date_key(value)


def quantum(value: Any) -> float:
    """The rounding step a displayed number suggests (0.01 for 12.25, 1 for 7, 0 when unrounded)."""
    if isinstance(value, int):
        return 1.0
    text = repr(float(value))
    if "e" in text or "E" in text:
        return 0.0
    decimals = len(text.split(".")[1].rstrip("0")) if "." in text else 0
    return 0.0 if decimals > 6 else 10.0**-decimals


def merge_types(types: set[str]) -> frozenset[str]:
    """Integers observed beside floats widen to "number" (JSON has one numeric type)."""
    if "integer" in types and "number" in types:
        types = (types - {"integer"}) | {"number"}
    return frozenset(types)


def type_ok(value: Any, allowed: frozenset[str]) -> bool:
    t = json_type(value)
    return t in allowed or (t == "integer" and "number" in allowed)


def supplied(v: Any, args: Any) -> bool:
    """Whether the call's own arguments hold ``v`` (a leaf anywhere in them): a value the caller
    wrote (a new passenger's name, a new address's city) is the caller's, not outside the domain
    the results showed. Looked up only when a value is outside its domain."""
    if type(args) is dict:
        return any(supplied(v, a) for a in args.values())
    if type(args) is list:
        return any(supplied(v, a) for a in args)
    return args == v and type(args) is type(v)


def quoted(v: str, args: Any) -> bool:
    """Whether a string argument holds ``v`` past its first character (a URL's query, a path's leaf, a
    name inside a sentence): a part of what the caller wrote, read back. A prefix is not enough, as
    a value cut short is one."""
    if type(args) is dict:
        return any(quoted(v, a) for a in args.values())
    if type(args) is list:
        return any(quoted(v, a) for a in args)
    return type(args) is str and len(v) >= QUOTED_MIN and args.find(v, 1) > 0


QUOTED_MIN = 3  # shorter parts of an argument are letters, not a value read back


def asked(v: str, args: Any) -> bool:
    """A value the call's arguments hold, whole or as a part past an argument's start (a URL's query
    string parsed back from the URL asked about): the caller's, whatever shape or words the clean
    values had."""
    return supplied(v, args) or quoted(v, args)


_WORDLIKE = re.compile(r"^(?:[a-z][a-z0-9_ ./+-]{0,39}|[A-Z]{1,4}|[A-Z][a-z]+(?: [A-Za-z]+)*)$")


def id_like(value: Any) -> bool:
    """A constant that reads like an identifier (``HATHAT``, ``W0100123``, a hash) rather than a word
    of a vocabulary (``cancelled``, ``image/png``, ``USD``, ``Economy``): seen constant in a sample,
    an identifier says only that the sample asked about one thing."""
    if type(value) is not str:
        return False
    return not _WORDLIKE.match(value) or any(c.isdigit() for c in value) and not value.islower()


def id_named(field: str) -> bool:
    """A field named as an identifier (``id``, ``order_id``, ``userId``), or a sum over one."""
    if field.startswith("sum(") and field.endswith(")"):
        field = field[4:-1]
    leaf = field.rsplit(".", 1)[-1]
    return leaf == "id" or leaf.endswith(("_id", "Id", "ID"))


_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def words_of(field: str) -> list[str]:
    """The words of a field's leaf name, lowercased (``unknown``, ``words`` of ``unknown_words``)."""
    return [w.lower() for w in _WORDS.findall(field.rpartition(".")[2])]


def last_word(field: str) -> str:
    """The last word of a field's leaf name, lowercased (``score`` of ``parameters.mismatch_score``,
    ``month`` of ``startMonth``)."""
    words = words_of(field)
    return words[-1] if words else ""


def band_bound(values: Sequence[float]) -> tuple[float, float] | None:
    """``(lo - w, hi + w)`` of values in a band away from zero, else None."""
    lo, hi = min(values), max(values)
    width = hi - lo
    if width <= 0 or lo - width <= 0:
        return None
    return lo - width, hi + width


def halves_agree(distinct: Sequence[float]) -> bool:
    """Each half of the sorted distinct values inside the bound the other half gives."""
    halves = (distinct[0::2], distinct[1::2])
    for train, held in (halves, halves[::-1]):
        bound = band_bound(train)
        if bound is None or not all(bound[0] <= v <= bound[1] for v in held):
            return False
    return True
