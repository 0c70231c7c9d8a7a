"""Python ``repr`` text that is not a literal, read without ``eval``.

A SQL tool that prints its rows with Python's ``repr`` writes ``[(1, datetime.date(2025, 3, 1),
Decimal('12.50'))]``: ``ast.literal_eval`` refuses the constructor calls, so the rows would stay
unread text. ``read_repr`` walks the syntax tree itself and reads a short list of constructor calls
to the values they print: dates and times as ISO strings, ``Decimal`` as a number, ``UUID`` as its
string, ``timedelta`` as seconds. Any other call, name or operator makes the text unreadable
(``FAIL``): nothing is ever evaluated or imported.
"""

from __future__ import annotations

import ast
import datetime as dt
import decimal
import math
import uuid
from collections.abc import Callable
from typing import Any

FAIL: Any = type("Unreadable", (), {"__repr__": lambda self: "<unreadable repr>"})()
MAX_REPR_CHARS = 200_000  # parsing a huge text costs more than it tells
_DEPTH = 40


class _Unreadable(Exception):
    pass


def read_repr(text: str) -> Any:
    """A Python container printed by ``repr`` (with ``datetime``/``Decimal``/``UUID`` calls) as JSON
    holds it (tuples as lists), or ``FAIL``."""
    s = text.strip()
    if not s or s[0] not in "[({" or len(s) > MAX_REPR_CHARS:
        return FAIL
    try:
        tree = ast.parse(s, mode="eval")
        return _value(tree.body, 0)
    except (_Unreadable, SyntaxError, ValueError, TypeError, MemoryError, RecursionError, OverflowError):
        return FAIL


def _value(node: ast.AST, depth: int) -> Any:
    if depth > _DEPTH:
        raise _Unreadable
    if isinstance(node, ast.Constant):
        return _constant(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _value(node.operand, depth + 1)
        if type(v) not in (int, float):
            raise _Unreadable
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(e, depth + 1) for e in node.elts]
    if isinstance(node, ast.Dict):
        out: dict[str, Any] = {}
        for k, v in zip(node.keys, node.values, strict=True):
            if k is None:
                raise _Unreadable  # ``**spread``
            key = _value(k, depth + 1)
            if type(key) is not str:
                if type(key) not in (int, float, bool) and key is not None:
                    raise _Unreadable
                key = _json_key(key)
            out[key] = _value(v, depth + 1)
        return out
    if isinstance(node, ast.Call):
        return _call(node)
    raise _Unreadable


def _json_key(k: Any) -> str:
    # as parse.py keys a literal's non-string keys: as JSON writes them
    return "null" if k is None else "true" if k is True else "false" if k is False else repr(k)


def _constant(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float) and math.isfinite(v):
        return v
    raise _Unreadable  # bytes, complex, Ellipsis, inf


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    raise _Unreadable


def _ints(node: ast.Call, most: int) -> list[int]:
    if len(node.args) > most:
        raise _Unreadable
    out = []
    for a in node.args:
        v = _value(a, 0)
        if type(v) is not int:
            raise _Unreadable
        out.append(v)
    return out


def _kw_ints(node: ast.Call, allowed: tuple[str, ...]) -> dict[str, int]:
    out = {}
    for kw in node.keywords:
        if kw.arg not in allowed:
            raise _Unreadable
        v = _value(kw.value, 0)
        if type(v) is not int:
            raise _Unreadable
        out[kw.arg] = v
    return out


def _one_string(node: ast.Call) -> str:
    if len(node.args) != 1 or node.keywords:
        raise _Unreadable
    v = _value(node.args[0], 0)
    if type(v) is not str:
        raise _Unreadable
    return v


