"""Where each ground-truth argument's value came from: the user's words, an earlier result, or neither.

The players plan from the ground truth (which tool, which argument, in which turn) but take every value
that came from an earlier result out of what their own episode read. This module finds, on a clean replay
of a task's ground truth, each argument whose value sits in an earlier result (at a path, possibly through
a small transformation a reader makes: a number written as text, rounded to cents, cast between int and
float, one component of a file path) and not in the user's words so far. Nothing here reads a fault.

A value found in no result (an airport code the model knows, a date the user wrote in words, a message it
composes) is the plan's own, as a model would write it; a value the user wrote is the user's. Short values
are matched only where the names agree, so a ``2`` that happens to be a list index is not a source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from environments.bfcl import checker
from environments.bfcl.calls import parse
from environments.bfcl.data import CATEGORIES, Entry, entries

Path = tuple[Any, ...]
Step = tuple[int, int]  # (turn, position in the turn's ground truth)


@dataclass(frozen=True)
class Source:
    """An argument's value read from the result of the plan's step ``step`` at ``path``, then ``how``."""

    step: Step
    path: Path
    how: str  # same | number | text | round2 | part:<index>
    clean: Any  # the ground truth's value (what the clean result gives): the player never passes it


def leaves(obj: Any, at: Path = ()) -> list[tuple[Path, Any]]:
    """Every node of a JSON value with its path, leaves and containers (containers after their items)."""
    out: list[tuple[Path, Any]] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += leaves(v, (*at, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += leaves(v, (*at, i))
    if at:
        out.append((at, obj))
    return out


def get(obj: Any, path: Path) -> tuple[bool, Any]:
    for part in path:
        if isinstance(obj, dict) and part in obj:
            obj = obj[part]
        elif isinstance(obj, list) and isinstance(part, int) and 0 <= part < len(obj):
            obj = obj[part]
        else:
            return False, None
    return True, obj


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def apply(how: str, value: Any) -> Any:
    """What a reader makes of ``value`` by the plan's transformation; a value it cannot transform (another
    type than planned: a drifted field) is passed on as it is."""
    if how == "number" and _number(value):
        return float(value)
    if how == "int" and _number(value):
        return int(value)
    if how == "text" and _number(value):
        return str(int(value))
    if how == "textf" and _number(value):
        return str(value)
    if how == "round2" and _number(value):
        return round(float(value), 2)
    if how.startswith("part:") and isinstance(value, str):
        parts, i = value.split("/"), int(how.split(":", 1)[1])
        return parts[i] if -len(parts) <= i < len(parts) else ""
    return value


def _ways(leaf: Any, value: Any) -> list[str]:
    """The transformations that turn ``leaf`` into ``value`` (exact first)."""
    if isinstance(value, bool) or isinstance(leaf, bool):
        return []
    if type(leaf) is type(value) and leaf == value:
        return ["same"]
    out: list[str] = []
    if _number(leaf) and _number(value) and float(leaf) == float(value):
        out.append("number" if isinstance(value, float) else "int")
    if _number(leaf) and isinstance(value, str):
        if value == str(leaf):
            out.append("textf")
        elif value == apply("text", leaf):
            out.append("text")
    if isinstance(leaf, float) and isinstance(value, float) and round(leaf, 2) == value and leaf != value:
        out.append("round2")
    if isinstance(leaf, str) and isinstance(value, str) and "/" in leaf and len(value) >= 3:
        parts = leaf.split("/")
        if value in parts:
            out.append(f"part:{parts.index(value) - len(parts)}")
    return out


def _said(value: Any, said: str) -> bool:
    if isinstance(value, str):
        return value in said
    if _number(value):
        forms = {str(value)} | ({str(int(value))} if float(value).is_integer() else set())
        return any(re.search(rf"(?<![\w.]){re.escape(f)}(?![\w]|\.\d)", said) for f in forms)
    return False


def _names_agree(arg: str, path: Path) -> bool:
    key = next((p for p in reversed(path) if isinstance(p, str)), "")
    return bool(key) and (arg == key or arg.endswith("_" + key) or key.endswith("_" + arg))


def _worth(value: Any, arg: str, path: Path) -> bool:
    """Long enough to be a source by value alone, or short with names that agree."""
    if isinstance(value, (list, dict)):
        return bool(value)
    if isinstance(value, str):
        return len(value) >= 3 or _names_agree(arg, path)
    if _number(value):
        return isinstance(value, float) or abs(value) >= 10 or _names_agree(arg, path)
    return False


def find_source(
    arg: str, value: Any, seen: list[tuple[Step, Any]], said: str
) -> tuple[Step, Path, str] | None:
    """The newest earlier result holding ``value`` (exactly, else by a transformation), or None."""
    if value is None or isinstance(value, bool) or _said(value, said):
        return None
    for step, result in reversed(seen):
        nodes = leaves(result)
        for exact in (True, False):
            for path, leaf in nodes:
                ways = _ways(leaf, value)
                if not ways or (ways[0] == "same") != exact or not _worth(value, arg, path):
                    continue
                return step, path, ways[0]
    return None


@cache
def entry_of(entry_id: str) -> Entry:
    for cat in CATEGORIES:
        for e in entries(cat):
            if e.id == entry_id:
                return e
    raise KeyError(entry_id)


@cache
def _replayed(entry_id: str) -> tuple[dict[Step, dict[str, Source]], dict[Step, str]]:
    entry = entry_of(entry_id)
    name = checker.unique_name("provenance")
    seen: list[tuple[Step, Any]] = []
    out: dict[Step, dict[str, Source]] = {}
    raws: dict[Step, str] = {}
    try:
        for k, turn in enumerate(entry.ground_truth):
            said = "\n".join(entry.turns[: k + 1])
            for i, text in enumerate(turn):
                call = parse(text)
                for arg, value in call.arguments.items():
                    hit = find_source(arg, value, seen, said)
                    if hit is not None:
                        out.setdefault((k, i), {})[arg] = Source(hit[0], hit[1], hit[2], value)
                (raw,), _ = checker.execute(entry, name, [text])
                raws[(k, i)] = raw
                content, is_error = checker.parse_result(raw)
                if not is_error and isinstance(content, (dict, list)):
                    seen.append(((k, i), content))
    finally:
        checker.release(name)
    return out, raws


def provenance(entry_id: str) -> dict[Step, dict[str, Source]]:
    """For each ground-truth step: the arguments whose value came from an earlier clean result."""
    return _replayed(entry_id)[0]


def clean_results(entry_id: str) -> dict[Step, str]:
    """Each ground-truth call's clean result, as the executor's string."""
    return _replayed(entry_id)[1]


@cache
def simulated(entry_id: str, steps: tuple[Step, ...], extra: str) -> str:
    """The clean result of ``extra`` after the ground-truth calls at ``steps``, on fresh instances; ``""``
    when a step is not in this task's ground truth (another candidate's plan was followed)."""
    entry = entry_of(entry_id)
    if any(k >= len(entry.ground_truth) or i >= len(entry.ground_truth[k]) for k, i in steps):
        return ""
    name = checker.unique_name("probe")
    try:
        texts = [entry.ground_truth[k][i] for k, i in steps]
        results, _ = checker.execute(entry, name, [*texts, extra])
        return results[-1]
    finally:
        checker.release(name)
