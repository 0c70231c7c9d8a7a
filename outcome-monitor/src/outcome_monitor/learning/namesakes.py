"""Patterns namesakes lend (wide vocabulary): a field seen too few times for a pattern of its own
borrows one from the fields that share its name's last word, and a pattern pooled from namesakes keeps
the prefix a tool's own values always had.

**Suffixes** (``suffix_shapes``, ``suffix_rule``): ``courier_uid``, ``deal_uid``, ``room_uid`` drawn
by one id generator give ``deal_uid`` their pattern. Guards: three names or more, ``MIN_SHAPE_DISTINCT``
distinct values, a fixed length, and Auto-Validate's held-out check taken to fields: with any one name
left out, the others' pattern fits its values.

**Prefixes** (``tool_prefixes``): ``record_id`` is ``<3 capital letters>-<8 hex digits>`` in every
tool, but ``SHP-`` in the grocery tools and ``FIN-`` in the fund tools, so another entity's id, or
one whose prefix was mutated, fires where the pooled pattern alone lets it pass. Guards: the prefix
is letters up to a separator; among the tools that carry the name, at least ``MIN_PREFIX_TOOLS`` saw
``MIN_OWN_DISTINCT`` distinct values or more, ``KEPT_SHARE`` of those kept one prefix each (a tool
that copies ids of several kinds from its arguments keeps none), and the prefixes differ between
tools (a prefix every tool shares is the pattern's fixed part already); the tool itself saw
``MIN_OWN_DISTINCT`` distinct values, all with that one prefix.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.shapes import infer_shape

MIN_SHAPE_DISTINCT = 20  # a pattern from fewer distinct values met new kinds of ids on held-out traffic
MIN_FIXED_SHAPE_DISTINCT = 10  # ...unless every run of it has a fixed length (a 40-digit hex id, a date)


def pattern_of(distinct: list[str]) -> dict[str, Any] | None:
    """A pattern from 20 distinct values, or from 10 where each of its runs has one length."""
    shape = infer_shape(distinct, MIN_FIXED_SHAPE_DISTINCT)
    if shape is None or len(distinct) >= MIN_SHAPE_DISTINCT:
        return shape
    return shape if _fixed_length(shape["pattern"]) else None


def _fixed_length(pattern: str) -> bool:
    r"""No run of ``pattern`` repeats an open number of times: no ``+`` or ``*`` quantifier (a ``+``
    inside a character class, as an offset's ``[+\-]``, or escaped, is a character)."""
    bare = re.sub(r"\[[^\]]*\]", "", re.sub(r"\\.", "", pattern))
    return "+" not in bare and "*" not in bare


MIN_SUFFIX_NAMES = 3  # fields of different names sharing a name's last word, each with its own pattern


def suffix_shapes(pooled: Mapping[tuple[str, str], list[str]]) -> dict[tuple[str, str], dict[str, Any]]:
    """One fixed-length pattern per (context, last word of a field's name) where at least three fields
    of different names end in that word (``courier_uid``, ``deal_uid``, ``room_uid``): a kind of id
    drawn by one generator, whatever the entity. The guard is Auto-Validate's held-out check taken to
    fields: with any one field left out, the others' values give a pattern its values all fit. A field
    seen too few times for a pattern of its own takes it (``_text_rules``, where its values fit)."""
    by_word: dict[tuple[str, str], dict[str, list[str]]] = {}
    for (context, f), values in pooled.items():
        head, sep, word = f.rpartition("_")
        if sep and head and word.isalpha() and "." not in f and "[" not in f:
            by_word.setdefault((context, word), {})[f] = list(dict.fromkeys(values))
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for key, fields in by_word.items():
        if len(fields) < MIN_SUFFIX_NAMES:
            continue
        everything = list(dict.fromkeys(v for values in fields.values() for v in values))
        shape = pattern_of(everything) if len(everything) >= MIN_SHAPE_DISTINCT else None
        if shape is None or "+" in shape["pattern"] or "*" in shape["pattern"]:
            continue
        if all(_fits_without(fields, f) for f in fields):
            out[key] = {**shape, "pooled_names": len(fields), "pooled_n": len(everything)}
    return out


def _fits_without(fields: Mapping[str, list[str]], left_out: str) -> bool:

    others = list(dict.fromkeys(v for f, values in fields.items() if f != left_out for v in values))
    shape = infer_shape(others, MIN_FIXED_SHAPE_DISTINCT)
    if shape is None:
        return False
    match = re.compile(shape["pattern"]).fullmatch
    return all(match(v) for v in fields[left_out])


def suffix_rule(
    tool: str,
    context: str,
    f: str,
    own: list[str],
    suffix: Mapping[tuple[str, str], dict[str, Any]],
    support: Mapping[str, Any],
) -> list[Rule]:
    """The pattern of the fields sharing ``f``'s last word (``suffix_shapes``), where ``f``'s own
    values all fit it."""
    head, sep, word = f.rpartition("_")
    shape = suffix.get((context, word)) if sep and head else None
    if shape is None or not own:
        return []
    match = re.compile(shape["pattern"]).fullmatch
    if not all(match(v) for v in own):
        return []
    params = {k: shape[k] for k in ("form", "pattern", "example")}
    pooled = {k: int(shape[k]) for k in ("pooled_names", "pooled_n")}
    return [Rule(tool, "shape", context, (f,), params, {**support, **pooled})]


MIN_PREFIX_TOOLS = 3
MIN_OWN_DISTINCT = 3
KEPT_SHARE = 0.9  # tools that copy ids of several kinds from their arguments are the rest
_PREFIX = re.compile(r"([A-Za-z]{2,8}[-_:])")


def _prefix(values: set[str]) -> str | None:
    """The one letters-and-separator prefix every value starts with, else None."""
    found = {m.group(1) if (m := _PREFIX.match(v)) else None for v in values}
    return next(iter(found)) if len(found) == 1 and None not in found else None


PrefixTable = tuple[dict[tuple[str, str], dict[str, set[str]]], dict[tuple[str, str], bool]]


def prefix_table(columns: Mapping[str, Mapping[tuple[str, str], list[str]]]) -> PrefixTable:
    """Each name's values per tool, and whether the name's prefixes are per tool (the guards above):
    computed once per recording, read for every tool by ``tool_prefixes``."""
    by_name: dict[tuple[str, str], dict[str, set[str]]] = {}
    for tool, cols in columns.items():
        for key, values in cols.items():
            by_name.setdefault(key, {})[tool] = set(values)
    per_tool: dict[tuple[str, str], bool] = {}
    for key, tools in by_name.items():
        seen = [_prefix(vs) for vs in tools.values() if len(vs) >= MIN_OWN_DISTINCT]
        kept = [p for p in seen if p is not None]
        per_tool[key] = (
            len(kept) >= MIN_PREFIX_TOOLS and len(kept) >= KEPT_SHARE * len(seen) and len(set(kept)) >= 2
        )
    return by_name, per_tool


def tool_prefixes(rules: list[Rule], table: PrefixTable) -> list[Rule]:
    """``rules`` with each pooled ``shape`` pattern narrowed to its tool's own prefix where the guards hold."""
    by_name, per_tool = table
    out = []
    for r in rules:
        if not r.fields:
            out.append(r)
            continue
        key = (r.context, r.fields[0])
        if (
            r.cls == "shape"
            and r.params.get("form") == "shape"
            and "pooled_n" in r.support
            and per_tool.get(key)
        ):
            own = by_name[key].get(r.tool, set())
            prefix = _prefix(own) if len(own) >= MIN_OWN_DISTINCT else None
            if prefix is not None:
                params = {
                    **r.params,
                    "pattern": f"(?={re.escape(prefix)}){r.params['pattern']}",
                    "example": f"{prefix}... ({r.params['example']})",
                }
                r = Rule(r.tool, r.cls, r.context, r.fields, params, {**r.support, "own_prefix": len(own)})
        out.append(r)
    return out