def _fields(node: ast.Call, names: tuple[str, ...], required: int) -> list[int]:
    """The integer arguments of a constructor by position or name, in ``names``' order (0 where an
    optional one is left out); a missing required one, or one given twice, is unreadable."""
    vals: list[int | None] = [*_ints(node, len(names)), *[None] * len(names)][: len(names)]
    for k, v in _kw_ints(node, names).items():
        i = names.index(k)
        if vals[i] is not None:
            raise _Unreadable
        vals[i] = v
    if any(v is None for v in vals[:required]):
        raise _Unreadable
    return [v or 0 for v in vals]


def _date(node: ast.Call) -> str:
    y, m, d = _fields(node, ("year", "month", "day"), 3)
    return dt.date(y, m, d).isoformat()


_TIME = ("hour", "minute", "second", "microsecond")


def _timezone(node: ast.Call) -> dt.tzinfo | None:
    """``tzinfo=datetime.timezone.utc`` or ``tzinfo=datetime.timezone(datetime.timedelta(...))``;
    any other zone (``zoneinfo.ZoneInfo(...)``, pytz's reprs) is not read."""
    tz = [kw for kw in node.keywords if kw.arg == "tzinfo"]
    if not tz:
        return None
    v = tz[0].value
    if isinstance(v, ast.Attribute) and _dotted(v).split(".")[-2:] == ["timezone", "utc"]:
        return dt.UTC
    if isinstance(v, ast.Call) and _dotted(v.func).split(".")[-1] == "timezone" and len(v.args) == 1:
        inner = v.args[0]
        if isinstance(inner, ast.Call) and _dotted(inner.func).split(".")[-1] == "timedelta":
            return dt.timezone(dt.timedelta(seconds=_timedelta(inner)))
    raise _Unreadable


def _without_tz(node: ast.Call) -> ast.Call:
    return ast.Call(node.func, node.args, [kw for kw in node.keywords if kw.arg != "tzinfo"])


def _datetime(node: ast.Call) -> str:
    tz = _timezone(node)
    y, mo, d, h, mi, s, us = _fields(_without_tz(node), ("year", "month", "day", *_TIME), 3)
    return dt.datetime(y, mo, d, h, mi, s, us, tzinfo=tz).isoformat()


def _time(node: ast.Call) -> str:
    tz = _timezone(node)
    h, mi, s, us = _fields(_without_tz(node), _TIME, 0)
    return dt.time(h, mi, s, us, tzinfo=tz).isoformat()


def _timedelta(node: ast.Call) -> float | int:
    kw = _kw_ints(node, ("days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks"))
    seconds = dt.timedelta(*_ints(node, 3), **kw).total_seconds()
    return int(seconds) if seconds.is_integer() else seconds


def _decimal(node: ast.Call) -> float | int:
    try:
        d = decimal.Decimal(_one_string(node))
    except decimal.InvalidOperation as exc:
        raise _Unreadable from exc
    if not d.is_finite():
        raise _Unreadable
    # Decimal('12.50') is a price: a number, as JSON would carry it
    return int(d) if d == d.to_integral_value() and d.as_tuple().exponent == 0 else float(d)


def _uuid(node: ast.Call) -> str:
    return str(uuid.UUID(_one_string(node)))


_CALLS: dict[str, Callable[[ast.Call], Any]] = {
    "date": _date,
    "datetime": _datetime,
    "time": _time,
    "timedelta": _timedelta,
    "Decimal": _decimal,
    "UUID": _uuid,
}
# the modules these constructors print under (``datetime.date``, ``decimal.Decimal``) or none
_MODULES = {"date": "datetime", "datetime": "datetime", "time": "datetime", "timedelta": "datetime",
            "Decimal": "decimal", "UUID": "uuid"}  # fmt: skip


def _call(node: ast.Call) -> Any:
    name = _dotted(node.func)
    *module, last = name.split(".")
    read = _CALLS.get(last)
    if read is None or (module and module != [_MODULES[last]]):
        raise _Unreadable
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        raise _Unreadable
    return read(node)


__all__ = ["FAIL", "read_repr"]
