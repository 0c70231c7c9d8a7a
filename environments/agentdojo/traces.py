"""Clean traces: each task's ground-truth calls with their JSON results, then (``probes``) every read
tool of its suite that takes no argument, called on the state the ground truth left.

Rows carry the task as their group, so the harness's cross-fitting (five folds by task) checks a task
with contracts mined from other tasks' calls. The probes give the tools every task can call without
knowing anything (a balance, an inbox, the channels) support across tasks, not only where a ground
truth happens to call them. Travel's lookups by entity name (``hotel_names``, ``restaurant_names``,
``company_name``) answer maps keyed by those names; a probe calls each one, per task, with one to three
entities of a city drawn from (seed, task), so the miner sees enough distinct names to treat the results as maps
(``$.*``) in every fold, not as one field per hotel.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from core.protocol import ToolCall
from core.seeding import rng
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


# a travel lookup's parameter stem -> where the suite's environment lists those entities (each with a city)
ENTITIES = {
    "hotel": ("hotels", "hotel_list"),
    "restaurant": ("restaurants", "restaurant_list"),
    "company": ("car_rental", "company_list"),
}


def _entity_calls(environment: Any, specs: Any, seed: int, task_id: str) -> list[ToolCall]:
    """One call of each read tool whose only parameter names entities: one to three of a drawn city's."""
    calls = []
    for spec in specs:
        props = spec.parameters.get("properties") or {}
        if spec.category != "read" or len(props) != 1:
            continue
        ((param, schema),) = props.items()
        where = ENTITIES.get(param.split("_", 1)[0])
        if where is None or not hasattr(environment, where[0]):
            continue
        entities = getattr(getattr(environment, where[0]), where[1])
        cities = sorted({e.city for e in entities})
        g = rng(seed, "agentdojo-probe", task_id, spec.name)
        city = g.choice(cities)
        names = [e.name for e in entities if e.city == city]
        # a few names, as an agent asks after a shortlist: a map's keys come and go, a record's do not
        some = g.sample(names, min(len(names), 1 + g.randrange(3)))
        value: Any = some if schema.get("type") == "array" else some[0]
        calls.append(ToolCall(spec.name, {param: value}, call_id=f"probe-{spec.name}"))
    return calls


def traces(world: AgentDojoWorld, seed: int = 0, probes: bool = True) -> Iterator[dict[str, Any]]:
    """Clean traces of every user task: under an attack too (contracts are learned without injection)."""
    if world.attack:
        world = AgentDojoWorld(suite=world.suite, version=world.version, clock=world.clock)
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
        for call in _entity_calls(ep.environment, ep.tools(), seed, task.task_id):
            yield _row(task.task_id, call, ep.call(call))
