"""Benchmark: tau-bench ground-truth replays in one process: retail's 635 tasks (goal: under 10 s) and
airline's 50 (goal: under 2 s).

    python scripts/bench_taubench.py [--domain retail|airline|both] [--repeats 3] [--data-dir ROOT]
        [--naive-sample 20] [--contracts] [--study retail,airline] [--one-process]

``--contracts`` times retail contracts from the database and train's ground-truth replays (goal: under
1 s), and with train's clean traces mined and merged too; ``--study`` times a default ``python -m
harness.run study=taubench-faults`` (retail) and/or ``study=taubench-airline-faults`` (airline) with
scripted agents and the card user, into a temporary folder (goal: under 60 s each); ``--one-process``
adds the same study in one process (``workers=1``) beside it. ``make bench`` runs the replays and the
airline study.

Each replay runs a task's ground-truth calls through a real episode, then scores it as upstream
does (a second ground-truth replay on a fresh database, whole-database hash comparison, outputs).
The first pass is cold (data load, sha256 checks, the base records' digests); later passes use a
new environment on the cached data. For scale, a naive variant (``copy.deepcopy`` of the whole
database per replay and upstream's one-string hash) is timed on a sample and extrapolated.
Prints figures; asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from environments.taubench import data as data_mod  # noqa: E402
from environments.taubench.db import exact_digest  # noqa: E402
from environments.taubench.env import TauBenchEnv  # noqa: E402
from environments.taubench.replay import run_ground_truth  # noqa: E402


def replay_all(env: TauBenchEnv) -> int:
    ok = 0
    for task in env.tasks("all"):
        ok += run_ground_truth(env, task.task_id).outcome(require_done=False).score == 1.0
    return ok


def naive_one(env: TauBenchEnv, task_id: str) -> bool:
    class Plain:  # the tools read db.<collection> and ask for writable records
        def __init__(self, d):
            self.data = d
            for c, records in d.items():
                setattr(self, c, records)

        def writable(self, c, k):
            return self.data[c][k]

        def insert(self, c, k, record):
            self.data[c][k] = record

    hashes = []
    for _ in range(2):  # the agent's run and the reference run
        d = copy.deepcopy(env.data.base.collections)
        db = Plain(d)
        for a in env.record(task_id).actions:
            if a["name"] not in env.domain.terminal_tools:
                env.domain.execute(db, a["name"], a["kwargs"])
        hashes.append(exact_digest(d))
    return hashes[0] == hashes[1]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--domain", default="both", choices=["retail", "airline", "both"])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--data-dir", help="the data root (default: $TAUBENCH_DATA or data/taubench)")
    ap.add_argument("--naive-sample", type=int, default=20)
    ap.add_argument("--contracts", action="store_true", help="time retail contracts from traces + database")
    ap.add_argument("--study", help="time the default faults study of these domains (retail, airline)")
    ap.add_argument(
        "--one-process", action="store_true", help="with --study: the same study with workers=1 too"
    )
    args = ap.parse_args()
    for domain in ("retail", "airline") if args.domain == "both" else (args.domain,):
        replays(args, domain)
    if args.contracts or args.study:
        return extras(args)
    return 0


def replays(args: argparse.Namespace, domain: str) -> None:
    data_mod._CACHE.clear()
    t0 = time.perf_counter()
    env = TauBenchEnv(data_dir=args.data_dir, domain=domain)
    t1 = time.perf_counter()
    n = len(env.tasks("all"))
    ok = replay_all(env)
    t2 = time.perf_counter()
    goal = GOALS[domain]
    print(f"{domain}: data load + sha256 checks: {t1 - t0:.2f} s")
    print(
        f"{domain}: ground-truth replay, {n} tasks, cold (incl. base digests): {t2 - t1:.2f} s, "
        f"reward 1 on {ok}/{n} (goal under {goal} s)"
    )
    warm = []
    for _ in range(max(0, args.repeats - 1)):
        env = TauBenchEnv(data_dir=args.data_dir, domain=domain)
        t = time.perf_counter()
        replay_all(env)
        warm.append(time.perf_counter() - t)
    if warm:
        print(
            f"{domain}: ground-truth replay, {n} tasks, warm: median {statistics.median(warm):.2f} s over "
            f"{len(warm)} runs ({1000 * statistics.median(warm) / n:.1f} ms per task)"
        )
    if args.naive_sample > 0:
        sample = [t.task_id for t in env.tasks("all")][:: max(1, n // args.naive_sample)][: args.naive_sample]
        t = time.perf_counter()
        agree = sum(naive_one(env, tid) for tid in sample)
        per = (time.perf_counter() - t) / len(sample)
        print(
            f"{domain}: naive (deepcopy + one-string hash): {1000 * per:.0f} ms per task on {len(sample)} tasks "
            f"(agree {agree}/{len(sample)}), about {per * n:.0f} s for all {n}"
        )


GOALS = {"retail": 10, "airline": 2}
STUDIES = {"retail": "taubench-faults", "airline": "taubench-airline-faults"}


def extras(args: argparse.Namespace) -> int:
    import os
    import subprocess
    import tempfile

    if args.contracts:
        from core.worlds import get_plugin

        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from taubench_contracts import contracts

        plugin = get_plugin("taubench")
        env = plugin.make(data_dir=args.data_dir)
        plugin.database(env, split="train")  # warm the base digests once
        db_s, all_s = [], []
        for _ in range(max(1, args.repeats)):
            # the database path: initial records + train's replayed post-states, mined and bound
            t = time.perf_counter()
            db_reg = contracts(plugin, env, "train", traces=False)
            db_s.append(time.perf_counter() - t)
            t = time.perf_counter()
            reg = contracts(plugin, env, "train")
            all_s.append(time.perf_counter() - t)
        print(
            f"contracts from the database and train's ground-truth replays: {db_reg.n_rules} rules in "
            f"{statistics.median(db_s):.2f} s, median of {len(db_s)} (goal under 1 s)"
        )
        print(
            f"  with train's clean traces mined and merged too: {reg.n_rules} rules in "
            f"{statistics.median(all_s):.2f} s"
        )
    for domain in [d.strip() for d in (args.study or "").split(",") if d.strip()]:
        if domain not in STUDIES:
            sys.exit(f"error: --study takes retail and/or airline, got {domain!r}")
        study = STUDIES[domain]
        root = Path(__file__).resolve().parents[1]
        envvars = dict(os.environ, **({"TAUBENCH_DATA": args.data_dir} if args.data_dir else {}))
        took: dict[str, float] = {}
        runs = [("default (workers: 0, one per CPU)", [])]
        if args.one_process:
            runs.append(("one process (workers=1)", ["workers=1"]))
        for label, extra in runs:
            with tempfile.TemporaryDirectory() as out:
                t = time.perf_counter()
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "harness.run",
                        f"study={study}",
                        f"out={out}",
                        "progress=false",
                        *extra,
                    ],
                    cwd=root,
                    env=envvars,
                    check=True,
                    capture_output=True,
                )
                took[label] = time.perf_counter() - t
                n = sum(1 for _ in open(Path(out) / "episodes.jsonl"))
            print(
                f"study={study} (scripted agents, card user), {label}: {n} episodes in "
                f"{took[label]:.1f} s (goal under 60 s; load average {os.getloadavg()[0]:.1f})"
            )
        if len(took) == 2:
            first, second = took.values()
            print(f"  default / one process: x{first / second:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
