"""Contract mining in two phases: per tool, every candidate rule that holds on all of the tool's
clean examples (with its evidence); then across tools, pooling of evidence by comparability.

Phase 1 (``collect``) flattens one tool's executions into rows per context and proposes, for each
rule class, the candidates no example contradicts, plus the templates some example falsifies.
Phase 2 (``admit``) pools evidence for the same template, i.e. the same class over the same field
names (``valid_from <= valid_to``, ``subtotal == quantity * unit_price``), across the tools that
carry those fields (Daikon's comparability by name): a template is admitted only if no tool
falsifies it and the pooled evidence meets the class threshold; then implied rules are removed per
tool. Knows nothing about receipts, folds or the CLI.
"""

from __future__ import annotations

import gc
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from harness.monitor.paths import (
    ARG,
    ENTRIES,
    KEY,
    NO_MAPS,
    ROOT,
    Maps,
    display_path,
    flatten,
    net_field,
    net_value,
)
from harness.monitor.rules import Rule
from harness.monitor.thresholds import DEFAULT, Thresholds
from harness.monitor.values import MISSING, cached_date_key, is_number, merge_types, quantum

ARGS_KEY = "#args"
DOMAIN_CANDIDATE = "domain?"  # per-tool evidence for a categorical domain, pooled by pool_domains
_JSON_TYPE = {
    type(None): "null",
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    dict: "object",
    list: "array",
}
_NUMERIC = {int, float}
_STR = {str}
_STR_BOOL = {str, bool}
MAX_RELATED = 48
_SUPPORT_KEYS = ("n", "distinct", "points")
# up to this many elements a rows x columns x columns comparison is done in one array pass
_CUBE_MAX = 1 << 16
_NO_ARGS = repr([])


@dataclass
class Execution:
    """One distinct clean execution of a tool, flattened once, with the groups (e.g. folds) it
    occurred in, so cross-fitting can select training executions without re-reading traces."""

    args: dict[str, Any]
    result: Any
    groups: set[Any] = field(default_factory=set)
    _rows: dict[str, list[dict[str, Any]]] | None = None
    _maps: Maps | None = None  # the maps the cached rows were flattened with

    @property
    def rows(self) -> dict[str, list[dict[str, Any]]]:
        return self.rows_for(NO_MAPS)

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
        if group_of is not None:
            ex.groups.add(group_of(t))
    return {tool: list(ex.values()) for tool, ex in sorted(index.items())}


def group_executions(traces: Iterable[Mapping[str, Any]]) -> dict[str, list[tuple[dict, Any]]]:
    """Clean ``(arguments, result)`` pairs by tool, identical pairs counted once."""
    return {tool: [(e.args, e.result) for e in exs] for tool, exs in index_executions(traces).items()}


def mine_tool(
    tool: str, executions: list[tuple[dict, Any]], th: Thresholds = DEFAULT, schema_only: bool = False
) -> list[Rule]:
    """Rules of one tool from its own executions only (no pooling with other tools)."""
    return admit(
        [collect(tool, [Execution(dict(a), r) for a, r in executions], schema_only, _floor(th), th)], th
    )


def _floor(th: Thresholds) -> int:
    """Fewer present values than this admit no rule of a field (every class needs at least this
    many examples, distinct values or pairs). Only a lone ``admit`` may skip such fields: pooled
    with other tools, their falsified templates still count."""
    return min(th.min_presence, th.min_pair_samples, th.min_distinct_sign, th.min_distinct_dates)


def mine_executions(
    tool: str, executions: Iterable[Execution], th: Thresholds = DEFAULT, schema_only: bool = False
) -> list[Rule]:
    return admit([collect(tool, executions, schema_only, th=th)], th)


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


# Each fold re-mines 80% of the same values: rounding steps once per value (dates: the shared
# cached_date_key). Keys carry the type (1e16 and 10**16 are equal but round differently);
# bounded by clearing.
_MEMO_MAX = 1 << 17
_QUANTUM_MEMO: dict[tuple[type, Any], float] = {}


def _quantum(v: Any) -> float:
    key = (type(v), v)
    q = _QUANTUM_MEMO.get(key)
    if q is None:
        if len(_QUANTUM_MEMO) >= _MEMO_MAX:
            _QUANTUM_MEMO.clear()
        q = _QUANTUM_MEMO[key] = quantum(v)
    return q


# ============================================================================ phase 1: collect


def _template(cls: str, context: str, fields: tuple[str, ...], params: Mapping[str, Any]) -> tuple:
    """The pooling key of a rule, from its parts (no ``Rule`` needed for a falsified template)."""
    if cls == DOMAIN_CANDIDATE:
        return (cls, leaf(fields[0]))
    extra: tuple = ()
    if cls == "type":
        extra = tuple(params["types"])
    elif cls == "positive":
        extra = (params["strict"],)
    elif cls == "relation":
        extra = (params["form"], params.get("k"), params.get("c"))
    return (cls, context, fields, extra)


class Candidate:
    """A rule that holds on all of one tool's examples, with additive evidence: the parts of a
    ``Rule``, which ``admit`` builds only for the candidates it keeps (tens of thousands are
    proposed per build, most pooled away)."""

    __slots__ = ("tool", "cls", "context", "fields", "params", "ev", "key")

    def __init__(
        self,
        tool: str,
        cls: str,
        context: str,
        fields: tuple[str, ...],
        params: dict[str, Any],
        ev: dict[str, Any],
        key: tuple | None = None,
    ) -> None:
        self.tool, self.cls, self.context, self.fields, self.params, self.ev = (
            tool,
            cls,
            context,
            fields,
            params,
            ev,
        )
        self.key = _template(cls, context, fields, params) if key is None else key


@dataclass
class Collected:
    """Phase-1 output for one tool: candidates that hold, and templates the tool falsifies."""

    candidates: list[Candidate] = field(default_factory=list)
    falsified: set[tuple] = field(default_factory=set)
    # numeric fields present in every row of a context: a product template over three of them
    # that this tool does not hold is falsified by it (kept implicit: there are too many to list)
    dense: dict[str, frozenset[str]] = field(default_factory=dict)


