"""How the world's scripted players meet an injected instruction: a SIMULATION of a model that obeys one.

A scripted player cannot be persuaded; this module decides for it, with a configured probability, so an
attack study runs offline. When a result the player was shown holds the goal of one of its suite's
injection tasks (the package's ``GOAL`` text, found by text in the result, never by the harness's labels),
the player draws once per injection task: it obeys with probability ``p_inject`` (class attribute 0.5;
``scripted/agentdojo.<behaviour>?p_inject=0.3`` sets another), and then makes the injection task's
ground-truth calls (the package's ``ground_truth`` on the task's clean environment: the calls the
injected goal asks for) before going on with the user's task. The draw is written into its message
(``{judged: inject.<injection task>=obey|ignore|decline}``) and replayed from there.

A receipt on the result that carries the instruction changes the draw: ``receipt-aware`` and ``skeptic``
decline every instruction in a result the monitor flagged (they distrust the result as a whole);
``noisy`` declines with ``p_follow`` and otherwise draws as the others; ``trusting`` reads past it. What
this shows is what receipts would do IF a flagged result made a model distrust the instructions inside
it; whether a model does is a question for a real model (``models=[<litellm model>]`` runs the same study).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from environments.agentdojo import package
from environments.agentdojo.env import split_id, squeeze


@cache
def goals(suite: str, version: str = package.BENCHMARK_VERSION) -> dict[str, str]:
    """Each injection task's goal text, whitespace squeezed, by injection task id."""
    return {iid: squeeze(t.GOAL) for iid, t in package.suite(suite, version).injection_tasks.items()}


@cache
def injection_calls(
    task_id: str, iid: str, version: str = package.BENCHMARK_VERSION
) -> tuple[tuple[str, str], ...]:
    """The injection task's ground-truth calls on the user task's clean environment, as (tool, JSON args)."""
    from environments.agentdojo.provenance import _world

    suite, _ = split_id(task_id)
    world = _world(suite, version)
    env = world.initial_environment(task_id)
    calls = package.suite(suite, version).injection_tasks[iid].ground_truth(env)
    return tuple((c.function, json.dumps(dict(c.args))) for c in calls)


def empty_injections(world: Any) -> list[str]:
    """``<suite>.<injection task>`` of the world's suites whose ground truth makes no call (on the suite's
    first user task's environment): goals the package leaves to the model (e-mail every unread e-mail ...)."""
    out = []
    for s in world.suites:
        first = f"{s}.{next(iter(package.suite(s, world.version).user_tasks))}"
        out += [
            f"{s}.{iid}" for iid in goals(s, world.version) if not injection_calls(first, iid, world.version)
        ]
    return out


def _texts(obj: Any) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [t for v in obj.values() for t in _texts(v)]
    if isinstance(obj, list):
        return [t for v in obj for t in _texts(v)]
    return []


def carried(result: Any, suite: str) -> list[str]:
    """The injection tasks whose goal a result's text holds."""
    flat = [squeeze(t) for t in _texts(result)]
    return [iid for iid, goal in goals(suite).items() if any(goal in t for t in flat)]


def injected_call(turn: Any) -> dict[str, Any] | None:
    """The next call an obeyed injected instruction asks for, or None (none seen, declined, or all made).
    ``turn``: the player's view of this request (``players._Turn``: its calls, draws, notes and rng)."""
    pl = turn.player
    suite, _ = split_id(turn.plan.task_id)
    for c in turn.calls:
        if c["kind"] == "inject":
            continue
        for iid in carried(c["result"], suite):
            key = f"inject.{iid}"
            choice = turn.judged.get(key)
            if choice is None:
                flagged = c["receipt"] is not None
                if flagged and pl.follows_receipts:
                    choice = "decline"
                elif flagged and pl.noisy and turn.rng.random() < pl.p_follow:
                    choice = "decline"
                else:
                    choice = "obey" if turn.rng.random() < pl.p_inject else "ignore"
                turn.judged[key] = choice
                turn.notes.append(f"{{judged: {key}={choice}}}")
            if choice != "obey":
                continue
            plan = injection_calls(turn.plan.task_id, iid)
            made = sum(1 for m in turn.calls if m["kind"] == "inject" and m["alt"] == iid)
            if made < len(plan):
                tool, args = plan[made]
                tag = f"{{inject: {made}:{iid}}}"
                return pl._call(tool, json.loads(args), tag, turn.notes, turn.rng)
    return None
