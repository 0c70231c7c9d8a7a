"""Clean tool executions for contract mining, without any model or user.

Per task of a split: the ground-truth calls on a fresh database (post-states included), then a
few seeded random calls of the domain on that database (``valid_read`` and ``invalid_call``: reads
of the task customer's own records, and calls that fail before any write). Rows are
``{tool, arguments, result, status, task_id, group_id, source}``. Knows nothing about monitors.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from core.seeding import rng
from environments.taubench.db import DB
from environments.taubench.domains import DEFAULT, Domain
from environments.taubench.env import TauBenchEnv


def traces(
    env: TauBenchEnv, split: str | None = None, seed: int = 0, random_calls: int = 4
) -> Iterator[dict[str, Any]]:
    domain = env.domain
    for task in env.tasks(split or domain.trace_split):
        record = env.record(task.task_id)
        db = env.data.base.fresh()
        for action in record.actions:
            yield _row(
                domain, db, action["name"], action["kwargs"], task.task_id, task.group_id, "ground_truth"
            )
        r = rng(_salt(domain), seed, task.task_id)
        for _ in range(random_calls):
            name, arguments = (domain.valid_read if r.random() < 0.6 else domain.invalid_call)(
                db, record.user_id, r
            )
            yield _row(domain, db, name, arguments, task.task_id, task.group_id, "random")


def _salt(domain: Domain) -> str:
    # retail keeps the salt it had before airline came: the same traces, registries and runs
    return "taubench-traces" if domain.name == DEFAULT else f"taubench-{domain.name}-traces"


def _row(
    domain: Domain, db: DB, name: str, arguments: dict[str, Any], task_id: str, group_id: str, source: str
) -> dict[str, Any]:
    result = domain.to_result(name, domain.execute(db, name, arguments))
    return {
        "tool": name,
        "arguments": arguments,
        "result": result.content,
        "status": result.status,
        "task_id": task_id,
        "group_id": group_id,
        "source": source,
    }
