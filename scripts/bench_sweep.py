"""Sweep speed: `make ablations` through the joblib launcher (2 jobs at a time) vs one process.

    python scripts/bench_sweep.py [--limit N]

Runs the ablation study twice from scratch, side by side on the same machine: (a) one process,
every model in one job (`python -m harness.run study=ablations workers=1`, then `python -m analysis
figures`); (b) the sweep `make ablations`
runs (`-m ... hydra/launcher=local`: a job per model, two at a time, then MergeRecords). Prints
both wall times, their ratio (goal: at most 0.60), and what the sweep machinery costs beyond the
episodes: wall time of the sweep minus the longest chain of job run times a two-worker pool could
have achieved (goal: at most 10 s), with and without the analysis both paths run. Last, one job
alone and two copies of it at once: how much two processes slow each other on this machine, the
floor under the ratio.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - t0


def job_seconds(sweep: Path) -> list[float]:
    """Each job's own run time, from its manifest (started -> finished)."""
    out = []
    for m in sorted(sweep.glob("*/manifest.json")):
        data = json.loads(m.read_text())
        t0, t1 = (datetime.fromisoformat(data[k]) for k in ("started", "finished"))
        out.append((t1 - t0).total_seconds())
    return out


def two_worker_makespan(durations: list[float]) -> float:
    """The best finishing time of these jobs on two workers (longest first, to the emptier worker)."""
    workers = [0.0, 0.0]
    for d in sorted(durations, reverse=True):
        workers[workers.index(min(workers))] += d
    return max(workers)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=None, help="first N workflows (a quicker, smaller run)")
    args = ap.parse_args(argv)
    extra = [f"limit={args.limit}"] if args.limit else []
    py = [sys.executable, "-m", "harness.run"]
    with tempfile.TemporaryDirectory() as tmp:
        # one process as `make ablations` used to be: run, then tables and figures
        episodes = timed([*py, "study=ablations", f"out={tmp}/single", "progress=false", "workers=1", *extra])
        analysis = timed([sys.executable, "-m", "analysis", "figures", "--run", f"{tmp}/single"])
        one = episodes + analysis
        sweep = timed(
            [
                *py,
                "-m",
                "study=ablations",
                "hydra/launcher=local",
                f"out={tmp}/sweep",
                "progress=false",
                *extra,
            ]
        )
        jobs = job_seconds(Path(tmp) / "sweep")
        # what two processes side by side cost each other on this machine: one job alone, then two
        # copies of it at once (the same work, so any slowdown is the machine's, not the sweep's)
        job = [*py, "study=ablations", "model=scripted-skeptic", "workers=1", "limit=30", "progress=false"]
        alone = timed([*job, f"out={tmp}/alone"])
        t0 = time.perf_counter()
        pair = [
            subprocess.Popen(
                [*job, f"out={tmp}/pair{i}"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            for i in range(2)
        ]
        assert all(p.wait() == 0 for p in pair)
        together = time.perf_counter() - t0
    machinery = sweep - two_worker_makespan(jobs)
    ratio = sweep / one
    print(
        f"ablations{f' (limit {args.limit})' if args.limit else ''}: one process {one:.1f} s; "
        f"joblib sweep, 2 jobs at a time {sweep:.1f} s; ratio {ratio:.2f} (goal <= 0.60: {'met' if ratio <= 0.6 else 'NOT met'})"
    )
    print(
        f"  jobs' own run times {[round(j, 1) for j in jobs]} s; best two-worker makespan {two_worker_makespan(jobs):.1f} s"
    )
    print(
        f"  the jobs' run times sum to {sum(jobs):.1f} s against {episodes:.1f} s for the same episodes in one process "
        f"(imports included there): x{sum(jobs) / episodes:.2f}, what running two at once costs each here"
    )
    print(f"  one process: episodes {episodes:.1f} s + analysis (tables, figures) {analysis:.1f} s")
    print(
        f"  sweep machinery beyond the jobs (launcher, process start, merge, callback with its analysis) "
        f"{machinery:.1f} s (goal <= 10 s: {'met' if machinery <= 10 else 'NOT met'})"
    )
    print(f"  the same less the analysis the one-process path runs too: {machinery - analysis:.1f} s")
    print(
        f"  two processes side by side on this machine: one job alone {alone:.1f} s, two copies at once "
        f"{together:.1f} s (each x{together / alone:.2f} slower; the ratio cannot beat {together / alone / 2:.2f} "
        "even with no serial work)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
