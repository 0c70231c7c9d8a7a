"""Running a scripted policy on episodes without litellm or a run folder: tests, tables, evaluations.

It plays episodes the runner's one way (``harness.run.episode.play`` with ``loop_settings``: the task's
standing instructions in the prompt, the world's simulated user when it has one, the same scoring
and closing) with a completer that calls ``policy.respond`` directly (same rng derivation and reply
finishing as the ``scripted`` provider), and builds a monitor arm from the same registries a run
builds (``harness.run.registries``). A policy given by name plays the world as in a run
(``harness.agents.policies.players.world_player``: the world's own player of that name, else the
stock policy with the world's conventions, else reading the schemas alone). Knows no particular
world: it asks the world's plugin (or the one it is given).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.protocol import Environment, Outcome, Task
from core.worlds import get_plugin
from harness.agents.loop import LoopResult
from harness.agents.policies.players import world_player
from harness.config import ArmCfg
from harness.llm.providers.scripted import Policy, finalize_reply, get_policy, policy_rng
from harness.run.episode import loop_settings, play
from harness.run.registries import ContractSpec, MinedRegistries, Parts, contract_parts, monitor_source
from harness.stream import Interposer, MonitorInterposer


@dataclass
class _Completion:
    message: dict[str, Any]
    usage: dict[str, Any] = field(default_factory=dict)
    cost_usd: float = 0.0
    latency_s: float = 0.0
    attempts: list[dict[str, Any]] = field(default_factory=list)


def policy_completer(
    policy: Policy, seed: int = 0
) -> Callable[[list[dict[str, Any]], list[dict[str, Any]]], Awaitable[_Completion]]:
    """An async ``Completer`` for ``run_loop`` answering with ``policy``."""

    async def complete(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> _Completion:
        msgs = [dict(m) for m in messages]
        reply = policy.respond(msgs, tools, policy_rng(seed, msgs, tools))
        return _Completion(finalize_reply(reply, msgs))

    return complete


class _PolicyUser:
    """A scripted user policy as the world's ``UserModel`` (messages in, its reply text out)."""

    def __init__(self, policy: Policy, seed: int) -> None:
        self.complete = policy_completer(policy, seed)

    async def __call__(self, messages: list[dict[str, Any]]) -> str:
        completion = await self.complete(messages, [])
        return str(completion.message.get("content") or "")


def default_user(env: Environment, seed: int, plugin: Any = None) -> _PolicyUser | None:
    """The world's first scripted user, for a world that needs one (as the runner picks it)."""
    if not getattr(env, "needs_user", False):
        return None
    users = (plugin if plugin is not None else get_plugin(env.name)).scripted_users()
    if not users:
        raise ValueError(f"environment {env.name!r} needs a simulated user and ships no scripted one")
    return _PolicyUser(next(iter(users.values()))(), seed)


def run_policy_episode(
    policy: Policy | str,
    env: Environment,
    task_id: str,
    *,
    seed: int = 0,
    interposers: Sequence[Interposer] = (),
    delivery: str = "immediate",
    prompt: str = "fault_aware",
    max_rounds: int = 25,
    plugin: Any = None,
) -> tuple[LoopResult, Outcome]:
    """One episode of ``policy`` (an instance or a registered name) on ``task_id``: loop result and verdict.

    ``plugin``: the world's plugin (default: the one ``env.name`` names); it decides how a name plays
    the world and which scripted user answers when the world needs one.
    """
    if isinstance(policy, str):
        policy = get_policy(world_player(policy, plugin if plugin is not None else get_plugin(env.name)))
    # the monitor, if any, is among ``interposers``; the arm only says how its receipts are delivered
    arm = ArmCfg(
        name="driver", prompt=prompt, monitor="full" if delivery == "deferred" else "none", delivery=delivery
    )
    settings = loop_settings(arm, env.task(task_id), interposers, seed=seed, max_rounds=max_rounds)
    played = asyncio.run(
        play(env, task_id, seed, policy_completer(policy, seed), settings, default_user(env, seed, plugin))
    )
    if played.verdict is None:
        raise RuntimeError(f"episode {task_id} ended as {played.status}: {played.loop.error}")
    return played.loop, played.verdict


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
    if isinstance(policy, str):  # resolved once for the whole grid
        policy = get_policy(world_player(policy, get_plugin(env.name)))
    grid: dict[tuple[str, ...], list[int]] = {}
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
    """Per-task interposers of a monitor arm, from the registries a run of this world builds.

    Contracts come from the world's own sources (``harness.run.registries``), cross-fitted, so a task is
    checked by the registry learned from the other folds' groups (pass ``crossfit`` to reuse one).
    """
    plugin = get_plugin(env.name)
    if crossfit is None:
        parts = contract_parts(plugin, env, ContractSpec(tuple(plugin.contract_sources), n_folds, seed))
    else:
        from outcome_monitor.registry import Registry

        parts = Parts(Registry([], {"source": "none"}), MinedRegistries(crossfit, {}))
    source = monitor_source(env.tool_specs(), parts)
    assert source is not None
    chain = [MonitorInterposer(lambda ctx: source(ctx.task.group_id, variant, "mined"), delivery)]
    return lambda task: chain
