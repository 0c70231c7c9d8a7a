"""Upstream's reward, and a semantic variant beside it.

Reward 1 needs (a) the final database equal to the one obtained by replaying the task's
ground-truth actions (terminal tools left out, errors ignored) on a fresh database, compared by a
hash of the whole database, and (b) when the task has outputs, each output string found,
case-insensitively, in some agent message with its commas removed. The semantic comparison (every
number rounded to cents) is reported beside it and never changes the reward. Knows nothing about
users or the protocol.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from environments.taubench.data import TaskRecord
from environments.taubench.db import DB, BaseDB
from environments.taubench.domains import Domain


class Reference:
    """A task's ground-truth final database and its exact digest (the semantic one when first asked)."""

    def __init__(self, db: DB):
        self.db = db
        self.exact = db.digest("exact")
        self.changed = tuple(db.changed())  # (collection, key) the ground truth changes
        self._semantic: str | None = None

    @property
    def semantic(self) -> str:
        if self._semantic is None:
            self._semantic = self.db.digest("semantic")
        return self._semantic


def replay(
    domain: Domain, base: BaseDB, record: TaskRecord, include_terminal: bool = False
) -> tuple[DB, list[tuple[dict, str]]]:
    """A fresh database after the task's ground-truth actions, and each (action, result string)."""
    db = base.fresh()
    steps = []
    for action in record.actions:
        if action["name"] in domain.terminal_tools and not include_terminal:
            continue
        steps.append((action, domain.execute(db, action["name"], action["kwargs"])))
    return db, steps


def reference(domain: Domain, base: BaseDB, record: TaskRecord) -> Reference:
    return Reference(replay(domain, base, record)[0])


def outputs_found(outputs: Iterable[str], agent_messages: Iterable[str]) -> dict[str, bool]:
    """Each required output: is it a case-insensitive substring of an agent message without commas?"""
    texts = [m.lower().replace(",", "") for m in agent_messages]
    return {out: any(out.lower() in t for t in texts) for out in outputs}


def compute(db: DB, record: TaskRecord, ref: Reference, agent_messages: list[str]) -> dict[str, Any]:
    """Reward details of a final database and the agent's messages (``reward`` is 0.0 or 1.0)."""
    exact = db.digest("exact")
    r_actions = exact == ref.exact
    found = outputs_found(record.outputs, agent_messages)
    r_outputs = all(found.values())
    # exact equality implies semantic equality: round to cents only when the exact digests differ
    semantic_match = r_actions or db.digest("semantic") == ref.semantic
    return {
        "reward": 1.0 if r_actions and r_outputs else 0.0,
        "r_actions": r_actions,
        "r_outputs": r_outputs,
        "outputs": found,
        "db_digest": exact,
        "gt_db_digest": ref.exact,
        "semantic_match": semantic_match,
        "semantic_reward": 1.0 if semantic_match and r_outputs else 0.0,
        "changed_records": [f"{c}/{k}" for c, k in db.changed()],
        "gt_changed_records": [f"{c}/{k}" for c, k in ref.changed],
    }
