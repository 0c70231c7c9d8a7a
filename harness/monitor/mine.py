"""Contract mining: one learner per rule class over the flattened rows of clean tool executions.

``mine_tool(tool, executions)`` turns one tool's clean ``(arguments, result)`` pairs into rules;
``learn`` (in registry.py) applies it per tool. Knows nothing about receipts, folds or the CLI.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from harness.monitor.paths import ARG, ROOT, flatten
from harness.monitor.rules import Rule
from harness.monitor.thresholds import DEFAULT, Thresholds
from harness.monitor.values import MISSING, date_key, is_number, merge_types, quantum

ARGS_KEY = "#args"
DOMAIN_CANDIDATE = "domain?"  # per-tool evidence for a categorical domain, pooled by pool_domains
_JSON_TYPE = {type(None): "null", bool: "boolean", int: "integer", float: "number", str: "string", dict: "object", list: "array"}
_NUMERIC = {int, float}
_STR = {str}
_STR_BOOL = {str, bool}


@dataclass
class Execution:
    """One distinct clean execution of a tool, flattened once, with the groups (e.g. folds) it
    occurred in, so cross-fitting can select training executions without re-reading traces."""

    args: dict[str, Any]
    result: Any
    groups: set[Any] = field(default_factory=set)
    _rows: dict[str, list[dict[str, Any]]] | None = None

    @property
    def rows(self) -> dict[str, list[dict[str, Any]]]:
        if self._rows is None:
            out: dict[str, list[dict[str, Any]]] = {}
            flatten(self.result, self.args, out)
            akey = repr(sorted(self.args.items()))
            for rows in out.values():
                for row in rows:
                    row[ARGS_KEY] = akey
            self._rows = out
        return self._rows


def index_executions(traces: Iterable[Mapping[str, Any]], group_of: Callable[[Mapping[str, Any]], Any] | None = None
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
        if group_of is not None:
            ex.groups.add(group_of(t))
    return {tool: list(ex.values()) for tool, ex in sorted(index.items())}


def group_executions(traces: Iterable[Mapping[str, Any]]) -> dict[str, list[tuple[dict, Any]]]:
    """Clean ``(arguments, result)`` pairs by tool, identical pairs counted once."""
    return {tool: [(e.args, e.result) for e in exs] for tool, exs in index_executions(traces).items()}


def mine_tool(tool: str, executions: list[tuple[dict, Any]], th: Thresholds = DEFAULT, schema_only: bool = False) -> list[Rule]:
    return mine_executions(tool, [Execution(dict(a), r) for a, r in executions], th, schema_only)


def mine_executions(tool: str, executions: Iterable[Execution], th: Thresholds = DEFAULT, schema_only: bool = False) -> list[Rule]:
    contexts: dict[str, list[dict[str, Any]]] = {}
    for ex in executions:
        for c, rows in ex.rows.items():
            contexts.setdefault(c, []).extend(rows)
    rules: list[Rule] = []
    for context, rows in sorted(contexts.items()):
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

    # classify each column once by the Python types of its non-null values
    present_of: dict[str, list[Any]] = {}
    kinds: dict[str, set[type]] = {}
    for f, col in cols.items():
        present_of[f] = [v for v in col if v is not MISSING]
        kinds[f] = {type(v) for v in present_of[f]}

    # ---- required and type (presence facts: count executions)
    for f in result_fields:
        if _is_derived(f):
            continue
        present = present_of[f]
        if f and len(present) == n and n >= th.min_presence:
            add("required", (f,), n=n)
        if len(present) >= th.min_presence:
            types = merge_types({_JSON_TYPE.get(t, "unknown") for t in kinds[f]})
            add("type", (f,), {"types": sorted(types)}, n=len(present))
    if schema_only:
        return out

    numeric: dict[str, list[Any]] = {}
    dates: dict[str, list[Any]] = {}
    for f, col in cols.items():
        pytypes = kinds[f] - {type(None)}
        if not pytypes:
            continue
        present = [v for v in present_of[f] if v is not None] if type(None) in kinds[f] else present_of[f]
        if pytypes <= _NUMERIC and (float not in pytypes or all(math.isfinite(v) for v in present)):
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
        elif pytypes == _STR and date_key(present[0]) is not None and all(date_key(v) is not None for v in present):
            dates[f] = col
        elif not f.startswith(ARG) and f and pytypes <= _STR_BOOL:
            cand = _domain_candidate(present, rows, col, th)
            if cand is not None:
                params = {"counts": cand, "nullable": type(None) in kinds[f]}
                add(DOMAIN_CANDIDATE, (f,), params, n=len(present), distinct=len(cand))
    out.extend(_mine_equalities(tool, context, cols, numeric, th))
    out.extend(_mine_dates(tool, context, dates, th))
    return out


def _domain_candidate(present: list[Any], rows: list[dict], col: list[Any], th: Thresholds) -> list[list[Any]] | None:
    """[[value, executions]] for a short categorical field that does not merely copy its inputs."""
    tuples: dict[Any, set[str]] = {}
    for i, v in enumerate(col):
        if v is not MISSING and v is not None:
            tuples.setdefault(v, set()).add(rows[i][ARGS_KEY])
    d = len(tuples)
    if d > th.max_domain or any(isinstance(v, str) and len(v) > th.max_domain_string for v in tuples):
        return None
    n_args = len({a for s in tuples.values() for a in s})
    if n_args >= 2 and d > th.domain_arg_ratio * n_args:
        return None
    return [[v, len(s)] for v, s in sorted(tuples.items(), key=lambda kv: (str(type(kv[0])), kv[0]))]


def leaf(field: str) -> str:
    return field.rsplit(".", 1)[-1]


def pool_domains(rules: list[Rule], th: Thresholds = DEFAULT) -> list[Rule]:
    """Turn domain candidates into domain rules over the values pooled by field name.

    Tools that return a field of the same name (``availability``, ``rate_status``) draw it from one
    vocabulary (TFDV's shared domains; Daikon's comparability by name), so evidence is pooled: the
    pooled domain must have at most ``max_domain`` values, each seen in at least
    ``min_count_per_value`` distinct executions (Good-Turing: no singletons, so the estimated unseen
    mass is 0), and ``min_per_category`` executions per value overall. A kept domain also replaces
    the field's type rule, which it implies.
    """
    pooled: dict[str, Counter] = {}
    for r in rules:
        if r.cls == DOMAIN_CANDIDATE:
            c = pooled.setdefault(leaf(r.fields[0]), Counter())
            for v, k in r.params["counts"]:
                c[v] += k
    keep: dict[str, list[Any]] = {}
    for name, c in pooled.items():
        n = sum(c.values())
        if len(c) <= th.max_domain and min(c.values()) >= th.min_count_per_value and n >= max(th.min_presence, th.min_per_category * len(c)):
            keep[name] = sorted(c, key=lambda v: (str(type(v)), v))
    out, typed = [], set()
    for r in rules:
        if r.cls != DOMAIN_CANDIDATE:
            out.append(r)
            continue
        values = keep.get(leaf(r.fields[0]))
        if values is not None:
            support = {"n": r.support.get("n", 0), "distinct": len(values)}
            out.append(Rule(r.tool, "domain", r.context, r.fields, {"values": values, "nullable": r.params["nullable"]}, support, r.source))
            typed.add((r.tool, r.context, r.fields[0]))
    return [r for r in out if not (r.cls == "type" and (r.tool, r.context, r.fields[0]) in typed)]


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
    # list lengths only take part in equalities (count == len(items)): a small integer fits some
    # affine line of any money field within its rounding tolerance by coincidence
    reps = sorted({classes.find(f) for f in numeric if not f.startswith("len(")})
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
    if distinct < th.min_distinct_affine or not _beyond_chance(tol, [x for x, _ in pairs], len(set(pairs)), th):
        return None
    params = {"form": "affine", "k": k, "c": c, "quanta": [quanta[a], quanta[b]]}
    return Rule(tool, "relation", context, (a, b), params, {"n": len(pairs), "distinct": distinct})


def _beyond_chance(tol: float, targets: list[float], n_points: int, th: Thresholds) -> bool:
    """Daikon's test for an equation with tolerance: a target drawn at random over its observed
    range lands within +-tol of the prediction with probability p = 2*tol/range; the rule is kept
    only if p**(distinct points) < 1 - confidence."""
    spread = max(targets) - min(targets) if targets else 0.0
    if spread <= 0:
        return False
    p = min(1.0, 2 * tol / spread)
    return p == 0.0 or n_points * math.log(p) < math.log(1 - th.confidence)


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
    tol_max = max(0.5 * (qa + abs(z) * qb + abs(y) * qc) for y, z in points)
    if not _beyond_chance(tol_max, [x for x in ca if is_number(x)], len(points), th):
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


__all__ = ["ROOT", "Execution", "group_executions", "index_executions", "mine_executions", "mine_tool", "pool_domains"]
