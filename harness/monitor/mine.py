"""Contract mining: one learner per rule class over the flattened rows of clean tool executions.

``mine_tool(tool, executions)`` turns one tool's clean ``(arguments, result)`` pairs into rules;
``learn`` (in registry.py) applies it per tool. Knows nothing about receipts, folds or the CLI.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import Any

from environments.seeding import canonical_json
from harness.monitor.paths import ARG, ROOT, flatten
from harness.monitor.rules import Rule
from harness.monitor.thresholds import DEFAULT, Thresholds
from harness.monitor.values import MISSING, date_key, is_number, json_type, merge_types, quantum

ARGS_KEY = "#args"


def group_executions(traces: Iterable[Mapping[str, Any]]) -> dict[str, list[tuple[dict, Any]]]:
    """Clean executions by tool, identical (arguments, result) pairs counted once."""
    seen: set[str] = set()
    by_tool: dict[str, list[tuple[dict, Any]]] = {}
    for t in traces:
        if t.get("status", "ok") == "error":
            continue
        args = dict(t.get("arguments") or {})
        key = canonical_json([t["tool"], args, t.get("result")])
        if key in seen:
            continue
        seen.add(key)
        by_tool.setdefault(t["tool"], []).append((args, t.get("result")))
    return dict(sorted(by_tool.items()))


def contexts_of(executions: list[tuple[dict, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for args, result in executions:
        start = {c: len(rows) for c, rows in out.items()}
        flatten(result, args, out)
        akey = canonical_json(args)
        for c, rows in out.items():
            for row in rows[start.get(c, 0):]:
                row[ARGS_KEY] = akey
    return out


def mine_tool(tool: str, executions: list[tuple[dict, Any]], th: Thresholds = DEFAULT, schema_only: bool = False) -> list[Rule]:
    rules: list[Rule] = []
    for context, rows in sorted(contexts_of(executions).items()):
        rules.extend(_mine_context(tool, context, rows, th, schema_only))
    return rules


def _columns(rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
    names: dict[str, None] = {}
    for row in rows:
        for k in row:
            names.setdefault(k, None)
    names.pop(ARGS_KEY, None)
    return {k: [row.get(k, MISSING) for row in rows] for k in names}


def _is_derived(f: str) -> bool:
    return f.startswith("len(") or f.startswith("sum(")


def _mine_context(tool: str, context: str, rows: list[dict], th: Thresholds, schema_only: bool) -> list[Rule]:
    n = len(rows)
    cols = _columns(rows)
    result_fields = [f for f in cols if not f.startswith(ARG)]
    out: list[Rule] = []

    def add(cls: str, fields: tuple[str, ...], params: dict | None = None, **support: int) -> None:
        out.append(Rule(tool, cls, context, fields, params or {}, support))

    # ---- required and type (presence facts: count executions)
    for f in result_fields:
        if _is_derived(f):
            continue
        present = [v for v in cols[f] if v is not MISSING]
        if f and len(present) == n and n >= th.min_presence:
            add("required", (f,), n=n)
        if len(present) >= th.min_presence:
            types = merge_types({json_type(v) for v in present})
            add("type", (f,), {"types": sorted(types)}, n=len(present))
    if schema_only:
        return out

    domains: set[str] = set()
    numeric: dict[str, list[Any]] = {}
    dates: dict[str, list[Any]] = {}
    for f, col in cols.items():
        present = [v for v in col if v is not MISSING and v is not None]
        if not present:
            continue
        if all(is_number(v) for v in present):
            numeric[f] = col
            if f.startswith(ARG):
                continue
            lo = min(present)
            if f.startswith("len("):
                if lo > 0 and len(present) >= th.min_presence:
                    add("positive", (f,), {"strict": True}, n=len(present))
            elif f.startswith("sum("):
                continue  # implied by its elements' own sign rules
            elif lo >= 0 and len(set(present)) >= th.min_distinct_sign:
                add("positive", (f,), {"strict": lo > 0}, distinct=len(set(present)))
        elif all(isinstance(v, str) for v in present) and all(date_key(v) is not None for v in present):
            dates[f] = col
        elif not f.startswith(ARG) and f and all(isinstance(v, (str, bool)) for v in present):
            if _domain_ok(present, rows, col, th):
                counts = Counter(present)
                values = sorted(counts, key=lambda v: (str(type(v)), v))
                nullable = any(v is None for v in col)
                add("domain", (f,), {"values": values, "nullable": nullable}, n=len(present), distinct=len(values))
                domains.add(f)
    # a domain already fixes the type of its field
    out = [r for r in out if not (r.cls == "type" and r.fields[0] in domains)]

    out.extend(_mine_equalities(tool, context, cols, numeric, th))
    out.extend(_mine_dates(tool, context, dates, th))
    return out


def _domain_ok(present: list[Any], rows: list[dict], col: list[Any], th: Thresholds) -> bool:
    counts = Counter(present)
    d = len(counts)
    if d > th.max_domain or min(counts.values()) < th.min_count_per_value:
        return False
    if len(present) < max(th.min_presence, th.min_per_category * d):
        return False
    if any(isinstance(v, str) and (len(v) > th.max_domain_string) for v in counts):
        return False
    arg_tuples = {rows[i][ARGS_KEY] for i, v in enumerate(col) if v is not MISSING and v is not None}
    return len(arg_tuples) < 2 or d <= th.domain_arg_ratio * len(arg_tuples)


def _pairs(ca: list[Any], cb: list[Any]) -> list[tuple[Any, Any]]:
    return [(a, b) for a, b in zip(ca, cb, strict=True) if a is not MISSING and b is not MISSING and a is not None and b is not None]


def _qmax(values: Iterable[Any]) -> float:
    return max((quantum(v) for v in values), default=0.0)


class _Classes:
    """Union-find over fields that are equal on every example (one representative each)."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        while self.parent.get(x, x) != x:
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        # arguments represent their class, so every result field in it is an echo of the argument
        if rb.startswith(ARG) or (not ra.startswith(ARG) and rb < ra):
            ra, rb = rb, ra
        self.parent[rb] = ra
        return True


