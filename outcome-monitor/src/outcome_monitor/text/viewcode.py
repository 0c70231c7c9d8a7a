"""Views compiled to closures for the check path: ``reader(view)`` reads a value as
``views.apply_view`` does, ``misread(view)`` tells whether ``views.misreads`` finds anything, and each
decides once, when a tool's check is built, which of a view's keys it has (``apply_view`` asks it of
the view's dict at every level of every check, and ``misreads`` names the path of every place it
visits). Same reading, same answer: tests/test_check_fast_paths.py sends values through both. Knows nothing
of rules or receipts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from outcome_monitor.text.frames import root_listed
from outcome_monitor.text.tables import FAIL, POS, flat_table, header_rows, name_rows
from outcome_monitor.text.views import _ROOT_KEYS, PARSERS, View, _lines, _skip, apply_view

# a value read through a view, with the call's arguments (only a root ``columns`` view reads them)
Reader = Callable[[Any, Mapping[str, Any] | None], Any]


def _same(value: Any, args: Mapping[str, Any] | None = None) -> Any:
    return value


def reader(view: View) -> Reader:
    """``lambda value, args: apply_view(view, value, args)``, its keys looked up once."""
    if any(k in view for k in _ROOT_KEYS):
        return _root_reader(view)
    kind = view.get("parse")
    if kind is not None:
        return _parse_reader(view, kind)
    if view.get("header"):
        then = reader(view["then"]) if "then" in view else None

        def read_header(value: Any, args: Mapping[str, Any] | None = None) -> Any:
            rows = header_rows(value)
            if rows is FAIL:
                return value
            return then(rows, None) if then is not None else rows

        return read_header
    tuple_ = "tuple" in view
    entries_view = view.get("entries")
    if entries_view is not None:
        entries = reader(entries_view)

        def read_entries(value: Any, args: Mapping[str, Any] | None = None) -> Any:
            if tuple_:
                if type(value) is not list:
                    return value
                value = {f"{POS}{i}": e for i, e in enumerate(value)}
            return {k: entries(v, None) for k, v in value.items()} if type(value) is dict else value

        return read_entries
    fields = [(k, reader(sub)) for k, sub in view["fields"].items()] if "fields" in view else None
    items_view = view.get("items")
    items = reader(items_view) if items_view is not None else None
    if not tuple_ and fields is None and items is None:
        return _same

    def read(value: Any, args: Mapping[str, Any] | None = None) -> Any:
        if tuple_:
            if type(value) is not list:
                return value
            value = {f"{POS}{i}": e for i, e in enumerate(value)}
        if fields is not None:
            if type(value) is not dict:
                return value
            out = dict(value)
            for k, sub in fields:
                if k in out:
                    out[k] = sub(out[k], None)
            return out
        if items is not None and type(value) is list:
            return [items(e, None) for e in value]
        return value

    return read


def _parse_reader(view: View, kind: str) -> Reader:
    if kind != "lines" and kind not in PARSERS:

        def read_unknown(value: Any, args: Mapping[str, Any] | None = None) -> Any:
            return apply_view(view, value)  # as apply_view fails, when it does

        return read_unknown
    mixed = view.get("mixed")
    # apply_view reads a non-string through view["then"] when the view is mixed and has one, and a
    # parsed string through it when it is not None
    raw_then = reader(view["then"]) if mixed and "then" in view else None
    then_view = view.get("then")
    then = reader(then_view) if then_view is not None else None
    skip = view["skip"] if "skip" in view else None
    parse = PARSERS[kind] if kind != "lines" else None

    def read_parsed(value: Any, args: Mapping[str, Any] | None = None) -> Any:
        if type(value) is not str:
            if raw_then is not None and type(value) in (list, dict):
                return raw_then(value, None)
            return value
        if skip is not None:
            value = _skip(value, skip)
        parsed = parse(value) if parse is not None else _lines(value, view)
        if parsed is FAIL:
            return value
        return then(parsed, None) if then is not None else parsed

    return read_parsed


def _root_reader(view: View) -> Reader:
    many = view.get("many")
    frame, fixed = view.get("frame"), view.get("fixed")
    inner_view = {k: v for k, v in view.items() if k not in _ROOT_KEYS}
    inner = reader(inner_view) if inner_view else None
    table = view.get("table")
    tabled = reader(view["tabled"]) if "tabled" in view else None
    has_columns = "columns" in view
    columns, star = view.get("columns", ""), view.get("star")
    named = reader(view["named"]) if has_columns and "named" in view else None
    wrap = view.get("wrap")

    def read_root(value: Any, args: Mapping[str, Any] | None = None) -> Any:
        value = root_listed(value, many, frame, fixed)
        if inner is not None:
            value = inner(value, None)
        if table and type(value) is list:
            t = flat_table(value)
            if t is not FAIL:
                value = tabled(t, None) if tabled is not None else t
        if has_columns:
            value = name_rows(value, args, columns, star)
            if named is not None:
                value = named(value, None)
        return {wrap: value} if wrap is not None and type(value) is list else value

    return read_root


def _never(value: Any) -> bool:
    return False


def misread(view: View) -> Callable[[Any], bool]:
    """``lambda value: bool(misreads(view, value))``, its keys looked up once and no path named."""
    if any(k in view for k in _ROOT_KEYS):
        many, frame, fixed = view.get("many"), view.get("frame"), view.get("fixed")
        inner_view = {k: v for k, v in view.items() if k not in _ROOT_KEYS}
        if not inner_view:
            return _never
        inner = misread(inner_view)

        def misread_root(value: Any) -> bool:
            return inner(root_listed(value, many, frame, fixed))

        return misread_root
    if "parse" in view:
        if view.get("mixed"):
            return _never
        return lambda value: value is not None and type(value) is not str
    tuple_ = "tuple" in view
    entries = misread(view["entries"]) if "entries" in view else None
    fields = [(k, misread(sub)) for k, sub in view["fields"].items()] if "fields" in view else None
    items_view = view.get("items")
    items = misread(items_view) if items_view is not None else None
    if entries is None and fields is None and items is None:
        return _never

    def misread_any(value: Any) -> bool:
        if tuple_:
            if type(value) is not list:
                return False
            value = {f"{POS}{i}": e for i, e in enumerate(value)}
        if type(value) is dict:
            if entries is not None:
                for x in value.values():
                    if entries(x):
                        return True
            if fields is not None:
                for k, sub in fields:
                    if k in value and sub(value[k]):
                        return True
        elif items is not None and type(value) is list:
            for e in value:
                if items(e):
                    return True
        return False

    return misread_any


__all__ = ["Reader", "misread", "reader"]