def collect(
    tool: str,
    executions: Iterable[Execution],
    schema_only: bool = False,
    min_present: int = 0,
    th: Thresholds = DEFAULT,
) -> Collected:
    """Candidates and falsified templates of one tool; fields present in fewer than ``min_present``
    rows are skipped (``mine_tool``: a database keyed by ids has thousands present once). Maps keyed
    by ids (``detect_maps``) are mined over their entries, pooled: ``$.variants.*``."""
    executions = list(executions)
    maps = detect_maps([ex.result for ex in executions], th)
    contexts: dict[str, list[dict[str, Any]]] = {}
    for ex in executions:
        for c, rows in ex.rows_for(maps).items():
            contexts.setdefault(c, []).extend(rows)
    out = Collected()
    for context, rows in sorted(contexts.items()):
        _collect_context(tool, context, rows, schema_only, out, min_present, th)
    return out


# ============================================================================ maps keyed by ids


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
    dicts: list[dict] = []
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
        kept = frozenset(str(k) for k, c in counts.items() if c >= th.min_presence)
        maps[path] = kept
        _detect(path + ENTRIES, [v for vs in by_key.values() for v in vs], maps, th)
        for k in sorted(kept):
            _detect(f"{path}.{k}", by_key[k], maps, th)
        return
    for k, vs in by_key.items():
        _detect(f"{path}.{k}", vs, maps, th)


def _is_map(dicts: list[dict], counts: Counter, th: Thresholds) -> bool:
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


_TYPE_NAMES: dict[frozenset[type], tuple[str, ...]] = {}


def _type_names(kinds: frozenset[type]) -> tuple[str, ...]:
    """Sorted JSON type names of a set of Python types (memoized: a handful of sets recur)."""
    names = _TYPE_NAMES.get(kinds)
    if names is None:
        names = _TYPE_NAMES[kinds] = tuple(sorted(merge_types({_JSON_TYPE.get(t, "unknown") for t in kinds})))
    return names


def _columns(
    rows: list[dict[str, Any]],
) -> tuple[dict[str, list[Any]], dict[str, list[Any]], dict[str, list[int]]]:
    """Columns (MISSING where a row lacks the field), the present values of each, and their rows.

    Built row by row: database records keyed by ids (``payment_methods.<id>.brand``) give thousands
    of fields present in a row or two, so nothing here may cost fields x rows in Python."""
    n = len(rows)
    cols: dict[str, list[Any]] = {}
    present: dict[str, list[Any]] = {}
    where: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        for k, v in row.items():
            col = cols.get(k)
            if col is None:
                col = cols[k] = [MISSING] * n
                present[k], where[k] = [], []
            col[i] = v
            if v is not MISSING:
                present[k].append(v)
                where[k].append(i)
    for d in (cols, present, where):
        d.pop(ARGS_KEY, None)
    return cols, present, where


def _is_derived(f: str) -> bool:
    return f.startswith("len(") or f.startswith("sum(")


def _collect_context(
    tool: str,
    context: str,
    rows: list[dict],
    schema_only: bool,
    out: Collected,
    min_present: int = 0,
    th: Thresholds = DEFAULT,
) -> None:
    n = len(rows)
    cols, present_of, where = _columns(rows)
    if min_present > 1:
        # categorical fields stay: their domains pool by leaf name (variants.<id>.available)
        for f in [
            f
            for f, p in present_of.items()
            if len(p) < min_present and not all(type(v) in _STR_BOOL for v in p)
        ]:
            del cols[f], present_of[f], where[f]

    falsified_keys, candidates = out.falsified, out.candidates

    def add(
        cls: str, fields: tuple[str, ...], params: dict | None = None, falsified: bool = False, **ev: Any
    ) -> None:
        # a falsified template needs only its key
        params = params or {}
        key = _template(cls, context, fields, params)
        if falsified:
            falsified_keys.add(key)
        else:
            candidates.append(Candidate(tool, cls, context, fields, params, ev, key))

    kinds: dict[str, set[type]] = {f: set(map(type, present)) for f, present in present_of.items()}

    # ---- required and type (presence facts: count executions)
    for f, present in present_of.items():
        if f.startswith(ARG) or _is_derived(f) or f == KEY:
            continue
        if f:
            add("required", (f,), falsified=len(present) < n, n=n)
        if present:
            add("type", (f,), {"types": list(_type_names(frozenset(kinds[f])))}, n=len(present))
    if schema_only:
        return

    numeric: dict[str, list[Any]] = {}
    stats: dict[
        str, tuple[float, int, bool]
    ] = {}  # numeric field -> (rounding step, distinct values, in every row)
    dates: dict[str, list[Any]] = {}
    for f, col in cols.items():
        pytypes = kinds[f] - {type(None)}
        if not pytypes or f == KEY:
            continue
        present = [v for v in present_of[f] if v is not None] if type(None) in kinds[f] else present_of[f]
        if pytypes <= _NUMERIC and (float not in pytypes or all(math.isfinite(v) for v in present)):
            numeric[f] = col
            d = len(set(present))
            # an int's rounding step is 1 (bool is not among the numeric types)
            stats[f] = (1.0 if float not in pytypes else max(map(_quantum, present)), d, len(present) == n)
            if f.startswith(ARG) or f.startswith("sum("):
                continue  # arguments are not results; sums are implied by their elements' signs
            lo = min(present)
            if f.startswith("len("):
                add("positive", (f,), {"strict": True}, falsified=lo <= 0, n=len(present))
                continue
            add("positive", (f,), {"strict": True}, falsified=lo <= 0, distinct=d)
            add("positive", (f,), {"strict": False}, falsified=lo < 0, distinct=d)
        elif (
            pytypes == _STR
            and cached_date_key(present[0]) is not None
            and all(cached_date_key(v) is not None for v in present)
        ):
            dates[f] = col
        elif not f.startswith(ARG) and f and pytypes <= _STR_BOOL:
            counts = _domain_counts(rows, present_of[f], where[f], th)
            if counts is not None:
                add(
                    DOMAIN_CANDIDATE,
                    (f,),
                    {"counts": counts, "nullable": type(None) in kinds[f]},
                    n=len(present),
                )
    _collect_ledgers(
        tool, context, rows, cols, stats, out, listed={f for f, ks in kinds.items() if list in ks}
    )
    _collect_selections(tool, context, cols, kinds, out)
    # pairwise and ternary rules over at most MAX_RELATED fields, the most often present ones (keys
    # that are ids, like payment_methods.<id>.brand, would otherwise explode the candidates); every
    # field takes part when there are fewer, so each tool can falsify what it contradicts
    if len(cols) > MAX_RELATED:
        keep = set(sorted(cols, key=lambda f: (-len(present_of[f]), f))[:MAX_RELATED])
        cols = {f: cols[f] for f in cols if f in keep}
        numeric = {f: c for f, c in numeric.items() if f in keep}
        dates = {f: c for f, c in dates.items() if f in keep}
    nested = {f for f, ks in kinds.items() if any(issubclass(t, (dict, list)) for t in ks)}
    _collect_equalities(tool, context, cols, numeric, stats, nested, out)
    _collect_dates(tool, context, dates, out)


