"""The reference policies on real ToolMaze episodes, through the project's agent loop (no litellm).

The clean tasks must be solved at close to the environment's oracle rate, or fault results from
these instruments would mean nothing.
"""

from __future__ import annotations

import pytest

from core.worlds import get_environment
from environments.toolmaze.policies import run_policy
from harness.run.grid import run_grid, run_policy_episode

TARGET = 0.97  # the brief's bar for trusting / receipt-aware / skeptic on P0, relative to the oracle


@pytest.fixture(scope="module")
def env():
    return get_environment("toolmaze")


@pytest.fixture(scope="module")
def p0_oracle(env) -> tuple[int, float]:
    """(number of P0 tasks, the environment's oracle success rate on them)."""
    p0 = [t.task_id for t in env.tasks() if t.meta["mode"] == "P0"]
    return len(p0), sum(run_policy(env, tid, "oracle")[0].success for tid in p0) / len(p0)


def _rate(grid: dict) -> float:
    ok = sum(v[0] for v in grid.values())
    n = sum(v[1] for v in grid.values())
    return ok / n


def test_one_clean_episode_finishes_done_with_a_code(env):
    task = next(t for t in env.tasks() if t.meta["mode"] == "P0" and t.meta["complexity"] == "C3")
    result, outcome = run_policy_episode("trusting", env, task.task_id)
    assert outcome.success
    assert result.finish_status == "done" and result.final_answer.startswith("[scripted policy trusting]")
    assert "CF-" in result.final_answer


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["trusting", "receipt-aware", "skeptic", "noisy"])
def test_p0_success_is_close_to_the_oracle(env, p0_oracle, policy):
    n, oracle = p0_oracle
    grid = run_grid(policy, env, where={"mode": ["P0"]})
    assert sum(v[1] for v in grid.values()) == n
    bar = TARGET if policy != "noisy" else TARGET - 0.05  # noisy may over-react (only on receipts)
    assert _rate(grid) >= bar * oracle


@pytest.mark.slow
def test_faults_separate_the_policies(env):
    """Explicit faults are recovered by everyone; implicit ones only by the one that checks."""
    explicit = _rate(run_grid("trusting", env, where={"mode": ["P1", "P2"]}, limit=10))
    trusting = _rate(run_grid("trusting", env, where={"mode": ["P3", "P4"]}, limit=10))
    skeptic = _rate(run_grid("skeptic", env, where={"mode": ["P3", "P4"]}, limit=10))
    assert explicit >= TARGET
    assert skeptic > trusting


@pytest.mark.slow
def test_monitor_receipts_help_only_the_policies_that_read_them(env):
    from environments.toolmaze.__main__ import traces
    from harness.monitor.crossfit import build_crossfit
    from harness.run.grid import monitor_interposers

    crossfit = build_crossfit(traces(env, mode="P0"))

    def grid(policy: str, **kw) -> dict:
        return run_grid(policy, env, where={"mode": ["P3", "P4"]}, limit=8, **kw)

    immediate = monitor_interposers(env, crossfit=crossfit)
    assert grid("trusting", interposers_for=immediate) == grid("trusting")  # receipts change nothing
    aware_base = _rate(grid("receipt-aware"))
    assert _rate(grid("receipt-aware", interposers_for=immediate)) > aware_base
    deferred = monitor_interposers(env, delivery="deferred", crossfit=crossfit)
    assert _rate(grid("receipt-aware", interposers_for=deferred, delivery="deferred")) > aware_base
