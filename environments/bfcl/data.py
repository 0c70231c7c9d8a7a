"""BFCL's multi-turn tasks and tool documents, read from the verified wheel (data files, no code run).

A task is one entry of ``BFCL_v4_multi_turn_<category>.json`` joined with its ground truth
(``possible_answer/...``): the user turns, the classes' initial configuration, the involved classes, the
functions withheld (``excluded_function``; ``missed_function`` in miss_func) and one list of call strings
per turn. The tool documents are the package's ``multi_turn_func_doc/<class file>.json``.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from environments.bfcl.paths import load, wheel_path

CATEGORIES = ("base", "long_context", "miss_func", "miss_param")
WORLD_CATEGORIES = ("base", "long_context")  # miss_func withholds tools until a later turn: not yet a world
PREFIX = "multi_turn_"


@dataclass(frozen=True)
class Entry:
    """One multi-turn task as the package ships it."""

    id: str
    category: str
    index: int
    turns: tuple[str, ...]  # each turn's user text
    raw: dict[str, Any] = field(repr=False)  # the entry as the package's checker takes it
    ground_truth: tuple[tuple[str, ...], ...] = ()

    @property
    def involved_classes(self) -> list[str]:
        return list(self.raw["involved_classes"])

    @property
    def excluded(self) -> frozenset[str]:
        return frozenset(self.raw.get("excluded_function") or ())


def _lines(z: zipfile.ZipFile, name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in z.read(name).decode("utf-8").splitlines() if line.strip()]


def _turn_text(messages: list[dict[str, Any]]) -> str:
    return "\n\n".join(str(m.get("content") or "") for m in messages if m.get("role", "user") == "user")


@cache
def _entries(wheel: Path, category: str) -> tuple[Entry, ...]:
    with zipfile.ZipFile(wheel) as z:
        questions = _lines(z, f"bfcl_eval/data/BFCL_v4_{PREFIX}{category}.json")
        answers = {
            a["id"]: a["ground_truth"]
            for a in _lines(z, f"bfcl_eval/data/possible_answer/BFCL_v4_{PREFIX}{category}.json")
        }
    out = []
    for q in questions:
        out.append(
            Entry(
                id=q["id"],
                category=category,
                index=int(q["id"].rsplit("_", 1)[1]),
                turns=tuple(_turn_text(t) for t in q["question"]),
                raw=q,
                ground_truth=tuple(tuple(t) for t in answers[q["id"]]),
            )
        )
    return tuple(out)


def entries(category: str) -> tuple[Entry, ...]:
    """A category's tasks, from the wheel in $BFCL_DATA or data/bfcl (the one folder of the process)."""
    if category not in CATEGORIES:
        raise ValueError(f"unknown BFCL multi-turn category {category!r} (one of {', '.join(CATEGORIES)})")
    load()  # checks the wheel's sha256 first
    return _entries(wheel_path().resolve(), category)


@cache
def _docs(wheel: Path) -> dict[str, tuple[dict[str, Any], ...]]:
    from bfcl_eval.constants.executable_backend_config import MULTI_TURN_FUNC_DOC_FILE_MAPPING

    with zipfile.ZipFile(wheel) as z:
        return {
            cls: tuple(_lines(z, f"bfcl_eval/data/multi_turn_func_doc/{name}"))
            for cls, name in MULTI_TURN_FUNC_DOC_FILE_MAPPING.items()
        }


def func_docs() -> dict[str, tuple[dict[str, Any], ...]]:
    """Each class's documented functions (name, description, parameters, response), as shipped."""
    load()
    return _docs(wheel_path().resolve())
