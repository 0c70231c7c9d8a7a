"""``text`` form ``names_arg``: a text of the result (the result itself, a top-level field) that always
contained a string argument verbatim without being it (``Diff with HEAD~9:`` for ``target:
HEAD~9``, ``Table (3x2) added to /docs/a.docx``): another entity's answer names another, and a text
cut short loses the name.

Its support is an echo's, 7 executions with 3 distinct arguments, on the tool's own calls. A tool
called only a few times (a write, met three or four times in a recording) borrows the rest from the
recording: where another tool of the same recording named an argument on full support, the server
answers in that style, and a tool of its own that named a long argument (a path, 12 characters or
more: not met in a text by chance) on 3 calls with 2 distinct values keeps the rule too.

A list of names asked for (``table_names: [members, books]``) is named when each of its names is.

An argument counts as named only outside the other arguments the text reads back: ``docx`` inside
the ``output_file`` it was saved to is the path's echo (a ``latex`` conversion saved to ``a.tex``
names no format).

A call that sends one more argument may answer in another form (a converter asked for an
``output_file`` says where it saved, not what format it wrote): where every call whose text did not
name the argument sent one argument, the rule holds ``unless`` that argument is there; the calls
without it keep the support above (2 calls or more of the other form).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from outcome_monitor.checking.paths import ARG, ROOT
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import cached_date_key
from outcome_monitor.learning.executions import Execution
from outcome_monitor.thresholds import Thresholds

MIN_NAMED_ARG_CHARS = 3  # a shorter argument turns up in a long text by chance
MIN_LENT_CHARS = 12  # an argument this long named in a text is no chance
MIN_LENT_CALLS = 3
MIN_LENT_DISTINCT = 2

# (text, the argument's value, the call's argument names); a list of names as a tuple, each named
Pair = tuple[str, str | tuple[str, ...], frozenset[str]]
Pairs = dict[tuple[str, str], list[Pair]]
MIN_UNLESS = 2  # calls of the other form before an argument is taken to change the answer's form


def _pairs(executions: list[Execution]) -> Pairs:
    """(field, argument) -> [(text, argument value)] over a tool's calls."""
    cols: Pairs = {}
    for ex in executions:
        strings: dict[str, str | tuple[str, ...]] = {
            k: v for k, v in ex.args.items() if type(v) is str and len(v) >= MIN_NAMED_ARG_CHARS
        }
        # a list of names asked for (tables, files): each one named
        strings |= {
            k: tuple(v)
            for k, v in ex.args.items()
            if type(v) is list and v and all(type(x) is str and len(x) >= MIN_NAMED_ARG_CHARS for x in v)
        }
        if not strings:
            continue
        for row in ex.rows.get(ROOT, ()):
            for f, v in row.items():
                if type(v) is not str or f.startswith((ARG, "#")) or "(" in f:
                    continue
                # a date field holding an asked date is a day echo's (day_echo.py: its spans guard)
                date = cached_date_key(v) is not None
                for k, a in strings.items():
                    if not (date and type(a) is str and cached_date_key(a) is not None):
                        cols.setdefault((f, k), []).append(
                            (_outside(v, k, a, strings), a, frozenset(ex.args))
                        )
    return cols


def _outside(v: str, k: str, a: str | tuple[str, ...], strings: Mapping[str, str | tuple[str, ...]]) -> str:
    """The text without the other string arguments it reads back: a format named only inside the
    output path asked for (``docx`` in ``saved to out/a.docx``) is the path's echo, not the
    format's. An argument that is part of this one's value (``md`` of ``notes.md``) stays."""
    mine = (a,) if type(a) is str else a
    for other, b in strings.items():
        if other != k and type(b) is str and b in v and not any(b in x for x in mine):
            v = v.replace(b, "\x00")
    return v


def _names(v: str, a: str | tuple[str, ...]) -> bool:
    return a in v if type(a) is str else all(x in v for x in a)


def _named(pairs: list[Pair], calls: int, distinct: int) -> bool:
    return (
        len(pairs) >= calls
        and len({a for _, a, _ in pairs}) >= distinct
        and all(_names(v, a) for v, a, _ in pairs)
        and any(a != v for v, a, _ in pairs)
    )


def _unless(pairs: list[Pair]) -> tuple[str | None, list[Pair]]:
    """The argument every call that did not name its argument sent (the one the fewest calls sent,
    then by name), with the calls without it; (None, every call) where there is none."""
    other = [p for p in pairs if not _names(p[0], p[1])]
    if len(other) < MIN_UNLESS:
        return None, pairs
    common = frozenset.intersection(*(keys for _, _, keys in other))
    if not common:
        return None, pairs
    unless = min(common, key=lambda k: (sum(k in keys for _, _, keys in pairs), k))
    return unless, [p for p in pairs if unless not in p[2]]


def named_args(index: Mapping[str, list[Execution]], th: Thresholds) -> list[Rule]:
    """Every tool's ``names_arg`` rules: on its own support, else lent by the recording (above)."""
    cols = {tool: _pairs(executions) for tool, executions in index.items()}
    out: list[Rule] = []
    few: list[tuple[str, str, str, list[Pair]]] = []
    for tool, per_place in cols.items():
        for (f, k), pairs in sorted(per_place.items()):
            unless, naming = _unless(pairs)
            if _named(naming, th.min_pair_samples, th.min_distinct_eq):
                params: dict[str, Any] = {"form": "names_arg", "arg": k}
                if unless is not None:
                    params["unless"] = unless
                if any(type(a) is tuple for _, a, _ in naming):
                    params["each"] = True  # learned from lists of names: a list asked is checked by name
                out.append(Rule(tool, "text", ROOT, (f, ARG + k), params, {"n": len(naming)}))
            elif len(pairs) < th.min_pair_samples and all(
                type(a) is str and len(a) >= MIN_LENT_CHARS for _, a, _ in pairs
            ):
                few.append((tool, f, k, pairs))
    lenders = {r.tool for r in out}
    for tool, f, k, pairs in few:
        others = lenders - {tool}
        if others and _named(pairs, MIN_LENT_CALLS, MIN_LENT_DISTINCT):
            support = {"n": len(pairs), "lending_tools": len(others)}
            out.append(Rule(tool, "text", ROOT, (f, ARG + k), {"form": "names_arg", "arg": k}, support))
    return out


_LIMIT = re.compile(r"(?:^|_)(?:max|limit|top|n|k|count|size|rows|head|tail|first|last)(?:_|$)|^max|limit")


def asked_limit(r: Rule) -> bool:
    """An echo of an argument by a list's length, or by a number under an argument named as a limit
    (``max_rows``, ``n``, ``limit``, ``page_size``): what the data had to give, bounded by what was
    asked, not equal to it (max_count 20 of a log of 14 commits gives 14; ``count`` of a column
    read with ``max_rows`` 400 from a file of 335 rows is 335)."""
    if r.cls != "echo" or not r.fields[1].startswith(ARG):
        return False
    return r.fields[0].startswith("len(") or _LIMIT.search(r.fields[1][len(ARG) :].lower()) is not None


__all__ = ["MIN_NAMED_ARG_CHARS", "asked_limit", "named_args"]
