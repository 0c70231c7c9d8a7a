"""``TauBenchEnv``: one tau-bench domain (retail or airline) behind ``core.protocol.Environment``.

Task ids are ``<split>-<index>`` (``test-0``, ``train-17``, ``dev-3``); ``group_id`` is the task's
customer (tasks of one customer share a fold and a cluster: they read and write the same
records); ``strata`` holds the split and whether the ground truth writes. The hidden
instruction, ground-truth actions and required outputs stay here (``record``) and reach only the
simulated user and the grader. Must not know harness, monitors or models.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

from core.protocol import Task, ToolSpec, UserModel
from environments.taubench import reward
from environments.taubench.data import DomainData, TaskRecord, load
from environments.taubench.domains import DEFAULT, Domain, get_domain
from environments.taubench.episode import TauBenchEpisode

ENV_NAME = "taubench"
MAX_STEPS = 30


class TauBenchEnv:
    name = ENV_NAME
    needs_user = True  # the conversation is with a simulated user (an LLM or a scripted user)

    def __init__(
        self,
        data_dir: str | os.PathLike[str] | None = None,
        max_steps: int = MAX_STEPS,
        domain: str = DEFAULT,
    ):
        if int(max_steps) < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}")
        self.domain: Domain = get_domain(domain)
        self.data: DomainData = load(data_dir, domain)
        self.max_steps = int(max_steps)
        self.splits = self.domain.splits
        self._records: dict[str, TaskRecord] = {r.task_id: r for s in self.splits for r in self.data.tasks[s]}
        # the policy is the agent's standing instructions (public, as upstream's system prompt)
        self._tasks: dict[str, Task] = {
            tid: replace(_public(r, self.domain), instructions=self.data.wiki)
            for tid, r in self._records.items()
        }
        self._specs = self.domain.specs()
        self._refs: dict[str, reward.Reference] = {}

    @property
    def system_prompt(self) -> str:
        """The agent's system prompt: upstream's policy of the domain (wiki.md), unchanged."""
        return self.data.wiki

    def tasks(self, split: str = "all") -> list[Task]:
        if split == "all":
            return list(self._tasks.values())
        if split not in self.splits:
            raise KeyError(
                f"unknown taubench {self.domain.name} split {split!r}; known: all, {', '.join(self.splits)}"
            )
        return [self._tasks[r.task_id] for r in self.data.tasks[split]]

    def task(self, task_id: str) -> Task:
        return self._tasks[self._known(task_id)]

    def record(self, task_id: str) -> TaskRecord:
        """The hidden task (instruction, ground truth, outputs): for the user, the grader, oracles and tests."""
        return self._records[self._known(task_id)]

    def _known(self, task_id: str) -> str:
        if task_id not in self._records:
            counts = ", ".join(f"{s}-0..{s}-{len(self.data.tasks[s]) - 1}" for s in self.splits)
            raise KeyError(f"unknown taubench {self.domain.name} task {task_id!r}; ids are {counts}")
        return task_id

    def reference(self, task_id: str) -> reward.Reference:
        """Digests of the task's ground-truth final database (computed once per task)."""
        if task_id not in self._refs:
            self._refs[task_id] = reward.reference(self.domain, self.data.base, self.record(task_id))
        return self._refs[task_id]

    def episode(self, task_id: str, seed: int = 0, user: UserModel | None = None) -> TauBenchEpisode:
        return TauBenchEpisode(
            self, self.task(task_id), self.record(task_id), seed=seed, user=user, max_steps=self.max_steps
        )

    def tool_specs(self) -> dict[str, ToolSpec]:
        return dict(self._specs)


def _public(r: TaskRecord, domain: Domain) -> Task:
    writes = any(a["name"] in domain.write_tools for a in r.actions)
    return Task(
        task_id=r.task_id,
        group_id=r.user_id,
        query="",  # the agent opens on the simulated user's first message
        env=ENV_NAME,
        split=r.split,
        terminal_tool=next(iter(domain.terminal_tools)),
        strata={"split": r.split, "writes": "yes" if writes else "no"},
        meta={"index": r.index, "has_outputs": bool(r.outputs)},
    )


def describe(env: TauBenchEnv) -> dict[str, Any]:
    base = env.data.base.collections
    return {
        "env": ENV_NAME,
        "domain": env.domain.name,
        "data_dir": str(env.data.folder),
        **{name: len(records) for name, records in base.items()},
        **(
            {"variants": sum(len(p["variants"]) for p in base["products"].values())}
            if "products" in base
            else {}
        ),
        "tasks": {s: len(env.data.tasks[s]) for s in env.splits},
        "customers": {s: len({r.user_id for r in env.data.tasks[s]}) for s in env.splits},
        "tools": len(env.tool_specs()),
        "tool_categories": {
            c: sum(1 for t in env.tool_specs().values() if t.category == c)
            for c in ("read", "write", "terminal")
        },
        "sha256": env.data.folder_sha256(),
    }
