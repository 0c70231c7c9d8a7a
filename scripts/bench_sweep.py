"""Sweep speed, per launcher, side by side: one process, the joblib launcher and the SLURM launcher.

    python scripts/bench_sweep.py [--limit N] [--launchers one,joblib,slurm] [--probe]
    make bench-sweep        # the same inside a one-node SLURM cluster brought up and down around it

Runs the ablation study (a job per model) from scratch once per launcher on this machine: (a) one
process, every model in one job (`python -m harness.run study=ablations workers=1`, then `python -m
analysis figures`, as `make ablations` used to be); (b) the sweep `make ablations` runs (`-m ...
hydra/launcher=local`: joblib, two jobs at a time, then the merge callback and its analysis); (c) the
same sweep with `hydra/launcher=slurm` on the cluster SLURM_CONF names (one job array, one CPU per
job, so two jobs at a time on two cores; skipped, saying so, without SLURM_CONF).

Prints episodes per second for each, and where each launcher's time goes, from each job's own logs:
job start (command start to the job's process: SLURM's submission, queue and python start; joblib
starts its workers without a log line, so there it is counted with the imports), imports and config
(to the job's first harness log line), plan, monitor build (to its first episode's start: transcript
time less the episode's latency), the episodes themselves, the merge (the last job's end to the callback's "merged" line) and the
analysis (to the command's end). Last, the sweep machinery beyond the jobs' own run time: wall time less the
time any job process was running (goal: under 10 s on SLURM), and wall time less the time any
episode was running. `--probe` adds one job alone vs two copies at once: how much two processes slow
each other on this machine. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAN = float("nan")  # a step that does not exist for that launcher
LOG_LINE = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})\]\[([^\]]+)\]")
SUBMITIT_LINE = re.compile(r"^submitit INFO \((\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})\) - (.*)")


def stamp(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%d %H:%M:%S,%f").timestamp()  # the jobs log local time


def timed(cmd: list[str]) -> tuple[float, float, float, str]:
    """(start, end, seconds, output) of a command that must succeed; its last error line if it does not."""
    t0 = time.time()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    t1 = time.time()
    if done.returncode != 0:
        said = [ln for ln in (done.stderr + done.stdout).splitlines() if ln.strip()]
        raise SystemExit(
            f"bench_sweep: {' '.join(cmd[1:4])}... exited {done.returncode}: {said[-1] if said else ''}"
        )
    return t0, t1, t1 - t0, done.stdout + done.stderr


def logged(output: str, text: str) -> float:
    """When the sweep's own output logged a line containing text (epoch seconds)."""
    for line in output.splitlines():
        m = LOG_LINE.match(line)
        if m and text in line:
            return stamp(m.group(1))
    raise SystemExit(f"bench_sweep: the sweep's output has no line with {text!r}")


def job_timeline(job_dir: Path) -> dict[str, float]:
    """One job's moments (epoch seconds) from its run.log, its SLURM log and its transcripts."""
    t: dict[str, float] = {}
    for line in (job_dir / "run.log").read_text().splitlines():
        m = LOG_LINE.match(line)
        if not m:
            continue
        if m.group(2).startswith("harness") and "ready" not in t:
            t["ready"] = stamp(m.group(1))  # the first harness line: imports and config done
        if m.group(2) == "harness.run.plan" and "planned" in line:
            t["planned"] = stamp(m.group(1))
    starts, ends = [], []
    for line in (job_dir / "episodes.jsonl").read_text().splitlines():
        rec = json.loads(line)
        end = (job_dir / rec["transcript"]).stat().st_mtime
        ends.append(end)
        starts.append(end - float(rec.get("latency_s") or 0.0))
    t["first_episode"], t["last_episode"] = min(starts), max(ends)
    t["episodes"] = len(ends)
    return t


def slurm_moments(job_dir: Path, sweep: Path) -> dict[str, float]:
    """A SLURM job's process start and end, from submitit's log (the job folder's Hydra config names its id)."""
    import yaml

    job_id = str(yaml.safe_load((job_dir / ".hydra" / "hydra.yaml").read_text())["hydra"]["job"]["id"])
    moments: dict[str, float] = {}
    for line in (sweep / ".submitit" / job_id / f"{job_id}_0_log.out").read_text().splitlines():
        m = SUBMITIT_LINE.match(line)
        if m and m.group(2).startswith("Starting with JobEnvironment"):
            moments["process"] = stamp(m.group(1))
        elif m and m.group(2).startswith("Exiting after successful completion"):
            moments["end"] = stamp(m.group(1))
    return moments


