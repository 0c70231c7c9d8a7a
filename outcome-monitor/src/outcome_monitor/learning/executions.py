"""A tool's clean executions as mining reads them: distinct (arguments, result) pairs by tool, each
flattened once into rows per context (``paths.flatten``), with the groups (folds) it occurred in;
and ``gc_paused``, which keeps the cyclic collector out of a build."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from outcome_monitor.checking.paths import NO_MAPS, ROOT, Maps, flatten

ARGS_KEY = "#args"  # each row's arguments, as one comparable key (distinct argument tuples)


@dataclass
class Execution:
    """One distinct clean execution of a tool, flattened once, with the groups (e.g. folds) it
    occurred in, so cross-fitting can select training executions without re-reading traces."""

    args: dict[str, Any]
    result: Any
    groups: set[Any] = field(default_factory=set)
    # traces that were this execution (a repeated call with the same answer): evidence only for
    # what a repeat shows (the same call gives a list as long), never for a value's support
    count: int = 1
    _rows: dict[str, list[dict[str, Any]]] | None = None
    _maps: Maps | None = None  # the maps the cached rows were flattened with
    # the maps ``rows`` flattens with: none for the paper's classes, the tool's own for the wider
    # vocabulary (``mapdetect.map_executions``), so a map's entries are one context of their own
    maps: Maps = field(default_factory=lambda: NO_MAPS)

    @property
    def rows(self) -> dict[str, list[dict[str, Any]]]:
        return self.rows_for(self.maps)

    def rows_for(self, maps: Maps) -> dict[str, list[dict[str, Any]]]:
        """Rows per context, the entries of ``maps`` as contexts of their own (cached for the
        last ``maps``: the folds of one tool nearly always find the same maps)."""
        if self._rows is None or (self._maps is not maps and self._maps != maps):
            out: dict[str, list[dict[str, Any]]] = {}
            flatten(self.result, self.args, out, ROOT, maps)
            akey = repr(sorted(self.args.items()))
            for rows in out.values():
                for row in rows:
                    row[ARGS_KEY] = akey
            self._rows, self._maps = out, maps
        return self._rows


def index_executions(
    traces: Iterable[Mapping[str, Any]], group_of: Callable[[Mapping[str, Any]], Any] | None = None
) -> dict[str, list[Execution]]:
    """Clean executions by tool (rows with status "error" skipped); identical (arguments, result)
    pairs are one execution, so repeated calls add no evidence."""
    index: dict[str, dict[str, Execution]] = {}
    for t in traces:
        if t.get("status", "ok") == "error":
            continue
        args = dict(t.get("arguments") or {})
        result = t.get("result")
        # repr is an exact identity key for JSON-decoded values (same keys in the same order)
        key = repr((args, result))
        per_tool = index.setdefault(t["tool"], {})
        ex = per_tool.get(key)
        if ex is None:
            ex = per_tool[key] = Execution(args, result)
        else:
            ex.count += 1
        if group_of is not None:
            ex.groups.add(group_of(t))
    return {tool: list(ex.values()) for tool, ex in sorted(index.items())}


def group_executions(traces: Iterable[Mapping[str, Any]]) -> dict[str, list[tuple[dict[str, Any], Any]]]:
    """Clean ``(arguments, result)`` pairs by tool, identical pairs counted once."""
    return {tool: [(e.args, e.result) for e in exs] for tool, exs in index_executions(traces).items()}


@contextmanager
def gc_paused() -> Iterator[None]:
    """Mining allocates hundreds of thousands of small, acyclic containers while the traces stay
    alive: the cyclic collector would rescan them again and again (a third of the build time) and
    free nothing. Pausing it changes no result; the previous state is restored."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        # what survives mining (the registries) is long-lived: hand it straight to the oldest
        # generation (freeze, then unfreeze, moves lists, not objects) instead of letting the next
        # young collection scan every rule once more only to promote it
        gc.freeze()
        gc.unfreeze()
        if was:
            gc.enable()


__all__ = ["ARGS_KEY", "Execution", "gc_paused", "group_executions", "index_executions"]
