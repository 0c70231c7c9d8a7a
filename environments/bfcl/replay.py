"""Ground-truth replay: the package's verdict on each task's ground truth, the world's on the same calls
played through an episode, and the world's on the ground truth less its last call.

For every task of a category: (1) the package's ``multi_turn_checker`` on the ground truth as the model's
answer; (2) an episode of this world that makes each ground-truth call as a tool call in its turn, ends
each turn with text, and is scored; (3) the same episode without the task's last ground-truth call.
(1) and (2) must agree; (3) should fail. Every category is a world and can be replayed. A miss_func episode
offers a withheld function only from the turn that adds it (as the package's inference loop does), so a
ground truth that calls one earlier (``early`` below) cannot be played through the world: the package's
executor runs any call string, the world answers "unknown tool". Those tasks are named, not counted as
disagreements.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from environments.bfcl import checker
from environments.bfcl.calls import parse
from environments.bfcl.data import Entry, entries
from environments.bfcl.env import BfclEpisode, task_of


@dataclass
class Row:
    task_id: str
    package: bool
    world: bool
    dropped: bool | None  # None: the ground truth has no call to drop
    error: str = ""
    early: tuple[str, ...] = ()  # functions the ground truth calls before the turn that adds them


@dataclass
class Report:
    category: str
    rows: list[Row] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(r.package for r in self.rows)

    @property
    def agree(self) -> int:
        return sum(r.package == r.world for r in self.rows)

    @property
    def explained(self) -> list[Row]:
        """Disagreements where the ground truth calls a withheld function before its turn."""
        return [r for r in self.rows if r.package != r.world and r.early]

    @property
    def dropped_fail(self) -> int:
        return sum(r.dropped is False for r in self.rows)

    @property
    def droppable(self) -> int:
        return sum(r.dropped is not None for r in self.rows)


def _play(entry: Entry, turns: list[list[str]]) -> tuple[bool, str]:
    async def run() -> tuple[bool, str]:
        ep = BfclEpisode(entry, task_of(entry))
        try:
            await ep.open()
            for k, turn in enumerate(turns):
                for i, text in enumerate(turn):
                    await ep.call(parse(text, call_id=f"gt-{k}-{i}"))
                await ep.say("done")
            out = await ep.score()
            return out.success, str(out.details.get("error_type") or "")
        finally:
            await ep.close()

    return asyncio.run(run())


def without_last(gt: tuple[tuple[str, ...], ...]) -> list[list[str]] | None:
    turns = [list(t) for t in gt]
    for t in reversed(turns):
        if t:
            t.pop()
            return turns
    return None


def early_calls(entry: Entry) -> tuple[str, ...]:
    """Functions the ground truth calls in a turn before the one that adds them (miss_func)."""
    added = {f: k for k, names in entry.missed.items() for f in names}
    return tuple(
        sorted(
            {n for k, t in enumerate(entry.ground_truth) for c in t if k < added.get(n := parse(c).name, 0)}
        )
    )


def replay(category: str, ids: list[str] | None = None) -> Report:
    report = Report(category)
    for entry in entries(category):
        if ids and entry.id not in ids:
            continue
        package = bool(checker.grade(entry, entry.ground_truth).get("valid"))
        world, why = _play(entry, [list(t) for t in entry.ground_truth])
        short = without_last(entry.ground_truth)
        dropped = None if short is None else _play(entry, short)[0]
        report.rows.append(Row(entry.id, package, world, dropped, why, early_calls(entry)))
    return report
