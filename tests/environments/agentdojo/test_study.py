"""A tiny agentdojo-faults run through python -m harness.run, offline on a stock scripted player."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_a_tiny_fault_study_runs_offline(tmp_path):
    root = Path(__file__).resolve().parents[3]
    out = tmp_path / "run"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "harness.run",
            "study=agentdojo-faults",
            "study.env.options.suite=banking",
            "fault=[type_drift]",
            "model=[scripted-skeptic]",
            "limit=2",
            f"out={out}",
            "progress=false",
        ],
        cwd=root,
        check=True,
        capture_output=True,
    )
    rows = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert len(rows) == 2 * 2 and {r["arm"] for r in rows} == {"baseline", "monitor"}
    assert all(r["scripted"] and r["env"] == "agentdojo" for r in rows)
    world = json.loads((out / "world.json").read_text())
    assert world["endpoint"].startswith("utility (AgentDojo)") and world["paper"] is None


def test_a_tiny_attack_study_records_utility_and_attack_success(tmp_path):
    root = Path(__file__).resolve().parents[3]
    out = tmp_path / "run"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "harness.run",
            "study=agentdojo-attacks",
            "study.env.options.suite=banking",
            "model=[scripted-trusting]",
            "limit=1",
            f"out={out}",
            "progress=false",
        ],
        cwd=root,
        check=True,
        capture_output=True,
    )
    rows = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert {r["arm"] for r in rows} == {"baseline", "monitor"}
    assert all(r["fault_kind"] == "prompt_injection" and "+injection_task_" in r["task_id"] for r in rows)
    assert all(isinstance(r["outcome"]["attack_success"], bool) for r in rows)
    assert any(c["perturbed"] for r in rows for c in r["tool_calls"])
    world = json.loads((out / "world.json").read_text())
    assert "attack_success" in world["endpoints"]
