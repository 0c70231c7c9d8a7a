"""A world the harness has never heard of, run end to end through ``python -m harness.run``.

The refund desk (``convoworld.py``, only in the tests) has a simulated customer who opens and
answers, a write tool, state access, and a task that raises inside the world. Nothing in the
harness or the analysis names it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.records import latest_by_episode, load_records

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
pytestmark = pytest.mark.slow


def run_cli(module: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT)])}
    return subprocess.run(
        [sys.executable, "-m", module, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def desk(out: Path, *extra: str) -> subprocess.CompletedProcess:
    return run_cli(
        "harness.run",
        "study=smoke",
        "study.name=desk",
        "study.env.name=convoworld:PLUGIN",
        "study.env.traces={}",
        "study.env.max_rounds=12",
        "study.selection.rule=all",
        "study.selection.params={}",
        "arm=[baseline,monitor]",
        "model=[scripted-trusting]",
        f"out={out}",
        "progress=false",
        *extra,
    )


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("desk")
    res = desk(out)
    assert res.returncode == 0, res.stderr[-2000:]
    return out, load_records(out / "episodes.jsonl")


def test_user_turns_reach_the_agent_and_the_raising_task_is_an_env_error(clean_run):
    out, records = clean_run
    assert len(records) == 12  # 6 tasks x 2 arms
    for r in records:
        if r["task_id"] == "desk-boom":
            assert r["status"] == "env_error" and not r["success"] and "database is down" in r["error"]
            continue
        assert r["status"] == "completed" and r["success"], r
        assert r["user_turns"] >= 1 and r["user_calls"] >= 2 and r["user_prompt_tokens"] > 0
        assert r["env"] == "convoworld" and r["strata"] == {"desk": "refunds"}
        transcript = json.loads((out / r["transcript"]).read_text())
        users = [m["content"] for m in transcript["messages"] if m["role"] == "user"]
        assert users[0].startswith("Hi, I'd like a refund") and "yes" in users
        assert not any("You want a refund" in (m.get("content") or "") for m in transcript["messages"])
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["resolved"]["user"]["model"] == "scripted/convoworld.customer"
    assert (
        manifest["config"]["resolved"]["models"]["scripted-trusting"]["model"]
        == "scripted/convoworld.trusting"
    )


def test_retry_reruns_only_the_env_errors_and_counts_each_episode_once(clean_run, tmp_path):
    out, records = clean_run
    res = desk(out, "--retry-infra-errors")
    assert res.returncode == 0, res.stderr[-2000:]
    again = load_records(out / "episodes.jsonl")
    assert len(again) == len(records) + 2  # the two desk-boom episodes ran once more, nothing else
    latest = latest_by_episode(again)
    assert len(latest) == 12 and sum(r["status"] == "env_error" for r in latest.values()) == 2


def test_analysis_reads_the_records_without_knowing_the_world(clean_run):
    out, _ = clean_run
    res = run_cli("analysis", "table1", "--run", str(out))
    assert res.returncode == 0, res.stderr[-2000:]
    rows = (out / "table1.csv").read_text().splitlines()
    assert rows[0].startswith("model,n,") and rows[1].startswith("scripted-trusting,5,")  # desk-boom dropped
    assert "infrastructure error: 1" in res.stdout


def test_a_state_level_fault_corrupts_the_world_not_only_the_view(tmp_path):
    res = desk(
        tmp_path,
        "fault=negative_or_zero",
        "fault.negative_or_zero.level=state",
        "fault.negative_or_zero.target.tool=lookup_order",
        "fault.negative_or_zero.target.field=total",
        "arm=[baseline]",
    )
    assert res.returncode == 0, res.stderr[-2000:]
    for r in load_records(tmp_path / "episodes.jsonl"):
        if r["status"] == "env_error":
            continue
        transcript = json.loads((tmp_path / r["transcript"]).read_text())
        injected = [m["injected_fault"] for m in transcript["results_meta"] if m.get("injected_fault")]
        assert injected and injected[0]["level"] == "state", transcript["results_meta"]
        refunds = transcript["outcome"]["refunds"]
        assert refunds and refunds[0][1] <= 0 and not r["success"]  # the stored total was corrupted and used


def test_a_stock_policy_the_world_does_not_ship_plays_it_from_the_schemas(tmp_path):
    """The desk ships no skeptic: the stock one plays it in generic mode (reads, never writes)."""
    res = desk(tmp_path, "model=[scripted-skeptic]", "arm=[baseline]")
    assert res.returncode == 0, res.stderr[-2000:]
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["config"]["resolved"]["models"]["scripted-skeptic"]["model"] == "scripted/skeptic"
    records = load_records(tmp_path / "episodes.jsonl")
    assert len(records) == 6
    for r in records:
        if r["task_id"] == "desk-boom":
            continue
        assert r["status"] == "agent_failed" and r["stop_reason"] == "round_cap", r
        tools = [c["tool"] for c in r["tool_calls"]]
        assert tools == ["lookup_order"], tools  # the order the customer named, once; no refund on a guess
        messages = json.loads((tmp_path / r["transcript"]).read_text())["messages"]
        assert all(
            m["content"].startswith("[scripted policy skeptic]") for m in messages if m["role"] == "assistant"
        )
        assert "player_generic:scripted-skeptic" in r["notices"]
    # said out loud: a WARNING in run.log and a count in the manifest; strict makes it an error before anything
    assert "player_generic: scripted-skeptic play" in (tmp_path / "run.log").read_text()
    assert manifest["counts"]["notices"]["counts"]["player_generic"] == 1
    strict = desk(tmp_path / "strict", "model=[scripted-skeptic]", "arm=[baseline]", "strict=true")
    assert strict.returncode == 2 and "strict=true" in strict.stderr and "player_generic" in strict.stderr
    assert not (tmp_path / "strict" / "manifest.json").exists()