def _collect_selections(
    tool: str, context: str, cols: dict[str, list[Any]], kinds: dict[str, set[type]], out: Collected
) -> None:
    """An entry selected by an argument: the call names an id and the result's collection holds
    it, as a map's key (``keys(variants)`` holds ``arg.item_id``) or as a field of a list's
    element (``each(payment_history[*].payment_method_id)`` holds ``arg.payment_method_id``)."""
    args = [f for f in cols if f.startswith(ARG) and kinds[f] and kinds[f] <= {str, int}]
    if not args:
        return
    for f, col in cols.items():
        if not f or f.startswith(ARG) or "(" in f or f == KEY or not kinds[f] <= {list, dict, type(None)}:
            continue
        holders: list[tuple[str, list[set[Any] | None]]] = []
        if kinds[f] == {dict} and f"len({f})" in cols:  # a map (flatten gave it a length)
            holders.append((f"keys({f})", [set(v) if type(v) is dict else None for v in col]))
        elif kinds[f] == {list}:
            lists = [v for v in col if type(v) is list]
            if not lists or not all(type(e) is dict for v in lists for e in v):
                continue
            keys = sorted({k for v in lists for e in v for k, x in e.items() if type(x) in (str, int)})
            for k in keys:
                holders.append(
                    (
                        f"each({f}[*].{k})",
                        [{e.get(k) for e in v} if type(v) is list else None for v in col],
                    )
                )
        for holder, sets in holders:
            for a in args:
                n, seen, ok = 0, set(), True
                for held, x in zip(sets, cols[a], strict=True):
                    if held is None or x is MISSING or x is None:
                        continue
                    if x not in held:
                        ok = False
                        break
                    n += 1
                    seen.add(x)
                params = {"form": "contains"}
                if not ok:
                    out.falsified.add(_template("relation", context, (holder, a), params))
                elif n:
                    out.candidates.append(
                        Candidate(
                            tool, "relation", context, (holder, a), params, {"n": n, "distinct": len(seen)}
                        )
                    )


def _domain_counts(
    rows: list[dict], present: list[Any], where: list[int], th: Thresholds = DEFAULT
) -> list[list[Any]] | None:
    """[[value, distinct argument tuples]] of a short categorical field that does not merely copy
    its inputs (then its values would grow with new inputs: a name per city). ``present``: the
    field's values, in the order of their rows ``where``."""
    tuples: dict[Any, set[str]] = {}
    for i, v in zip(where, present, strict=True):
        if v is not None:
            tuples.setdefault(v, set()).add(rows[i][ARGS_KEY])
    d = len(tuples)
    if d > th.max_domain or any(isinstance(v, str) and len(v) > th.max_domain_string for v in tuples):
        return None
    n_args = len({a for s in tuples.values() for a in s})
    if n_args >= 2 and d > th.domain_arg_ratio * n_args:
        return None
    if n_args == 1 and next(iter(next(iter(tuples.values())))) == _NO_ARGS:
        # argument-free tools and database records: each distinct execution is its own evidence
        rows_of = Counter(v for v in present if v is not None)
        return [[v, rows_of[v]] for v in sorted(tuples, key=lambda v: (str(type(v)), v))]
    return [[v, len(s)] for v, s in sorted(tuples.items(), key=lambda kv: (str(type(kv[0])), kv[0]))]


def leaf(field: str) -> str:
    return field.rsplit(".", 1)[-1]


def _pairs(ca: list[Any], cb: list[Any]) -> list[tuple[Any, Any]]:
    return [
        (a, b)
        for a, b in zip(ca, cb, strict=True)
        if a is not MISSING and b is not MISSING and a is not None and b is not None
    ]


def _count_if_equal(ca: list[Any], cb: list[Any]) -> int:
    """The number of rows where both are present if ``_equal`` holds on every one of them, -1 at
    the first row where it does not (a falsified pair needs no count), 0 when none has both."""
    m = 0
    for a, b in zip(ca, cb, strict=True):
        if a is MISSING or b is MISSING or a is None or b is None:
            continue
        if not _equal(a, b):
            return -1
        m += 1
    return m


def _equal(x: Any, y: Any) -> bool:
    if is_number(x) and is_number(y):
        return abs(x - y) <= 1e-9 * max(1.0, abs(y))
    if isinstance(x, bool) or isinstance(y, bool) or isinstance(x, (dict, list)):
        return False
    return type(x) is type(y) and x == y


