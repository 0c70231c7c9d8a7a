"""Small stand-ins for an episode and a stream context, so fault tests need no environment."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.protocol import Task, ToolSpec


@dataclass
class FakeEpisode:
    task: Task
    specs: list[ToolSpec] = field(default_factory=list)
    state_writes: list[tuple[str, Any]] = field(default_factory=list)

    def tools(self) -> list[ToolSpec]:
        return self.specs


class _State:
    """Protocol-v2 state access recording what a fault stores (every path is locatable)."""

    def __init__(self, writes: list[tuple[str, Any]]):
        self.writes = writes

    def locate(self, call: Any, result: Any, path: str) -> str:
        return path

    def corrupt(self, ref: str, value: Any) -> None:
        self.writes.append((ref, value))

    def digest(self) -> str:
        return str(len(self.writes))


@dataclass
class StatefulEpisode(FakeEpisode):
    @property
    def state(self) -> _State:
        return _State(self.state_writes)


@dataclass
class Ctx:
    episode: Any
    task: Task
    seed: int
    call_index: int
    calls_per_tool: dict[str, int] = field(default_factory=dict)
    exposed_tools: list[str] = field(default_factory=list)
    labels: dict = field(default_factory=dict)


def make_task(task_id: str = "t1") -> Task:
    return Task(task_id=task_id, group_id="w1", query="q", env="fake")


QUOTE = {"ticker": "AAPL", "price_usd": 187.25, "currency": "USD", "as_of": "2026-03-02"}
ORDER = {
    "order_id": "ORD-1042",
    "status": "shipped",
    "created_at": "2026-01-05",
    "delivered_at": "2026-01-09",
    "items": [
        {"sku": "A1", "qty": 2, "price": 10.5, "amount": 21.0},
        {"sku": "B2", "qty": 1, "price": 4.0, "amount": 4.0},
    ],
    "total": 25.0,
    "city": "Paris",
    "note": "Left at the front door",
}
