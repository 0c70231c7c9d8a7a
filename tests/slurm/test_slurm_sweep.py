"""Sweeps on a real SLURM cluster through ``hydra/launcher=slurm``: the docs' worked example, and a
job cancelled mid-run (``scancel``) that a rerun completes, each episode once, finished jobs untouched.

Run by ``make test-slurm`` inside ``scripts/slurm_cluster.sh run`` (a one-node cluster brought up and
down around it); deselected unless pytest gets ``--slurm``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from harness.records import load_records

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "harness" / "runner"  # convoworld, the refund desk with a job that hangs
pytestmark = [pytest.mark.slurm, pytest.mark.slow]
JOB_LINE = re.compile(r"SLURM job (\d+_\d+): (.*) \(log (\S+)\)")


@pytest.fixture(scope="module", autouse=True)
def cluster():
    if not os.environ.get("SLURM_CONF"):
        pytest.fail("no SLURM cluster: SLURM_CONF is not set (run `make test-slurm`)")
    done = subprocess.run(["sinfo", "-h", "-o", "%P %t"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def slurm(*args: str) -> str:
    done = subprocess.run(list(args), capture_output=True, text=True, check=True)
    return done.stdout


def sacct_states(job_ids: list[str]) -> dict[str, str]:
    out = slurm("sacct", "-n", "-X", "-P", "-o", "JobID,State", "-j", ",".join(job_ids))
    return {line.split("|")[0]: line.split("|")[1] for line in out.splitlines() if line}


def submitted(output: str) -> dict[str, tuple[str, str]]:
    """The jobs the sweep's output names: SLURM id -> (what it varies, its log file)."""
    return {m.group(1): (m.group(2), m.group(3)) for m in JOB_LINE.finditer(output)}


def arm_of(what: str) -> str:
    (arm,) = [w.removeprefix("arm=") for w in what.split() if w.startswith("arm=")]
    return arm


def readme_example() -> list[str]:
    """The docs' worked SLURM example: its one `python -m harness.run ... hydra/launcher=slurm` line."""
    text = (ROOT / "docs" / "studies.md").read_text()
    section = text[text.index("**SLURM on this machine.**") :]
    block = section[section.index("```bash") : section.index("```", section.index("```bash") + 7)]
    (line,) = [ln for ln in block.splitlines() if ln.startswith("python -m harness.run")]
    return shlex.split(line)


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(RUNNER), str(ROOT)])}


