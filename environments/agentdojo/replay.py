"""Ground-truth replay: every user task's ground truth through a world episode, graded twice.

The world's grade: the episode (the world's JSON results, frozen clock) scored with the ground
truth's own final text (``GROUND_TRUTH_OUTPUT``). The package's verdict: the package's own
``GroundTruthPipeline`` run by ``TaskSuite.run_task_with_pipeline`` on a fresh copy of the same
environment, under the same episode clock. The two must agree on every task. A third check names the
tasks whose utility check passes with no call at all (the environment untouched, an empty answer):
a fault cannot change their grade, so the fault study leaves them out.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from core.protocol import ToolCall
from core.seeding import sha256_hex
from environments.agentdojo import package
from environments.agentdojo.clock import EpisodeClock, frozen
from environments.agentdojo.env import AgentDojoWorld, grade, split_id


@dataclass(frozen=True)
class Replayed:
    task_id: str
    calls: int
    world: bool  # the world's grade of the replayed episode
    package: bool  # the package's verdict on its own ground-truth pipeline
    no_call: bool  # the check passes with no call and an empty answer
    state_digest: str  # the world episode's final state

    @property
    def agree(self) -> bool:
        return self.world == self.package


def ground_truth_calls(world: AgentDojoWorld, task_id: str) -> list[ToolCall]:
    """The task's ground-truth calls, read off a fresh copy of its environment."""
    calls = world.user_task(task_id).ground_truth(world.initial_environment(task_id))
    return [ToolCall(c.function, dict(c.args), call_id=f"gt-{i}") for i, c in enumerate(calls)]


def package_verdict(world: AgentDojoWorld, task_id: str, seed: int = 0) -> bool:
    """The package's own ground-truth run and utility check (its pipeline, its grading path)."""
    from agentdojo.agent_pipeline.ground_truth_pipeline import GroundTruthPipeline

    suite_name, _ = split_id(task_id)
    suite = package.suite(suite_name, world.version)
    user_task = world.user_task(task_id)
    environment = package.default_environment(suite_name, world.version).model_copy(deep=True)
    with frozen(EpisodeClock.seeded(world.clock, seed, task_id)):
        utility, _ = suite.run_task_with_pipeline(
            GroundTruthPipeline(user_task), user_task, None, {}, environment=environment
        )
    return bool(utility)


def passes_with_no_call(world: AgentDojoWorld, task_id: str) -> bool:
    """Whether the task's check passes on an untouched environment and an empty answer."""
    pre = world.initial_environment(task_id)
    try:
        return grade(world.user_task(task_id), "", pre, pre.model_copy(deep=True), [])
    except Exception:  # noqa: BLE001 - a check that cannot even run on the untouched state does not pass
        return False


def replay_task(world: AgentDojoWorld, task_id: str, seed: int = 0) -> Replayed:
    ep = world.sync_episode(task_id, seed)
    calls = ground_truth_calls(world, task_id)
    for call in calls:
        result = ep.call(call)
        if result.status != "ok":
            raise RuntimeError(f"{task_id}: ground-truth call {call.name} failed: {result.content}")
    outcome = ep.score(ep.user_task.GROUND_TRUTH_OUTPUT)
    return Replayed(
        task_id=task_id,
        calls=len(calls),
        world=outcome.success,
        package=package_verdict(world, task_id, seed),
        no_call=passes_with_no_call(world, task_id),
        state_digest=outcome.details["state_digest"],
    )


def replay_suite(world: AgentDojoWorld, seed: int = 0) -> list[Replayed]:
    return [replay_task(world, t.task_id, seed) for t in world.tasks()]


def summary(rows: list[Replayed]) -> dict[str, Any]:
    return {
        "tasks": len(rows),
        "package_pass": sum(r.package for r in rows),
        "world_pass": sum(r.world for r in rows),
        "agree": sum(r.agree for r in rows),
        "no_call": [r.task_id for r in rows if r.no_call],
        "digest": sha256_hex({r.task_id: r.state_digest for r in rows}),
        "rows": [asdict(r) for r in rows],
    }


_NO_CALL: dict[tuple[str, str], frozenset[str]] = {}


def no_call_tasks(world: AgentDojoWorld) -> frozenset[str]:
    """The world's tasks whose check passes with no call (computed once per suite and version)."""
    out: set[str] = set()
    for s in world.suites:
        key = (s, world.version)
        if key not in _NO_CALL:
            one = AgentDojoWorld(suite=s, version=world.version, clock=world.clock)
            _NO_CALL[key] = frozenset(t.task_id for t in one.tasks() if passes_with_no_call(one, t.task_id))
        out |= _NO_CALL[key]
    return frozenset(out)
