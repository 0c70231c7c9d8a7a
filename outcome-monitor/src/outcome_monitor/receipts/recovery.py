"""Recovery tools for a receipt, from the episode's public tool interface only.

Admissible recovery actions, in order: the same tool (a retry), tools the catalog declares as its
substitutes (either direction) or that share its capability, then other exposed read tools whose
declared outputs carry a violated field. A recovery re-reads: write and terminal tools are never
offered, so a receipt on a write's result never lists that write (or another) again. Never reads
solutions, valid paths or fault labels.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from outcome_monitor.receipts.tools import ToolLike

_LEAF = re.compile(r"[A-Za-z_][A-Za-z0-9_ ]*")
ACTION_CATEGORIES = {"action", "write", "terminal"}  # never offered as a way to re-read a value


def leaf_names(path: str) -> set[str]:
    """Field names a JSON path ends in: ``$.items[2].price`` -> {price}; ``len($.items)`` -> {items}."""
    inner = path
    for fn in ("len(", "sum("):
        if inner.startswith(fn) and inner.endswith(")"):
            inner = inner[len(fn) : -1]
    parts = [p for p in re.split(r"[.\[\]]", inner) if p and p not in ("$", "*") and not p.isdigit()]
    if not parts:
        return set()
    leaf = parts[-1]
    return {leaf.removeprefix("arg.")} if _LEAF.fullmatch(leaf) else set()


def recovery_tools(
    tool: str, violated_fields: Iterable[str], catalog: Mapping[str, ToolLike], exposed_tools: Sequence[str]
) -> list[str]:
    exposed = list(exposed_tools) if exposed_tools else sorted(catalog)
    allowed = set(exposed)
    out: list[str] = []

    def add(name: str) -> None:
        spec = catalog.get(name)
        if (
            name in allowed
            and name not in out
            and not (spec is not None and spec.category.lower() in ACTION_CATEGORIES)
        ):
            out.append(name)

    add(tool)
    spec = catalog.get(tool)
    for name in spec.substitutes if spec else ():
        add(name)
    for name in exposed:
        other = catalog.get(name)
        if other is None or name == tool:
            continue
        if tool in other.substitutes or (
            spec is not None and spec.capability and other.capability == spec.capability
        ):
            add(name)
    fields = set()
    for f in violated_fields:
        fields |= leaf_names(f)
    if fields:
        for name in exposed:
            other = catalog.get(name)
            if other is None or name in out or other.category.lower() in ACTION_CATEGORIES:
                continue
            carried = set()
            for p in other.output_fields:
                carried |= leaf_names(p)
            if fields & carried:
                add(name)
    return out
