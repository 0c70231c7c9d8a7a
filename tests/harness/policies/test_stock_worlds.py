"""The four stock policies play whole episodes on every kind of world, through the project's agent loop.

- worlds that live only in the tests, with what would help them set aside: the ToolMaze-shaped
  fake world without its adapter (a terminal tool), the refund desk without its own players (a
  simulated customer, no terminal tool);
- tau-bench retail with its own players set aside (the shared data; skipped when it is absent);
- ToolMaze, where they plan with the world's adapter.

Each episode must end (the terminal tool, the user, or the round cap) with no exception and no
refusal, every message the policy writes starts with its name, and no tool the world calls a write
is ever called in generic mode.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from core.plugin import Plugin
from core.protocol import ToolCall, ToolResult
from core.worlds import get_environment, get_plugin
from harness.agents.policies.players import play_mode
from harness.run.grid import run_policy_episode
from harness.stream import StreamContext

STOCK = ("trusting", "receipt-aware", "skeptic", "noisy")
ROOT = Path(__file__).resolve().parents[3]
RUNNER = ROOT / "tests" / "harness" / "runner"
from tests.datapaths import TAUBENCH_RETAIL as TAU_DATA  # noqa: E402
from tests.datapaths import require_retail  # noqa: E402


def load(name: str, module: str):
    if module not in sys.modules:
        spec = importlib.util.spec_from_file_location(module, RUNNER / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[module] = mod
        spec.loader.exec_module(mod)
    return sys.modules[module]


fakeworld = load("fakeworld", "runner_fakeworld")
convoworld = load("convoworld", "players_convoworld")


class FakeWithoutAdapter(fakeworld.FakePlugin):
    """The fake world, its ToolMaze-style conventions not offered: the stock players read schemas alone."""

    def player_conventions(self):
        return None


class DeskWithoutPlayers(convoworld.DeskPlugin):
    """The refund desk with its own agents set aside (its customer stays)."""

    def scripted_policies(self):
        return {}


def check_episode(result, policy: str, writes: set[str], ends: tuple[str, ...]) -> list[tuple[str, dict]]:
    """The episode ended as allowed, without an error, in the policy's name, and called no write."""
    assert result.error is None and result.stop_reason in ends, (result.stop_reason, result.error)
    mine = [m for m in result.messages if m["role"] == "assistant"]
    assert mine and all((m.get("content") or "").startswith(f"[scripted policy {policy}]") for m in mine)
    assert not any("cannot plan" in (m.get("content") or "") for m in mine)
    calls = [(c["tool"], c["arguments"]) for c in result.tool_calls]
    assert calls, "it read nothing"
    assert not [c for c in calls if c[0] in writes], calls
    return calls


def writes_of(env) -> set[str]:
    return {name for name, spec in env.tool_specs().items() if spec.category == "write"}


@pytest.mark.parametrize("policy", STOCK)
def test_fake_world_without_its_adapter(policy):
    plugin, env = FakeWithoutAdapter(), fakeworld.FakeWorld(4)
    assert play_mode(policy, plugin) == "generic"
    for task in env.tasks():
        result, outcome = run_policy_episode(policy, env, task.task_id, plugin=plugin)
        calls = check_episode(result, policy, writes_of(env), ("terminal",))
        assert calls[-1][0] == "finish" and not outcome.success  # it never buys: no write on a guess
        mode, price_calls = task.strata["mode"], [c for c in calls if c[0] == "get_price_a"]
        # P3 plants one negative price then clean ones, P4 only negative ones: only the skeptic notices,
        # reads again, and gives up when nothing believable came back
        skeptic = policy == "skeptic" and mode != "P0"
        if policy != "noisy":
            assert len(price_calls) == (2 if skeptic else 1), (task.task_id, calls)
            assert result.finish_status == ("aborted" if skeptic and mode == "P4" else "done")


