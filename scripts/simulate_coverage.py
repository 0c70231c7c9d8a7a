"""Print the statistical validation figures: CI coverage and null rejection on simulated clustered studies.

    .venv/bin/python scripts/simulate_coverage.py [--studies 2000] [--resamples 10000] [--seed 0] [--quick]

The test suite runs a smaller version (1,000 studies x 2,000 resamples); this is the fuller one. Also
prints the iid paired bootstrap's coverage beside the task-clustered one, and coverage with fewer
workflows (bootstrap CIs under-cover with few clusters). Figures only: nothing is asserted here.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.simulate import NULL_DESIGN, Design, coverage, null_rejection  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--studies", type=int, default=2_000)
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--quick", action="store_true", help="1,000 studies x 2,000 resamples (the test suite's size)"
    )
    args = ap.parse_args()
    studies, resamples = (1_000, 2_000) if args.quick else (args.studies, args.resamples)
    d = Design()
    print(
        f"design: {d.n_workflows} workflows x {d.min_pairs}-{d.max_pairs} pairs, truth {100 * d.truth:.2f} points"
    )
    for label, design, method in (
        ("task-clustered bootstrap, 80 workflows", d, "cluster"),
        ("iid paired bootstrap, 80 workflows", d, "iid"),
        ("task-clustered bootstrap, 20 workflows", replace(d, n_workflows=20), "cluster"),
    ):
        t = time.perf_counter()
        r = coverage(design, studies, resamples, seed=args.seed, method=method)
        print(f"{label}: coverage {100 * r['coverage']:.1f}% over {studies} studies x {resamples} resamples, "
              f"mean width {r['mean_width_points']:.1f} points ({time.perf_counter() - t:.1f} s)")  # fmt: skip
    t = time.perf_counter()
    r = null_rejection(NULL_DESIGN, max(studies, 2_000), seed=args.seed)
    print(f"true null, alpha 0.05, {r['n_studies']} studies: exact McNemar {100 * r['mcnemar']:.1f}%, "
          f"mid-p {100 * r['midp']:.1f}%, cluster sign-flip {100 * r['signflip']:.1f}% "
          f"({time.perf_counter() - t:.1f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