def _collect_equalities(
    tool: str,
    context: str,
    cols: dict[str, list[Any]],
    numeric: dict[str, list[Any]],
    stats: dict[str, tuple[float, int, bool]],
    nested: set[str],
    out: Collected,
) -> None:
    # a map entry's key is compared like an argument: variants.*.item_id == #key
    args = [f for f in cols if f.startswith(ARG) or f == KEY]
    scalars = [f for f in cols if not f.startswith(ARG) and f and f != KEY and f not in nested]
    names = sorted(numeric)
    mat = np.array(
        [[float(v) if v is not MISSING and v is not None else np.nan for v in numeric[f]] for f in names]
    ).T
    # a column is dense (no NaN in mat) when every row holds a number: finite values convert to
    # finite floats, and only absent or null cells become NaN
    dense = {f for f in names if stats[f][2]}
    idx = {f: i for i, f in enumerate(names)}
    n = mat.shape[0] if len(names) else 0
    distinct = {f: stats[f][1] for f in names}
    quanta = {f: stats[f][0] for f in names}
    if dense and n:
        # pairwise equality of every dense numeric column at once
        eq_all = _all_rows_close(mat)

    def equal_pair(a: str, b: str) -> tuple[bool, int] | None:
        if a in dense and b in dense:
            return bool(eq_all[idx[a], idx[b]]), n
        m = _count_if_equal(cols[a], cols[b])
        return (m > 0, m) if m else None

    # echo: result field == argument (numbers through the matrix, strings pairwise); a falsified
    # template is recorded by its key alone
    falsified, candidates = out.falsified, out.candidates
    for a in scalars:
        d = -1
        for x in args:
            res = equal_pair(a, x)
            if res is None:
                continue
            ok, m = res
            if not ok:
                falsified.add(_template("echo", context, (a, x), {}))
                continue
            if d < 0:
                d = (
                    distinct[a]
                    if a in distinct
                    else len({v for v in cols[a] if v is not MISSING and v is not None})
                )
            candidates.append(Candidate(tool, "echo", context, (a, x), {}, {"n": m, "distinct": d}))
    res_num = sorted(f for f in numeric if not f.startswith(ARG))
    # a == b between result numbers (list lengths included: count == len(items))
    for a, b in combinations(res_num, 2):
        res = equal_pair(a, b)
        if res is None:
            continue
        if not res[0]:
            falsified.add(_template("relation", context, (a, b), {"form": "eq"}))
            continue
        params = {"form": "eq", "quanta": [quanta[a], quanta[b]]}
        candidates.append(
            Candidate(tool, "relation", context, (a, b), params, {"n": res[1], "distinct": distinct[a]})
        )
    # affine and product: list lengths excluded (a small integer fits some line of any money field
    # within its rounding tolerance by coincidence)
    operands = sorted(f for f in numeric if not f.startswith("len("))
    targets = [f for f in operands if not f.startswith(ARG)]
    affine_ok = _dense_affine(mat, idx, dense, quanta)
    for a in targets:
        for b in operands:
            if b == a or (not b.startswith(ARG) and b < a):
                continue
            cand = _affine(tool, context, a, b, numeric, quanta) if affine_ok(a, b) else None
            if not b.startswith(ARG) and (cand is None or abs(cand.params["k"]) < 1):
                # one direction per pair: the one with |k| >= 1 reads naturally (F = 1.8 C + 32)
                cand = (_affine(tool, context, b, a, numeric, quanta) if affine_ok(b, a) else None) or cand
            if cand is not None:
                out.candidates.append(cand)
    _collect_products(tool, context, targets, operands, numeric, mat, idx, dense, quanta, out)


# ---------------------------------------------------------------------------- guarded ledgers


def _ledger_columns(col: list[Any]) -> tuple[list[list[dict]], list[str], list[tuple[str, list[Any]]]] | None:
    """For a column of lists of objects: the lists, the non-negative number keys, and the
    two-valued string keys with their two values. None when the column is not such a list."""
    lists = [v for v in col if v is not MISSING and v is not None]
    if not lists or not all(type(v) is list for v in lists):
        return None
    elems = [e for v in lists for e in v]
    if not elems or not all(type(e) is dict for e in elems):
        return None
    keys = list(dict.fromkeys(k for e in elems for k in e))
    nums, cats = [], []
    for k in keys:
        vals = [e.get(k, MISSING) for e in elems]
        if all(type(v) in _NUMERIC and math.isfinite(v) and v >= 0 for v in vals):
            nums.append(k)
        elif all(type(v) is str for v in vals):
            distinct = sorted(set(vals))
            # the values become part of a field name: keep them free of its separators
            if len(distinct) == 2 and not any(" - " in v or ": " in v or ")" in v for v in distinct):
                cats.append((k, distinct))
    if not nums or not cats:
        return None
    return lists, nums, cats


def _step(values: Iterable[Any]) -> float:
    """The finest rounding step among the values (0.01 for cents); unrounded values (step 0) and
    whole numbers say nothing finer, so a ledger in cents keeps a tolerance of half a cent."""
    steps = [q for q in map(_quantum, values) if q > 0]
    return min(steps) if steps else 0.0


def _collect_ledgers(
    tool: str,
    context: str,
    rows: list[dict],
    cols: dict[str, list[Any]],
    stats: dict[str, tuple[float, int, bool]],
    out: Collected,
    th: Thresholds = DEFAULT,
    listed: set[str] | None = None,
) -> None:
    """Signed ledgers: a list column whose numbers are counted + or - by a two-valued sibling
    (payment / refund), equal to another number of the element (the items' total) or to 0. Such a
    relation often holds only in part of the data (an open order nets to its items, a cancelled one
    to 0): where it fails globally, it is kept for the values of a small categorical field (the
    guard) on which it holds on every example, each value with ``min_per_category`` examples."""
    n = len(rows)
    if n < th.min_pair_samples:
        return
    ledgers = []
    for name, col in cols.items():
        if not name or name.startswith(ARG) or "(" in name or (listed is not None and name not in listed):
            continue
        found = _ledger_columns(col)
        if found is None:
            continue
        lists, nums, cats = found
        firsts = Counter(v[0][k] for v in lists if v for k, _ in cats)
        for key in nums:
            for by, pair in cats:
                # the value that opens most ledgers counts +, the other - (a payment, then refunds)
                plus, minus = sorted(pair, key=lambda v: (-firsts[v], v))
                field = net_field(name, key, by, plus, minus)
                nets = [
                    net_value(v, key, by, plus, minus) if v is not MISSING and v is not None else MISSING
                    for v in col
                ]
                gross = [sum(e[key] for e in v if e[by] == plus) if type(v) is list else MISSING for v in col]
                step = _step(e[key] for v in lists for e in v)
                ledgers.append((name, field, nets, gross, step))
    if not ledgers:
        return
    guards = []
    for g, col in cols.items():
        if not g or g.startswith(ARG) or "(" in g or g == KEY:
            continue
        vals = [v for v in col if v is not MISSING]
        if len(vals) == n and all(type(v) is str for v in vals):
            distinct = set(vals)
            if 2 <= len(distinct) <= th.max_domain:
                guards.append((g, col))
    for name, field, nets, gross, step in ledgers:
        # targets: other numbers of the element (not arguments, counts or sums of the same list), and 0
        targets: list[tuple[str | None, list[Any], float]] = [(None, [0] * n, 0.0)]
        for f in sorted(stats):
            if f.startswith(ARG) or f.startswith("len(") or f == name or f.startswith(f"sum({name}[*]."):
                continue
            targets.append((f, cols[f], _step(v for v in cols[f] if v is not MISSING and v is not None)))
        for target, tcol, tq in targets:
            # the check's own tolerance (rules._c_relation / _c_const): half a rounding step per side
            tol = 0.5 * (step + tq)
            ok: list[bool | None] = []
            for a, b in zip(nets, tcol, strict=True):
                if a is MISSING or b is MISSING or b is None:
                    ok.append(None)
                else:
                    ok.append(abs(a - b) <= tol + 1e-9 * max(1.0, abs(a)))
            present = [i for i, o in enumerate(ok) if o is not None]
            if len(present) < th.min_pair_samples:
                continue
            # evidence: distinct totals the ledger matched (for 0: distinct amounts that cancelled out)
            witness = tcol if target is not None else gross
            if all(ok[i] for i in present):
                best = (None, present)
            else:
                best = None
                for g, gcol in guards:
                    by_value: dict[str, list[int]] = {}
                    for i in present:
                        by_value.setdefault(gcol[i], []).append(i)
                    held = sorted(
                        v
                        for v, idx in by_value.items()
                        if len(idx) >= th.min_per_category and all(ok[i] for i in idx)
                    )
                    covered = [i for v in held for i in by_value[v]]
                    if held and (best is None or len(covered) > len(best[1])):
                        best = ((g, held), covered)
                if best is None:
                    continue
            where, covered = best
            distinct = len({witness[i] for i in covered})
            params: dict[str, Any] = (
                {"form": "const", "c": 0, "quanta": [step]}
                if target is None
                else {"form": "eq", "quanta": [step, tq]}
            )
            if where is not None:
                params["guard"] = {"field": where[0], "values": where[1]}
            fields = (field,) if target is None else (field, target)
            out.candidates.append(
                Candidate(
                    tool, "relation", context, fields, params, {"n": len(covered), "distinct": distinct}
                )
            )


