"""The world's scripted players: they solve clean tasks, and a corrupted value they believe reaches the grade.

A small driver stands in for the harness's loop (messages in the OpenAI shape, receipts as the monitor wraps
them: ``{"tool_result", "outcome_monitor"}``), so a test can corrupt one result and say whether it is flagged.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

from tests.environments.bfcl.conftest import require_bfcl

require_bfcl()

from core.protocol import ToolCall  # noqa: E402
from environments.bfcl.calls import parse  # noqa: E402
from environments.bfcl.players import POLICIES, provenance  # noqa: E402

Corrupt = Callable[[str, Any], tuple[Any, bool]]  # (tool, result) -> (shown result, flagged?)


def play(
    env, task_id: str, player: str, corrupt: Corrupt | None = None, seed: int = 0
) -> tuple[bool, list[dict]]:
    policy = POLICIES[player]()
    rng = random.Random(seed)

    async def run() -> tuple[bool, list[dict]]:
        ep = env.episode(task_id)
        schemas = [t.openai_schema() for t in ep.tools()]
        messages: list[dict] = [
            {"role": "system", "content": "sys"},
            {"role": "user", "content": await ep.open()},
        ]
        try:
            for _ in range(120):
                msg = policy.respond(messages, schemas, rng)
                messages.append(msg)
                if not msg.get("tool_calls"):
                    turn = await ep.say(msg["content"])
                    if turn.done:
                        break
                    messages.append({"role": "user", "content": turn.text})
                    continue
                for tc in msg["tool_calls"]:
                    name, args = tc["function"]["name"], json.loads(tc["function"]["arguments"])
                    res = await ep.call(ToolCall(name, args, call_id=tc["id"]))
                    shown, flagged = (res.content, False) if corrupt is None else corrupt(name, res.content)
                    body: Any = shown
                    if flagged:
                        body = {"tool_result": shown, "outcome_monitor": {"violations": ["test"]}}
                    messages.append({"role": "tool", "tool_call_id": tc["id"], "content": json.dumps(body)})
            return (await ep.score()).success, messages
        finally:
            await ep.close()

    return asyncio.run(run())


def test_every_player_solves_clean_tasks(base_env):
    for task in base_env.tasks()[:25]:
        for name in POLICIES:
            ok, _ = play(base_env, task.task_id, name)
            assert ok, (task.task_id, name)


def test_long_context_tasks_are_told_apart_from_base():
    from environments.bfcl.env import BfclEnv

    env = BfclEnv("long_context")
    for task in env.tasks()[:12]:
        ok, _ = play(env, task.task_id, "trusting")
        assert ok, task.task_id


def _carrying_task(env) -> tuple[str, str, tuple, Any]:
    """A task whose ground truth takes a value from an earlier result: (task, source tool, path, value)."""
    for task in env.tasks():
        prov = provenance(task.task_id)
        for _step, args in sorted(prov.items()):
            for _arg, (src, path, value) in args.items():
                tool = parse(env.entry(task.task_id).ground_truth[src[0]][src[1]]).name
                if env.tool_specs()[tool].category == "read" and isinstance(value, (int, float)):
                    return task.task_id, tool, path, value
    raise AssertionError("no task carries a number from a read result")


def _set(obj: Any, path: tuple, value: Any) -> Any:
    obj = json.loads(json.dumps(obj))
    cur = obj
    for p in path[:-1]:
        cur = cur[p]
    cur[path[-1]] = value
    return obj


def test_a_believed_corruption_reaches_the_grade_and_a_receipt_recovers_it(base_env):
    task_id, tool, path, value = _carrying_task(base_env)

    def corrupt(flag: bool) -> Corrupt:
        def f(name: str, result: Any) -> tuple[Any, bool]:
            if name == tool and isinstance(result, dict):
                return _set(result, path, -abs(value) - 1), flag
            return result, False

        return f

    assert play(base_env, task_id, "trusting")[0]
    assert not play(base_env, task_id, "trusting", corrupt(False))[0]  # believed: the next call carries it
    assert not play(base_env, task_id, "trusting", corrupt(True))[0]  # trusting reads past receipts
    ok, messages = play(base_env, task_id, "receipt-aware", corrupt(True))
    assert ok  # re-read once, still flagged: not believed, the value taken as asked
    assert any("{reread:" in (m.get("content") or "") for m in messages if m["role"] == "assistant")
    assert not play(base_env, task_id, "receipt-aware", corrupt(False))[0]  # no receipt, nothing to follow

    def drift(name: str, result: Any) -> tuple[Any, bool]:
        if name == tool and isinstance(result, dict):
            return _set(result, path, f"{value} (approx.)"), False
        return result, False

    assert not play(base_env, task_id, "trusting", drift)[0]
    assert play(base_env, task_id, "skeptic", drift)[0]  # another JSON type: odd without a receipt


def test_noisy_draws_are_written_down_and_replayed(base_env):
    task_id, tool, path, value = _carrying_task(base_env)

    def flagged(name: str, result: Any) -> tuple[Any, bool]:
        return result, name == tool

    outcomes = {play(base_env, task_id, "noisy", flagged, seed=s)[0] for s in range(12)}
    assert outcomes == {True, False}  # sometimes it overreacts and abandons the turn
    a = play(base_env, task_id, "noisy", flagged, seed=3)[1]
    b = play(base_env, task_id, "noisy", flagged, seed=3)[1]
    assert [m.get("content") for m in a] == [m.get("content") for m in b]
    assert any("{judged:" in (m.get("content") or "") for m in a)


def test_a_probe_tells_long_context_from_base_where_their_plans_part():
    """long_context_46 and base_46 share questions and first calls, then long context also deletes the
    padding files: the player reads once (a probe, not a step of its plan) and follows long context's."""
    from environments.bfcl.env import BfclEnv

    env = BfclEnv("long_context")
    ok, messages = play(env, "multi_turn_long_context_46", "trusting")
    assert ok
    assert sum("{probe}" in (m.get("content") or "") for m in messages if m["role"] == "assistant") == 1
    ok, messages = play(BfclEnv("base"), "multi_turn_base_46", "trusting")
    assert ok  # the same probe sends base's episode down base's plan
