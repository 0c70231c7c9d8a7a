"""Phase 1 (``collect``): one tool's executions flattened into rows per context (maps keyed by ids
mined over their entries), and per context the candidates no example contradicts, plus the
templates some example falsifies: required fields, types, signs and domains here; relations
(``relations.py``) and guarded ledgers (``ledgers.py``) from the same columns."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

from outcome_monitor.checking.paths import ARG, KEY
from outcome_monitor.checking.values import MISSING, cached_date_key, merge_types
from outcome_monitor.learning.candidates import (
    DOMAIN_CANDIDATE,
    Candidate,
    Collected,
    cached_quantum,
    template,
)
from outcome_monitor.learning.day_echo import span_fields
from outcome_monitor.learning.executions import ARGS_KEY, Execution
from outcome_monitor.learning.ledgers import collect_ledgers
from outcome_monitor.learning.mapdetect import detect_maps
from outcome_monitor.learning.relations import collect_dates, collect_equalities, collect_selections
from outcome_monitor.thresholds import DEFAULT, Thresholds

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
PER_CALL = 2  # observations one execution's elements give a context's presence facts (wide)
_NO_ARGS = repr([])


def collect(
    tool: str,
    executions: Iterable[Execution],
    schema_only: bool = False,
    min_present: int = 0,
    th: Thresholds = DEFAULT,
    wide: bool = False,
) -> Collected:
    """Candidates and falsified templates of one tool; fields present in fewer than ``min_present``
    rows are skipped (``mine_tool``: a database keyed by ids has thousands present once). Maps keyed
    by ids (``detect_maps``) are mined over their entries, pooled: ``$.variants.*``."""
    executions = list(executions)
    maps = detect_maps([ex.result for ex in executions], th)
    contexts: dict[str, list[dict[str, Any]]] = {}
    origin: dict[str, list[int]] = {}  # the execution each row came from
    for i, ex in enumerate(executions):
        for c, rows in ex.rows_for(maps).items():
            contexts.setdefault(c, []).extend(rows)
            origin.setdefault(c, []).extend([i] * len(rows))
    out = Collected(tool=tool)
    for context, rows in sorted(contexts.items()):
        _collect_context(
            tool, context, rows, schema_only, out, min_present, th, wide, origin[context] if wide else None
        )
    return out


def _per_call(origin: list[int] | None, where: list[int]) -> int:
    """What the rows ``where`` of a context weigh as presence evidence: every row (the paper's
    count), or in the wide vocabulary ``PER_CALL`` per execution they came from, as the thresholds
    say: one call's elements come from one builder, and its first element and a second show what
    more of them show again (one call's 22 tree nodes at a depth no other call reached)."""
    if origin is None:
        return len(where)
    return min(len(where), PER_CALL * len({origin[i] for i in where}))


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
    rows: list[dict[str, Any]],
    schema_only: bool,
    out: Collected,
    min_present: int = 0,
    th: Thresholds = DEFAULT,
    wide: bool = False,
    origin: list[int] | None = None,
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
        cls: str,
        fields: tuple[str, ...],
        params: dict[str, Any] | None = None,
        falsified: bool = False,
        **ev: Any,
    ) -> None:
        # a falsified template needs only its key
        params = params or {}
        key = template(cls, context, fields, params)
        if falsified:
            falsified_keys.add(key)
        else:
            candidates.append(Candidate(tool, cls, context, fields, params, ev, key))

    kinds: dict[str, set[type]] = {f: set(map(type, present)) for f, present in present_of.items()}
    # values of a context that were records and other things (a JSON block, then text blocks; in the
    # wide vocabulary also a result that is an object for one detail level, text for another): a
    # field is required of the records, the only values whose fields are checked
    records = n
    if len(kinds.get("", ())) > 1 and (wide or context.endswith("[*]")):
        records = sum(1 for v in present_of[""] if type(v) is dict)

    # ---- required and type (presence facts: count executions)
    every = n if origin is None else min(n, PER_CALL * len(set(origin)))
    for f, present in present_of.items():
        if f.startswith(ARG) or _is_derived(f) or f == KEY:
            continue
        if f:
            add("required", (f,), falsified=len(present) < records, n=min(records, every))
        if present:
            add(
                "type", (f,), {"types": list(_type_names(frozenset(kinds[f])))}, n=_per_call(origin, where[f])
            )
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
            stats[f] = (
                1.0 if float not in pytypes else max(map(cached_quantum, present)),
                d,
                len(present) == n,
            )
            if f.startswith(ARG) or f.startswith("sum("):
                continue  # arguments are not results; sums are implied by their elements' signs
            lo = min(present)
            if f.startswith("len("):
                add("positive", (f,), {"strict": True}, falsified=lo <= 0, n=_per_call(origin, where[f]))
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
                    n=_per_call(origin, where[f]),
                )
    collect_ledgers(
        tool, context, rows, cols, stats, out, listed={f for f, ks in kinds.items() if list in ks}
    )
    collect_selections(tool, context, cols, kinds, out)
    # pairwise and ternary rules over at most MAX_RELATED fields, the most often present ones (keys
    # that are ids, like payment_methods.<id>.brand, would otherwise explode the candidates); every
    # field takes part when there are fewer, so each tool can falsify what it contradicts
    if len(cols) > MAX_RELATED:
        keep = set(sorted(cols, key=lambda f: (-len(present_of[f]), f))[:MAX_RELATED])
        cols = {f: cols[f] for f in cols if f in keep}
        numeric = {f: c for f, c in numeric.items() if f in keep}
        dates = {f: c for f, c in dates.items() if f in keep}
    nested = {f for f, ks in kinds.items() if any(issubclass(t, (dict, list)) for t in ks)}
    collect_equalities(tool, context, cols, numeric, stats, nested, out)
    if wide:
        # an asked date beside a span (an event of several days, an all-day one ending the next
        # day): what a day or range holds may begin before it or end after it
        results = [f for f in dates if not f.startswith(ARG)]
        for f in sorted({f for row in rows for f in span_fields(row, results)}):
            for a in [a for a in dates if a.startswith(ARG)]:
                out.falsified.add(template("date_order", context, (a, f), {}))
                out.falsified.add(template("date_order", context, (f, a), {}))
    collect_dates(tool, context, dates, out)


def _domain_counts(
    rows: list[dict[str, Any]], present: list[Any], where: list[int], th: Thresholds = DEFAULT
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


__all__ = ["MAX_RELATED", "collect"]