def _mine_equalities(tool: str, context: str, cols: dict[str, list[Any]], numeric: dict[str, list[Any]], th: Thresholds) -> list[Rule]:
    out: list[Rule] = []
    classes = _Classes()
    # fields seen too rarely can support no pairwise rule: drop them before pairing (keys that are
    # ids, like variants.<item_id>.price, would otherwise blow up the candidate set)
    enough = {f for f, col in cols.items() if sum(v is not MISSING and v is not None for v in col) >= th.min_pair_samples}
    cols = {f: c for f, c in cols.items() if f in enough}
    numeric = {f: c for f, c in numeric.items() if f in enough}
    # --- echo (result == argument, strings and numbers) and numeric a == b, as equality classes
    args = [f for f in cols if f.startswith(ARG)]
    res = [f for f in cols if not f.startswith(ARG) and f and not isinstance(_first(cols[f]), (dict, list))]
    candidates = [(a, x) for a in res for x in args] + [(a, b) for a, b in combinations(sorted(f for f in numeric if not f.startswith(ARG)), 2)]
    for a, b in candidates:
        pairs = _pairs(cols[a], cols[b])
        if len(pairs) < th.min_pair_samples or classes.find(a) == classes.find(b):
            continue
        if not all(_equal(x, y) for x, y in pairs):
            continue
        if len({x for x, _ in pairs if not isinstance(x, (dict, list))}) < th.min_distinct_eq:
            continue
        classes.union(a, b)
    members: dict[str, list[str]] = {}
    for f in set(classes.parent) | set(classes.parent.values()):
        members.setdefault(classes.find(f), []).append(f)
    for rep, group in sorted(members.items()):
        for f in sorted(group):
            if f == rep or f.startswith(ARG):
                continue
            pairs = _pairs(cols[f], cols[rep])
            distinct = len({x for x, _ in pairs if not isinstance(x, (dict, list))})
            # classes join on pairwise evidence; each kept edge must hold and be supported itself
            if len(pairs) < th.min_pair_samples or distinct < th.min_distinct_eq or not all(_equal(x, y) for x, y in pairs):
                continue
            if rep.startswith(ARG):
                out.append(Rule(tool, "echo", context, (f, rep), {}, {"n": len(pairs), "distinct": distinct}))
            else:
                q = [_qmax(x for x, _ in pairs), _qmax(y for _, y in pairs)]
                out.append(Rule(tool, "relation", context, (f, rep), {"form": "eq", "quanta": q}, {"n": len(pairs), "distinct": distinct}))
    # --- affine and product over one representative per equality class
    reps = sorted({classes.find(f) for f in numeric})
    targets = [f for f in reps if not f.startswith(ARG)]
    quanta = {f: _qmax(v for v in numeric[f] if is_number(v)) for f in reps}
    for a in targets:
        for b in reps:
            if b == a or (not b.startswith(ARG) and b < a):
                continue
            rule = _affine(tool, context, a, b, numeric, quanta, th)
            if not b.startswith(ARG) and (rule is None or abs(rule.params["k"]) < 1):
                # one direction per pair: the one with |k| >= 1 reads naturally (F = 1.8 C + 32)
                rule = _affine(tool, context, b, a, numeric, quanta, th) or rule
            if rule is not None:
                out.append(rule)
        for b, c in combinations([f for f in reps if f != a], 2):
            rule = _product(tool, context, a, b, c, numeric, quanta, th)
            if rule is not None:
                out.append(rule)
    return out


