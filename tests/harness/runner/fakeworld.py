"""A tiny ToolMaze-shaped world for the runner's tests (follows the ToolMaze planning conventions).

Two providers of one price capability (``get_price_a``, ``get_price_b`` with a renamed parameter),
one Action (``buy_item``) and ``finish``. Workflow ``W<k>`` of complexity C3/C4 exists in modes P0,
P3 and P4; under P3/P4 the first touched price tool returns a negative price (P3 only on its first
call), flagged in ``meta["perturbed"]``. Success: ``buy_item`` with the clean price, then ``finish``
with status "done". A tiny stand-in monitor flags negative prices and lists the other provider.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.plugin import PlannedFault, Plugin
from core.protocol import (
    LocalEpisode,
    Outcome,
    Task,
    ToolCall,
    ToolResult,
    ToolSpec,
    unknown_tool_error,
    validate_arguments,
)
from core.seeding import stable_int

N_WORKFLOWS = 12


def _spec(name: str, desc: str, params: dict[str, tuple[str, str]], category: str = "read") -> ToolSpec:
    props = {k: {"type": t, "description": d} for k, (t, d) in params.items()}
    return ToolSpec(
        name, desc, {"type": "object", "properties": props, "required": list(params)}, category=category
    )


TOOLS = [
    _spec(
        "get_price_a",
        "Get the price. Looks up an item. Returns: item (string), price (number). Capability: shop.price",
        {"item": ("string", "The item [from: query.item]")},
    ),
    _spec(
        "get_price_b",
        "Get the price. Another catalog. Returns: item (string), price (number). Capability: shop.price",
        {"product": ("string", "The item [from: query.item]")},
    ),
    _spec(
        "buy_item",
        "Buy the item. Places an order. Returns: confirmation_code (string). Capability: shop.buy",
        {"item": ("string", "The item [from: query.item]"), "price": ("number", "Its price [from: price]")},
        category="write",
    ),
    _spec(
        "finish",
        "End the episode with your final answer.",
        {
            "status": ("string", "done or aborted"),
            "answer": ("string", "the answer"),
            "reason": ("string", "why"),
        },
        category="terminal",
    ),
]
SPECS = {s.name: s for s in TOOLS}


def price_of(item: str) -> float:
    return round(10 + stable_int("fakeworld", item) % 9000 / 100, 2)


@dataclass
class FakeEpisode:
    task: Task
    seed: int
    calls: dict[str, int] = field(default_factory=dict)
    victim: str | None = None
    bought: list[float] = field(default_factory=list)
    finished: str | None = None

    def tools(self) -> list[ToolSpec]:
        return list(TOOLS)

    def call(self, call: ToolCall) -> ToolResult:
        spec = SPECS.get(call.name)
        if spec is None:
            return unknown_tool_error(call.name, list(SPECS))
        errors = validate_arguments(spec, call.arguments)
        if errors:
            return ToolResult({"error": "Validation failed", "validation_errors": errors}, status="error")
        prior = self.calls.get(call.name, 0)
        self.calls[call.name] = prior + 1
        item = self.task.meta["item"]
        if call.name.startswith("get_price"):
            mode = self.task.strata["mode"]
            if mode in ("P3", "P4") and self.victim is None:
                self.victim = call.name
            if call.name == self.victim and (mode == "P4" or (mode == "P3" and prior == 0)):
                return ToolResult(
                    {"item": item, "price": -price_of(item)}, meta={"perturbed": True, "fault_kind": mode}
                )
            return ToolResult({"item": item, "price": price_of(item)})
        if call.name == "buy_item":
            self.bought.append(float(call.arguments["price"]))
            return ToolResult(
                {"confirmation_code": f"CF-{stable_int(item, call.arguments['price']) % 10**8:08d}"}
            )
        self.finished = str(call.arguments.get("status"))
        return ToolResult({"ok": True}, terminal=True)

    def score(self, final_answer: str | None = None) -> Outcome:
        ok = self.finished == "done" and self.bought == [price_of(self.task.meta["item"])]
        return Outcome(ok, float(ok), {"trace_check": {"victim_tool": self.victim, "bought": self.bought}})


class FakeWorld:
    name = "fakeworld"
    needs_user = False

    def __init__(self, n_workflows: int = N_WORKFLOWS):
        self._tasks = {}
        for k in range(n_workflows):
            wid = f"W{k:02d}"
            for mode in ("P0", "P3", "P4"):
                item = f"item-{k}"
                self._tasks[f"{wid}_{mode}"] = Task(
                    task_id=f"{wid}_{mode}",
                    group_id=wid,
                    env="fakeworld",
                    terminal_tool="finish",
                    query=f"Get the price, then buy the item.\nInputs: item={item}",
                    strata={"complexity": "C3" if k % 2 else "C4", "mode": mode},
                    meta={"item": item},
                )

    def tasks(self, split: str = "all") -> list[Task]:
        return list(self._tasks.values())

    def task(self, task_id: str) -> Task:
        return self._tasks[task_id]

    def start(self, task_id: str, seed: int = 0) -> FakeEpisode:
        return FakeEpisode(self._tasks[task_id], seed)

    def episode(self, task_id: str, seed: int = 0, user: Any = None) -> LocalEpisode:
        return LocalEpisode(self.start(task_id, seed))

    def tool_specs(self) -> dict[str, ToolSpec]:
        return dict(SPECS)


@dataclass
class Annotation:
    content: Any
    violations: list
    receipt: Any
    recovery_tools: list
    n_admissible: int


class NegativePriceMonitor:
    """Stand-in for the outcome monitor: one rule (price > 0), recovery = the other providers."""

    def __init__(self, variant: str = "full"):
        self.variant = variant

    def annotate(
        self, tool: str, arguments: dict, content: Any, exposed_tools: list[str], status: str = "ok"
    ) -> Annotation:
        if not (
            isinstance(content, dict)
            and isinstance(content.get("price"), (int, float))
            and content["price"] < 0
        ):
            return Annotation(content, [], None, [], 0)
        recovery = [tool] + [t for t in exposed_tools if t.startswith("get_price") and t != tool]
        block: dict[str, Any] = {"violated": f"{tool}: price > 0", "observed": content["price"]}
        if self.variant == "full":
            block["recovery_tools"] = recovery
        elif self.variant == "generic":
            block = {"warning": "this result may be wrong"}
        violation = {"rule_id": f"{tool}.price.positive", "rule_class": "positive"}
        return Annotation(
            {"tool_result": content, "outcome_monitor": block}, [violation], block, recovery, len(recovery)
        )


FAULT_KINDS = {"P0": "none", "P3": "implicit_transient", "P4": "implicit_permanent"}


class FakePlugin(Plugin):
    """The fake world's plugin: plants a negative price under P3/P4; clean traces are P0 oracle runs."""

    name = "fakeworld"

    def make(self, n_workflows: int = N_WORKFLOWS) -> FakeWorld:
        return FakeWorld(n_workflows)

    def player_conventions(self):
        """The world follows ToolMaze's planning conventions, so the stock players read them alike."""
        from environments.toolmaze.conventions import CONVENTIONS

        return CONVENTIONS

    def planned_fault(self, env: Any, task: Task) -> PlannedFault:
        mode = task.strata["mode"]
        return PlannedFault(mode, "none" if mode == "P0" else "negative_price", FAULT_KINDS[mode])

    def clean_traces(self, env: Any, **options: Any):
        for task in env.tasks():
            if task.strata["mode"] != "P0":
                continue
            item = task.meta["item"]
            for tool, arg in (("get_price_a", "item"), ("get_price_b", "product")):
                yield {
                    "tool": tool,
                    "arguments": {arg: item},
                    "result": {"item": item, "price": price_of(item)},
                    "status": "ok",
                    "task_id": task.task_id,
                    "group_id": task.group_id,
                }


PLUGIN = FakePlugin()
