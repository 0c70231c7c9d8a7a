"""Command line: ``describe`` (counts and the dataset sha256) and ``traces`` (oracle executions as JSONL).

    python -m environments.toolmaze describe [--json] [--seed 0]
    python -m environments.toolmaze traces --mode P0 [--complexity C2] [--out FILE.jsonl] [--seed 0]

P0 traces are the clean oracle execution of every valid path of every task (``path_id`` tells
them apart); P1-P4 traces are the oracle policy's run, with ``perturbed`` on each line.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from collections.abc import Iterator
from typing import Any

from environments.toolmaze.catalog import catalog_specs
from environments.toolmaze.dag import COMPLEXITIES
from environments.toolmaze.env import ToolMazeEnv
from environments.toolmaze.faults import MODES


def describe(env: ToolMazeEnv) -> dict[str, Any]:
    insts = list(env.dataset.instances.values())
    specs = catalog_specs()
    cells = collections.Counter((i.base.complexity, i.mode) for i in insts)
    alt_types = collections.Counter(
        f"{i.base.complexity}:{s.alt_type}" for i in insts if i.mode == "P0" for s in i.base.slots if s.substitutable)
    faults = collections.Counter(f.kind for i in insts for f in i.faults.values())
    return {
        "env": "toolmaze",
        "seed": env.seed,
        "instances": len(insts),
        "base_tasks": len({i.base.workflow_id for i in insts}),
        "cells": {c: {m: cells[(c, m)] for m in MODES} for c in COMPLEXITIES},
        "tools": len(specs) - 1,
        "tools_with_finish": len(specs),
        "categories": dict(collections.Counter(s.category for s in specs.values())),
        "domains": dict(collections.Counter(s.domain for s in specs.values() if s.category != "Terminal")),
        "substitutable_slots": dict(sorted(alt_types.items())),
        "valid_paths_per_task": {c: round(sum(len(i.base.paths) for i in insts if i.base.complexity == c
                                              and i.mode == "P0") / 100, 2) for c in COMPLEXITIES},
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


def traces(env: ToolMazeEnv, mode: str, complexity: str | None = None) -> Iterator[dict[str, Any]]:
    from environments.toolmaze.policies import run_policy

    split = mode if complexity is None else f"{complexity}/{mode}"
    for task in env.tasks(split):
        inst = env.instance(task.task_id)
        head = {"task_id": task.task_id, "workflow_id": task.workflow_id, "complexity": inst.base.complexity,
                "mode": mode}
        if mode == "P0":
            for path in inst.base.paths:
                for step in path.trace:
                    yield {**head, "tool": step["tool"], "arguments": step["arguments"], "result": step["result"],
                           "status": step["status"], "path_id": path.path_id, "step": step["step"]}
        else:
            _, history = run_policy(env, task.task_id, "oracle")
            for step, (call, res) in enumerate(history):
                if call.name == "finish":
                    continue
                yield {**head, "tool": call.name, "arguments": dict(call.arguments), "result": res.content,
                       "status": res.status, "path_id": None, "step": step, "perturbed": res.meta["perturbed"]}


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
    args = ap.parse_args(argv)
    env = ToolMazeEnv(seed=args.seed)
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