def _first(col: list[Any]) -> Any:
    return next((v for v in col if v is not MISSING), MISSING)


def _equal(x: Any, y: Any) -> bool:
    if is_number(x) and is_number(y):
        return abs(x - y) <= 1e-9 * max(1.0, abs(y))
    if isinstance(x, bool) or isinstance(y, bool) or isinstance(x, (dict, list)):
        return False
    return type(x) is type(y) and x == y


def _affine(tool: str, context: str, a: str, b: str, numeric: dict, quanta: dict, th: Thresholds) -> Rule | None:
    pairs = [(x, y) for x, y in _pairs(numeric[a], numeric[b]) if is_number(x) and is_number(y)]
    if len(pairs) < th.min_pair_samples:
        return None
    lo = min(pairs, key=lambda p: p[1])
    hi = max(pairs, key=lambda p: p[1])
    if hi[1] == lo[1]:
        return None
    k = (hi[0] - lo[0]) / (hi[1] - lo[1])
    c = lo[0] - k * lo[1]
    if abs(k) < 1e-12 or (abs(k - 1) < 1e-9 and abs(c) < 1e-9):
        return None
    # snap to round constants the data cannot tell apart (1.8 rather than 1.7999999)
    k, c = _snap(k), _snap(c)
    tol = 0.5 * (quanta[a] + abs(k) * quanta[b])
    if any(abs(x - (k * y + c)) > tol + 1e-9 * max(1.0, abs(x)) for x, y in pairs):
        return None
    distinct = len({y for _, y in pairs})
    if distinct < th.min_distinct_affine:
        return None
    params = {"form": "affine", "k": k, "c": c, "quanta": [quanta[a], quanta[b]]}
    return Rule(tool, "relation", context, (a, b), params, {"n": len(pairs), "distinct": distinct})


def _snap(x: float) -> float:
    r = round(x, 6)
    return r if abs(r - x) <= 1e-9 * max(1.0, abs(x)) else x


def _product(tool: str, context: str, a: str, b: str, c: str, numeric: dict, quanta: dict, th: Thresholds) -> Rule | None:
    ca, cb, cc = numeric[a], numeric[b], numeric[c]
    qa, qb, qc = quanta[a], quanta[b], quanta[c]
    n = 0
    points: set[tuple[Any, Any]] = set()
    for x, y, z in zip(ca, cb, cc, strict=True):
        if not (is_number(x) and is_number(y) and is_number(z)):
            continue
        tol = 0.5 * (qa + abs(z) * qb + abs(y) * qc) + 1e-9 * max(1.0, abs(x))
        if abs(x - y * z) > tol:
            return None  # falsified: most candidates die on their first row
        n += 1
        points.add((y, z))
    if n < th.min_pair_samples or len(points) < th.min_distinct_product:
        return None
    if len({y for y, _ in points}) < th.min_distinct_affine or len({z for _, z in points}) < th.min_distinct_affine:
        return None
    params = {"form": "product", "quanta": [qa, qb, qc]}
    return Rule(tool, "relation", context, (a, b, c), params, {"n": n, "distinct": len(points)})


def _mine_dates(tool: str, context: str, dates: dict[str, list[Any]], th: Thresholds) -> list[Rule]:
    found: list[tuple[str, str, int, int]] = []
    dates = {f: c for f, c in dates.items() if sum(v is not MISSING and v is not None for v in c) >= th.min_pair_samples}
    names = sorted(dates)
    for a in names:
        for b in names:
            if a == b or (a.startswith(ARG) and b.startswith(ARG)):
                continue
            pairs = [(date_key(x), date_key(y)) for x, y in _pairs(dates[a], dates[b])]
            if len(pairs) < th.min_pair_samples or any(x > y for x, y in pairs):
                continue
            if all(x == y for x, y in pairs):
                continue  # always equal: an equality, not an ordering
            distinct = len(set(pairs))
            if distinct < th.min_distinct_dates:
                continue
            # AGORA: fields whose observed ranges do not overlap are unrelated, not ordered
            if min(y for _, y in pairs) > max(x for x, _ in pairs):
                continue
            found.append((a, b, len(pairs), distinct))
    # transitive reduction: drop a <= c when a <= b <= c are both kept
    edges = {(a, b) for a, b, _, _ in found}
    out = []
    for a, b, n, distinct in found:
        if any((a, m) in edges and (m, b) in edges for m in names if m not in (a, b)):
            continue
        out.append(Rule(tool, "date_order", context, (a, b), {}, {"n": n, "distinct": distinct}))
    return out


__all__ = ["ROOT", "contexts_of", "group_executions", "mine_tool"]
