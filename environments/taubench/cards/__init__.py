"""User cards: what a scripted tau-bench user knows and wants, one card per task (both domains).

A card holds the identity the instruction gives and the ordered goals (one per ground-truth
write) in the user's terms; each domain's ``cards.py`` says how a card is built from a task's
ground-truth writes replayed on the public database (``build``). Cards are written once to
``<domain>/<split>.json`` beside this module and committed as data; ``lookup`` finds the card of an
instruction by its sha256 (the files hold no instruction text). Knows nothing about the harness or
about agents.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _builder(env: Any) -> Any:
    return importlib.import_module(f"environments.taubench.{env.domain.name}.cards")


def no_card(record: Any, supported: tuple[str, ...]) -> str | None:
    """Why a task gets no card whatever its domain (asks for outputs, transfers, an unsupported action), or None."""
    if record.outputs:
        return "the task asks the agent to report values (outputs); the card user does not check them"
    names = [a["name"] for a in record.actions]
    if "transfer_to_human_agents" in names:
        return "the ground truth transfers to a human"
    unknown = [n for n in names if n not in supported]
    return f"unsupported actions {unknown}" if unknown else None


def build(env: Any, task_id: str) -> tuple[dict | None, str]:
    """The card of one task of ``env``'s domain, or (None, why there is none)."""
    return _builder(env).build(env, task_id)


def build_split(env: Any, split: str) -> tuple[list[dict], dict[str, str]]:
    cards, missing = [], {}
    for task in env.tasks(split):
        card, why = build(env, task.task_id)
        if card is None:
            missing[task.task_id] = why
        else:
            cards.append(card)
    return cards, missing


def write(env: Any, split: str, folder: Path | None = None) -> Path:
    cards, missing = build_split(env, split)
    path = (folder or HERE / env.domain.name) / f"{split}.json"
    path.write_text(json.dumps({"split": split, "cards": cards, "missing": missing}, indent=1) + "\n")
    return path


def instruction_key(instruction: str) -> str:
    """Cards are keyed by a digest of the instruction, so the files hold no upstream text."""
    return hashlib.sha256(instruction.strip().encode()).hexdigest()


@cache
def _index() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for path in sorted(HERE.glob("*/*.json")):
        for card in json.loads(path.read_text())["cards"]:
            out.setdefault(card["instruction_sha256"], card)  # duplicated instructions: the first card
    return out


def lookup(instruction: str) -> dict | None:
    return _index().get(instruction_key(instruction))


def cards_of(split: str, domain: str = "retail") -> dict[str, Any]:
    return json.loads((HERE / domain / f"{split}.json").read_text())
