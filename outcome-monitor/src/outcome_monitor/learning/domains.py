"""Domains the wide vocabulary finds past a field's own values: across the keys of a map, and per
value of a categorical argument.

Across the keys of a map: the names in the lists of a map keyed
by names (car types per rental company, ``{"Alamo": ["Sedan", "SUV"], ...}``).

Each key's list is seen in few results (a company asked about once or twice), too few for a closed
set of its own; the lists of all keys draw from one vocabulary, so their elements are pooled per
tool and place. The domain then needs what any trace domain needs (``admit._pool_domains``): at
most ``max_domain`` values, each seen in ``min_count_per_value`` distinct executions,
``min_per_category`` executions per value, and the unseen mass of a half sample (``unseen_half``)
below 1 - confidence. Guards: every value of the map is a list of strings (a record's fields are not
pooled), and no element ever copied an argument of its call (a name asked for grows with the asking).
The rule is the collection form ``elements`` with ``values`` on the map's entries (``<map>.*``).

Per value of an argument (``arg_lookups``): a short string that a categorical argument always
determined (``wc(mode="c")`` answers ``type: "characters"``) is a ``lookup`` relation keyed by the
argument: a result outside the set is then caught whenever the argument is one clean calls asked.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from outcome_monitor.checking.paths import ARG, ENTRIES
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import id_like
from outcome_monitor.learning.admit import unseen_half
from outcome_monitor.learning.executions import Execution
from outcome_monitor.thresholds import Thresholds

MIN_MAP_KEYS = 2  # distinct keys over the recording: one key is a record's list, not a map of them


def _is_map_of_names(v: Any) -> bool:
    return (
        type(v) is dict
        and bool(v)
        and all(type(x) is list and all(type(e) is str for e in x) for x in v.values())
    )


def _leaves(args: Any) -> set[str]:
    if type(args) is dict:
        return set().union(*(_leaves(a) for a in args.values())) if args else set()
    if type(args) is list:
        return set().union(*(_leaves(a) for a in args)) if args else set()
    return {args} if type(args) is str else set()


def map_element_domains(index: Mapping[str, list[Execution]], th: Thresholds) -> list[Rule]:
    """``elements`` rules with ``values`` on the entries of each map of lists of names (see above)."""
    out = []
    for tool, executions in sorted(index.items()):
        counts: dict[tuple[str, str], dict[str, int]] = {}
        keys: dict[tuple[str, str], set[str]] = {}
        spoiled: set[tuple[str, str]] = set()
        for ex in executions:
            asked = _leaves(ex.args)
            for context, rows in ex.rows.items():
                for row in rows:
                    for f, v in row.items():
                        if f.startswith((ARG, "#")) or "(" in f or type(v) is not dict:
                            continue
                        place = (context, f)
                        if not _is_map_of_names(v):
                            spoiled.add(place)
                            continue
                        names = {e for x in v.values() for e in x}
                        if names & asked:
                            spoiled.add(place)
                        keys.setdefault(place, set()).update(v)
                        c = counts.setdefault(place, {})
                        for e in names:
                            c[e] = c.get(e, 0) + 1
        for (context, f), c in sorted(counts.items()):
            if (context, f) in spoiled or len(keys[(context, f)]) < MIN_MAP_KEYS:
                continue
            if not (
                2 <= len(c) <= th.max_domain
                and all(k >= th.min_count_per_value for k in c.values())
                and sum(c.values()) >= max(th.min_presence, th.min_per_category * len(c))
                and unseen_half(c.values()) < 1 - th.confidence
            ):
                continue
            entries = f"{context}{ENTRIES}" if f == "" else f"{context}.{f}{ENTRIES}"
            params = {"form": "elements", "values": sorted(c)}
            out.append(
                Rule(tool, "collection", entries, ("",), params, {"n": sum(c.values()), "distinct": len(c)})
            )
    return out


def merge_elements(rules: list[Rule], new: list[Rule]) -> list[Rule]:
    """``rules`` with each of ``new``: its values added to an ``elements`` rule of the same place that
    has none (one rule per id), else appended."""
    at = {
        (r.tool, r.context, r.fields): i
        for i, r in enumerate(rules)
        if r.cls == "collection" and r.params.get("form") == "elements"
    }
    out = list(rules)
    for r in new:
        i = at.get((r.tool, r.context, r.fields))
        if i is None:
            out.append(r)
        elif "values" not in out[i].params:
            old = out[i]
            out[i] = replace(
                old, params={**old.params, "values": r.params["values"]}, support={**old.support, **r.support}
            )
    return out


def _chance(results_per_key: Mapping[Any, list[Any]]) -> float:
    """log P(each asked value's results all equal by chance) when results ignore the argument: every
    repeat after a key's first result matches it with the share of the commonest result, at most."""
    values = [v for vs in results_per_key.values() for v in vs]
    top = max(values.count(v) for v in set(values)) / len(values)
    repeats = len(values) - len(results_per_key)
    return repeats * math.log(top) if top < 1 else 0.0


def arg_lookups(index: Mapping[str, list[Execution]], th: Thresholds) -> list[Rule]:
    """A short string of the result that a categorical argument always determined (``wc(mode="w")``
    answers ``type: "words"``): ``relation`` ``lookup`` rules keyed by the argument. Support: at least
    3 asked values and at most ``max_domain``, none an identifier (an order's status moves with time)
    and no result one either (nor a date),
    each asked in ``min_count_per_value`` distinct executions; ``min_pair_samples`` rows; two results
    or more that are not the argument itself (an echo says that); and the chance that the results
    fell into a function of the argument by accident below 1 - confidence; and no two answers among
    the calls that left the argument out (they asked for its default, which then determines nothing)."""
    out = []
    for tool, executions in sorted(index.items()):
        cols: dict[tuple[str, str, str], dict[Any, list[Any]]] = {}
        left_out: dict[tuple[str, str, str], set[Any]] = {}  # results of calls that left k out
        names = {k for ex in executions for k, v in ex.args.items() if type(v) in (str, bool)}
        for ex in executions:
            asked = {k: v for k, v in ex.args.items() if type(v) in (str, bool)}
            unasked = names - set(ex.args)
            if not asked and not unasked:
                continue
            for context, rows in ex.rows.items():
                for row in rows:
                    for f, v in row.items():
                        if f.startswith((ARG, "#")) or "(" in f or type(v) is not str or f == "":
                            continue
                        if len(v) > th.max_domain_string:
                            continue
                        for k, a in asked.items():
                            cols.setdefault((context, f, k), {}).setdefault(a, []).append(v)
                        for k in unasked:
                            left_out.setdefault((context, f, k), set()).add(v)
        for (context, f, k), per_key in sorted(cols.items(), key=lambda kv: kv[0]):
            results = {v for vs in per_key.values() for v in vs}
            if (
                # a call that leaves the argument out asks for its default: where such calls got
                # differing answers, the default determines nothing (``by`` left out, or ``auto``)
                len(left_out.get((context, f, k), ())) < 2
                and th.min_distinct_eq <= len(per_key) <= th.max_domain
                and all(len(set(vs)) == 1 for vs in per_key.values())
                and all(len(vs) >= th.min_count_per_value for vs in per_key.values())
                and sum(len(vs) for vs in per_key.values()) >= th.min_pair_samples
                and len(results) >= 2
                # words of a vocabulary on both sides: an identifier or a date (a run's timestamp) is
                # no category, however often it repeated in a sample
                and not any(id_like(a) for a in per_key)
                and not any(id_like(v) for v in results)
                and any(str(a) != vs[0] for a, vs in per_key.items())
                and _chance(per_key) < math.log(1 - th.confidence)
            ):
                table = {str(a): vs[0] for a, vs in sorted(per_key.items(), key=lambda kv: str(kv[0]))}
                params = {"form": "lookup", "reference": "arg", "target": f, "table": table}
                n = sum(len(vs) for vs in per_key.values())
                out.append(
                    Rule(tool, "relation", context, (f, ARG + k), params, {"n": n, "distinct": len(per_key)})
                )
    return out


_NUMBERED = re.compile(r"^(.*?)[ _-]?(\d+)$")
_TITLED = re.compile(r"^[A-Z][a-z]+(?: [A-Z][a-z]+)+$")  # "Classic Backpack"
NAME_FIELDS = ("name", "title", "label")


def open_set(values: list[Any], field: str) -> str | None:
    """Why a categorical field's values are no closed set, or None: two of them or more a numbered
    series (``Heading 1``, ``Heading 2``: ``Heading 3`` is the next, not an outside value), or names of
    things (``Classic Backpack``, ``Ultra Lamp`` under ``name``: a catalogue grows), or text cut short
    for display (``Add a dark theme to the dashbo...``: a category's word is never longer than its
    column; free text is)."""
    if any(type(v) is str and v.endswith(("...", "\u2026")) and " " in v for v in values):
        return "text cut short for display: free text, no category"
    stems = Counter(m.group(1) for v in values if type(v) is str and (m := _NUMBERED.match(v)) and m.group(1))
    if any(n >= 2 for n in stems.values()):
        return "a numbered series: the next number is no outside value"
    leaf = field.rsplit(".", 1)[-1].lower()
    if (
        leaf.endswith(NAME_FIELDS)
        and len(values) >= 2
        and all(type(v) is str and _TITLED.match(v) for v in values)
    ):
        return "names of things: a catalogue grows"
    return None


__all__ = ["arg_lookups", "map_element_domains", "merge_elements", "open_set"]


MIN_LENDERS = 3  # tools holding one pooled domain of a field before a namesake takes it


def lend_domains(
    rules: list[Rule], columns: Mapping[str, Mapping[tuple[str, str], list[str]]], min_own: int = 2
) -> list[Rule]:
    """Domains lent to namesakes: a tool whose field was seen too few times (or with too few asked
    values) for a domain candidate of its own takes the pooled domain of the same name and place,
    where at least ``MIN_LENDERS`` tools hold that one domain (``admit._pool_domains`` gave them one
    value set), exactly one such set holds all of the tool's own values, and it saw ``min_own``
    values at least. ``availability`` seen three times in one tool, beside 80 tools that closed the
    set of fifteen words, is one of those words."""
    sets: dict[tuple[str, str], dict[tuple[str, ...], set[str]]] = {}
    has: set[tuple[str, str, str]] = set()
    for r in rules:
        if r.cls != "domain" or r.params.get("reference") or len(r.fields) != 1:
            continue
        values = r.params["values"]
        has.add((r.tool, r.context, r.fields[0]))
        if all(type(v) is str for v in values):
            sets.setdefault((r.context, r.fields[0]), {}).setdefault(tuple(values), set()).add(r.tool)
    out = []
    for tool, cols in columns.items():
        for (context, f), own in cols.items():
            if (tool, context, f) in has or len(own) < min_own or (context, f) not in sets:
                continue
            fits = [
                (values, tools)
                for values, tools in sets[(context, f)].items()
                if len(tools) >= MIN_LENDERS and set(own) <= set(values)
            ]
            if len(fits) != 1:
                continue
            values, tools = fits[0]
            params = {"values": list(values), "nullable": False}
            support = {"n": len(own), "distinct": len(values), "pooled_tools": len(tools)}
            out.append(Rule(tool, "domain", context, (f,), params, support))
    return out
