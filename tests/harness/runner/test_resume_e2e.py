"""End to end through ``python -m harness.run``: SIGKILL mid-run, rerun, compare with an uninterrupted run.

Also the secrets check: the scripted model is configured to read a canary API key, which the
adapter really passes to litellm; the canary must appear in no output (records, transcripts,
manifest, saved Hydra config, logs, stdout/stderr).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.records import latest_by_episode, load_records

REPO = Path(__file__).resolve().parents[3]
CANARY = "CANARY-7f3a9c1e5b2d4068-must-never-be-written"
ARGS = [
    "study=smoke",
    "study.selection.params.per_cell=3",
    "arm=[baseline,reviewer]",
    "model=[scripted-trusting,scripted-skeptic]",
    "concurrency=1",
    "+model_overrides.scripted-trusting.api_key_env=CANARY_KEY",
]


def start(out: Path, log: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "CANARY_KEY": CANARY,
        "LITELLM_LOG": "DEBUG",
    }  # loud logs: the canary must still not leak
    return subprocess.Popen(
        [sys.executable, "-m", "harness.run", *ARGS, f"out={out}"],
        cwd=REPO,
        env=env,
        stdout=open(log, "wb"),
        stderr=subprocess.STDOUT,
    )


def n_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.slow
def test_kill_and_resume_matches_uninterrupted_run(tmp_path):
    full, killed = tmp_path / "full", tmp_path / "killed"
    a = start(full, tmp_path / "full.log")
    b = start(killed, tmp_path / "killed.log")
    records = killed / "episodes.jsonl"
    deadline = time.monotonic() + 600
    while n_lines(records) < 5 and b.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert b.poll() is None, "the run ended before it could be killed mid-run"
    os.kill(b.pid, signal.SIGKILL)
    b.wait()
    partial = n_lines(records)
    assert b.returncode == -signal.SIGKILL and partial >= 5
    assert a.wait(timeout=900) == 0, (tmp_path / "full.log").read_text()[-3000:]

    reference = load_records(full / "episodes.jsonl")
    assert partial < len(reference), "the killed run had already finished everything"
    c = start(killed, tmp_path / "resumed.log")
    assert c.wait(timeout=900) == 0, (tmp_path / "resumed.log").read_text()[-3000:]

    resumed = load_records(records)
    assert len(resumed) == len({r["episode_id"] for r in resumed}) == len(reference)  # none lost, none twice
    want = {r["episode_id"]: r["success"] for r in reference}
    got = {e: r["success"] for e, r in latest_by_episode(resumed).items()}
    assert got == want
    assert any(want.values()) and not all(want.values())  # the comparison is not trivially uniform
    assert all(r["status"] in ("completed", "agent_failed") for r in resumed)
    assert all(r["reviewer_calls"] >= 1 for r in reference if r["arm"] == "reviewer")

    # secrets: the key was configured (its variable's name is in the config) but its value is nowhere
    assert "CANARY_KEY" in (full / "config.yaml").read_text()
    outputs = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "run.log" for p in outputs) and any(p.parent.name == ".hydra" for p in outputs)
    leaked = [str(p) for p in outputs if CANARY.encode() in p.read_bytes()]
    assert leaked == []