@pytest.mark.parametrize("policy", STOCK)
def test_refund_desk_without_its_players(policy):
    plugin, env = DeskWithoutPlayers(), convoworld.DeskWorld()
    assert play_mode(policy, plugin) == "generic"
    for task in env.tasks():
        if task.task_id == "desk-boom":  # raises inside the world by design
            continue
        result, outcome = run_policy_episode(policy, env, task.task_id, plugin=plugin, max_rounds=8)
        calls = check_episode(result, policy, writes_of(env), ("final", "round_cap"))
        order = f"O-{task.task_id.split('-')[1]}"
        assert calls[0] == ("lookup_order", {"order_id": order})  # the id the customer wrote
        assert result.user_turns >= 1 and not outcome.success


# --- tau-bench retail, its own players set aside ------------------------------------------------------


class TauWithoutPlayers(Plugin):
    """tau-bench retail with its own agents set aside (its card user stays)."""

    def __init__(self) -> None:
        self.inner = get_plugin("taubench")
        self.name = self.inner.name

    def scripted_users(self):
        return self.inner.scripted_users()


@pytest.fixture(scope="module")
def tau():
    require_retail()
    from environments.taubench.cards import cards_of

    env = get_environment("taubench", data_dir=str(TAU_DATA))
    tasks = [c["task_id"] for c in cards_of("test")["cards"]][:3]
    return env, TauWithoutPlayers(), tasks


def status_receipt(call: ToolCall, result: ToolResult, ctx: StreamContext) -> ToolResult:
    """The first order read comes back with an unknown status and a receipt naming only itself."""
    if call.name != "get_order_details" or result.status != "ok" or ctx.calls_per_tool.get(call.name, 0):
        return result
    obj = json.loads(result.content) if isinstance(result.content, str) else dict(result.content)
    receipt = {"violated": "status outside its domain", "recovery_tools": ["get_order_details"]}
    wrapped = {"tool_result": {**obj, "status": obj["status"] + "_unknown"}, "outcome_monitor": receipt}
    return dataclasses.replace(result, content=wrapped)


@pytest.mark.parametrize("policy", STOCK)
def test_taubench_with_its_own_players_set_aside(tau, policy):
    env, plugin, tasks = tau
    assert play_mode(policy, plugin) == "generic" and play_mode(policy, get_plugin("taubench")) == "own"
    for task_id in tasks:
        result, outcome = run_policy_episode(policy, env, task_id, plugin=plugin, max_rounds=30)
        calls = check_episode(result, policy, writes_of(env), ("final", "round_cap"))
        assert {"get_order_details", "get_user_details"} <= {c[0] for c in calls}
        assert not outcome.success  # every carded task needs a write


def test_taubench_receipts_are_followed_by_the_policies_that_read_them(tau):
    env, plugin, tasks = tau

    def first_order_reads(policy: str) -> int:
        result, _ = run_policy_episode(
            policy, env, tasks[0], plugin=plugin, interposers=[status_receipt], max_rounds=30
        )
        first = next(c["arguments"] for c in result.tool_calls if c["tool"] == "get_order_details")
        return sum(c == {"tool": "get_order_details", "arguments": first} for c in _calls(result))

    assert first_order_reads("trusting") == 1  # reads past the receipt
    assert first_order_reads("receipt-aware") == 2  # the only listed tool is itself: it reads again
    assert first_order_reads("skeptic") == 2


def _calls(result) -> list[dict]:
    return [{"tool": c["tool"], "arguments": c["arguments"]} for c in result.tool_calls]


# --- ToolMaze: the stock policies with the world's adapter -------------------------------------------------


@pytest.mark.parametrize("policy", STOCK)
def test_toolmaze_with_its_adapter(policy):
    env = get_environment("toolmaze")
    assert play_mode(policy, get_plugin("toolmaze")) == "conventions"
    picks = [
        next(t for t in env.tasks() if t.strata == {"complexity": "C2", "mode": m}) for m in ("P0", "P3")
    ]
    for task in picks:
        result, outcome = run_policy_episode(policy, env, task.task_id)
        assert result.error is None and result.stop_reason == "terminal"
        assert result.final_answer.startswith(f"[scripted policy {policy}]")
        if task.strata["mode"] == "P0":
            assert outcome.success and result.finish_status == "done"
