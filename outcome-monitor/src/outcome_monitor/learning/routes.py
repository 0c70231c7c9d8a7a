"""Which tools learn per route (``checking/routes.py``), and the rows each route learns from.

A tool is routed by one argument that always named a URL or a path, when its clean calls fall on
two or more routes (of the 90% or more of its calls that name one) that each have the support of a tool of their own (``min_presence`` calls): an
exact path met that often is its own route, other paths group by folder and extension. Every row
of a routed call is learned twice: under the tool (the pooled rules, what checks a call on a route
never met) and under its route's name, so a route's rules see only the results of one form. The
route's rules then pass the same support floors as any tool's: a route met a few times learns as
little as a tool met a few times.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from outcome_monitor.checking.routes import SEP, route_keys

MIN_ROUTES = 2  # one route alone is the tool itself
NAMED_SHARE = 0.9  # the calls that name a resource by the argument (the rest learn only pooled)


def _arg_routes(rows: Sequence[Mapping[str, Any]], arg: str, floor: int) -> dict[str, Any] | None:
    keys = [k for r in rows if (k := route_keys((r.get("arguments") or {}).get(arg))) is not None]
    if len(keys) < NAMED_SHARE * len(rows):
        return None  # most calls name a resource, or the argument is not a route
    exact = Counter(e for e, _ in keys)
    own = {e for e, n in exact.items() if n >= floor}
    families = Counter(f for e, f in keys if e not in own)
    kept = {f for f, n in families.items() if n >= floor}
    if len(own) + len(kept) < MIN_ROUTES:
        return None
    return {"arg": arg, "exact": sorted(own), "families": sorted(kept)}


def infer_routes(rows: Sequence[Mapping[str, Any]], floor: int) -> dict[str, dict[str, Any]]:
    """Per routed tool, ``{"arg", "exact", "families"}``: the argument and the routes with support."""
    by_tool: dict[str, list[Mapping[str, Any]]] = {}
    for r in rows:
        by_tool.setdefault(str(r["tool"]), []).append(r)
    out: dict[str, dict[str, Any]] = {}
    for tool, rs in by_tool.items():
        if SEP in tool or len(rs) < MIN_ROUTES * floor:
            continue
        names = sorted({a for r in rs for a, v in (r.get("arguments") or {}).items() if type(v) is str})
        best = None
        for arg in names:
            spec = _arg_routes(rs, arg, floor)
            if spec is not None and (best is None or len(spec["exact"]) + len(spec["families"]) > best[0]):
                best = (len(spec["exact"]) + len(spec["families"]), spec)
        if best is not None:
            out[tool] = best[1]
    return out


def routed_rows(
    rows: Sequence[Mapping[str, Any]], routes: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Copies of the routed tools' rows under their route's name (the rows themselves stay)."""
    from outcome_monitor.checking.routes import routed_name

    out = []
    for r in rows:
        tool = str(r["tool"])
        spec = routes.get(tool)
        if spec is None:
            continue
        name = routed_name(tool, _sets(spec), r.get("arguments"))
        if name is not None:
            out.append({**r, "tool": name})
    return out


def _sets(spec: Mapping[str, Any]) -> dict[str, Any]:
    return {"arg": spec["arg"], "exact": frozenset(spec["exact"]), "families": frozenset(spec["families"])}


__all__ = ["infer_routes", "routed_rows"]
