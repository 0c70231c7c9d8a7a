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
from environments.bfcl.players import POLICIES  # noqa: E402
from environments.bfcl.provenance import provenance  # noqa: E402

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
                    schemas = [t.openai_schema() for t in ep.tools()]  # as the loop: read again each turn
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
    """A task whose ground truth takes a number from a read result: (task, source tool, path, value)."""
    for task in env.tasks():
        prov = provenance(task.task_id)
        for _step, args in sorted(prov.items()):
            for _arg, src in args.items():
                tool = parse(env.entry(task.task_id).ground_truth[src.step[0]][src.step[1]]).name
                if env.tool_specs()[tool].category == "read" and isinstance(src.clean, (int, float)):
                    if src.how == "same":
                        return task.task_id, tool, src.path, src.clean
    raise AssertionError("no task carries a number from a read result")


def _set(obj: Any, path: tuple, value: Any) -> Any:
    obj = json.loads(json.dumps(obj))
    cur = obj
    for p in path[:-1]:
        cur = cur[p]
    if value is _DROP:
        del cur[path[-1]]
    else:
        cur[path[-1]] = value
    return obj


_DROP = object()


def _corrupt(tool: str, path: tuple, value: Any, flag: bool, times: int = 10**6) -> Corrupt:
    """Corrupt ``tool``'s result at ``path`` on its first ``times`` calls (persistent by default)."""
    seen = [0]

    def f(name: str, result: Any) -> tuple[Any, bool]:
        if name == tool and isinstance(result, dict) and seen[0] < times:
            seen[0] += 1
            return _set(result, path, value), flag
        return result, False

    return f


def _args_of(messages: list[dict]) -> list[dict]:
    return [
        json.loads(tc["function"]["arguments"])
        for m in messages
        if m["role"] == "assistant"
        for tc in m.get("tool_calls") or []
    ]


def _said(messages: list[dict], text: str) -> bool:
    return any(text in (m.get("content") or "") for m in messages if m["role"] == "assistant")


def test_a_believed_corruption_reaches_the_next_call_and_no_player_takes_the_plan_value(base_env):
    task_id, tool, path, value = _carrying_task(base_env)
    wrong = -abs(value) - 1
    assert play(base_env, task_id, "trusting")[0]
    ok, messages = play(base_env, task_id, "trusting", _corrupt(tool, path, wrong, False))
    assert not ok and any(wrong in a.values() for a in _args_of(messages))  # carried into the next call
    assert not play(base_env, task_id, "trusting", _corrupt(tool, path, wrong, True))[
        0
    ]  # reads past receipts
    # a persistent corruption with a receipt: receipt-aware re-reads through the world's tool, finds it still
    # flagged and stops the turn; it never passes the value the plan states
    ok, messages = play(base_env, task_id, "receipt-aware", _corrupt(tool, path, wrong, True))
    assert not ok and _said(messages, "{recover:") and _said(messages, "could not get a value I trust")
    consumer = next(
        parse(base_env.entry(task_id).ground_truth[k][i])
        for (k, i), args in sorted(provenance(task_id).items())
        for src in args.values()
        if src.clean == value and src.path == path
    )
    calls = [
        tc["function"]["name"]
        for m in messages
        if m["role"] == "assistant"
        for tc in m.get("tool_calls") or []
    ]
    assert consumer.name not in calls  # the call the value feeds is not made with the plan's value
    # the same corruption on the first read only: the re-read is clean and the value comes from it
    ok, messages = play(base_env, task_id, "receipt-aware", _corrupt(tool, path, wrong, True, times=1))
    assert ok and _said(messages, "{recover:")
    assert not play(base_env, task_id, "receipt-aware", _corrupt(tool, path, wrong, False))[0]  # no receipt


def test_a_missing_field_is_passed_on_empty_not_dropped(base_env):
    """The trusting player's failures are silent: a missing field becomes the parameter type's empty value,
    never a missing argument (no tool result says an argument is missing)."""
    task_id, tool, path, value = _carrying_task(base_env)
    ok, messages = play(base_env, task_id, "trusting", _corrupt(tool, path, _DROP, False))
    assert not ok
    plan = [parse(c) for t in base_env.entry(task_id).ground_truth for c in t]
    made = _args_of(messages)
    assert [set(a) for a in made] == [set(c.arguments) for c in plan]  # every argument present
    assert 0 in [v for a in made for v in a.values()]  # the carried number passed as 0
    results = [m["content"] for m in messages if m["role"] == "tool"]
    assert not any("missing" in r and "argument" in r for r in results)


def test_the_skeptic_checks_an_odd_value_without_a_receipt(base_env):
    task_id, tool, path, value = _carrying_task(base_env)
    drift = f"{value} (approx.)"
    assert not play(base_env, task_id, "trusting", _corrupt(tool, path, drift, False))[0]
    ok, messages = play(base_env, task_id, "skeptic", _corrupt(tool, path, drift, False))
    assert not ok and _said(messages, "{recover:")  # re-read, still another type: it stops
    assert play(base_env, task_id, "skeptic", _corrupt(tool, path, drift, False, times=1))[0]


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


def test_miss_func_and_miss_param_are_played_by_saying_what_is_missing():
    from environments.bfcl.env import BfclEnv

    ok, messages = play(BfclEnv("miss_func"), "multi_turn_miss_func_0", "trusting")
    assert ok and _said(messages, "I cannot do this with the functions I have: it needs sort")
    ok, messages = play(BfclEnv("miss_param"), "multi_turn_miss_param_0", "trusting")
    assert ok and _said(messages, "which source should I use for mv?")
    for cat in ("miss_func", "miss_param"):
        env = BfclEnv(cat)
        for task in env.tasks()[:10]:
            for name in POLICIES:
                assert play(env, task.task_id, name)[0], (task.task_id, name)


def test_a_receipt_concerns_a_value_only_when_its_rule_is_about_that_field():
    from environments.bfcl.players import concerns

    result = {"price": 227.16, "MA(5)": "227.11", "invoice": {"travel_cost": 560.0}}
    assert not concerns({"violated": "MA(5) must be a number"}, result, ("price",))
    assert concerns({"violated": "price must be present", "observed": "<missing>"}, result, ("price",))
    assert not concerns({"violated": "description must be present"}, result, ("price",))
    assert concerns({"violated": "invoice.travelCost must be positive"}, result, ("invoice", "travel_cost"))
    assert concerns({"violated": "invoice must be present"}, result, ("invoice", "travel_cost"))
    assert concerns({"violated": "invoice.travel_cost must be positive"}, result, ("invoice",))
    assert concerns({"warning": "this result may be wrong"}, result, ("price",))  # no rule named: all of it
