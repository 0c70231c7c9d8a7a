"""Clean traces: each task's ground-truth calls with their JSON results, then (``probes``) every read
tool of its suite that takes no argument, called on the state the ground truth left.

Rows carry the task as their group, so the harness's cross-fitting (five folds by task) checks a task
with contracts mined from other tasks' calls. The probes give the tools every task can call without
knowing anything (a balance, an inbox, the channels) support across tasks, not only where a ground
truth happens to call them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from core.protocol import ToolCall
from environments.agentdojo.env import AgentDojoWorld
from environments.agentdojo.replay import ground_truth_calls


def _row(task_id: str, call: ToolCall, result: Any) -> dict[str, Any]:
    return {
        "tool": call.name,
        "arguments": dict(call.arguments),
        "result": result.content,
        "status": result.status,
        "task_id": task_id,
        "group_id": task_id,
    }


def traces(world: AgentDojoWorld, seed: int = 0, probes: bool = True) -> Iterator[dict[str, Any]]:
    for task in world.tasks():
        ep = world.sync_episode(task.task_id, seed)
        for call in ground_truth_calls(world, task.task_id):
            yield _row(task.task_id, call, ep.call(call))
        if not probes:
            continue
        for spec in ep.tools():
            if spec.category == "read" and not (spec.parameters.get("required") or []):
                call = ToolCall(spec.name, {}, call_id=f"probe-{spec.name}")
                yield _row(task.task_id, call, ep.call(call))
