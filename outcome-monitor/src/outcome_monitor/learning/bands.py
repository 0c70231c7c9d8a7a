"""Bands (``range`` form ``band``, wide vocabulary): a number whose clean values sit in a band away
from zero (a match score between 0.8 and 1.0, a tax multiplier between 1.0 and 1.25) stays within one
band's width of it, so a value scaled or mixed up with another unit (0.94 read as 0.21, 1.16 as 116)
fires while every value the clean spread could plausibly reach passes.

The bound is ``[lo - w, hi + w]`` with ``w = hi - lo``, learned per place (context and field name)
pooled across the tools that carry it, as the unit range is. Guards: ``MIN_BAND_DISTINCT`` distinct
clean values, from ``min_presence`` calls or more (the rows of one answer are one look at the
world: a sensor log's night readings, read from its head and tail five times, are not its
afternoons); the band lies away from zero (``lo - w > 0``: a spread as wide as the values
themselves, a price from 4 to 900, gives no band); and Auto-Validate's held-out check, each half of
the sorted distinct values inside the bound the other half gives, so a spread still widening with
more data keeps no band.
"""

from __future__ import annotations

from collections.abc import Mapping

from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import band_bound, halves_agree, id_named, is_number
from outcome_monitor.learning.executions import Execution
from outcome_monitor.learning.signs import numeric_places
from outcome_monitor.thresholds import DEFAULT, Thresholds

MIN_BAND_DISTINCT = 20  # as a string pattern's support


def band_rules(index: Mapping[str, list[Execution]], th: Thresholds = DEFAULT) -> list[Rule]:
    """One ``range`` ``band`` rule per tool at each place whose pooled clean values form a band."""
    places = numeric_places(index)
    pooled: dict[tuple[str, str], set[float]] = {}
    for (_, context, f), values in places.items():
        pooled.setdefault((context, f), set()).update(float(v) for v in values)
    bounds: dict[tuple[str, str], tuple[float, float]] = {}
    for key, pooled_values in pooled.items():
        distinct = sorted(pooled_values)
        if len(distinct) < MIN_BAND_DISTINCT or not halves_agree(distinct):
            continue
        bound = band_bound(distinct)
        if bound is not None:
            bounds[key] = bound
    calls = _calls(index, set(bounds))
    bounds = {key: bound for key, bound in bounds.items() if calls.get(key, 0) >= th.min_presence}
    out = []
    for (tool, context, f), values in sorted(places.items()):
        bound = bounds.get((context, f))
        if bound is None or id_named(f):  # an id's next values are new labels, not measures in a band
            continue
        lo, hi = (round(b, 6) for b in bound)
        params = {"form": "band", "min": lo, "max": hi}
        support = {"distinct": len(set(values)), "pooled_distinct": len(pooled[(context, f)])}
        out.append(Rule(tool, "range", context, (f,), params, support))
    return out


def _calls(index: Mapping[str, list[Execution]], places: set[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """How many executions, over every tool, held a number at each of ``places`` (context, field)."""
    out: dict[tuple[str, str], int] = {}
    contexts = {context for context, _ in places}
    for executions in index.values() if places else ():
        for ex in executions:
            held = {
                (context, f)
                for context, rows in ex.rows.items()
                if context in contexts
                for row in rows
                for f, v in row.items()
                if (context, f) in places and is_number(v)
            }
            for key in held:
                out[key] = out.get(key, 0) + 1
    return out
