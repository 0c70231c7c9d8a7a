"""``text`` form ``names_arg``: a text of the result (the result itself, a top-level field) that always
contained a string argument verbatim without being it (``Diff with HEAD~9:`` for ``target:
HEAD~9``, ``Table (3x2) added to /docs/a.docx``): another entity's answer names another, and a text
cut short loses the name.

Its support is an echo's, 7 executions with 3 distinct arguments, on the tool's own calls. A tool
called only a few times (a write, met three or four times in a recording) borrows the rest from the
recording: where another tool of the same recording named an argument on full support, the server
answers in that style, and a tool of its own that named a long argument (a path, 12 characters or
more: not met in a text by chance) on 3 calls with 2 distinct values keeps the rule too.
"""

from __future__ import annotations

from collections.abc import Mapping

from outcome_monitor.checking.paths import ARG, ROOT
from outcome_monitor.checking.rules import Rule
from outcome_monitor.learning.executions import Execution
from outcome_monitor.thresholds import Thresholds

MIN_NAMED_ARG_CHARS = 3  # a shorter argument turns up in a long text by chance
MIN_LENT_CHARS = 12  # an argument this long named in a text is no chance
MIN_LENT_CALLS = 3
MIN_LENT_DISTINCT = 2

Pairs = dict[tuple[str, str], list[tuple[str, str]]]


def _pairs(executions: list[Execution]) -> Pairs:
    """(field, argument) -> [(text, argument value)] over a tool's calls."""
    cols: Pairs = {}
    for ex in executions:
        strings = {k: v for k, v in ex.args.items() if type(v) is str and len(v) >= MIN_NAMED_ARG_CHARS}
        if not strings:
            continue
        for row in ex.rows.get(ROOT, ()):
            for f, v in row.items():
                if type(v) is not str or f.startswith((ARG, "#")) or "(" in f:
                    continue
                for k, a in strings.items():
                    cols.setdefault((f, k), []).append((v, a))
    return cols


def _named(pairs: list[tuple[str, str]], calls: int, distinct: int) -> bool:
    return (
        len(pairs) >= calls
        and len({a for _, a in pairs}) >= distinct
        and all(a in v for v, a in pairs)
        and any(a != v for v, a in pairs)
    )


def named_args(index: Mapping[str, list[Execution]], th: Thresholds) -> list[Rule]:
    """Every tool's ``names_arg`` rules: on its own support, else lent by the recording (above)."""
    cols = {tool: _pairs(executions) for tool, executions in index.items()}
    out: list[Rule] = []
    few: list[tuple[str, str, str, list[tuple[str, str]]]] = []
    for tool, per_place in cols.items():
        for (f, k), pairs in sorted(per_place.items()):
            if _named(pairs, th.min_pair_samples, th.min_distinct_eq):
                out.append(
                    Rule(tool, "text", ROOT, (f, ARG + k), {"form": "names_arg", "arg": k}, {"n": len(pairs)})
                )
            elif len(pairs) < th.min_pair_samples and all(len(a) >= MIN_LENT_CHARS for _, a in pairs):
                few.append((tool, f, k, pairs))
    lenders = {r.tool for r in out}
    for tool, f, k, pairs in few:
        others = lenders - {tool}
        if others and _named(pairs, MIN_LENT_CALLS, MIN_LENT_DISTINCT):
            support = {"n": len(pairs), "lending_tools": len(others)}
            out.append(Rule(tool, "text", ROOT, (f, ARG + k), {"form": "names_arg", "arg": k}, support))
    return out


__all__ = ["MIN_NAMED_ARG_CHARS", "named_args"]
