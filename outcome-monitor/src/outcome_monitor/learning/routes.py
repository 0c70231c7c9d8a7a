"""Which tools learn per route (``checking/routes.py``), and the rows each route learns from.

A tool is routed by one argument that named a URL or a path in 90% of its clean calls or more, when
those calls fall on two or more routes that each have the support of a tool of their own
(``min_presence`` calls): an exact path met that often is its own route, other paths group by
folder and extension. Every row of a routed call is learned twice: under the tool (the pooled
rules, what checks a call on a route never met) and under its route's name, so a route's rules see
only the results of one form. The route's rules then pass the same support floors as any tool's:
a route met a few times learns as little as a tool met a few times.

A tool with no such argument may have a mode argument instead (``_mode_routes``): a string sent on
90% of its calls, of 2 to 6 values, two of them met ``min_presence`` times, whose results' most
common forms differ (``detail``: a brief record, a full one, markdown). Each such value is a route
(``get_event @ detail=full``).

A tool sent a command line on 90% of its calls or more (a shell's ``command``) may be routed by the
line's first word instead (``_verb_routes``): two words met ``min_presence`` times each, where the
tool's results took two forms or more and some word's results only one (``wc`` always prints counts
beside its return code, ``cp`` only the code), so a result missing its output is another form than
its word's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from outcome_monitor.checking.paths import ARG
from outcome_monitor.checking.routes import (
    SEP,
    base_tool,
    mode_key,
    path_family,
    route_keys,
    route_spec,
    routed_name,
    verb_key,
    verb_of,
)
from outcome_monitor.checking.rules import Rule
from outcome_monitor.learning.executions import Execution
from outcome_monitor.text.labels import namesake_numbers
from outcome_monitor.text.views import View, infer_root_view

MIN_ROUTES = 2  # one route alone is the tool itself
MODE_VALUES = 6  # a mode argument's values at most (more are a name or a query, not a mode)
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


def _form(value: Any, depth: int = 0) -> Any:
    """A result's form, coarsely: its kind, an object's keys, a list's first element's form."""
    if type(value) is dict:
        return ("object", frozenset(map(str, value)))
    if type(value) is list:
        return ("array", _form(value[0], depth + 1) if value and depth < 2 else None)
    return type(value).__name__


def _mode_routes(rows: Sequence[Mapping[str, Any]], arg: str, floor: int) -> dict[str, Any] | None:
    """A mode argument's routes (``detail`` in brief, full, markdown): a few values, each met
    ``floor`` times, whose results take different forms (else the tool's rules say as much)."""
    values = [(r.get("arguments") or {}).get(arg) for r in rows]
    named = Counter(v for v in values if type(v) is str and v)
    if sum(named.values()) < NAMED_SHARE * len(rows) or not MIN_ROUTES <= len(named) <= MODE_VALUES:
        return None
    kept = {v for v, n in named.items() if n >= floor}
    forms: dict[str, Counter[Any]] = {}
    for r, v in zip(rows, values, strict=True):
        if type(v) is str and v in kept:  # a list sent to the argument on some call is no mode
            forms.setdefault(str(v), Counter())[_form(r.get("result"))] += 1
    common = {c.most_common(1)[0][0] for c in forms.values()}
    if len(kept) < MIN_ROUTES or len(common) < MIN_ROUTES:
        return None
    return {"arg": arg, "exact": sorted(mode_key(arg, v) for v in kept), "families": [], "mode": True}


def _verb_routes(rows: Sequence[Mapping[str, Any]], arg: str, floor: int) -> dict[str, Any] | None:
    """A command line's routes by its first word (see the module's words), or None."""
    values = [(r.get("arguments") or {}).get(arg) for r in rows]
    verbs = [verb_of(v) for v in values]
    lines = [
        v for v, verb in zip(values, verbs, strict=True) if verb is not None and len(str(v).split()) >= 2
    ]
    if len(lines) < NAMED_SHARE * len(rows):
        return None
    forms: dict[str, Counter[Any]] = {}
    for r, verb in zip(rows, verbs, strict=True):
        if verb is not None:
            forms.setdefault(verb, Counter())[_form(r.get("result"))] += 1
    kept = {verb for verb, c in forms.items() if c.total() >= floor}
    pooled = {f for c in forms.values() for f in c}
    if len(kept) < MIN_ROUTES or len(pooled) < MIN_ROUTES or all(len(forms[v]) > 1 for v in kept):
        return None
    return {"arg": arg, "exact": sorted(verb_key(arg, v) for v in kept), "families": [], "verb": True}


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
        specs = [s for s in (_arg_routes(rs, arg, floor) for arg in names) if s is not None]
        if specs:  # the argument that splits the calls into the most routes (the first of a tie)
            out[tool] = max(specs, key=lambda s: len(s["exact"]) + len(s["families"]))
            continue
        # else a mode argument: the fewest values (the first of a tie)
        modes = [s for s in (_mode_routes(rs, arg, floor) for arg in names) if s is not None]
        if modes:
            out[tool] = min(modes, key=lambda s: len(s["exact"]))
            continue
        # else a command line's first word: the most words (the first of a tie)
        verbs = [s for s in (_verb_routes(rs, arg, floor) for arg in names) if s is not None]
        if verbs:
            out[tool] = max(verbs, key=lambda s: len(s["exact"]))
    return out


def routed_rows(
    rows: Sequence[Mapping[str, Any]], routes: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Copies of the routed tools' rows under their route's name (the rows themselves stay)."""
    specs = {tool: route_spec(spec) for tool, spec in routes.items()}
    out = []
    for r in rows:
        tool = str(r["tool"])
        spec = specs.get(tool)
        name = routed_name(tool, spec, r.get("arguments")) if spec is not None else None
        if name is not None:
            out.append({**r, "tool": name})
    return out


def route_kind(tool: str) -> str | None:
    """A path route's kind, its folder and extension (``/refs/*.bib`` for ``/refs/ml.bib``); None for
    the tool itself and for a mode's route (each mode is a form of its own)."""
    if SEP not in tool:
        return None
    key = tool.split(SEP, 1)[1]
    if "=" in key and "/" not in key:
        return None
    return path_family(key)  # a family route's key is its family already


def infer_views(results: Mapping[str, list[Any]], calls: Mapping[str, list[Any]]) -> dict[str, View]:
    """Each tool's view of its results (``text.views.infer_root_view``). A path route reads its
    results as every route of its kind does (``ml.bib`` as the other ``.bib`` files): one file's
    recording without a missing key's sentence would read it otherwise, and its rules would sit
    where its siblings' results cannot contradict them."""
    kinds: dict[str, tuple[str, str]] = {}
    for tool in results:
        kind = route_kind(tool)
        if kind is not None:
            kinds[tool] = (base_tool(tool), kind)
    pooled: dict[tuple[str, str], tuple[list[Any], list[Any]]] = {}
    for tool, group in kinds.items():
        rs, cs = pooled.setdefault(group, ([], []))
        rs.extend(results[tool])
        cs.extend(calls[tool])
    views: dict[str, View] = {}
    for tool, own in results.items():
        rs, cs = pooled[kinds[tool]] if tool in kinds else (own, calls[tool])
        v = namesake_numbers(infer_root_view(rs, cs), rs)
        if v is not None:
            views[tool] = v
    return views


def vacuous_elements(
    rules: list[Rule], routes: Mapping[str, Mapping[str, Any]], index: Mapping[str, list[Execution]]
) -> list[Rule]:
    """A mode-routed tool's own rules about a list's elements, when only some modes showed elements
    there and another sent the list empty or null every time (``regex``'s ``matches``: strings for
    ``match``, objects for ``matchAll``, which the recording saw empty): that mode's calls, checked
    by the tool's rules, were no evidence about its elements. The routes keep their own rules. And
    any tool's element type where the list held records on some calls and plain values on others
    (``_mixed_elements``)."""
    drop: dict[str, set[str]] = {}  # tool -> element contexts, and the lists' places as "context|list"
    retype = _mixed_elements(index)
    for tool, spec in routes.items():
        if not spec.get("mode"):
            continue
        shown: dict[tuple[str, str], dict[Any, bool]] = {}
        for ex in index.get(tool, ()):
            mode = ex.args.get(spec["arg"])
            mode = mode if type(mode) is str else None  # a list sent on some call: no mode of its own
            for context, rows in ex.rows.items():
                for row in rows:
                    for f, v in row.items():
                        if f.startswith("len(") and not f.startswith("len(arg."):
                            seen = shown.setdefault((context, f[4:-1]), {})
                            seen[mode] = seen.get(mode, False) or v > 0
                        elif v is None and f and not f.startswith(ARG) and f"len({f})" not in row:
                            shown.setdefault((context, f), {}).setdefault(mode, False)
        for (context, lst), modes in shown.items():
            if any(modes.values()) and not all(modes.values()):
                drop.setdefault(tool, set()).update({f"{context}.{lst}[*]", f"{context}|{lst}"})
    if not drop and not retype:
        return rules

    def vacuous(r: Rule) -> bool:
        if r.cls == "type" and r.fields[0] == "" and (r.tool, r.context) in retype:
            return True
        places = drop.get(r.tool)
        if not places:
            return False
        if r.context in places or any(r.context.startswith(p + ".") for p in places):
            return True
        f = r.fields[0]  # the list's own elements rule, and "never empty"
        if r.cls == "positive" and f.startswith("len("):
            f = f[4:-1]
        elif r.cls != "collection":
            return False
        return f"{r.context}|{f}" in places

    return [r for r in rules if not vacuous(r)]


def _mixed_elements(index: Mapping[str, list[Execution]]) -> set[tuple[str, str]]:
    """(tool, element context) of the lists that held records on some calls and plain values on
    others: the records alone gave the elements' context its rows, so its type rule saw only them."""
    kinds: dict[tuple[str, str], set[bool]] = {}
    for tool, executions in index.items():
        for ex in executions:
            for context, rows in ex.rows.items():
                for row in rows:
                    for f, v in row.items():
                        if type(v) is list and v and f and not f.startswith(ARG):
                            kinds.setdefault((tool, f"{context}.{f}[*]"), set()).add(type(v[0]) is dict)
    return {place for place, seen in kinds.items() if len(seen) == 2}


__all__ = ["infer_routes", "infer_views", "route_kind", "routed_rows", "vacuous_elements"]
