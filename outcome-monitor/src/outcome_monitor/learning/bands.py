"""Bands (``range`` form ``band``, wide vocabulary): a number whose clean values sit in a band away
from zero (a match score between 0.8 and 1.0, a tax multiplier between 1.0 and 1.25) stays within one
band's width of it, so a value scaled or mixed up with another unit (0.94 read as 0.21, 1.16 as 116)
fires while every value the clean spread could plausibly reach passes.

The bound is ``[lo - w, hi + w]`` with ``w = hi - lo``, learned per place (context and field name)
pooled across the tools that carry it, as the unit range is. Guards: ``MIN_BAND_DISTINCT`` distinct
clean values; the band lies away from zero (``lo - w > 0``: a spread as wide as the values
themselves, a price from 4 to 900, gives no band); and Auto-Validate's held-out check, each half of
the sorted distinct values inside the bound the other half gives, so a spread still widening with
more data keeps no band.
"""

from __future__ import annotations

from collections.abc import Mapping

from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import band_bound, halves_agree, id_named
from outcome_monitor.learning.executions import Execution
from outcome_monitor.learning.signs import numeric_places

MIN_BAND_DISTINCT = 20  # as a string pattern's support


def band_rules(index: Mapping[str, list[Execution]]) -> list[Rule]:
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
