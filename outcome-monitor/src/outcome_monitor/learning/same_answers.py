"""The same call gives the same answer (``collection`` form ``same_answer``, the wide vocabulary): a
tool whose repeated calls in the recording always answered the same, word for word, is a function
of its arguments, and a recorded call answered otherwise later was changed on its way. The value
sibling of ``len_by_args`` (the same call gives a list as long).

Guards, each against a world that moves between the recording and the check:

* nothing in the recording wrote to what the call names: a call whose arguments name what a write
  of the recording was given (the same string, or a path one of them lies under: a tool named for
  a change, ``write_reports.write_tool``, but not one that names a cache: clearing a cache changes
  no answer) is not judged, nor is a write itself; a store written to answers the same call
  otherwise later;
* a call whose clean answer names a time of day (a clock's reading, a creation time: the same
  call answers otherwise in a minute) is not judged, nor is any call of a tool where such calls
  are half its calls or more (a clock); dates alone are data (a meeting's day), and a feed's
  publication times among a converter's documents leave its other documents judged;
* no call of the tool was ever answered two ways, and no list of its answers changed size under
  the same call (``collection_mining.changing_world``);
* support as ``len_by_args``: ``min_presence`` repeats or more, of ``min_distinct_eq`` distinct calls
  or more (one call repeated alone shows a constant, not a function of the call);
* at most ``MAX_CALLS`` distinct calls (the rule keeps a digest per call).

The rule keeps each recorded call's answer as a digest of the result as the tool's view reads it
(``answer_digest``), never the answer itself; a call the recording never made is not judged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from outcome_monitor.checking.answers import answer_digest, call_key
from outcome_monitor.checking.paths import ROOT
from outcome_monitor.checking.rules import Rule
from outcome_monitor.learning.collection_mining import MAX_CALLS, changing_world
from outcome_monitor.learning.executions import Execution
from outcome_monitor.learning.write_reports import name_words, write_tool
from outcome_monitor.thresholds import DEFAULT, Thresholds

# a time of day (9:09, 21:09:22): a clock's reading
_CLOCK = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b")


def _strings(v: Any, keys: bool) -> Iterator[str]:
    """The strings ``v`` holds, with its maps' keys where ``keys``."""
    if type(v) is str:
        yield v
    elif type(v) is dict:
        for k, x in v.items():
            if keys:
                yield str(k)
            yield from _strings(x, keys)
    elif type(v) is list:
        for x in v:
            yield from _strings(x, keys)


def _values(v: Any) -> Iterator[str]:
    """The strings an argument holds (its values, not its keys)."""
    return _strings(v, keys=False)


def names_a_clock(v: Any) -> bool:
    """A string anywhere in ``v``, a key too, reads like a time of day."""
    return any(_CLOCK.search(s) for s in _strings(v, keys=True))


def same_answers(index: Mapping[str, list[Execution]], th: Thresholds = DEFAULT) -> list[Rule]:
    """One ``same_answer`` rule per tool whose repeats in the recording showed it a function of its
    arguments (the guards above), over its calls that name nothing a write was given."""
    written = {
        s for tool, exs in index.items() if _changes_answers(tool) for ex in exs for s in _values(ex.args)
    }
    out = []
    for tool, executions in sorted(index.items()):
        if write_tool(tool):
            continue
        answers: dict[str, str] = {}
        counts: dict[str, int] = {}
        clocked: set[str] = set()
        ok = not changing_world(executions)
        for ex in executions if ok else ():
            if _touched(ex.args, written):
                continue
            key = call_key(ex.args)
            whole = _whole(ex)
            if whole is None:
                ok = False
                break
            if key in clocked:
                continue
            if names_a_clock(whole):
                # this call may answer otherwise in a minute (whichever of its answers showed it):
                # never judged
                clocked.add(key)
                answers.pop(key, None)
                counts.pop(key, None)
                continue
            if key in answers:
                ok = False  # the same call answered two ways, no clock shown
                break
            answers[key], counts[key] = answer_digest(whole), ex.count
        if len(clocked) * 2 > len(clocked) + len(answers):
            ok = False  # a tool that mostly shows a clock reads one: none of its calls is judged
        repeats = sum(c - 1 for c in counts.values())
        repeated = sum(1 for c in counts.values() if c > 1)
        if not ok or len(answers) > MAX_CALLS or repeats < th.min_presence or repeated < th.min_distinct_eq:
            continue
        params = {"form": "same_answer", "answers": dict(sorted(answers.items()))}
        support = {"n": sum(counts.values()), "repeats": repeats, "calls": repeated}
        out.append(Rule(tool, "collection", ROOT, ("",), params, support))
    return out


def _changes_answers(tool: str) -> bool:
    """A write that may change what a later call answers: not one that names a cache (a cache
    keeps answers, so clearing it changes none: ``clear_cache``)."""
    return write_tool(tool) and "cache" not in name_words(tool)


def _touched(args: Any, written: set[str]) -> bool:
    """The call names something a write of the recording was given (the same name, or a path one
    of them lies under)."""
    return any(
        a == w or a.startswith(w) or w.startswith(a) for a in _values(args) for w in written if a and w
    )


def _whole(ex: Execution) -> Any:
    """The result as the view reads it: the root element, as the check will see it."""
    rows = ex.rows.get(ROOT, ())
    return rows[0].get("") if len(rows) == 1 else None


__all__ = ["names_a_clock", "same_answers"]
