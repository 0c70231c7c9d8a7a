"""One ToolMaze episode: validation, first-touch fault activation, the round cap and the finish tool.

Injection follows ToolMaze's sandbox: C1 has one fixed victim; in C2-C4 the first tool the agent
calls in a substitutable slot activates that route's victim (many_to_many slots: only a route's
entry tool activates); transient modes perturb only the victim's first call, permanent modes
every call. ``meta`` carries the harness-side facts; agents see only ``content``.
Must not know harness, monitors or models.
"""

from __future__ import annotations

from typing import Any

from core.protocol import (
    Outcome,
    ToolCall,
    ToolResult,
    ToolSpec,
    unknown_tool_error,
    validate_arguments,
    validation_error,
)
from environments.toolmaze.catalog import build_catalog, catalog_specs
from environments.toolmaze.dag import Instance
from environments.toolmaze.world import execute

ROUND_CAP = 25


class ToolMazeEpisode:
    def __init__(self, instance: Instance, dataset_seed: int, seed: int = 0):
        self.instance = instance
        self.task = instance.task
        self.seed = seed  # episode seed: the world is fully determined by the dataset seed
        self._world_seed = dataset_seed
        self.history: list[tuple[ToolCall, ToolResult]] = []
        self.hits = 0
        self.state: dict[str, Any] = {"actions": []}
        self.activated: dict[str, str] = {}  # slot_id -> route_id
        self.finish_args: dict[str, Any] | None = None
        self._calls: dict[str, int] = {}
        self._route_of: dict[str, tuple[str, str, bool]] = {}  # tool -> (slot_id, route_id, is_entry)
        for slot in instance.base.slots:
            if slot.substitutable:
                for route in slot.routes:
                    for i, t in enumerate(route.tools):
                        self._route_of[t] = (slot.slot_id, route.route_id, i == 0)
        self._slot_alt = {s.slot_id: s.alt_type for s in instance.base.slots}
        self._victim_of = {
            (s.slot_id, r.route_id): r.tools[-1] for s in instance.base.slots for r in s.routes
        }

    # ----------------------------------------------------------------------------------------
    def tools(self) -> list[ToolSpec]:
        specs = catalog_specs()
        return [specs[n] for n in self.instance.base.exposed]

    @property
    def finished(self) -> bool:
        return self.finish_args is not None

    def call(self, call: ToolCall) -> ToolResult:
        result = self._call(call)
        result.meta.setdefault("perturbed", False)
        if len(self.history) < ROUND_CAP and not result.meta.get("after_end"):
            self.history.append((call, result))
        return result

    def _call(self, call: ToolCall) -> ToolResult:
        if self.finished:
            return ToolResult(
                {"error": "The episode has finished; no further tool calls are accepted."},
                "error",
                terminal=True,
                meta={"after_end": True},
            )
        if len(self.history) >= ROUND_CAP:
            return ToolResult(
                {"error": f"Round cap of {ROUND_CAP} tool calls reached."},
                "error",
                terminal=True,
                meta={"after_end": True, "round_cap": True},
            )
        exposed = self.instance.base.exposed
        if call.name not in exposed:
            return unknown_tool_error(call.name, list(exposed))
        tool = build_catalog()[call.name]
        errors = validate_arguments(catalog_specs()[call.name], call.arguments)
        if errors:
            return validation_error(call.name, errors)
        args = dict(call.arguments)
        if tool.kind == "finish":
            self.finish_args = {
                "status": args["status"],
                "answer": args.get("answer", ""),
                "reason": args.get("reason", ""),
            }
            return ToolResult({"accepted": "yes"}, "ok", terminal=True)
        self._activate(call.name)
        fault = self._fault_for(call.name)
        self._calls[call.name] = self._calls.get(call.name, 0) + 1
        if fault is not None:
            self.hits += 1
            content = {k: (list(v) if isinstance(v, list) else v) for k, v in fault.content.items()}
            return ToolResult(
                content,
                "error" if fault.status == "error" else "ok",
                meta={"perturbed": True, "fault_kind": fault.kind, "contract_class": fault.contract_class},
            )
        status, content = execute(self._world_seed, tool, args, self.state)
        return ToolResult(content, "ok" if status == "ok" else "error")

    def _activate(self, name: str) -> None:
        if self.instance.mode == "P0" or name not in self._route_of:
            return
        slot_id, route_id, is_entry = self._route_of[name]
        if slot_id in self.activated:
            return
        if self._slot_alt[slot_id] == "many_to_many" and not is_entry:
            return
        self.activated[slot_id] = route_id

    def _fault_for(self, name: str):
        inst = self.instance
        if inst.mode == "P0" or name not in inst.faults:
            return None
        if inst.c1_victim is None:
            slot_id, route_id, _ = self._route_of[name]
            if self.activated.get(slot_id) != route_id or self._victim_of[(slot_id, route_id)] != name:
                return None
        if inst.task.meta["transient"] and self._calls.get(name, 0) > 0:
            return None
        return inst.faults[name]

    def score(self, final_answer: str | None = None) -> Outcome:
        from environments.toolmaze.judge import judge

        return judge(self, final_answer)
