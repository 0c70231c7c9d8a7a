"""BFCL multi-turn as a world: one category's 200 tasks, the user's turns, the package's classes and checker.

An episode opens on the task's first user turn. The agent calls tools (each call runs at once on this
episode's own instances of the task's classes, through the package's executor) and ends a turn by
writing text; the scripted user then says the next turn, and after the last turn the conversation is
over. The grade is the package's ``multi_turn_checker`` on the episode's calls, turn by turn, replayed
on fresh instances next to the ground truth (``checker.grade``).
"""

from __future__ import annotations

from typing import Any

from core.protocol import Outcome, Task, ToolCall, ToolResult, ToolSpec, UserTurn, unknown_tool_error
from environments.bfcl import checker
from environments.bfcl.data import WORLD_CATEGORIES, Entry, entries
from environments.bfcl.tools import catalog, class_tools

NAME = "bfcl"


def task_of(e: Entry) -> Task:
    return Task(
        task_id=e.id,
        group_id=f"bfcl-{e.index}",  # base_N and long_context_N are one task at two lengths: one fold
        query=e.turns[0],
        env=NAME,
        split=e.category,
        strata={"category": e.category, "classes": "+".join(sorted(e.involved_classes))},
        meta={"turns": len(e.turns), "gt_calls": sum(len(t) for t in e.ground_truth)},
    )


class BfclEnv:
    """One category of BFCL multi-turn (``base``, ``long_context``, ``miss_func`` or ``miss_param``)."""

    name = NAME
    needs_user = False  # the user's turns are the task's own: the world says them

    def __init__(self, category: str = "base"):
        if category not in WORLD_CATEGORIES:
            raise ValueError(f"bfcl: no category {category!r} (one of {', '.join(WORLD_CATEGORIES)})")
        self.category = category
        # the wheel's folder is $BFCL_DATA or data/bfcl for every part of the world (players and forked
        # workers included): one place, so no option can point one part elsewhere
        self._entries = {e.id: e for e in entries(category)}
        self._tasks = {e.id: task_of(e) for e in self._entries.values()}

    def entry(self, task_id: str) -> Entry:
        try:
            return self._entries[task_id]
        except KeyError:
            raise KeyError(f"bfcl {self.category}: no task {task_id!r}") from None

    def tasks(self, split: str = "all") -> list[Task]:
        if split not in ("all", "test", self.category):
            return []
        return list(self._tasks.values())

    def task(self, task_id: str) -> Task:
        self.entry(task_id)
        return self._tasks[task_id]

    def tool_specs(self) -> dict[str, ToolSpec]:
        return dict(catalog())

    def episode(self, task_id: str, seed: int = 0, user: Any = None) -> BfclEpisode:
        return BfclEpisode(self.entry(task_id), self._tasks[task_id])


class BfclEpisode:
    """One conversation: the task's turns in order, every call run live, graded by the package.

    miss_func: the functions the task withholds are not offered until their turn, which says (as the
    package's inference loop does) that functions were added; ``tools()`` is the list of the current
    turn, and a withheld function called before its turn is an unknown tool."""

    def __init__(self, entry: Entry, task: Task):
        self.entry = entry
        self.task = task
        self._all = class_tools(entry.involved_classes, entry.excluded)
        self.turn = 0
        self.calls: list[list[str]] = [[] for _ in entry.turns]  # call strings, per turn
        self._live: str | None = None

    def tools(self) -> list[ToolSpec]:
        later = {f for k, names in self.entry.missed.items() if k > self.turn for f in names}
        return [t for t in self._all if t.name not in later]

    async def open(self) -> str:
        if self._live is None:
            self._live = checker.unique_name("live")
            checker.execute(self.entry, self._live, [])  # the instances, loaded from the task's configuration
        return self.entry.said(0)

    async def call(self, call: ToolCall) -> ToolResult:
        names = {t.name for t in self.tools()}
        if call.name not in names:
            return unknown_tool_error(call.name, sorted(names))
        text = checker.call_string(call.name, call.arguments)
        if text is None:
            return ToolResult(
                content={"error": "arguments must be an object whose keys are Python identifiers"},
                status="error",
                meta={"validation_error": True},
            )
        if self._live is None:
            await self.open()
        assert self._live is not None
        # recorded before it runs: the grade replays exactly what the agent called, this turn
        self.calls[min(self.turn, len(self.calls) - 1)].append(text)
        (raw,), _ = checker.execute(self.entry, self._live, [text])
        content, is_error = checker.parse_result(raw)
        return ToolResult(content=content, status="error" if is_error else "ok", meta={"call": text})

    async def say(self, text: str) -> UserTurn:
        """The agent ended its turn: the user says the next one, or the conversation is over."""
        self.turn += 1
        if self.turn < len(self.entry.turns):
            return UserTurn(self.entry.said(self.turn))
        return UserTurn(None, done=True)

    async def score(self) -> Outcome:
        verdict = checker.grade(self.entry, self.calls)
        ok = bool(verdict.get("valid"))
        details: dict[str, Any] = {
            "checker": "bfcl_eval multi_turn_checker",
            "category": self.entry.category,
            "turns": len(self.entry.turns),
            "turns_reached": min(self.turn + 1, len(self.entry.turns)),
            "calls": [list(t) for t in self.calls],
        }
        if not ok:
            details["error_type"] = verdict.get("error_type")
            details["error_message"] = str(verdict.get("error_message", ""))[:500]
        return Outcome(success=ok, score=1.0 if ok else 0.0, details=details)

    async def close(self) -> None:
        if self._live is not None:
            checker.release(self._live)
            self._live = None
