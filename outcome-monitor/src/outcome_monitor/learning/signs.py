"""Signs the wide vocabulary finds where a field's own values are too few or sit in a list.

A sign of its own needs ``min_distinct_sign`` (7) distinct values: the chance that a field whose
sign is really a coin flip showed 7 positive values is below 1%. Two places never reach that:

1. **Elements of a list of numbers** (``travel_cost_list: [220.0]``): mined per tool over every
   element, as a field's values are (``positive`` on ``<list>[*]``), with the same thresholds and
   the same softening of small counts.
2. **Fields a tool saw few values of** (a distance, a tire pressure, a balance seen 3 to 6 times):
   the recording itself says how often a number changes sign. Among its places with a sign's own
   support, the share ``r`` that held a negative value (Laplace's estimate, ``(mixed + 1) /
   (supported + 2)``) is the prior that a place is mixed; a mixed place shows a positive value with
   chance 1/2 (the coin flip of the threshold above). After ``k`` distinct non-negative values the
   posterior that the place is mixed is ``r 2^-k / (r 2^-k + 1 - r)``; below 1 - confidence the place
   keeps "must be non-negative" (never "> 0": a zero is one value among many, not a coin flip).
   Guards: at least ``MIN_PRIOR_PLACES`` supported places in the recording, at least
   ``MIN_PRIOR_DISTINCT`` distinct values of the place's own, no tool's value at the same place
   (context and field name) ever negative, and no negative number beside it in its object (a
   correlation matrix's row: ``matrix.amount.discount`` beside a negative ``matrix.amount.qty``).
3. **Namesakes by a name's last word** (``table_count`` beside ``paragraph_count`` and
   ``word_count``; ``numPages`` beside ``totalPages``): the places whose field names end in one word
   pool their values as one field's; where ``MIN_SUFFIX_NAMES`` names or more hold
   ``min_distinct_sign`` distinct values together and none of them was ever negative, each keeps
   "must be non-negative" from ``MIN_PRIOR_DISTINCT`` values of its own (as patterns pool by a
   name's last word in ``namesakes.py``). Names of one word (``value``, ``result``) never pool.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from outcome_monitor.checking.paths import ARG
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import is_number
from outcome_monitor.learning.executions import Execution
from outcome_monitor.thresholds import Thresholds, constant_floor

MIN_SUFFIX_NAMES = 3  # field names sharing a last word before they speak for each other
MIN_PRIOR_PLACES = 10  # supported places the recording's base rate of mixed signs is read from
MIN_PRIOR_DISTINCT = 2  # a place's own distinct values before the prior may speak for it
SMALL_COUNT = 2  # as vocabulary._soften_counts: a count down to 1 or 2 may well be 0 next time

Place = tuple[str, str, str]  # (tool, context, field)


def element_context(context: str, f: str) -> str:
    """The context of the elements of the list at field ``f`` of ``context``."""
    return f"{context}[*]" if f == "" else f"{context}.{f}[*]"


def numeric_places(index: Mapping[str, list[Execution]]) -> dict[Place, list[int | float]]:
    """Every number a tool's clean results held, per place: result fields (not arguments, lengths or
    sums) and the elements of lists of numbers (as ``(tool, <list>[*], "")``)."""
    out: dict[Place, list[int | float]] = {}
    mixed: set[Place] = set()  # lists that also held other elements: their numbers are not the list's
    for tool, executions in index.items():
        for ex in executions:
            for context, rows in ex.rows.items():
                for row in rows:
                    for f, v in row.items():
                        if f.startswith((ARG, "#")) or "(" in f:
                            continue
                        if is_number(v):
                            out.setdefault((tool, context, f), []).append(v)
                        elif type(v) is list and v:
                            place = (tool, element_context(context, f), "")
                            if all(is_number(e) for e in v):
                                out.setdefault(place, []).extend(v)
                            else:
                                mixed.add(place)
    return {place: vs for place, vs in out.items() if place not in mixed}


def _sign(values: list[int | float], th: Thresholds) -> bool | None:
    """Strictness of the sign ``values`` support on their own (None: no sign)."""
    lo = min(values)
    if lo < 0:
        return None
    ints = all(type(v) is int for v in values)
    if lo > 0 and not (ints and lo <= SMALL_COUNT and len(values) < constant_floor(th)):
        return True
    return False


def sign_rules(
    index: Mapping[str, list[Execution]], existing: list[Rule], th: Thresholds
) -> tuple[list[Rule], dict[str, Any]]:
    """The sign rules of both kinds above for places no rule of ``existing`` signs, and the prior
    (``meta``: supported places, mixed ones, the least distinct values the prior asks)."""
    places = numeric_places(index)
    signed = {(r.tool, r.context, r.fields[0]) for r in existing if r.cls == "positive"}
    # a place where some tool held a negative number: the field's name does not carry a sign
    negative_named = {(c, f) for (_, c, f), vs in places.items() if min(vs) < 0}
    out: list[Rule] = []
    supported = mixed = 0
    for (tool, context, f), values in sorted(places.items()):
        distinct = len(set(values))
        if distinct < th.min_distinct_sign:
            continue
        supported += 1
        mixed += min(values) < 0
        if f == "" and context.endswith("[*]") and (tool, context, f) not in signed:
            strict = _sign(values, th)
            if strict is not None:
                support = {"distinct": distinct, "n": len(values)}
                out.append(Rule(tool, "positive", context, (f,), {"strict": strict}, support))
                # ...and numbers they stay: a sign passes what is no number (a page in a list of costs)
                out.append(Rule(tool, "type", context, (f,), {"types": ["number"]}, support))
    out.extend(_suffix_signs(places, signed, negative_named, th))
    signed |= {(r.tool, r.context, r.fields[0]) for r in out}
    need = prior_distinct(supported, mixed, th)
    meta = {"supported": supported, "mixed": mixed, "needs_distinct": need}
    if need is None:
        return out, meta
    # an object whose other numbers changed sign (a correlation matrix's row): its numbers are one
    # kind of quantity, and the recording's base rate speaks for none of them
    negative_parents = {(t, c, _parent(f)) for (t, c, f), vs in places.items() if min(vs) < 0 and "." in f}
    for (tool, context, f), values in sorted(places.items()):
        distinct = len(set(values))
        if (
            need <= distinct < th.min_distinct_sign
            and (tool, context, f) not in signed
            and (context, f) not in negative_named
            and (tool, context, _parent(f)) not in negative_parents
        ):
            support = {"distinct": distinct, "prior_supported": supported, "prior_mixed": mixed}
            out.append(Rule(tool, "positive", context, (f,), {"strict": False}, support))
    return out, meta


def _parent(f: str) -> str:
    return f.rsplit(".", 1)[0] if "." in f else ""


_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def last_word(f: str) -> str | None:
    """The last word of a field's leaf name (``table_count``, ``numPages``), or None for a name of
    one word."""
    words = _WORDS.findall(f.rsplit(".", 1)[-1])
    return words[-1].lower() if len(words) >= 2 and words[-1].isalpha() else None


def _suffix_signs(
    places: Mapping[Place, list[int | float]],
    signed: set[Place],
    negative_named: set[tuple[str, str]],
    th: Thresholds,
) -> list[Rule]:
    """``>= 0`` lent among fields whose names end in one word (3. above)."""
    pooled: dict[str, list[tuple[Place, list[int | float]]]] = {}
    for place, values in places.items():
        word = last_word(place[2])
        if word is not None:
            pooled.setdefault(word, []).append((place, values))
    out: list[Rule] = []
    for _word, group in sorted(pooled.items()):
        names = {last for (_, _, f), _ in group if (last := f.rsplit(".", 1)[-1])}
        together = {v for _, vs in group for v in vs}
        if len(names) < MIN_SUFFIX_NAMES or len(together) < th.min_distinct_sign or min(together) < 0:
            continue
        for (tool, context, f), vs in group:
            distinct = len(set(vs))
            if (
                MIN_PRIOR_DISTINCT <= distinct < th.min_distinct_sign
                and (tool, context, f) not in signed
                and (context, f) not in negative_named
            ):
                support = {"distinct": distinct, "pooled_names": len(names), "pooled_distinct": len(together)}
                out.append(Rule(tool, "positive", context, (f,), {"strict": False}, support))
    return out


def prior_distinct(supported: int, mixed: int, th: Thresholds) -> int | None:
    """The least distinct non-negative values after which a place is mixed with a posterior below
    1 - confidence, given the recording's ``supported`` places of which ``mixed`` held a negative;
    None when the recording has too few supported places to say."""
    if supported < MIN_PRIOR_PLACES:
        return None
    r = (mixed + 1) / (supported + 2)
    for k in range(MIN_PRIOR_DISTINCT, th.min_distinct_sign):
        w = r * 0.5**k
        if w / (w + 1 - r) < 1 - th.confidence:
            return k
    return None


__all__ = ["element_context", "numeric_places", "prior_distinct", "sign_rules"]
