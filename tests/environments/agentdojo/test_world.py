"""The AgentDojo world: ground-truth replay against the package's verdict, the frozen clock, the
results as JSON, the conformance kit on every suite, and the package's install hint."""

from __future__ import annotations

import datetime
import json

import pytest

from core.protocol import ToolCall
from environments.agentdojo import package
from environments.agentdojo.env import AgentDojoWorld
from environments.agentdojo.replay import ground_truth_calls, replay_suite, replay_task, summary
from environments.agentdojo.traces import traces


@pytest.fixture(scope="module")
def banking() -> AgentDojoWorld:
    return AgentDojoWorld(suite="banking")


@pytest.fixture(scope="module")
def workspace() -> AgentDojoWorld:
    return AgentDojoWorld(suite="workspace")


def test_banking_replay_agrees_with_the_package(banking):
    s = summary(replay_suite(banking))
    assert s["tasks"] == len(package.suite("banking").user_tasks) > 0
    assert s["package_pass"] == s["world_pass"] == s["agree"] == s["tasks"]
    # a check that passes with no call must also pass on the ground truth; and not every task is one
    assert 0 < len(s["no_call"]) < s["tasks"]


@pytest.mark.slow
def test_every_suite_replays_and_agrees():
    for name in package.SUITES:
        s = summary(replay_suite(AgentDojoWorld(suite=name)))
        assert s["package_pass"] == s["agree"] == s["tasks"], name


def _writing_task(world: AgentDojoWorld) -> str:
    """A task whose ground truth sends an e-mail (a write the package stamps with the clock)."""
    for t in world.tasks():
        if any(c.name == "send_email" for c in ground_truth_calls(world, t.task_id)):
            return t.task_id
    raise AssertionError("no workspace task sends an e-mail")


def test_state_digests_repeat_and_follow_the_seeded_clock(workspace):
    tid = _writing_task(workspace)
    a, b = replay_task(workspace, tid, seed=0), replay_task(workspace, tid, seed=0)
    assert a.state_digest == b.state_digest
    other = next(
        s
        for s in range(1, 50)
        if workspace.sync_episode(tid, s).clock.start != workspace.sync_episode(tid, 0).clock.start
    )
    assert replay_task(workspace, tid, seed=other).state_digest != a.state_digest
    # the stamp is the episode's clock, and the package's modules read the real clock again afterwards
    ep = workspace.sync_episode(tid, 0)
    sent = [ep.call(c) for c in ground_truth_calls(workspace, tid) if c.name == "send_email"]
    assert datetime.datetime.fromisoformat(sent[-1].content["timestamp"]) >= ep.clock.start
    from agentdojo.default_suites.v1.tools import email_client

    assert email_client.datetime is datetime


def test_results_are_json_and_bad_calls_are_errors(banking):
    ep = banking.sync_episode(banking.tasks()[0].task_id)
    ok = ep.call(ToolCall("get_most_recent_transactions", {"n": 3}))
    assert ok.status == "ok" and json.loads(json.dumps(ok.content)) == ok.content
    assert isinstance(ok.content, list) and {"id", "amount", "recipient"} <= set(ok.content[0])
    assert ep.call(ToolCall("no_such_tool", {})).status == "error"
    assert ep.call(ToolCall("send_money", {"recipient": "x"})).status == "error"
    spec = banking.tool_specs()["get_most_recent_transactions"]
    assert spec.category == "read" and spec.output_schema["type"] == "array"
    assert banking.tool_specs()["send_money"].category == "write"


def test_grade_is_the_package_check_on_the_episode(banking):
    tid = next(t.task_id for t in banking.tasks() if ground_truth_calls(banking, t.task_id))
    ep = banking.sync_episode(tid)
    out = ep.score("")
    assert out.success is False and out.details["calls"] == 0 and out.details["state_digest"]


def test_the_fault_study_leaves_out_tasks_that_pass_with_no_call(banking):
    from core.worlds import get_plugin

    plugin = get_plugin("agentdojo")
    every = plugin.select(banking, "agentdojo_hash", {"exclude_no_call": False}, 0)
    kept = plugin.select(banking, "agentdojo_hash", {}, 0)
    skipped = {t.task_id for t in every} - {t.task_id for t in kept}
    assert skipped and all(
        not replay_task(banking, t).calls or replay_task(banking, t).no_call for t in skipped
    )
    assert all(tid in " ".join(plugin.presentation(banking)["notes"]) for tid in skipped)


def test_unknown_suite_and_missing_extra_say_what_to_do(monkeypatch):
    with pytest.raises(ValueError, match="unknown suite"):
        AgentDojoWorld(suite="nope")
    monkeypatch.setattr(package.importlib.util, "find_spec", lambda name: None)
    why = package.unavailable()
    assert why is not None and package.INSTALL in why and "\n" not in why


@pytest.mark.parametrize("suite", package.SUITES)
def test_conformance_on_every_suite(suite):
    from harness.conformance import check_world

    report = check_world("agentdojo", {"suite": suite})
    assert report.passed, report.text()
    assert any(f.check == "contracts" and f.status == "pass" for f in report.findings)


def test_travel_lookups_by_name_are_mined_as_maps():
    """Results keyed by entity names ({"Le Marais Boutique": "4.2"}) reach the miner as maps ($.*)."""
    from outcome_monitor.learning.mine import detect_maps

    travel = AgentDojoWorld(suite="travel")
    rows = list(traces(travel))
    by_tool: dict[str, list] = {}
    for r in rows:
        if r["status"] == "ok":
            by_tool.setdefault(r["tool"], []).append(r["result"])
    for tool in ("get_hotels_prices", "get_rating_reviews_for_restaurants", "get_car_price_per_day"):
        assert "$" in detect_maps(by_tool[tool]), tool
    assert "$" not in detect_maps(by_tool["get_user_information"])  # a record stays a record


@pytest.mark.slow
def test_workspace_digests_match_the_recorded_ones_whatever_the_hash_seed():
    """Two processes with different string hashing replay workspace to the recorded digest (its calendar
    tool dedupes participants through a set; the world fixes their order)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    lines = []
    for hash_seed in ("1", "2"):
        run = subprocess.run(
            [sys.executable, "-m", "environments.agentdojo", "replay", "--suite", "workspace"],
            cwd=root,
            env=dict(os.environ, PYTHONHASHSEED=hash_seed),
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        lines.append(run.stdout)
    assert lines[0] == lines[1] and "(as recorded)" in lines[0]