def union(intervals: list[tuple[float, float]]) -> float:
    total, end = 0.0, float("-inf")
    for a, b in sorted(intervals):
        if b <= end:
            continue
        total += b - max(a, end)
        end = b
    return total


def sweep_breakdown(sweep: Path, t0: float, t1: float, output: str, slurm: bool) -> dict[str, float]:
    jobs = sorted(p for p in sweep.iterdir() if p.is_dir() and (p / "run.log").exists())
    lines = {j: job_timeline(j) for j in jobs}
    ends = {j: max(lines[j]["last_episode"], (j / "manifest.json").stat().st_mtime) for j in jobs}
    process = {j: lines[j]["ready"] for j in jobs}  # joblib: no earlier moment of the job is logged
    if slurm:  # submitit's own log names the job's process start and end
        for j in jobs:
            m = slurm_moments(j, sweep)
            process[j] = m["process"]
            ends[j] = max(ends[j], m.get("end", ends[j]))
    merged = logged(output, "merged ")
    n = len(jobs)
    mean = lambda xs: sum(xs) / n  # noqa: E731
    beyond_jobs = (t1 - t0) - union([(process[j], ends[j]) for j in jobs])
    if slurm:
        imports = mean([lines[j]["ready"] - process[j] for j in jobs])
    else:
        imports = min(lines[j]["ready"] for j in jobs) - t0
    return {
        "jobs": n,
        "episodes": sum(lines[j]["episodes"] for j in jobs),
        "wall": t1 - t0,
        "submission": logged(output, "jobs submitted") - t0 if slurm else NAN,
        "job start": min(process.values()) - t0 if slurm else NAN,
        "imports and config": imports,
        "plan": mean([lines[j]["planned"] - lines[j]["ready"] for j in jobs]),
        "monitor build": mean([lines[j]["first_episode"] - lines[j]["planned"] for j in jobs]),
        "episodes (per job)": mean([lines[j]["last_episode"] - lines[j]["first_episode"] for j in jobs]),
        "merge": merged - max(ends.values()),
        "analysis": t1 - merged,
        "beyond the jobs": beyond_jobs,
        "beyond the jobs, less the analysis": beyond_jobs - (t1 - merged),
        "beyond the episodes": (t1 - t0)
        - union([(lines[j]["first_episode"], lines[j]["last_episode"]) for j in jobs]),
    }


def one_process(tmp: Path, py: list[str], extra: list[str]) -> dict[str, float]:
    run = tmp / "single"
    t0, _, _, _ = timed([*py, "study=ablations", f"out={run}", "progress=false", "workers=1", *extra])
    _, t1, analysis, _ = timed([sys.executable, "-m", "analysis", "figures", "--run", str(run)])
    line = job_timeline(run)
    return {
        "jobs": 1,
        "episodes": line["episodes"],
        "wall": t1 - t0,
        "submission": NAN,
        "job start": NAN,
        "imports and config": line["ready"] - t0,
        "plan": line["planned"] - line["ready"],
        "monitor build": line["first_episode"] - line["planned"],
        "episodes (per job)": line["last_episode"] - line["first_episode"],
        "merge": NAN,
        "analysis": analysis,
        "beyond the jobs": analysis,
        "beyond the jobs, less the analysis": 0.0,
        "beyond the episodes": (t1 - t0) - (line["last_episode"] - line["first_episode"]),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=None, help="first N workflows (a quicker, smaller run)")
    ap.add_argument("--launchers", default="one,joblib,slurm", help="which of one,joblib,slurm to run")
    ap.add_argument("--probe", action="store_true", help="also: one job alone vs two copies at once")
    args = ap.parse_args(argv)
    wanted = [w.strip() for w in args.launchers.split(",") if w.strip()]
    if bad := set(wanted) - {"one", "joblib", "slurm"}:
        ap.error(f"--launchers: unknown {', '.join(sorted(bad))} (one, joblib, slurm)")
    extra = [f"limit={args.limit}"] if args.limit else []
    py = [sys.executable, "-m", "harness.run"]
    sweep = [*py, "-m", "study=ablations", "progress=false", *extra]
    columns: dict[str, dict[str, float]] = {}
    skipped: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        if "one" in wanted:
            columns["one process"] = one_process(tmp, py, extra)
        if "joblib" in wanted:
            t0, t1, _, said = timed([*sweep, "hydra/launcher=local", f"out={tmp / 'joblib'}"])
            columns["joblib, 2 at a time"] = sweep_breakdown(tmp / "joblib", t0, t1, said, slurm=False)
        if "slurm" in wanted:
            if not os.environ.get("SLURM_CONF") or shutil.which("sbatch") is None:
                skipped["SLURM"] = (
                    "no cluster (SLURM_CONF unset or no sbatch): make bench-sweep brings one up"
                )
            else:
                partition = os.environ.get("SLURM_PARTITION", "local")
                cmd = [*sweep, "hydra/launcher=slurm", f"hydra.launcher.partition={partition}",
                       "hydra.launcher.cpus_per_task=1", "hydra.launcher.mem_gb=2", f"out={tmp / 'slurm'}"]  # fmt: skip
                t0, t1, _, said = timed(cmd)
                columns["SLURM, 1 CPU a job"] = sweep_breakdown(tmp / "slurm", t0, t1, said, slurm=True)
        probe = None
        if args.probe:
            job = [
                *py,
                "study=ablations",
                "model=scripted-skeptic",
                "workers=1",
                "limit=30",
                "progress=false",
            ]
            _, _, alone, _ = timed([*job, f"out={tmp / 'alone'}"])
            t0 = time.perf_counter()
            pair = [subprocess.Popen([*job, f"out={tmp / f'pair{i}'}"], cwd=ROOT, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL) for i in range(2)]  # fmt: skip
            if not all(p.wait() == 0 for p in pair):
                raise SystemExit("bench_sweep: a probe job failed")
            probe = (alone, time.perf_counter() - t0)
    report(columns, skipped, args.limit, probe)
    return 0