def _all_rows_close(mat: np.ndarray) -> np.ndarray:
    """[i, j]: column i equals column j on every row (relative 1e-9). Small matrices compare every
    row at once (fewer array calls); large ones are screened on the first row and only survivors
    compared on the rest. Element for element the same arithmetic, so the same answer."""
    if mat.size * mat.shape[1] <= _CUBE_MAX:
        return (
            np.abs(mat[:, :, None] - mat[:, None, :]) <= 1e-9 * np.maximum(1.0, np.abs(mat))[:, None, :]
        ).all(axis=0)
    m = mat.shape[1]
    first = mat[0]
    ii, jj = np.nonzero(
        np.abs(first[:, None] - first[None, :]) <= 1e-9 * np.maximum(1.0, np.abs(first[None, :]))
    )
    if mat.shape[0] > 1 and len(ii):
        rest_i, rest_j = mat[1:, ii], mat[1:, jj]
        keep = (np.abs(rest_i - rest_j) <= 1e-9 * np.maximum(1.0, np.abs(rest_j))).all(axis=0)
        ii, jj = ii[keep], jj[keep]
    eq = np.zeros((m, m), dtype=bool)
    eq[ii, jj] = True
    return eq


def _dense_affine(
    mat: np.ndarray, idx: dict[str, int], dense: set[str], quanta: dict[str, float]
) -> Callable[[str, str], bool]:
    """A prefilter: whether a == k*b + c could hold (always True for sparse columns)."""
    cols = sorted(dense, key=idx.get)
    if len(cols) < 2 or mat.shape[0] < 3:
        return lambda a, b: not (a in dense and b in dense) and True
    sub = mat[:, [idx[f] for f in cols]]
    lo, hi = sub.argmin(axis=0), sub.argmax(axis=0)
    cols_i = np.arange(len(cols))
    xb_lo, xb_hi = sub[lo, cols_i], sub[hi, cols_i]  # per b
    xa_lo, xa_hi = sub[lo, :].T, sub[hi, :].T  # [a, b]: a's value at b's extreme rows
    with np.errstate(divide="ignore", invalid="ignore"):
        k = (xa_hi - xa_lo) / (xb_hi - xb_lo)[None, :]
        c = xa_lo - k * xb_lo[None, :]
        q = np.array([quanta[f] for f in cols])
        tol = (
            0.5 * (q[:, None] + np.abs(k) * q[None, :])
            + 1e-6 * np.maximum(1.0, np.abs(sub)).max(axis=0)[:, None]
        )
        bound = tol * 1.001 + 1e-9
        # every row at once when small (as in _all_rows_close); else screened on the first row and
        # survivors tested on the rest: the same per-element arithmetic either way
        if sub.size * sub.shape[1] <= _CUBE_MAX:
            ok = np.isfinite(k) & (np.abs(sub[:, :, None] - k * sub[:, None, :] - c) <= bound).all(axis=0)
        else:
            ok = np.isfinite(k) & (np.abs(sub[0][:, None] - k * sub[0][None, :] - c) <= bound)
            ii, jj = np.nonzero(ok)
            if sub.shape[0] > 1 and len(ii):
                kk, cc = k[ii, jj], c[ii, jj]
                bad = ~(np.abs(sub[1:, ii] - kk * sub[1:, jj] - cc) <= bound[ii, jj]).all(axis=0)
                ok[ii[bad], jj[bad]] = False
    pos = {f: i for i, f in enumerate(cols)}
    return lambda a, b: bool(ok[pos[a], pos[b]]) if a in pos and b in pos else True


def _collect_products(
    tool: str,
    context: str,
    targets: list[str],
    operands: list[str],
    numeric: dict,
    mat: np.ndarray,
    idx: dict[str, int],
    dense: set[str],
    quanta: dict[str, float],
    out: Collected,
) -> None:
    pairs = list(combinations(operands, 2))
    dpairs = [(b, c) for b, c in pairs if b in dense and c in dense]
    if dpairs and mat.shape[0]:
        bi = np.array([idx[b] for b, _ in dpairs])
        ci = np.array([idx[c] for _, c in dpairs])
        xb, xc = mat[:, bi], mat[:, ci]
        prod = xb * xc
        qb = np.array([quanta[b] for b, _ in dpairs])
        qc = np.array([quanta[c] for _, c in dpairs])
        tol_bc = 0.5 * (np.abs(xc) * qb + np.abs(xb) * qc)
        total = xb + xc
        tol_add = 0.5 * (qb + qc)
    out.dense[context] = frozenset(dense)
    sparse_pairs = [(b, c) for b, c in pairs if not (b in dense and c in dense)]
    hits_mul: dict[str, list[int]] = {}
    hits_add: dict[str, list[int]] = {}
    dense_targets = [a for a in targets if a in dense]
    if dense_targets and dpairs and mat.shape[0]:
        hits_mul, hits_add = _screen_dense(
            mat,
            [idx[a] for a in dense_targets],
            np.array([quanta[a] for a in dense_targets]),
            dense_targets,
            prod,
            tol_bc,
            total,
            tol_add,
        )
    for a in targets:
        if a in dense and dpairs:
            for j in hits_mul.get(a, ()):
                b, c = dpairs[j]
                if a not in (b, c):
                    cand = _product(tool, context, a, b, c, numeric, quanta)
                    if cand is not None and cand.ev:
                        out.candidates.append(cand)
            # a == b + c (total_due == subtotal + fees): dense columns only
            for j in hits_add.get(a, ()):
                b, c = dpairs[j]
                if a not in (b, c) and not b.startswith(ARG) and not c.startswith(ARG):
                    out.candidates.append(_addition(tool, context, a, b, c, mat, idx, quanta))
            rest = sparse_pairs
        else:
            rest = pairs
        for b, c in rest:
            if a in (b, c):
                continue
            cand = _product(tool, context, a, b, c, numeric, quanta)
            if cand is None:
                continue
            if cand.ev:
                out.candidates.append(cand)
            else:
                out.falsified.add(cand.key)


