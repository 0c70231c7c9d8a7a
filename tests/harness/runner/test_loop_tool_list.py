"""A world may change its tool list between user turns: the loop reads it again after each one."""

from __future__ import annotations

import asyncio
from typing import Any

from core.protocol import Task, ToolCall, ToolResult, ToolSpec, UserTurn
from harness.agents.loop import LoopSettings, run_loop

_OBJ = {"type": "object", "properties": {}}


class _Growing:
    """Offers ``a`` until the agent's first text, then ``a`` and ``b`` (announced by the user)."""

    def __init__(self) -> None:
        self.task = Task(task_id="t", group_id="g", query="q", env="fake")
        self.turn = 0
        self.ran: list[str] = []

    def tools(self) -> list[ToolSpec]:
        names = ["a"] if self.turn == 0 else ["a", "b"]
        return [ToolSpec(n, f"tool {n}", _OBJ) for n in names]

    async def open(self) -> str:
        return "first request"

    async def call(self, call: ToolCall) -> ToolResult:
        self.ran.append(call.name)
        return ToolResult({"ok": call.name})

    async def say(self, text: str) -> UserTurn:
        self.turn += 1
        return UserTurn("I added a tool; what about now?") if self.turn == 1 else UserTurn(None, done=True)

    async def score(self) -> Any: ...

    async def close(self) -> None: ...


class _Completion:
    def __init__(self, message: dict[str, Any]) -> None:
        self.message, self.usage, self.cost_usd, self.latency_s, self.attempts = message, {}, 0.0, 0.0, []


def test_the_tool_list_is_read_again_after_each_user_turn():
    seen: list[list[str]] = []
    replies = [
        {"content": "cannot yet"},
        {"content": "", "tool_calls": [{"id": "1", "function": {"name": "b", "arguments": "{}"}}]},
        {"content": "done"},
    ]

    async def complete(messages: list[dict], tools: list[dict]) -> _Completion:
        seen.append([t["function"]["name"] for t in tools])
        return _Completion(replies[len(seen) - 1])

    ep = _Growing()
    out = asyncio.run(run_loop(ep, ep.task, complete, LoopSettings(system_prompt="s")))
    assert seen == [["a"], ["a", "b"], ["a", "b"]]  # the model sees the new tool from the next request on
    assert ep.ran == ["b"] and out.stop_reason == "final"
    assert [m["content"] for m in out.messages if m["role"] == "user"][1] == "I added a tool; what about now?"
