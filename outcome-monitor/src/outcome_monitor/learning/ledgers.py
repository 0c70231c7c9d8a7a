"""Guarded ledgers, searched in phase 1: a list's non-negative numbers counted + or - by a
two-valued sibling key (``net(payment_history[*].amount by transaction_type: payment - refund)``),
equal to another number of the element or to 0, kept with a guard (a small categorical field's
values) where it holds only in part of the data."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

from outcome_monitor.checking.paths import ARG, KEY, net_field, net_value
from outcome_monitor.checking.values import MISSING
from outcome_monitor.learning.candidates import Candidate, Collected, cached_quantum
from outcome_monitor.thresholds import DEFAULT, Thresholds

_NUMERIC = {int, float}


def _ledger_columns(
    col: list[Any],
) -> tuple[list[list[dict[str, Any]]], list[str], list[tuple[str, list[Any]]]] | None:
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
    steps = [q for q in map(cached_quantum, values) if q > 0]
    return min(steps) if steps else 0.0


def collect_ledgers(
    tool: str,
    context: str,
    rows: list[dict[str, Any]],
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
            seen = set(vals)
            if 2 <= len(seen) <= th.max_domain:
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
            # (the guard's field and values, or None: it holds everywhere), the rows it covers
            best: tuple[tuple[str, list[str]] | None, list[int]] | None
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


__all__ = ["collect_ledgers"]
