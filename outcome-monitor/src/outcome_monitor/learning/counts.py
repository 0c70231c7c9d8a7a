"""Counts and list lengths near 0 (wide vocabulary): "> 0" says little where 0 is one step away.

A count whose clean values came close to 0 keeps "> 0" only with a constant's support, else "must be
non-negative"; a list inside records that one record held shorter when met again (deletes reach it)
keeps no "non-empty", nor does a list named for exceptions (``unknown_words``, ``warnings``,
``skipped_rows``) short of a constant's support: a clean answer may have none, unless a hundred never
did (a calendar's standing disclaimer in every ``warnings``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from outcome_monitor.checking.paths import ARG
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import words_of
from outcome_monitor.learning.executions import ARGS_KEY, Execution
from outcome_monitor.thresholds import Thresholds, constant_floor

# words naming the exceptions of an answer: such a list is empty when all went well
EXCEPTIONS = frozenset(
    "unknown missing warnings errors skipped failed failures conflicts violations issues problems rejected "
    "invalid unmatched unresolved excluded ignored dropped".split()
)


def _seen(r: Rule) -> int:
    """The rows a rule stands on, pooled across tools where it was."""
    return int(max(r.support.get("n", 0), r.support.get("pooled_n", 0)))


def _exceptional(len_field: str) -> bool:
    """``len(unknown_words)``: the list's name holds a word naming exceptions."""
    return not EXCEPTIONS.isdisjoint(words_of(len_field[4:-1]))


SMALL_COUNT = 2  # a count whose clean minimum is this small may well be 0 next time


ZERO_GAPS = 0.5  # a minimum within half the values' mean gap of 0 may well be 0 next time


def _near_zero(ints: list[int]) -> bool:
    """A count whose clean minimum is small (``SMALL_COUNT``), or within half the mean gap its
    values leave between them of 0 (a stock from 3 to 354 over 26 calls: a gap of about 13; a file
    size from 40 up): such a count at 0 is a product out of stock, an empty file."""
    lo, hi = min(ints), max(ints)
    return lo <= SMALL_COUNT or lo <= ZERO_GAPS * (hi - lo) / len(ints)


def _emptied(context: str, f: str, executions: list[Execution]) -> bool:
    """A list inside the records of a list that one record, met again later, held shorter: deletes
    reach it (a knowledge graph's observations taken away), and one more empties it. One record is
    one set of plain values (its name and kind; an e-mail's sender, subject and body) under one
    call's arguments: another e-mail of one sender, or one file read for fewer pages, is no record
    shortened."""
    last: dict[tuple[tuple[str, Any], ...], int] = {}
    for ex in executions:
        for row in ex.rows.get(context, ()):
            n = row.get(f)
            if type(n) is not int:
                continue
            record = tuple(
                sorted(
                    (k, v)
                    for k, v in row.items()
                    if type(v) in _PLAIN and (k == ARGS_KEY or not k.startswith(("#", ARG))) and "(" not in k
                )
            )
            if n < last.get(record, -1):
                return True
            last[record] = n
    return False


_PLAIN = (str, int, float, bool)


def _emptied_anywhere(
    r: Rule, index: Mapping[str, list[Execution]], memo: dict[tuple[str, str], bool]
) -> bool:
    """``_emptied`` in the results of any tool holding the list at the same place: tools of one
    shape read one store (read_graph shows what open_nodes will)."""
    place = (r.context, r.fields[0])
    if place not in memo:
        memo[place] = r.context.endswith("[*]") and any(_emptied(*place, ex) for ex in index.values())
    return memo[place]


def _leaf(field: str) -> str:
    return field.rpartition(".")[2]


def _zero_leaves(index: Mapping[str, list[Execution]], tool: str, memo: dict[str, set[str]]) -> set[str]:
    """The names of the tool's integer fields that were 0 somewhere in its clean results: a column
    at 0 near the top of a tree says a column deeper in it may be 0 too."""
    if tool not in memo:
        memo[tool] = {
            _leaf(f)
            for ex in index.get(tool, ())
            for rows in ex.rows.values()
            for row in rows
            for f, v in row.items()
            if v == 0 and type(v) is int
        }
    return memo[tool]


def soften_counts(rules: list[Rule], index: Mapping[str, list[Execution]], th: Thresholds) -> list[Rule]:
    """A count (integers) whose clean values came close to 0 (``_near_zero``) says little by never
    being 0 (seats left, bags, unread messages, a stock), nor does one whose name was 0 elsewhere in
    the tool's results (``_zero_leaves``): it keeps "> 0" only with a constant's support (a rule of
    succession over its values), else "must be non-negative". Amounts (floats) and counts that stay
    far from 0 keep "> 0"."""
    out = []
    zeros: dict[str, set[str]] = {}
    emptied: dict[tuple[str, str], bool] = {}
    for r in rules:
        if (
            r.cls == "positive"
            and r.fields[0].startswith("len(")
            and (
                (_exceptional(r.fields[0]) and _seen(r) < constant_floor(th))
                or _emptied_anywhere(r, index, emptied)
            )
        ):
            continue
        if (
            r.cls != "positive"
            or not r.params.get("strict", True)
            or r.fields[0].startswith(("sum(", "len("))
        ):
            out.append(r)
            continue
        values = [
            row.get(r.fields[0])
            for ex in index.get(r.tool, ())
            for row in ex.rows.get(r.context, ())
            if row.get(r.fields[0]) is not None
        ]
        ints = [v for v in values if type(v) is int]
        near = ints and (_near_zero(ints) or _leaf(r.fields[0]) in _zero_leaves(index, r.tool, zeros))
        if near and len(ints) == len(values) and len(ints) < constant_floor(th):
            out.append(replace(r, params={**r.params, "strict": False}, support=dict(r.support)))
        else:
            out.append(r)
    return out


__all__ = ["soften_counts"]
