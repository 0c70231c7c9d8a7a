"""``TauBenchRetailEnv``: tau-bench retail behind the shared ``core.protocol.Environment`` protocol.

Task ids are ``<split>-<index>`` (``test-0``, ``train-17``, ``dev-3``); ``group_id`` is the task's
customer (tasks of one customer share a fold and a cluster: they read and write the same
records); ``strata`` holds the split and whether the ground truth writes. The hidden instruction,
ground-truth actions and required outputs stay here (``record``) and reach only the simulated
user and the grader. Must not know harness, monitors or models.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

from core.protocol import Task, ToolSpec, UserModel
from environments.taubench import reward
from environments.taubench.checksums import SPLITS
from environments.taubench.data import RetailData, TaskRecord, load
from environments.taubench.episode import TauBenchEpisode
from environments.taubench.tools import TERMINAL_TOOLS, WRITE_TOOLS, specs

ENV_NAME = "taubench"
MAX_STEPS = 30


class TauBenchRetailEnv:
    name = ENV_NAME
    needs_user = True  # the conversation is with a simulated user (an LLM or a scripted user)

    def __init__(self, data_dir: str | os.PathLike[str] | None = None, max_steps: int = MAX_STEPS):
        if int(max_steps) < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}")
        self.data: RetailData = load(data_dir)
        self.max_steps = int(max_steps)
        self._records: dict[str, TaskRecord] = {r.task_id: r for s in SPLITS for r in self.data.tasks[s]}
        # the policy is the agent's standing instructions (public, as upstream's system prompt)
        self._tasks: dict[str, Task] = {
            tid: replace(_public(r), instructions=self.data.wiki) for tid, r in self._records.items()
        }
        self._specs = specs()
        self._refs: dict[str, reward.Reference] = {}

    @property
    def system_prompt(self) -> str:
        """The agent's system prompt: upstream's retail policy (wiki.md), unchanged."""
        return self.data.wiki

    def tasks(self, split: str = "all") -> list[Task]:
        if split == "all":
            return list(self._tasks.values())
        if split not in SPLITS:
            raise KeyError(f"unknown taubench split {split!r}; known: all, {', '.join(SPLITS)}")
        return [self._tasks[r.task_id] for r in self.data.tasks[split]]

    def task(self, task_id: str) -> Task:
        return self._tasks[self._known(task_id)]

    def record(self, task_id: str) -> TaskRecord:
        """The hidden task (instruction, ground truth, outputs): for the user, the grader, oracles and tests."""
        return self._records[self._known(task_id)]

    def _known(self, task_id: str) -> str:
        if task_id not in self._records:
            counts = ", ".join(f"{s}-0..{s}-{len(self.data.tasks[s]) - 1}" for s in SPLITS)
            raise KeyError(f"unknown taubench task {task_id!r}; ids are {counts}")
        return task_id

    def reference(self, task_id: str) -> reward.Reference:
        """Digests of the task's ground-truth final database (computed once per task)."""
        if task_id not in self._refs:
            self._refs[task_id] = reward.reference(self.data.base, self.record(task_id))
        return self._refs[task_id]

    def episode(self, task_id: str, seed: int = 0, user: UserModel | None = None) -> TauBenchEpisode:
        return TauBenchEpisode(
            self, self.task(task_id), self.record(task_id), seed=seed, user=user, max_steps=self.max_steps
        )

    def tool_specs(self) -> dict[str, ToolSpec]:
        return dict(self._specs)


def _public(r: TaskRecord) -> Task:
    writes = any(a["name"] in WRITE_TOOLS for a in r.actions)
    return Task(
        task_id=r.task_id,
        group_id=r.user_id,
        query="",  # the agent opens on the simulated user's first message
        env=ENV_NAME,
        split=r.split,
        terminal_tool=next(iter(TERMINAL_TOOLS)),
        strata={"split": r.split, "writes": "yes" if writes else "no"},
        meta={"index": r.index, "has_outputs": bool(r.outputs)},
    )


def describe(env: TauBenchRetailEnv) -> dict[str, Any]:
    base = env.data.base.collections
    return {
        "env": ENV_NAME,
        "data_dir": str(env.data.folder),
        "users": len(base["users"]),
        "orders": len(base["orders"]),
        "products": len(base["products"]),
        "variants": sum(len(p["variants"]) for p in base["products"].values()),
        "tasks": {s: len(env.data.tasks[s]) for s in SPLITS},
        "customers": {s: len({r.user_id for r in env.data.tasks[s]}) for s in SPLITS},
        "tools": len(env.tool_specs()),
        "tool_categories": {
            c: sum(1 for t in env.tool_specs().values() if t.category == c)
            for c in ("read", "write", "terminal")
        },
        "sha256": env.data.folder_sha256(),
    }
