"""Sweeps through Hydra's real launchers: submitit_local and joblib, the merge callback, and a
killed job that a rerun completes without losing or double counting an episode."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from harness.records import load_records

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
pytestmark = pytest.mark.slow


def run_cli(*args: str, env_extra: dict | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(ROOT)]), **(env_extra or {})}
    return subprocess.run(
        [sys.executable, "-m", "harness.run", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_submitit_local_jobs_are_merged_once(tmp_path):
    res = run_cli(
        "-m",
        "study=smoke",
        "hydra/launcher=submitit_local",
        "model=scripted-trusting,scripted-receipt-aware",
        "limit=1",
        f"out={tmp_path}",
        "progress=false",
        "hydra.launcher.timeout_min=15",
    )
    assert res.returncode == 0, res.stderr[-3000:]
    jobs = sorted(p.parent.name for p in tmp_path.glob("*/episodes.jsonl"))
    assert jobs == ["model=scripted-receipt-aware", "model=scripted-trusting"]
    merged = load_records(tmp_path / "episodes.jsonl")
    assert len(merged) == 4 and len({r["episode_id"] for r in merged}) == 4
    assert json.loads((tmp_path / "sweep.json").read_text())["episodes"] == 4
    assert (tmp_path / "table1.csv").exists()  # the callback analysed the merged records


def job_records(sweep: Path, model: str) -> Path:
    """A job's records; its folder is named by the overrides (Hydra's override_dirname)."""
    (folder,) = [p for p in sweep.iterdir() if p.is_dir() and f"model={model}" in p.name.split(",")]
    return folder / "episodes.jsonl"


def desk_sweep(out: Path, marker: Path) -> subprocess.CompletedProcess:
    return run_cli(
        "-m",
        "study=smoke",
        "study.name=desk",
        "study.env.name=convoworld:PLUGIN",
        "study.env.traces={}",
        "study.selection.rule=all",
        "study.selection.params={}",
        "arm=[baseline,monitor]",
        "hydra/launcher=local",
        "model=scripted-trusting,scripted-receipt-aware",
        f"out={out}",
        "progress=false",
        "concurrency=1",
        env_extra={"DESK_CRASH_MARKER": str(marker)},
    )


def test_a_killed_job_loses_nothing_and_a_rerun_counts_each_episode_once(tmp_path):
    out, marker = tmp_path / "sweep", tmp_path / "crashed-once"
    first = desk_sweep(out, marker)
    assert first.returncode != 0 and marker.exists()  # the receipt-aware job was killed mid-run
    killed = job_records(out, "scripted-receipt-aware")
    before = len(load_records(killed)) if killed.exists() else 0
    assert before < 12
    again = desk_sweep(out, marker)
    assert again.returncode == 0, again.stderr[-3000:]
    merged = load_records(out / "episodes.jsonl")
    assert len(merged) == 24 and len({r["episode_id"] for r in merged}) == 24  # 6 tasks x 2 arms x 2 models
    assert Counter(r["model"] for r in merged) == {"scripted-trusting": 12, "scripted-receipt-aware": 12}
    # the job that finished the first time ran nothing again; the killed one only what it lacked
    assert len(load_records(job_records(out, "scripted-trusting"))) == 12
    assert len(load_records(killed)) == 12


def _pid() -> int:
    return os.getpid()


def test_the_launchers_idle_workers_are_released_when_a_sweep_ends():
    """loky keeps its workers until interpreter exit (seconds after the analysis); the callback stops them."""
    import time

    from joblib.externals.loky import get_reusable_executor

    from harness.run.sweep import release_idle_workers

    pid = get_reusable_executor(max_workers=1).submit(_pid).result()
    release_idle_workers()
    for _ in range(600):  # poll: the worker is killed asynchronously
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"loky worker {pid} still alive after release_idle_workers()")
    release_idle_workers()  # again, with the pool already stopped: nothing to do, no error
