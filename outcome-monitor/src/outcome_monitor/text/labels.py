"""A number read out of a string only where its name never held a string that reads as no number (wide
vocabulary). mqtt-spec's outline showed ``parent.section`` as "3.2" or "5" on every clean call, read as
a number; ``sections[*].section`` beside it held "4.7.1": a section's label, that a parent one level
deeper breaks. A field of the same name, anywhere in the tool's results, speaks for the place, and so
does a field whose every value such a label held (``sections[*].parent``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from outcome_monitor.text.views import FAIL, PARSERS, View, apply_view

_NUMERIC = ("number", "quantity")
_NESTED = ("then", "items", "entries", "named", "tabled")


def _unread_names(read: Sequence[Any]) -> set[str]:
    """Keys whose value was, somewhere, a string no number parser reads (a label), and keys whose
    every string was one such a label held (``sections[*].parent`` naming sections by their labels)."""
    values: dict[str, set[str]] = {}
    names: set[str] = set()
    stack: list[Any] = list(read)
    while stack:
        x = stack.pop()
        if type(x) is dict:
            for k, v in x.items():
                if type(v) is str:
                    values.setdefault(str(k), set()).add(v)
                    if v.strip() and all(PARSERS[p](v) is FAIL for p in _NUMERIC):
                        names.add(str(k))
                elif type(v) in (dict, list):
                    stack.append(v)
        elif type(x) is list:
            stack.extend(x)
    labels = set().union(*(values[k] for k in names)) if names else set()
    return names | {k for k, vs in values.items() if vs and vs <= labels}


def _drop(view: View, names: set[str] | None) -> View | None:
    """``view`` without the number reads of fields named in ``names`` (of every field: None)."""
    out = dict(view)
    for key in _NESTED:
        if type(out.get(key)) is dict:
            sub = _drop(out[key], names)
            if sub is None:
                del out[key]
            else:
                out[key] = sub
    if "fields" in out:
        fields = {}
        for k, sub in out["fields"].items():
            numeric = sub.get("parse") in _NUMERIC and (names is None or k in names)
            kept = None if numeric else _drop(sub, names)
            if kept is not None:
                fields[k] = kept
        if fields:
            out["fields"] = fields
        else:
            del out["fields"]
    return out or None


def namesake_numbers(view: View | None, results: Sequence[Any]) -> View | None:
    """``view`` without the number reads of fields whose name held a string no number (``_unread_names``,
    in the results as ``view`` reads them, numbers left as text)."""
    if view is None:
        return None
    # read with every number left as its text: a label's values and the strings that echo them meet
    texts = _drop(view, None)
    if texts == view:  # no field read as a number: nothing to drop, no second pass over the results
        return view
    names = _unread_names([apply_view(texts, r) if texts else r for r in results if r is not None])
    return _drop(view, names) if names else view


__all__ = ["namesake_numbers"]