def test_the_readme_example_runs_as_a_job_array_and_merges_each_episode_once(tmp_path):
    cmd = readme_example()
    assert "hydra/launcher=slurm" in cmd and cmd[:3] == ["python", "-m", "harness.run"]
    out = tmp_path / "sweep"
    cmd = [sys.executable, *cmd[1:-1], f"out={out}"] if cmd[-1].startswith("out=") else None
    assert cmd is not None, "the docs' example ends with out=..."
    done = subprocess.run(cmd, cwd=ROOT, env=env(), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    jobs = submitted(done.stdout + done.stderr)
    assert sorted(arm_of(what) for what, _ in jobs.values()) == ["baseline", "monitor"]
    assert len({j.split("_")[0] for j in jobs}) == 1  # one job array
    assert set(sacct_states(list(jobs)).values()) == {"COMPLETED"}, sacct_states(list(jobs))
    for job, (_, logfile) in jobs.items():  # each job's log in the sweep folder, under its SLURM id
        assert Path(logfile) == out / ".submitit" / job / f"{job}_0_log.out" and Path(logfile).exists()
    merged = load_records(out / "episodes.jsonl")
    assert len(merged) == 16 and len({r["episode_id"] for r in merged}) == 16  # 4 tasks x 2 arms x 2 models
    assert json.loads((out / "sweep.json").read_text())["jobs"] == {"arm=baseline": 8, "arm=monitor": 8}
    assert (out / "table1.csv").exists()  # the callback analysed the merged records


def desk_sweep(out: Path, hang: Path) -> list[str]:
    """A job per arm on the refund desk; the first job to reach order O-3 hangs until cancelled (once)."""
    return [
        sys.executable,
        "-m",
        "harness.run",
        "-m",
        "study=smoke",
        "study.name=desk",
        "study.env.name=convoworld:PLUGIN",
        "study.env.traces={}",
        "study.selection.rule=all",
        "study.selection.params={}",
        "arm=baseline,monitor",
        "model=scripted-receipt-aware",
        "hydra/launcher=slurm",
        f"hydra.launcher.partition={os.environ.get('SLURM_PARTITION', 'local')}",
        "hydra.launcher.cpus_per_task=1",
        "hydra.launcher.mem_gb=2",
        f"out={out}",
        "progress=false",
        "workers=1",
    ]


def job_folder(out: Path, arm: str) -> Path:
    (folder,) = [p for p in out.iterdir() if p.is_dir() and f"arm={arm}" in p.name.split(",")]
    return folder


def test_a_cancelled_job_is_named_and_a_rerun_completes_it_without_running_finished_work_again(tmp_path):
    out, hang = tmp_path / "sweep", tmp_path / "hung.json"
    cmd = desk_sweep(out, hang)
    with (tmp_path / "first.out").open("w") as so, (tmp_path / "first.err").open("w") as se:
        first = subprocess.Popen(
            cmd, cwd=ROOT, env={**env(), "DESK_HANG_MARKER": str(hang)}, stdout=so, stderr=se, text=True
        )
        # a guard against a test that would hang CI, not a speed limit: a job reaches O-3 in seconds
        for _ in range(3000):
            if hang.exists() or first.poll() is not None:
                break
            time.sleep(0.2)
        assert hang.exists(), (
            f"no job reached order O-3; sweep exited {first.poll()}: {(tmp_path / 'first.err').read_text()[-2000:]}"
        )
        inside = json.loads(hang.read_text())  # SLURM's environment inside the job
        hung = f"{inside['SLURM_ARRAY_JOB_ID']}_{inside['SLURM_ARRAY_TASK_ID']}"
        assert inside["SLURM_JOB_PARTITION"] == os.environ.get("SLURM_PARTITION", "local")
        assert inside["SLURM_CPUS_PER_TASK"] == "1"
        assert slurm("squeue", "-h", "-j", hung, "-o", "%T").strip() == "RUNNING"
        slurm("scancel", hung)
        first.wait()
    output = (tmp_path / "first.out").read_text() + (tmp_path / "first.err").read_text()
    jobs = submitted(output)
    assert hung in jobs and len(jobs) == 2, output[-3000:]
    (other,) = set(jobs) - {hung}
    assert first.returncode == 1
    errors = [ln for ln in output.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and "1 of 2 SLURM jobs did not finish" in errors[0], errors
    assert hung in errors[0] and "CANCELLED" in errors[0] and jobs[hung][1] in errors[0]
    assert "Traceback" not in output
    states = sacct_states(list(jobs))
    assert states[other] == "COMPLETED" and states[hung].startswith("CANCELLED"), states
    assert not (out / "episodes.jsonl").exists()  # nothing merged from an unfinished sweep

    hung_arm, done_arm = arm_of(jobs[hung][0]), arm_of(jobs[other][0])
    finished = job_folder(out, done_arm) / "episodes.jsonl"
    cancelled = job_folder(out, hung_arm) / "episodes.jsonl"
    assert len(load_records(finished)) == 6
    finished_bytes = finished.read_bytes()
    before = load_records(cancelled) if cancelled.exists() else []
    assert len(before) < 6

    again = subprocess.run(
        cmd, cwd=ROOT, env={**env(), "DESK_HANG_MARKER": str(hang)}, capture_output=True, text=True
    )
    assert again.returncode == 0, again.stderr[-3000:]
    rerun = submitted(again.stdout + again.stderr)
    assert len(rerun) == 2 and not set(rerun) & set(jobs)  # a new job array
    assert set(sacct_states(list(rerun)).values()) == {"COMPLETED"}
    merged = load_records(out / "episodes.jsonl")
    assert len(merged) == 12 and len({r["episode_id"] for r in merged}) == 12  # 6 tasks x 2 arms, each once
    assert Counter(r["arm"] for r in merged) == {"baseline": 6, "monitor": 6}
    # the job that finished the first time ran nothing again; the cancelled one only what it lacked
    assert finished.read_bytes() == finished_bytes
    after = load_records(cancelled)
    assert len(after) == 6 and [r["episode_id"] for r in after[: len(before)]] == [
        r["episode_id"] for r in before
    ]
    for job in [*jobs, *rerun]:  # every attempt's log is in the sweep folder
        assert (out / ".submitit" / job / f"{job}_0_log.out").exists()
    assert slurm("squeue", "-h", "-o", "%i").strip() == ""  # nothing of the sweep left in the queue
