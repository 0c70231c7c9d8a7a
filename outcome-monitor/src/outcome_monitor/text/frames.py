"""Framed lists: what a server puts around the answer. Many servers send several content blocks: a
sentence first (``Here are the results ...``), then one block of JSON per thing asked, then a
closing sentence; or a command's output, then ``Command completed with return code: 0``. Read as
one list, its elements are of two kinds and no element rule applies; read as ``{"head0": <first>,
"items": [<the rest>], "tail0": <last>}``, each end keeps rules of its own by position and the
answer's elements theirs (required fields, types, signs), and ``len(items)`` is a length like any
other.

A frame is learned two ways, each where every clean result agrees (``MIN_FRAMED`` distinct ones):

* records between scalars: ``h`` scalars, then one or more objects, then ``t`` scalars;
* fixed ends: the last (or first) element of every result is text starting with the same words
  (8 characters or more, cut before the first digit: a return code or a count varies), and no
  other element starts so.

Where the ends' texts share such a start (``fixed``), the framed end holds what follows it (the
return code), read on like any value; a result whose end no longer starts so is not framed: it
stays a list, and the root's type rule (an object) speaks for the frame broken (a status line
dropped, cut short or replaced). Used by ``views``; knows nothing of rules.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

ITEMS = "items"
HEAD = "head"
TAIL = "tail"
MIN_FRAMED = 3  # distinct clean results framed the same way before a view reads them so
MIN_FIXED = 8  # characters of an end's fixed start (not counting spaces)
_DIGIT = re.compile(r"\d")


def _ends(value: list[Any]) -> tuple[int, int] | None:
    """How many elements come before the first object and after the last; None without an object
    or with anything but objects between them."""
    objects = [i for i, e in enumerate(value) if type(e) is dict]
    if not objects:
        return None
    first, last = objects[0], objects[-1]
    if len(objects) != last - first + 1:
        return None
    return first, len(value) - 1 - last


def _fixed_start(texts: list[Any]) -> str | None:
    """The start every text shares, cut before its first digit, if 8 characters or more."""
    if not texts or any(type(t) is not str for t in texts):
        return None
    start = os.path.commonprefix(texts)
    digit = _DIGIT.search(start)
    if digit is not None:
        start = start[: digit.start()]
    return start if len(start.strip()) >= MIN_FIXED else None


def _records_frame(lists: list[list[Any]]) -> tuple[int, int] | None:
    ends = {_ends(r) for r in lists}
    if len(ends) != 1 or None in ends:
        return None
    (h, t) = next(iter(ends))  # type: ignore[misc]
    if h + t == 0 or any(type(e) in (list, dict) for r in lists for e in (*r[:h], *r[len(r) - t :])):
        return None
    return h, t


def _fixed_frame(lists: list[list[Any]]) -> tuple[int, int, dict[str, str]] | None:
    """Fixed ends around scalars: a last (or first) text every result ends (or starts) with."""
    if any(not r or any(type(e) in (list, dict) for e in r) for r in lists):
        return None
    fixed: dict[str, str] = {}
    tail = _fixed_start([r[-1] for r in lists])
    if tail is not None and not any(type(e) is str and e.startswith(tail) for r in lists for e in r[:-1]):
        fixed[f"{TAIL}0"] = tail
    t = 1 if fixed else 0
    if all(len(r) > t for r in lists):
        head = _fixed_start([r[0] for r in lists])
        if head is not None and not any(type(e) is str and e.startswith(head) for r in lists for e in r[1:]):
            fixed[f"{HEAD}0"] = head
    if not fixed:
        return None
    return (1 if f"{HEAD}0" in fixed else 0), t, fixed


def infer_frame(results: Sequence[Any]) -> dict[str, Any] | None:
    """``{"frame": [h, t]}`` (with ``"fixed": {end: start}`` where ends share a fixed start) where
    every clean result is framed one of the two ways above; else None."""
    lists = [r for r in results if r is not None]
    if not lists or any(type(r) is not list for r in lists) or len({repr(r) for r in lists}) < MIN_FRAMED:
        return None
    around = _records_frame(lists)
    if around is not None:
        h, t = around
        fixed = {}
        for i in range(h):
            start = _fixed_start([r[i] for r in lists])
            if start is not None:
                fixed[f"{HEAD}{i}"] = start
        for j in range(t):
            start = _fixed_start([r[len(r) - t + j] for r in lists])
            if start is not None:
                fixed[f"{TAIL}{j}"] = start
        return {"frame": [h, t], **({"fixed": fixed} if fixed else {})}
    ends = _fixed_frame(lists)
    if ends is None:
        return None
    h, t, fixed = ends
    return {"frame": [h, t], "fixed": fixed}


def framed(value: Any, frame: Sequence[int], fixed: Mapping[str, str] | None = None) -> Any:
    """``value`` read through ``frame``: its first ``h`` and last ``t`` elements by position, the rest
    under ``items``. A list too short for its frame, one whose fixed ends no longer start as they
    did, or anything else, stays as it is (the rules learned on the framed reading then speak: the
    root is no longer an object)."""
    h, t = frame
    if type(value) is not list or len(value) < h + t:
        return value
    out: dict[str, Any] = {f"{HEAD}{i}": value[i] for i in range(h)}
    out[ITEMS] = value[h : len(value) - t]
    out.update({f"{TAIL}{j}": value[len(value) - t + j] for j in range(t)})
    if fixed:
        for end, start in fixed.items():
            got = out.get(end)
            if type(got) is not str or not got.startswith(start):
                return value
            out[end] = got[len(start) :]  # the frame holds the fixed start: what varies is read on
    return out


def root_listed(value: Any, many: Any, frame: Sequence[int] | None, fixed: Mapping[str, str] | None) -> Any:
    """A tool's result as a root view reads it first: one value alone as a list of one where the
    view reads lists (``many``), then through its frame, if any."""
    if many and value is not None and type(value) is not list:
        value = [value]
    return framed(value, frame, fixed) if frame is not None else value


def broken_end(view: Mapping[str, Any], value: Any) -> tuple[str, str] | None:
    """``(end, start)`` of the first fixed end a list no longer starts with (a root view's ``frame``
    and ``fixed``, a lone value read as a list of one where ``many``); None where it frames or the
    view has no fixed ends."""
    fixed = view.get("fixed")
    if not fixed or "frame" not in view:
        return None
    value = root_listed(value, view.get("many"), None, None)
    if type(value) is not list or framed(value, view["frame"], fixed) is not value:
        return None
    h, t = view["frame"]
    for end, start in fixed.items():
        i = (
            int(end.removeprefix(HEAD))
            if end.startswith(HEAD)
            else len(value) - t + int(end.removeprefix(TAIL))
        )
        got = value[i] if 0 <= i < len(value) and len(value) >= h + t else None
        if type(got) is not str or not got.startswith(start):
            return end, start
    return None


__all__ = ["broken_end", "framed", "infer_frame", "root_listed"]
