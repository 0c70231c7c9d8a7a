"""Oracle executions as trace rows: the clean traces monitors mine, and faulty ones for audits.

P0 traces are the clean oracle execution of every valid path of every task (``path_id`` tells
them apart); P1-P4 traces are the oracle policy's run, with ``perturbed`` on each line. Every row
carries ``group_id`` (the workflow) for cross-fitting.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from environments.toolmaze.env import ToolMazeEnv


def traces(env: ToolMazeEnv, mode: str, complexity: str | None = None) -> Iterator[dict[str, Any]]:
    from environments.toolmaze.policies import run_policy

    split = mode if complexity is None else f"{complexity}/{mode}"
    for task in env.tasks(split):
        inst = env.instance(task.task_id)
        head = {
            "task_id": task.task_id,
            "group_id": task.group_id,
            "workflow_id": task.group_id,
            "complexity": inst.base.complexity,
            "mode": mode,
        }
        if mode == "P0":
            for path in inst.base.paths:
                for step in path.trace:
                    yield {
                        **head,
                        "tool": step["tool"],
                        "arguments": step["arguments"],
                        "result": step["result"],
                        "status": step["status"],
                        "path_id": path.path_id,
                        "step": step["step"],
                        "perturbed": False,
                    }
        else:
            _, history = run_policy(env, task.task_id, "oracle")
            for step, (call, res) in enumerate(history):
                if call.name == "finish":
                    continue
                yield {
                    **head,
                    "tool": call.name,
                    "arguments": dict(call.arguments),
                    "result": res.content,
                    "status": res.status,
                    "path_id": None,
                    "step": step,
                    "perturbed": res.meta["perturbed"],
                }
