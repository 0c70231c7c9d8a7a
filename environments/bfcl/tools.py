"""The tools of a task: the documented functions of its involved classes, as ``ToolSpec``s.

Parameters and documented responses are mapped to JSON Schema (``schemas``); the response becomes the
tool's output schema. Whether a tool is a read or a write is measured, not guessed from its name: a tool
is a ``write`` when one of the ground-truth calls of the base category changed its instance's state (every
attribute, private ones too: ``cd`` moves ``_current_dir``, which changes what later calls do; the
instance's random generator and ``TravelAPI``'s memo of flight costs aside), and a ``read`` when its
ground-truth calls never did. A tool
no base ground truth calls is a read when its class is stateless (the package's ``STATELESS_CLASSES``:
MathAPI) or its name starts with a looking verb (``get_``, ``list_``, ``search_``, ``display``, ``pwd``,
the ``*_get_login_status`` checks), else a write (faults that spare writes then spare it too).
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from core.protocol import ToolSpec
from environments.bfcl.checker import execute, release, unique_name
from environments.bfcl.data import entries, func_docs
from environments.bfcl.schemas import parameters_schema, response_schema

# the eight classes of the multi-turn categories (the package also ships web search and memory classes)
CLASSES = (
    "GorillaFileSystem",
    "MathAPI",
    "MessageAPI",
    "TwitterAPI",
    "TicketAPI",
    "TradingBot",
    "TravelAPI",
    "VehicleControlAPI",
)


_NOT_STATE = ("_random", "_flight_cost_lookup")  # a generator's position and a memo: no effect a call can see


def _state(instance: Any) -> dict[str, Any]:
    return {k: copy.deepcopy(v) for k, v in vars(instance).items() if k not in _NOT_STATE}


@cache
def writes() -> frozenset[str]:
    """The tools whose base ground-truth calls change their instance's state."""
    changed: set[str] = set()
    for entry in entries("base"):
        name = unique_name("effects")
        try:
            _, instances = execute(entry, name, [])
            for turn in entry.ground_truth:
                for call in turn:
                    before = {c: _state(i) for c, i in instances.items()}
                    execute(entry, name, [call])
                    if any(_state(i) != before[c] for c, i in instances.items()):
                        changed.add(call.split("(", 1)[0].strip())
        finally:
            release(name)
    return frozenset(changed)


@cache
def called() -> frozenset[str]:
    return frozenset(
        call.split("(", 1)[0].strip() for e in entries("base") for turn in e.ground_truth for call in turn
    )


_LOOKING = ("get_", "list_", "search_", "display", "view_", "pwd")


def _category(name: str, cls: str, wrote: frozenset[str], seen: frozenset[str]) -> str:
    from bfcl_eval.constants.executable_backend_config import STATELESS_CLASSES

    if name in seen:
        return "write" if name in wrote else "read"
    looks = cls in STATELESS_CLASSES or name.startswith(_LOOKING) or name.endswith("_get_login_status")
    return "read" if looks else "write"


@cache
def catalog() -> dict[str, ToolSpec]:
    """Every tool of the eight classes, by name (names are unique across them)."""
    docs = func_docs()
    wrote, seen = writes(), called()
    out: dict[str, ToolSpec] = {}
    for cls in CLASSES:
        for doc in docs[cls]:
            name = doc["name"]
            if name in out:
                raise ValueError(f"BFCL tool {name!r} is documented by two classes")
            out[name] = ToolSpec(
                name=name,
                description=doc["description"],
                parameters=parameters_schema(doc),
                category=_category(name, cls, wrote, seen),
                domain=cls,
                output_schema=response_schema(doc),
                kind=cls,
            )
    return out


def class_tools(classes: list[str], excluded: frozenset[str] = frozenset()) -> list[ToolSpec]:
    """The tools a task offers: its classes' functions, in document order, minus the excluded ones."""
    docs = func_docs()
    cat = catalog()
    return [cat[d["name"]] for cls in classes for d in docs[cls] if d["name"] not in excluded]
