"""Framed lists: records between sentences. A server that answers in several content blocks often
puts a sentence first (``Here are the results ...``), then one block of JSON per thing asked, then
a closing sentence. Read as one list, its elements are of two kinds and no element rule applies;
read as ``{"head0": <sentence>, "items": [<records>], "tail0": <sentence>}``, each sentence keeps
its own text rules and the records theirs (required fields, types, signs, echoes of the paths
asked), and ``len(items)`` is a length like any other. Used by ``views``; knows nothing of rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

ITEMS = "items"
HEAD = "head"
TAIL = "tail"
MIN_FRAMED = 3  # distinct clean results framed the same way before a view reads them so


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


def infer_frame(results: Sequence[Any]) -> list[int] | None:
    """``[h, t]`` where every clean result is a list of ``h`` scalars, then one or more objects, then
    ``t`` scalars (h + t > 0), with at least ``MIN_FRAMED`` distinct results; else None."""
    lists = [r for r in results if r is not None]
    if not lists or any(type(r) is not list for r in lists):
        return None
    ends = {_ends(r) for r in lists}
    if len(ends) != 1 or None in ends:
        return None
    (h, t) = next(iter(ends))  # type: ignore[misc]
    if h + t == 0:
        return None
    if any(type(e) in (list, dict) for r in lists for e in (*r[:h], *r[len(r) - t :])):
        return None
    if len({repr(r) for r in lists}) < MIN_FRAMED:
        return None
    return [h, t]


def framed(value: Any, frame: Sequence[int]) -> Any:
    """``value`` read through ``frame``: its first ``h`` and last ``t`` elements by position, the rest
    under ``items``. A list too short for its frame, or anything else, stays as it is (the rules
    learned on the framed reading then speak: the root is no longer an object)."""
    h, t = frame
    if type(value) is not list or len(value) < h + t:
        return value
    out: dict[str, Any] = {f"{HEAD}{i}": value[i] for i in range(h)}
    out[ITEMS] = value[h : len(value) - t]
    out.update({f"{TAIL}{j}": value[len(value) - t + j] for j in range(t)})
    return out


__all__ = ["infer_frame", "framed"]
