"""Maps keyed by ids (``$.variants`` keyed by item id, ``$.payment_methods`` keyed by method id),
detected from the shape of a tool's results, never from names; ``collect`` then mines a map's
entries as one context of their own (``$.variants.*``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from outcome_monitor.checking.paths import ENTRIES, ROOT
from outcome_monitor.learning.executions import Execution
from outcome_monitor.thresholds import DEFAULT, Thresholds


def detect_maps(results: Iterable[Any], th: Thresholds = DEFAULT) -> dict[str, frozenset[str]]:
    """The objects of a tool's results that are maps keyed by ids, by path (``$.variants``,
    ``$.items[*].options``), each with the keys frequent enough to keep rules of their own.

    Decided from shape alone, over every object found at one path: many distinct keys
    (``min_presence`` or more), each object holding few of them (on average at most
    ``map_key_share`` of all keys: a record repeats its field names, a map's keys come and go),
    and values of one shape (all objects sharing a key, or all scalars of one type). A key present
    in ``min_presence`` objects or more also keeps its own rules (``options.color``)."""
    maps: dict[str, frozenset[str]] = {}
    _detect(ROOT, list(results), maps, th)
    return maps


def _detect(path: str, objs: list[Any], maps: dict[str, frozenset[str]], th: Thresholds) -> None:
    dicts: list[dict[Any, Any]] = []
    items: list[Any] = []
    for o in objs:
        t = type(o)
        if t is dict:
            dicts.append(o)
        elif t is list:
            items.extend(o)
    if items:
        _detect(path + "[*]", items, maps, th)
    if not dicts:
        return
    by_key: dict[Any, list[Any]] = {}  # one pass: a failed map may hold thousands of keys
    for d in dicts:
        for k, v in d.items():
            vs = by_key.get(k)
            if vs is None:
                by_key[k] = [v]
            else:
                vs.append(v)
    counts = Counter({k: len(vs) for k, vs in by_key.items()})
    if _is_map(dicts, counts, th):
        # a key that holds a path's own marks (a file path's ``.``) cannot be named by a rule's path
        kept = frozenset(
            str(k) for k, c in counts.items() if c >= th.min_presence and not _MARKS & set(str(k))
        )
        maps[path] = kept
        _detect(path + ENTRIES, [v for vs in by_key.values() for v in vs], maps, th)
        for k in sorted(kept):
            _detect(f"{path}.{k}", by_key[k], maps, th)
        return
    for k, vs in by_key.items():
        _detect(f"{path}.{k}", vs, maps, th)


_MARKS = frozenset(".[]*")  # what paths.flatten's context and field names are made of


def _is_map(dicts: list[dict[Any, Any]], counts: Counter[Any], th: Thresholds) -> bool:
    union = len(counts)
    if union < th.min_presence or sum(counts.values()) > th.map_key_share * union * len(dicts):
        return False
    kinds = {type(v) for d in dicts for v in d.values()}
    if kinds == {dict}:
        # records of one kind: some field every entry carries (an id, a source, a price)
        common = None
        for d in dicts:
            for v in d.values():
                common = set(v) if common is None else common & v.keys()
                if not common:
                    return False
        return True
    return len(kinds) == 1 and kinds <= {str, bool, int, float} or kinds == {int, float}


def map_executions(index: dict[str, list[Execution]], th: Thresholds = DEFAULT) -> dict[str, list[Execution]]:
    """``index`` with each execution's ``rows`` flattened with its tool's maps (``detect_maps`` over
    the tool's results): the wider vocabulary's classes then read a map's entries as one context
    (``$.*.ranges[*]``), as phase 1 does, never one field per key."""
    for executions in index.values():
        maps = detect_maps([ex.result for ex in executions], th)
        for ex in executions:
            ex.maps = maps
    return index


__all__ = ["detect_maps", "map_executions"]
