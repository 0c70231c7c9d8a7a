"""Success of the scripted reference policies on ToolMaze, per complexity x perturbation mode.

    python scripts/policy_table.py                      # all policies, P0-P4, without and with monitor
    python scripts/policy_table.py --policies trusting --modes P0 --limit 20
    python scripts/policy_table.py --monitor none       # baseline only

Every figure printed here comes from scripted instruments, not models: the world's own test
policies (oracle, naive, retry_once; they read hidden task data) and the harness's scripted
players (``scripted/<policy>``, through the agent loop). Each cell shows two endpoints:
"process" is ToolMaze's judge (``Outcome.success``, the paper's endpoint) and "outcome" is
``Outcome.details["outcome_correct"]`` (the right Action, no corrupted value, or a correct abort).
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

from analysis.tables import POLICY_CAPTIONS  # noqa: E402
from core.worlds import get_environment  # noqa: E402
from harness.run.grid import monitor_interposers, run_policy_episode  # noqa: E402

WORLD_POLICIES = ("oracle", "naive", "retry_once")  # the world's test policies (no monitor arm)
POLICIES = ("trusting", "receipt-aware", "skeptic", "noisy")
MODES = ("P0", "P1", "P2", "P3", "P4")
# One sentence per world test policy: the behaviour that makes its figures what they are.
WORLD_CAPTIONS: dict[str, str] = {
    "oracle": "reads the hidden fault flags: retries a transient fault, switches route on a permanent one, aborts "
    "in C1 permanent modes; the ceiling, not a player.",
    "naive": "follows the shortest path and trusts every result (stops on an error); the floor: what a silent "
    "fault costs with no detection at all.",
    "retry_once": "the named control: re-reads every read tool once and trusts the second answer, detecting "
    "nothing; it shows what a blind retry buys under each endpoint (transient faults only).",
}


def caption(policy: str) -> str:
    """The one-sentence caption of a policy (world test policy or scripted player)."""
    text = WORLD_CAPTIONS.get(policy) or POLICY_CAPTIONS.get(policy)
    return f"  {policy}: {text}" if text else ""


def both_grid(env, modes, limit, verdict) -> dict[tuple[str, str], tuple[int, int, int]]:
    """(complexity, mode) -> (process passes, outcome-correct runs, episodes); ``verdict(task_id)`` -> Outcome."""
    grid: dict[tuple[str, str], list[int]] = {}
    for task in env.tasks():
        cell = (str(task.strata["complexity"]), str(task.strata["mode"]))
        if cell[1] not in modes:
            continue
        counts = grid.setdefault(cell, [0, 0, 0])
        if limit is not None and counts[2] >= limit:
            continue
        outcome = verdict(task.task_id)
        counts[0] += int(outcome.success)
        counts[1] += int(bool(outcome.details.get("outcome_correct")))
        counts[2] += 1
    return {cell: (a, b, n) for cell, (a, b, n) in sorted(grid.items())}


def print_grid(title: str, grid: dict) -> None:
    cs = sorted({c for c, _ in grid})
    ms = sorted({m for _, m in grid})
    print(f"\n{title}\n  process% / outcome%")
    print("      " + "".join(f"{m:>14}" for m in ms) + f"{'all':>14}")
    for c in [*cs, "all"]:
        cells = []
        for m in [*ms, "all"]:
            sel = [v for (ci, mi), v in grid.items() if c in (ci, "all") and m in (mi, "all")]
            n = sum(v[2] for v in sel)
            proc, out = (100 * sum(v[0] for v in sel) / n, 100 * sum(v[1] for v in sel) / n) if n else (0, 0)
            cells.append(f"{proc:6.1f}/{out:5.1f}" if n else f"{'-':>14}")
        print(f"{c:>6}" + "".join(f"{x:>14}" for x in cells))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policies", nargs="+", default=[*WORLD_POLICIES, *POLICIES])
    ap.add_argument("--modes", nargs="+", default=list(MODES))
    ap.add_argument("--monitor", choices=("both", "none", "only"), default="both")
    ap.add_argument(
        "--variant",
        default="full",
        choices=("full", "stripped", "generic"),
        help="receipt variant of the monitor arm",
    )
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
    print("  endpoints: process = success (process judge, the paper's endpoint); outcome = outcome correct")
    unknown = [p for p in args.policies if p not in WORLD_POLICIES and p not in POLICIES]
    if unknown:
        print(f"error: unknown policy {unknown}; choose from {[*WORLD_POLICIES, *POLICIES]}", file=sys.stderr)
        raise SystemExit(2)
    for policy in args.policies:
        if policy in WORLD_POLICIES:
            from environments.toolmaze.policies import run_policy

            t0 = time.perf_counter()
            grid = both_grid(
                env, args.modes, args.limit, lambda tid, p=policy: run_policy(env, tid, p, args.seed)[0]
            )
            n = sum(v[2] for v in grid.values())
            print_grid(f"world test policy {policy}  [{n} episodes, {time.perf_counter() - t0:.1f} s]", grid)
            print(caption(policy))
            continue
        for arm, factory in arms:
            t0 = time.perf_counter()

            def verdict(tid: str, policy: str = policy, factory=factory):
                chain = factory(env.task(tid)) if factory else ()
                return run_policy_episode(
                    policy,
                    env,
                    tid,
                    seed=args.seed,
                    interposers=chain,
                    delivery=args.delivery if factory else "immediate",
                )[1]

            grid = both_grid(env, args.modes, args.limit, verdict)
            n = sum(v[2] for v in grid.values())
            print_grid(f"scripted/{policy}: {arm}  [{n} episodes, {time.perf_counter() - t0:.1f} s]", grid)
            print(caption(policy))


if __name__ == "__main__":
    main()
