"""The package's own executor and multi-turn checker, under a name of this episode's own.

``execute_multi_turn_func_call`` keeps each class instance in its module's globals under
``<model name>_<task id>_<class>_instance`` and reuses it on the next call with the same name: that is
how state carries from turn to turn, and why every episode (and every grade) here uses a name no other
one uses, and deletes its instances afterwards (``release``). Both the live episode and the grade go
through the same executor, so the state an agent saw and the state the grade replays are built by the
same code from the same call strings.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from environments.bfcl.data import Entry
from environments.bfcl.paths import load

_IDENT = re.compile(r"^[A-Za-z_]\w*$")
_SERIAL = itertools.count()


def unique_name(kind: str) -> str:
    """A model name no other live episode or grade in this process uses (the pid keeps forks apart)."""
    return f"om_{kind}_{os.getpid()}_{next(_SERIAL)}x"  # x: no name is a prefix of another


def call_string(name: str, arguments: Mapping[str, Any]) -> str | None:
    """``name(k=<literal>, ...)`` as the package's executor evaluates it; None when it cannot be written
    (a name or key that is not a Python identifier)."""
    if not _IDENT.match(name) or not isinstance(arguments, Mapping):
        return None
    if any(not isinstance(k, str) or not _IDENT.match(k) for k in arguments):
        return None
    return f"{name}({', '.join(f'{k}={v!r}' for k, v in arguments.items())})"


def _utils() -> Any:
    load()
    from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_utils

    return multi_turn_utils


def is_long_context(entry: Entry) -> bool:
    # the checker's own test: "long_context" (or "composite") in the category name
    return "long_context" in entry.category or "composite" in entry.category


def execute(entry: Entry, model_name: str, calls: Sequence[str]) -> tuple[list[str], dict[str, Any]]:
    """Run ``calls`` on the instances kept under ``model_name`` (made on first use); the package's
    result strings and the instances."""
    return _utils().execute_multi_turn_func_call(
        func_call_list=list(calls),
        initial_config=entry.raw["initial_config"],
        involved_classes=entry.involved_classes,
        model_name=model_name,
        test_entry_id=entry.id,
        long_context=is_long_context(entry),
    )


def release(model_name: str) -> int:
    """Delete every instance the executor keeps under ``model_name`` (its eval and ground-truth twins too)."""
    space = vars(_utils())
    prefix = re.sub(r"[-./:]", "_", model_name) + "_"
    gone = [k for k in space if k.startswith(prefix)]
    for k in gone:
        del space[k]
    return len(gone)


def parse_result(text: str) -> tuple[Any, bool]:
    """(content, is_error) from the executor's string: a dict result was ``json.dumps``-ed, an exception
    is ``Error during execution: ...``; a documented ``{"error": ...}`` result is an error too."""
    if text.startswith("Error during execution:"):
        return text, True
    try:
        obj = json.loads(text)
    except ValueError:
        return text, False
    if isinstance(obj, dict):
        return obj, "error" in obj
    return text, False


def grade(entry: Entry, turns: Sequence[Sequence[str]]) -> dict[str, Any]:
    """The package's ``multi_turn_checker`` on one call string list per turn (each turn one step; turns
    not reached are empty), under a fresh name released afterwards."""
    load()
    from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker import multi_turn_checker

    gt = [list(t) for t in entry.ground_truth]
    decoded = [[list(t)] if t else [] for t in turns][: len(gt)]
    decoded += [[] for _ in range(len(gt) - len(decoded))]
    name = unique_name("grade")
    try:
        return multi_turn_checker(decoded, gt, entry.raw, PREFIX_OF[entry.category], name)
    finally:
        release(name)


PREFIX_OF = {c: f"multi_turn_{c}" for c in ("base", "long_context", "miss_func", "miss_param")}