ROWS = [
    ("jobs", "{:.0f}", "jobs"),
    ("episodes", "{:.0f}", "episodes"),
    ("wall", "{:.1f} s", "wall time"),
    ("episodes/s", "{:.2f}", "episodes/s"),
    ("submission", "{:.1f} s", "submission (command -> sbatch done)"),
    ("job start", "{:.1f} s", "job start (command -> first job's process)"),
    ("imports and config", "{:.1f} s", "imports and config (-> first log line)"),
    ("plan", "{:.1f} s", "plan (-> planned)"),
    ("monitor build", "{:.1f} s", "monitor build (-> first episode)"),
    ("episodes (per job)", "{:.1f} s", "episodes, first start -> last end"),
    ("merge", "{:.1f} s", "merge (last job's end -> merged)"),
    ("analysis", "{:.1f} s", "analysis (merged -> command's end)"),
    ("beyond the jobs", "{:.1f} s", "machinery beyond the jobs' run time"),
    ("beyond the jobs, less the analysis", "{:.1f} s", "  the same less the analysis"),
    ("beyond the episodes", "{:.1f} s", "wall time with no episode running"),
]


def report(columns: dict[str, dict[str, float]], skipped: dict[str, str], limit: int | None, probe) -> None:
    print(f"ablations{f' (limit {limit})' if limit else ''}: each launcher from scratch on this machine "
          f"({os.cpu_count()} CPUs); per-job rows are means over the launcher's jobs")  # fmt: skip
    for c in columns.values():
        c["episodes/s"] = c["episodes"] / c["wall"]
    names = list(columns)
    width = max(len(label) for _, _, label in ROWS) + 2
    print(" " * width + "".join(f"{n:>22}" for n in names))
    for key, fmt, label in ROWS:
        cells = [columns[n][key] for n in names]
        print(f"{label:<{width}}" + "".join(f"{'n/a' if v != v else fmt.format(v):>22}" for v in cells))
    for name, why in skipped.items():
        print(f"{name}: skipped: {why}")
    print(
        "n/a: no such step for that launcher. joblib's workers start without a log line: its imports and config"
    )
    print("  run from the command's start to its first job's first line. One process: the analysis is")
    print("  `python -m analysis figures` (cold); the sweeps' merge callback runs the same analysis.")
    for n in names:
        if n.startswith("SLURM"):
            m, less = columns[n]["beyond the jobs"], columns[n]["beyond the jobs, less the analysis"]
            print(f"SLURM: sweep machinery beyond the jobs' own run time {m:.1f} s (goal under 10 s: "
                  f"{'met' if m < 10 else 'NOT met'}); without the analysis {less:.1f} s "
                  f"({'under' if less < 10 else 'over'} 10 s)")  # fmt: skip
    if probe:
        alone, together = probe
        print(f"two processes side by side here: one job alone {alone:.1f} s, two copies at once {together:.1f} s "
              f"(each x{together / alone:.2f} slower)")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
