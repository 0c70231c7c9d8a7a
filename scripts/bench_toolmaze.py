"""Benchmark: ToolMaze generation (all 2,000 instances), dataset hashing, and scripted-policy throughput.

    python scripts/bench_toolmaze.py [--repeats 3] [--seed 0]

Prints wall-clock figures (the target: generation under 10 s on 2 cores). Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from environments.toolmaze import catalog, dag  # noqa: E402
from environments.toolmaze.env import ToolMazeEnv  # noqa: E402
from environments.toolmaze.policies import POLICIES, run_policy  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    gen, hashing = [], []
    for _ in range(args.repeats):
        dag.build_dataset.cache_clear()
        catalog.build_catalog.cache_clear()
        catalog.catalog_specs.cache_clear()
        dag._HASHES.clear()
        t0 = time.perf_counter()
        ds = dag.build_dataset(args.seed)
        t1 = time.perf_counter()
        digest = ds.sha256()
        t2 = time.perf_counter()
        gen.append(t1 - t0)
        hashing.append(t2 - t1)
    print(f"instances {len(ds.instances)}  sha256 {digest[:16]}...")
    print(
        f"generate all instances (catalog + 400 base tasks x 5 modes, cold): "
        f"median {statistics.median(gen):.2f} s  min {min(gen):.2f} s  over {args.repeats} runs"
    )
    print(f"dataset sha256: median {statistics.median(hashing):.2f} s")
    env = ToolMazeEnv(args.seed)
    tasks = env.tasks()
    for policy in POLICIES:
        t0 = time.perf_counter()
        for t in tasks:
            run_policy(env, t.task_id, policy)
        dt = time.perf_counter() - t0
        print(f"policy {policy:<10} {len(tasks)} episodes in {dt:.2f} s ({len(tasks) / dt:.0f} episodes/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