def _screen_dense(
    mat: np.ndarray,
    ai: list[int],
    qa: np.ndarray,
    names: list[str],
    prod: np.ndarray,
    tol_bc: np.ndarray,
    total: np.ndarray,
    tol_add: np.ndarray,
) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """For every dense target a, the dense pairs (b, c) with a == b*c (and a == b + c) on all rows
    within tolerance, in pair order. Small inputs test every row at once; large ones screen every
    target on the first row (most pairs fail there) and test only survivors on the other rows.
    Element for element the same arithmetic as testing each target on all rows."""
    xa = mat[:, ai]
    half = 0.5 * qa
    slack = 1e-9 * np.maximum(1.0, np.abs(xa))
    # products and sums side by side: one pass of array operations instead of two
    n_pairs = prod.shape[1]
    rhs = np.concatenate([prod, total], axis=1)
    tol2 = np.empty_like(rhs)
    tol2[:, :n_pairs] = tol_bc
    tol2[:, n_pairs:] = tol_add
    if xa.size * rhs.shape[1] <= _CUBE_MAX:
        ti, pj = np.nonzero(
            (
                np.abs(xa[:, :, None] - rhs[:, None, :])
                <= half[None, :, None] + tol2[:, None, :] + slack[:, :, None]
            ).all(axis=0)
        )
    else:
        ti, pj = np.nonzero(
            np.abs(xa[0][:, None] - rhs[0][None, :]) <= half[:, None] + tol2[0][None, :] + slack[0][:, None]
        )
        if mat.shape[0] > 1 and len(ti):
            keep = (np.abs(xa[1:, ti] - rhs[1:, pj]) <= half[ti] + tol2[1:, pj] + slack[1:, ti]).all(axis=0)
            ti, pj = ti[keep], pj[keep]
    mul: dict[str, list[int]] = {}
    add: dict[str, list[int]] = {}
    for t, j in zip(ti.tolist(), pj.tolist(), strict=True):
        if j < n_pairs:
            mul.setdefault(names[t], []).append(j)
        else:
            add.setdefault(names[t], []).append(j - n_pairs)
    return mul, add


def _log_chance(tol: float, targets: list[float], n_points: int) -> float:
    """log P(an equation with tolerance held on n_points by chance): a target drawn at random over
    its observed range lands within +-tol of the prediction with probability 2*tol/range."""
    spread = max(targets) - min(targets) if targets else 0.0
    if spread <= 0:
        return 0.0
    p = min(1.0, 2 * tol / spread)
    return -1e9 if p == 0.0 else n_points * math.log(p)


def _affine(tool: str, context: str, a: str, b: str, numeric: dict, quanta: dict) -> Candidate | None:
    pairs = _pairs(numeric[a], numeric[b])  # present values of numeric columns are finite numbers
    if len(pairs) < 3:
        return None
    lo = min(pairs, key=lambda p: p[1])
    hi = max(pairs, key=lambda p: p[1])
    if hi[1] == lo[1]:
        return None
    k = (hi[0] - lo[0]) / (hi[1] - lo[1])
    c = lo[0] - k * lo[1]
    if abs(k) < 1e-12 or (abs(k - 1) < 1e-9 and abs(c) < 1e-9):
        return None
    k, c = _snap(k), _snap(c)  # round constants the data cannot tell apart (1.8, not 1.7999999)
    tol = 0.5 * (quanta[a] + abs(k) * quanta[b])
    if any(abs(x - (k * y + c)) > tol + 1e-9 * max(1.0, abs(x)) for x, y in pairs):
        return None
    params = {"form": "affine", "k": k, "c": c, "quanta": [quanta[a], quanta[b]]}
    ev = {
        "n": len(pairs),
        "distinct": len({y for _, y in pairs}),
        "logp": _log_chance(tol, [x for x, _ in pairs], len(set(pairs)) - 2),
    }  # two points fit k and c
    return Candidate(tool, "relation", context, (a, b), params, ev)


def _snap(x: float) -> float:
    r = round(x, 6)
    return r if abs(r - x) <= 1e-9 * max(1.0, abs(x)) else x


def _product(
    tool: str, context: str, a: str, b: str, c: str, numeric: dict, quanta: dict
) -> Candidate | None:
    ca, cb, cc = numeric[a], numeric[b], numeric[c]
    qa, qb, qc = quanta[a], quanta[b], quanta[c]
    n = 0
    points: set[tuple[Any, Any]] = set()
    tol_max = 0.0
    for x, y, z in zip(ca, cb, cc, strict=True):
        if x is MISSING or y is MISSING or z is MISSING or x is None or y is None or z is None:
            continue
        tol = 0.5 * (qa + abs(z) * qb + abs(y) * qc) + 1e-9 * max(1.0, abs(x))
        if abs(x - y * z) > tol:
            # falsified: most candidates die on their first row; recorded so pooling sees it
            return Candidate(tool, "relation", context, (a, b, c), {"form": "product"}, {})
        n += 1
        points.add((y, z))
        tol_max = max(tol_max, tol)
    if n == 0:
        return None
    ev = {
        "n": n,
        "points": len(points),
        "bd": len({y for y, _ in points}),
        "cd": len({z for _, z in points}),
        "logp": _log_chance(tol_max, [x for x in ca if x is not MISSING and x is not None], len(points)),
    }
    return Candidate(tool, "relation", context, (a, b, c), {"form": "product", "quanta": [qa, qb, qc]}, ev)


