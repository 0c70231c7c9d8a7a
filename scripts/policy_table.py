"""Success of the scripted reference policies on ToolMaze, per complexity x perturbation mode.

    python scripts/policy_table.py                      # all policies, P0-P4, without and with monitor
    python scripts/policy_table.py --policies trusting --modes P0 --limit 20
    python scripts/policy_table.py --monitor none       # baseline only

Every figure printed here comes from scripted instruments (``scripted/<policy>``), not models.
The "monitor" arm wraps each result through the outcome monitor (full receipts, registries
cross-fitted so a workflow's own clean traces never train its contracts), when
``harness.monitor`` provides it; otherwise only the baseline is printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from environments.registry import get_environment  # noqa: E402
from harness.agents.policies.driver import monitor_interposers, run_grid  # noqa: E402

POLICIES = ("trusting", "receipt-aware", "skeptic", "noisy")
MODES = ("P0", "P1", "P2", "P3", "P4")


def print_grid(title: str, grid: dict) -> None:
    cs = sorted({c for c, _ in grid})
    ms = sorted({m for _, m in grid})
    print(f"\n{title}")
    print("      " + "".join(f"{m:>10}" for m in ms) + f"{'all':>10}")
    for c in [*cs, "all"]:
        cells = []
        for m in [*ms, "all"]:
            ok = sum(v[0] for (ci, mi), v in grid.items() if c in (ci, "all") and m in (mi, "all"))
            n = sum(v[1] for (ci, mi), v in grid.items() if c in (ci, "all") and m in (mi, "all"))
            cells.append(f"{100 * ok / n:9.1f}%" if n else f"{'-':>10}")
        print(f"{c:>6}" + "".join(cells))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policies", nargs="+", default=list(POLICIES))
    ap.add_argument("--modes", nargs="+", default=list(MODES))
    ap.add_argument("--monitor", choices=("both", "none", "only"), default="both")
    ap.add_argument("--variant", default="full", choices=("full", "stripped", "generic"),
                    help="receipt variant of the monitor arm")
    ap.add_argument("--delivery", default="immediate", choices=("immediate", "deferred"))
    ap.add_argument("--limit", type=int, default=None, help="episodes per (C, P) cell")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    env = get_environment("toolmaze")
    arms: list[tuple[str, object]] = []
    if args.monitor != "only":
        arms.append(("baseline (no monitor)", None))
    if args.monitor != "none":
        try:
            factory = monitor_interposers(env, args.variant, args.delivery, seed=args.seed)
        except ImportError as exc:
            print(f"monitor arm skipped: {exc}")
        else:
            arms.append((f"monitor ({args.variant}, {args.delivery})", factory))
    print("ToolMaze success rate (%) of scripted reference policies [instruments, not models]")
    for policy in args.policies:
        for arm, factory in arms:
            t0 = time.perf_counter()
            grid = run_grid(policy, env, where={"mode": args.modes}, seed=args.seed, interposers_for=factory,
                            delivery=args.delivery if factory else "immediate", limit=args.limit)
            n = sum(v[1] for v in grid.values())
            print_grid(f"scripted/{policy}: {arm}  [{n} episodes, {time.perf_counter() - t0:.1f} s]", grid)


if __name__ == "__main__":
    main()
