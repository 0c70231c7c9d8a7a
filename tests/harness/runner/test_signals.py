"""Ctrl-C and SIGTERM, sent as a terminal sends them (to the run's whole process group), to a real run:
a few lines saying what is recorded, exit 130 or 143, no traceback on the console or in run.log, and a
rerun that completes every episode once."""

from __future__ import annotations

import collections
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
RUN = [sys.executable, "-m", "harness.run", "study=table1", "limit=6", "progress=false"]


def start(out: Path, workers: int, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [*RUN, f"workers={workers}", f"out={out}"],
        cwd=ROOT,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )


def wait_for_records(proc: subprocess.Popen, records: Path, n: int) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        if records.exists() and records.read_bytes().count(b"\n") >= n:
            return
        time.sleep(0.05)
    raise AssertionError("the run ended (or stalled) before it could be stopped mid-run")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sig", "status", "workers"),
    [(signal.SIGINT, 130, 2), (signal.SIGTERM, 143, 1)],  # Ctrl-C to forked workers; a kill to one process
)
def test_a_signal_stops_a_run_cleanly_and_the_rerun_completes_it(tmp_path, sig, status, workers):
    out, console = tmp_path / "run", tmp_path / "console.txt"
    proc = start(out, workers, console)
    wait_for_records(proc, out / "episodes.jsonl", 2)
    os.killpg(proc.pid, sig)
    assert proc.wait(timeout=120) == status, console.read_text()[-3000:]
    text = console.read_text()
    assert "Traceback" not in text, text[-3000:]
    assert len([ln for ln in text.splitlines() if ln.strip()]) <= 12, text
    assert "Rerun the same command" in text
    run_log = (out / "run.log").read_text()
    assert "Traceback" not in run_log and "Error" not in run_log.replace("infra_error", ""), run_log[-3000:]
    # the rerun runs what was not recorded, each episode once
    done = subprocess.run(
        [*RUN, f"workers={workers}", f"out={out}"], cwd=ROOT, capture_output=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    ids = [json.loads(ln)["episode_id"] for ln in (out / "episodes.jsonl").read_text().splitlines()]
    assert len(ids) == len(set(ids)) == 6 * 2 * 4, collections.Counter(ids).most_common(3)