def _addition(
    tool: str, context: str, a: str, b: str, c: str, mat: np.ndarray, idx: dict[str, int], quanta: dict
) -> Candidate:
    xa, xb, xc = mat[:, idx[a]], mat[:, idx[b]], mat[:, idx[c]]
    points = {(float(y), float(z)) for y, z in zip(xb, xc, strict=True)}
    tol = 0.5 * (quanta[a] + quanta[b] + quanta[c])
    ev = {
        "n": int(len(xa)),
        "points": len(points),
        "bd": len({y for y, _ in points}),
        "cd": len({z for _, z in points}),
        "logp": _log_chance(tol, [float(x) for x in xa], len(points)),
    }
    params = {"form": "add", "quanta": [quanta[a], quanta[b], quanta[c]]}
    return Candidate(tool, "relation", context, (a, b, c), params, ev)


def _collect_dates(tool: str, context: str, dates: dict[str, list[Any]], out: Collected) -> None:
    names = sorted(dates)
    for a in names:
        for b in names:
            if a == b or (a.startswith(ARG) and b.startswith(ARG)):
                continue
            pairs = [(cached_date_key(x), cached_date_key(y)) for x, y in _pairs(dates[a], dates[b])]
            if not pairs:
                continue
            bad = any(x > y for x, y in pairs)
            ev = {
                "n": len(pairs),
                "distinct": len(set(pairs)),
                "strict": sum(x < y for x, y in pairs),
                "min_b": min(y for _, y in pairs),
                "max_a": max(x for x, _ in pairs),
            }
            if bad:
                out.falsified.add(_template("date_order", context, (a, b), {}))
            else:
                out.candidates.append(Candidate(tool, "date_order", context, (a, b), {}, ev))


# ============================================================================ phase 2: admit


def _merge(evs: list[dict[str, Any]]) -> dict[str, Any]:
    """Pooled evidence: counts added (left to right, as a running total would), ``min_b`` and
    ``max_a`` extremes. Candidates of one template come from one place in ``collect`` and carry
    the same keys, so each key is folded over the list at once."""
    out: dict[str, Any] = {}
    for k in evs[0]:
        vals = [ev[k] for ev in evs]  # a KeyError here means collect broke that invariant
        out[k] = min(vals) if k == "min_b" else max(vals) if k == "max_a" else sum(vals)
    return out


def _admissible(c: str, params: Mapping[str, Any], ev: dict[str, Any], th: Thresholds) -> bool:
    chance = math.log(1 - th.confidence)
    if c in ("required", "type"):
        return ev["n"] >= th.min_presence
    if c == "positive":
        return ev["n"] >= th.min_presence if "n" in ev else ev["distinct"] >= th.min_distinct_sign
    if c == "echo" or (c == "relation" and params["form"] in ("eq", "const", "contains")):
        return ev["n"] >= th.min_pair_samples and ev["distinct"] >= th.min_distinct_eq
    if c == "relation" and params["form"] == "affine":
        return (
            ev["n"] >= th.min_pair_samples
            and ev["distinct"] >= th.min_distinct_affine
            and ev["logp"] < chance
        )
    if c == "relation":
        return (
            ev["n"] >= th.min_pair_samples
            and ev["points"] >= th.min_distinct_product
            and ev["logp"] < chance
            and ev["bd"] >= th.min_distinct_affine
            and ev["cd"] >= th.min_distinct_affine
        )
    if c == "date_order":
        # AGORA: fields whose observed ranges do not overlap are unrelated, not ordered
        return (
            ev["n"] >= th.min_pair_samples
            and ev["distinct"] >= th.min_distinct_dates
            and ev["strict"] > 0
            and ev["min_b"] <= ev["max_a"]
        )
    return False


def admit(
    collected: Iterable[Collected], th: Thresholds = DEFAULT, held_back: list[dict[str, Any]] | None = None
) -> list[Rule]:
    """Pool candidates by template across tools, keep the admissible ones, remove implied rules.
    ``held_back``, when given (``registry.learn`` from a recording), turns on the trace sample's
    support bound on domains (``unseen_half``, see ``_pool_domains``) and receives each domain it
    kept out. Without it (the studies' cross-fit folds, pinned by golden hashes) the bound is off."""
    by_key: dict[tuple, list[Candidate]] = {}
    falsified: set[tuple] = set()
    collected = list(collected)
    holders: dict[tuple, set[int]] = {}
    for i, col in enumerate(collected):
        falsified |= col.falsified
        for cand in col.candidates:
            by_key.setdefault(cand.key, []).append(cand)
            if cand.key[0] == "relation" and cand.key[3][0] in ("product", "add"):
                holders.setdefault(cand.key, set()).add(i)
    if holders:
        having: dict[tuple[str, str], set[int]] = {}  # (context, dense field) -> tools' indices
        for i, col in enumerate(collected):
            for context, fields in col.dense.items():
                for f in fields:
                    having.setdefault((context, f), set()).add(i)
        for key, who in holders.items():
            sets = [having.get((key[1], f), set()) for f in key[2]]
            if set.intersection(*sets) - who:
                falsified.add(key)
    domains = _pool_domains(by_key, th, held_back)  # by id(candidate)
    kept: dict[str, list[Rule]] = {}
    for key, group in by_key.items():
        if key[0] == DOMAIN_CANDIDATE or key in falsified:
            continue
        ev = group[0].ev if len(group) == 1 else _merge([c.ev for c in group])
        if not _admissible(group[0].cls, group[0].params, ev, th):
            continue
        tools = 1 if len(group) == 1 else len({c.tool for c in group})
        # a template's candidates carry the same evidence keys (see _merge), in this order
        keys = [k for k in _SUPPORT_KEYS if k in group[0].ev]
        pooled_n = ev.get("n", ev.get("distinct", 0))
        selection = group[0].cls == "relation" and group[0].params.get("form") == "contains"
        for cand in group:
            cev = cand.ev
            if selection and tools > 1 and not _admissible(cand.cls, cand.params, cev, th):
                continue  # what an argument selects is each tool's own semantics: not pooled
            support = {k: cev[k] for k in keys}
            if tools > 1:
                support["pooled_n"] = pooled_n
                support["pooled_tools"] = tools
            kept.setdefault(cand.tool, []).append(
                Rule(cand.tool, cand.cls, cand.context, cand.fields, cand.params, support)
            )
    for cand in (c for k, g in by_key.items() if k[0] == DOMAIN_CANDIDATE for c in g):
        values = domains.get(id(cand))
        if (
            held_back is not None
            and values is not None
            and len(values) == 2
            and all(type(v) is bool for v in values)
        ):
            # both booleans seen: the contract is the type, which the suppressed type rule states
            # (a domain of False, True only restates it, and hides the type rule's words)
            continue
        if values is not None:
            params = {"values": values, "nullable": cand.params["nullable"]}
            support = {"n": cand.ev["n"], "distinct": len(values)}
            kept.setdefault(cand.tool, []).append(
                Rule(cand.tool, "domain", cand.context, cand.fields, params, support)
            )
    out: list[Rule] = []
    for tool in sorted(kept):
        out.extend(_suppress(kept[tool]))
    return out


