"""Command line: ``describe`` (counts and the dataset sha256) and ``traces`` (oracle executions as JSONL).

    python -m environments.toolmaze describe [--json] [--seed 0]
    python -m environments.toolmaze traces --mode P0 [--complexity C2] [--out FILE.jsonl] [--seed 0]
    python -m environments.toolmaze policies [--json] [--seed 0]   (test policies, both endpoints per cell)

P0 traces are the clean oracle execution of every valid path of every task (``path_id`` tells
them apart); P1-P4 traces are the oracle policy's run, with ``perturbed`` on each line.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from typing import Any

from environments.toolmaze.catalog import catalog_specs
from environments.toolmaze.dag import COMPLEXITIES
from environments.toolmaze.env import ToolMazeEnv
from environments.toolmaze.faults import MODES
from environments.toolmaze.traces import traces


def describe(env: ToolMazeEnv) -> dict[str, Any]:
    insts = list(env.dataset.instances.values())
    specs = catalog_specs()
    cells = collections.Counter((i.base.complexity, i.mode) for i in insts)
    alt_types = collections.Counter(
        f"{i.base.complexity}:{s.alt_type}"
        for i in insts
        if i.mode == "P0"
        for s in i.base.slots
        if s.substitutable
    )
    faults = collections.Counter(f.kind for i in insts for f in i.faults.values())
    return {
        "env": "toolmaze",
        "seed": env.seed,
        "instances": len(insts),
        "base_tasks": len({i.base.workflow_id for i in insts}),
        "cells": {c: {m: cells[(c, m)] for m in MODES} for c in COMPLEXITIES},
        "tools": len(specs) - 1,
        "tools_with_finish": len(specs),
        "categories": dict(collections.Counter(s.kind for s in specs.values())),
        "domains": dict(collections.Counter(s.domain for s in specs.values() if s.kind != "Terminal")),
        "substitutable_slots": dict(sorted(alt_types.items())),
        "valid_paths_per_task": {
            c: round(
                sum(len(i.base.paths) for i in insts if i.base.complexity == c and i.mode == "P0") / 100, 2
            )
            for c in COMPLEXITIES
        },
        "fault_payloads": dict(sorted(faults.items())),
        "sha256": env.dataset.sha256(),
    }


def _print_describe(d: dict[str, Any]) -> None:
    print(f"ToolMaze (offline re-implementation), seed {d['seed']}")
    print(f"instances {d['instances']} = base tasks {d['base_tasks']} x modes {len(MODES)}")
    print("        " + "  ".join(f"{m:>4}" for m in MODES))
    for c, row in d["cells"].items():
        print(f"  {c}    " + "  ".join(f"{row[m]:>4}" for m in MODES))
    print(f"tools {d['tools']} (+ finish); categories {d['categories']}")
    print(f"domains {d['domains']}")
    print(f"substitutable slots {d['substitutable_slots']}")
    print(f"valid paths per task {d['valid_paths_per_task']}")
    print(f"fault payloads {d['fault_payloads']}")
    print(f"sha256 {d['sha256']}")


def outcome_rate(outcomes: list) -> float:
    """Share of runs whose outcome was correct (``details["outcome_correct"]``)."""
    return (
        sum(bool(o.details.get("outcome_correct")) for o in outcomes) / len(outcomes)
        if outcomes
        else float("nan")
    )


def policy_table(env: ToolMazeEnv) -> dict[str, dict[str, dict[str, dict[str, float]]]]:
    """{policy: {complexity: {mode: {"tsr", "prr", "rc", "outcome"}}}} over every instance.

    ``tsr`` is the process judge (the paper's endpoint), ``outcome`` the outcome endpoint."""
    from environments.toolmaze.metrics import prr, rc, tsr
    from environments.toolmaze.policies import POLICIES, run_policy

    table: dict = {}
    for policy in POLICIES:
        for c in COMPLEXITIES:
            for m in MODES:
                outs = [run_policy(env, t.task_id, policy)[0] for t in env.tasks(f"{c}/{m}")]
                cell = {"tsr": tsr(outs), "prr": prr(outs), "rc": rc(outs), "outcome": outcome_rate(outs)}
                table.setdefault(policy, {}).setdefault(c, {})[m] = {k: round(v, 4) for k, v in cell.items()}
    return table


def _print_table(table: dict) -> None:
    for policy, rows in table.items():
        print(f"{policy}: process TSR% (PRR%, RC) | outcome-correct% per complexity x mode")
        print("       " + "".join(f"{m:>30}" for m in MODES))
        for c, row in rows.items():
            cells = []
            for m in MODES:
                x = row[m]
                p = "  -  " if x["prr"] != x["prr"] else f"{100 * x['prr']:5.1f}"
                cells.append(f"{100 * x['tsr']:5.1f} ({p}, {x['rc']:.2f}) | {100 * x['outcome']:5.1f}")
            print(f"  {c}   " + "".join(f"{v:>30}" for v in cells))
    implicit = [
        (p, x)
        for p, rows in table.items()
        for row in rows.values()
        for m, x in row.items()
        if m in ("P3", "P4")
    ]
    for policy in table:
        cells = [x for p, x in implicit if p == policy]
        oc = sum(x["outcome"] for x in cells) / len(cells)
        tsr_ = sum(x["tsr"] for x in cells) / len(cells)
        print(
            f"{policy}: over all P3/P4 instances, process {100 * tsr_:.1f}%, outcome-correct {100 * oc:.1f}%"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m environments.toolmaze")
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("describe", help="counts per complexity x mode, tools, domains, dataset sha256")
    d.add_argument("--json", action="store_true")
    d.add_argument("--seed", type=int, default=0)
    t = sub.add_parser("traces", help="oracle executions, one JSON line per tool call")
    t.add_argument("--mode", choices=MODES, default="P0")
    t.add_argument("--complexity", choices=COMPLEXITIES)
    t.add_argument("--out")
    t.add_argument("--seed", type=int, default=0)
    pt = sub.add_parser(
        "policies",
        help="process TSR/PRR/RC and outcome-correct rate of the test policies per complexity x mode",
    )
    pt.add_argument("--json", action="store_true")
    pt.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    env = ToolMazeEnv(seed=args.seed)
    if args.cmd == "policies":
        table = policy_table(env)
        print(json.dumps(table, indent=1) if args.json else "", end="")
        if not args.json:
            _print_table(table)
        return 0
    if args.cmd == "describe":
        info = describe(env)
        if args.json:
            print(json.dumps(info, indent=1))
        else:
            _print_describe(info)
        return 0
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout
    try:
        n = 0
        for line in traces(env, args.mode, args.complexity):
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
            n += 1
    finally:
        if args.out:
            out.close()
            print(f"wrote {n} lines to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
