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
WORLD_CATEGORIES = CATEGORIES  # miss_func's tools change between turns (the loop reads them each turn)
PREFIX = "multi_turn_"
# what the package's own inference loop says on a miss_func turn that adds the withheld functions
# (bfcl_eval.constants.default_prompts.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC; checked by a test)
ADDED_FUNCTIONS_PROMPT = "I have updated some more functions you can choose from. What about now?"


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

    @property
    def missed(self) -> dict[int, tuple[str, ...]]:
        """miss_func: the functions withheld until a turn, by that turn (the turn has no user text)."""
        return {int(k): tuple(v) for k, v in (self.raw.get("missed_function") or {}).items()}

    def said(self, turn: int) -> str:
        """The user's words at ``turn`` as the package's inference loop says them: a miss_func turn that
        adds the withheld functions has no text of its own and says that functions were added."""
        if not self.turns[turn] and turn in self.missed:
            return ADDED_FUNCTIONS_PROMPT
        return self.turns[turn]


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
