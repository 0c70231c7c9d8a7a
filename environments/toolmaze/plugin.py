"""ToolMaze's plugin: what a study needs to know about this world (see ``core.plugin``).

Tasks are ``<workflow>_<mode>``; ``strata`` holds ``complexity`` (C1-C4) and ``mode`` (P0-P4). The
world plants its own faults: the mode is the fault's label in ids, the payload kind on the task's
reference path is its ``fault_class``. Contracts are mined from the clean P0 oracle traces. The
stock scripted players read the world's planning conventions through ``conventions.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from core.players import PlayerConventions
from core.plugin import PlannedFault, Plugin
from core.protocol import Task, ToolCall
from environments.toolmaze.env import ToolMazeEnv

FAULT_KINDS = {
    "P0": "none",
    "P1": "explicit_transient",
    "P2": "explicit_permanent",
    "P3": "implicit_transient",
    "P4": "implicit_permanent",
}


class ToolMazePlugin(Plugin):
    name = "toolmaze"
    description = "ToolMaze (offline re-implementation): 400 workflows x P0-P4, 276 tools, process judge"
    contract_sources = ("traces",)

    def make(self, seed: int = 0, **options: Any) -> ToolMazeEnv:
        if options:
            raise TypeError(f"toolmaze takes only 'seed', got {sorted(options)}")
        return ToolMazeEnv(seed=seed)

    def planned_fault(self, env: Any, task: Task) -> PlannedFault:
        mode = str(task.strata["mode"])
        return PlannedFault(mode, payload_kind(env, task.task_id), FAULT_KINDS[mode])

    def clean_traces(self, env: Any, mode: str = "P0", **options: Any) -> Iterable[Mapping[str, Any]]:
        from environments.toolmaze.traces import traces

        return traces(env, mode, **options)

    def tool_schemas(self, env: Any) -> Mapping[str, Mapping[str, Any]]:
        return {name: spec.output_schema for name, spec in env.tool_specs().items() if spec.output_schema}

    def player_conventions(self) -> PlayerConventions:
        """The stock scripted players read the README's planning conventions through this adapter."""
        from environments.toolmaze.conventions import CONVENTIONS

        return CONVENTIONS

    def presentation(self, env: Any) -> Mapping[str, Any]:
        return {
            "endpoint": "process judge (every required step done with clean values: the paper's endpoint)",
            "unit": "workflow",
            "paper": "toolmaze",
            "notes": [],
        }

    def data_digest(self, env: Any) -> str:
        return env.dataset.sha256()

    def oracle(self, env: Any, task_id: str) -> list[ToolCall]:
        from environments.toolmaze.policies import run_policy

        return [call for call, _ in run_policy(env, task_id, "oracle")[1]]


def payload_kind(env: ToolMazeEnv, task_id: str) -> str:
    """The kind of the payload a task plants ("negative_value"; "none" for a clean task).

    A task may plant several (one per route of a substitutable slot); the label is the first on
    the reference path (the C1 victim when there is one), so both arms of a pair share it.
    """
    inst = env.instance(task_id)
    if not inst.faults:
        return "none"
    victim = inst.c1_victim
    if victim not in inst.faults:
        paths = inst.base.paths
        on_path = [t for t in (paths[0].tools if paths else ()) if t in inst.faults]
        victim = on_path[0] if on_path else next(iter(inst.faults))
    return str(inst.faults[victim].kind)


PLUGIN = ToolMazePlugin()