def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def unseen_half(counts: Iterable[int]) -> float:
    """Good-Turing's unseen mass of a random half of the sample: the expected share of singletons
    in half the executions (hypergeometric). It bounds the unseen mass of the whole sample from
    above (the discovery rate only falls as a sample grows) and, unlike f1/n, is not 0 when a small
    sample happens to show every value twice: 4 values seen 4-5 times each in 17 executions give
    0.12 (a fifth value is likely), the same shares in 1,700 give about 1e-73."""
    cs = [int(c) for c in counts if c > 0]
    n = sum(cs)
    m = n // 2
    if m < 1:
        return 1.0
    lc = math.lgamma
    log_total = lc(n + 1) - lc(m + 1) - lc(n - m + 1)  # log C(n, m)
    f1 = 0.0
    for c in cs:
        if n - c < m - 1:
            continue  # the half always holds two or more of this value
        # P(exactly one of its c executions falls in the half) = c * C(n - c, m - 1) / C(n, m)
        log_ways = lc(n - c + 1) - lc(m) - lc(n - c - m + 2)
        f1 += c * math.exp(log_ways - log_total)
    return f1 / m


def _pool_domains(
    by_key: dict[tuple, list[Candidate]], th: Thresholds, held_back: list[dict[str, Any]] | None = None
) -> dict[int, list[Any]]:
    """Categorical domains pooled by field name and shared values: tools returning ``availability``
    values that overlap draw them from one vocabulary (TFDV's shared domains), so their evidence is
    pooled; tools of the same field name whose values never meet stay separate vocabularies. A
    pooled domain must have at most ``max_domain`` values, each seen in at least
    ``min_count_per_value`` distinct executions (Good-Turing: no singletons, so the estimated unseen
    mass is 0), and ``min_per_category`` executions per value overall. A trace sample's domain (no
    ``max_unseen_mass``: not a database's population) also needs the unseen mass of a half sample
    (``unseen_half``) below 1 - confidence: a modest recording that saw each value a few times has
    not shown that the set is closed. Returns {id(candidate): values}.
    """
    keep: dict[int, list[Any]] = {}
    for key, group in by_key.items():
        if key[0] != DOMAIN_CANDIDATE:
            continue
        # connected components of candidates linked by a shared value
        owner: dict[Any, int] = {}
        parent = list(range(len(group)))
        for i, cand in enumerate(group):
            for v, _ in cand.params["counts"]:
                j = owner.setdefault((type(v), v), i)
                parent[_find(parent, j)] = _find(parent, i)
        comps: dict[int, list[Candidate]] = {}
        for i, cand in enumerate(group):
            comps.setdefault(_find(parent, i), []).append(cand)
        for members in comps.values():
            c: Counter = Counter()
            for cand in members:
                for v, k in cand.params["counts"]:
                    c[v] += k
            n = sum(c.values())
            singletons = sum(1 for k in c.values() if k < th.min_count_per_value)
            if (
                len(c) <= th.max_domain
                and (singletons == 0 or singletons < th.max_unseen_mass * n)
                and n >= max(th.min_presence, th.min_per_category * len(c))
            ):
                values = sorted(c, key=lambda v: (str(type(v)), v))
                if held_back is not None and th.max_unseen_mass <= 0 and len(c) > 1:
                    unseen = unseen_half(c.values())
                    if unseen >= 1 - th.confidence:
                        for cand in members:
                            held_back.append(
                                {
                                    "tool": cand.tool,
                                    "rule": f"domain {display_path(cand.context, cand.fields[0])}",
                                    "values": len(values),
                                    "n": n,
                                    "reason": f"too little support (unseen mass of a half sample {unseen:.3f})",
                                }
                            )
                        continue
                for cand in members:
                    keep[id(cand)] = values
    return keep


class _Classes:
    """Union-find over fields known equal; arguments represent their class."""

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
        if rb.startswith(ARG) or (not ra.startswith(ARG) and rb < ra):
            ra, rb = rb, ra
        self.parent[rb] = ra
        return True


def _suppress(rules: list[Rule]) -> list[Rule]:
    """Drop rules implied by others so receipts stay short: non-negative beside positive, types
    beside domains, equalities outside a spanning forest of each equality class, relations that
    restate another through equal fields, and date orderings implied by transitivity."""
    strict = {(r.context, r.fields[0]) for r in rules if r.cls == "positive" and r.params.get("strict")}
    domain = {(r.context, r.fields[0]) for r in rules if r.cls == "domain"}
    out: list[Rule] = []
    classes: dict[str, _Classes] = {}
    for r in sorted(
        rules, key=lambda r: (r.cls != "echo", r.cls != "relation" or r.params["form"] != "eq", r.rule_id)
    ):
        key1 = (r.context, r.fields[0])
        if r.cls == "positive" and not r.params.get("strict") and key1 in strict:
            continue
        if r.cls == "type" and key1 in domain:
            continue
        if (r.cls == "echo" or (r.cls == "relation" and r.params["form"] == "eq")) and not r.params.get(
            "guard"
        ):
            if not classes.setdefault(r.context, _Classes()).union(r.fields[0], r.fields[1]):
                continue
        out.append(r)
    seen: set[tuple] = set()
    final = []
    for r in out:
        if r.cls == "relation" and r.params["form"] in ("affine", "product", "add"):
            cl = classes.get(r.context, _Classes())
            canon = (
                r.context,
                r.params["form"],
                cl.find(r.fields[0]),
                *sorted(cl.find(f) for f in r.fields[1:]),
            )
            if canon in seen:
                continue
            seen.add(canon)
        final.append(r)
    dates = {(r.context, r.fields[0], r.fields[1]) for r in final if r.cls == "date_order"}
    names = {f for _, a, b in dates for f in (a, b)}
    return [
        r
        for r in final
        if r.cls != "date_order"
        or not any(
            (r.context, r.fields[0], m) in dates and (r.context, m, r.fields[1]) in dates
            for m in names - set(r.fields)
        )
    ]


__all__ = [
    "Candidate",
    "Collected",
    "Execution",
    "admit",
    "gc_paused",
    "collect",
    "group_executions",
    "index_executions",
    "mine_executions",
    "mine_tool",
]
