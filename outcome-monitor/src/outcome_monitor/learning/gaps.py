"""Gaps between ordered dates that pile up against a cap (wide vocabulary): a quote valid for at
most 30 days, a booking effective within 14 days. A ``date_order`` rule (``a <= b``) gains
``max_days`` where the clean gaps in days show a cap, not a tail, so a stale ``a`` (an as-of date
weeks behind) fires though it is still before ``b``.

A cap is the largest gap seen, kept only where (1) the place (context and the two fields, pooled
over the tools that order them) held ``MIN_GAPS`` distinct pairs of dates or more with ``MIN_DISTINCT_GAPS`` distinct
values (a constant gap is a lifetime, not a cap, and few gaps show neither); (2) the largest gap
was seen ``MIN_AT_CAP`` (5) times or more: had the gap one day longer been as common as the
largest, ``c`` draws of it would all have missed it with chance ``exp(-c)``, below 1% from 5 (a
tail thins out towards its largest value; a cap is met as often as any value below it); (3) it
holds out, as Auto-Validate's check does: each half of the gaps (alternate, in order met) reaches
the same largest value. Knows nothing of receipts or environments; called by ``vocabulary.learn_wide``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import cached_date_key, key_day
from outcome_monitor.learning.executions import Execution

MIN_GAPS = 50
MIN_DISTINCT_GAPS = 10
MIN_AT_CAP = 5  # exp(-5) < 1 - 0.99

Place = tuple[str, str, str]  # context, a, b


def date_caps(rules: list[Rule], index: Mapping[str, list[Execution]]) -> list[Rule]:
    """``rules`` with ``max_days`` on each ``date_order`` rule whose place shows a cap."""
    orders = [r for r in rules if r.cls == "date_order" and not r.params]
    if not orders:
        return rules
    wanted: dict[str, set[Place]] = {}
    for r in orders:
        wanted.setdefault(r.tool, set()).add((r.context, r.fields[0], r.fields[1]))
    # one gap per distinct pair of dates: a record met again (another tool's view of one quote)
    # is no new draw
    pairs: dict[Place, dict[tuple[str, str], int]] = {}
    for tool, places in wanted.items():
        for ex in index.get(tool, ()):
            for context, a, b in places:
                for row in ex.rows.get(context, ()):
                    va, vb = row.get(a), row.get(b)
                    gap = _gap(va, vb)
                    if gap is not None:
                        pairs.setdefault((context, a, b), {})[str(va), str(vb)] = gap
    gaps = {place: list(seen.values()) for place, seen in pairs.items()}
    caps = {place: cap for place, seen in gaps.items() if (cap := _cap(seen)) is not None}
    return [
        replace(r, params={"max_days": caps[key]}, support={**r.support, "gaps": len(gaps[key])})
        if r.cls == "date_order" and not r.params and (key := (r.context, r.fields[0], r.fields[1])) in caps
        else r
        for r in rules
    ]


def _gap(a: object, b: object) -> int | None:
    """Whole days from date ``a`` to date ``b`` (dates without a time only: a gap of hours is no
    count of days), or None."""
    if type(a) is not str or type(b) is not str or len(a) != 10 or len(b) != 10:
        return None
    ka, kb = cached_date_key(a), cached_date_key(b)
    if ka is None or kb is None:
        return None
    da, db = key_day(ka), key_day(kb)
    return None if da is None or db is None else db - da


def _cap(gaps: list[int]) -> int | None:
    if len(gaps) < MIN_GAPS:
        return None
    counts = Counter(gaps)
    if len(counts) < MIN_DISTINCT_GAPS:
        return None
    top = max(counts)
    if counts[top] < MIN_AT_CAP:
        return None
    if max(gaps[0::2]) != top or max(gaps[1::2]) != top:
        return None
    return top
