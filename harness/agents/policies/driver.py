"""Running a scripted policy on an episode without litellm: tests, tables and simulations.

It feeds the policy through the project's one agent loop (``harness.agents.loop.run_loop``) with a
completer that calls ``policy.respond`` directly (same rng derivation and reply finishing as the
``scripted`` provider), so a driver episode sees exactly what a litellm-routed episode sees,
including interposers (fault injectors, the monitor) and deferred receipt delivery.
``monitor_interposers`` builds a cross-fitted monitor arm from the world's clean traces, as the
runner does. Knows no particular world: it asks the world's plugin.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.protocol import Environment, Outcome, Task
from harness.agents.loop import LoopResult, run_loop
from harness.agents.prompts import system_prompt
from harness.llm.providers.scripted import Policy, finalize_reply, get_policy, policy_rng
from harness.stream import Interposer


@dataclass
class _Completion:
    message: dict
    usage: dict = field(default_factory=dict)
    cost_usd: float = 0.0
    latency_s: float = 0.0
    attempts: list[dict] = field(default_factory=list)


def policy_completer(policy: Policy, seed: int = 0):
    """An async ``Completer`` for ``run_loop`` answering with ``policy``."""

    async def complete(messages: list[dict], tools: list[dict]) -> _Completion:
        msgs = [dict(m) for m in messages]
        reply = policy.respond(msgs, tools, policy_rng(seed, msgs, tools))
        return _Completion(finalize_reply(reply, msgs))

    return complete


def run_policy_episode(
    policy: Policy | str,
    env: Environment,
    task_id: str,
    *,
    seed: int = 0,
    interposers: Sequence[Interposer] = (),
    delivery: str = "immediate",
    prompt: str = "fault_aware",
) -> tuple[LoopResult, Outcome]:
    """One episode of ``policy`` (an instance or a registered name) on ``task_id``: loop result and verdict."""
    if isinstance(policy, str):
        policy = get_policy(policy)
    task = env.task(task_id)
    episode = env.episode(task_id, seed=seed)

    async def play() -> tuple[LoopResult, Outcome]:
        try:
            result = await run_loop(
                episode,
                task,
                policy_completer(policy, seed),
                system_prompt=system_prompt(prompt, task.terminal_tool),
                interposers=interposers,
                seed=seed,
                delivery=delivery,
            )
            return result, await episode.score()
        finally:
            await episode.close()

    return asyncio.run(play())


InterposerFactory = Callable[[Task], Sequence[Interposer]]


def run_grid(
    policy: Policy | str,
    env: Environment,
    *,
    where: Mapping[str, Collection[str]] | None = None,
    seed: int = 0,
    interposers_for: InterposerFactory | None = None,
    delivery: str = "immediate",
    limit: int | None = None,
) -> dict[tuple[str, ...], tuple[int, int]]:
    """strata values (in key order) -> (successes, episodes) over the tasks whose strata match ``where``.

    ``interposers_for(task)`` builds the interposer chain of one episode (e.g. a monitor whose
    registry was cross-fitted away from the task's workflow); ``limit`` caps episodes per cell.
    """
    grid: dict[tuple[str, str], list[int]] = {}
    for task in env.tasks():
        if where and not all(str(task.strata.get(k)) in set(map(str, vs)) for k, vs in where.items()):
            continue
        cell = tuple(str(v) for _, v in sorted(task.strata.items()))
        counts = grid.setdefault(cell, [0, 0])
        if limit is not None and counts[1] >= limit:
            continue
        chain = interposers_for(task) if interposers_for else ()
        _, outcome = run_policy_episode(
            policy, env, task.task_id, seed=seed, interposers=chain, delivery=delivery
        )
        counts[0] += int(outcome.success)
        counts[1] += 1
    return {cell: (ok, n) for cell, (ok, n) in sorted(grid.items())}


def monitor_interposers(
    env: Environment,
    variant: str = "full",
    delivery: str = "immediate",
    n_folds: int = 5,
    seed: int = 0,
    crossfit: Any = None,
) -> InterposerFactory:
    """Per-task interposers of a monitor arm, built as the runner builds them.

    Contracts are mined from the world's clean traces (its plugin's ``clean_traces``) and
    cross-fitted, so a task is checked by the registry learned from the other folds' groups (pass
    ``crossfit`` to reuse one).
    """
    from core.worlds import get_plugin
    from harness.monitor import Monitor, build_crossfit
    from harness.stream import MonitorInterposer

    if crossfit is None:
        crossfit = build_crossfit(get_plugin(env.name).clean_traces(env), n_folds=n_folds, seed=seed)
    catalog = env.tool_specs()
    monitors: dict[int, Monitor] = {}

    def monitor_for(ctx) -> Monitor:
        fold = crossfit.fold(ctx.task.group_id)
        if fold not in monitors:
            monitors[fold] = Monitor(crossfit.registry_for(ctx.task.group_id), catalog, variant)
        return monitors[fold]

    chain = [MonitorInterposer(monitor_for, delivery)]
    return lambda task: chain
