"""Command line of the BFCL multi-turn world (bad input: one line on stderr, exit 2).

    python -m environments.bfcl fetch [--dest DIR]            # pip download the pinned wheel, check sha256
    python -m environments.bfcl replay [--category C] [--task ID] [--json]
    python -m environments.bfcl describe [--json]             # categories, classes, tools, reads and writes
    python -m environments.bfcl failures RUN_DIR [--json]     # a faults run's failures: dropped, tool error, silent

``replay`` prints ``N/M ground truths pass`` (the package's checker on each task's ground truth), whether
the world's grade of the same calls played through an episode agrees on every task, and how many tasks
fail once their last ground-truth call is dropped; exit 1 when a ground truth fails or a grade disagrees.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn

from environments.bfcl.data import CATEGORIES


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m environments.bfcl", description="BFCL multi-turn world")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    f = sub.add_parser("fetch", help="download the pinned bfcl-eval wheel with pip and check its sha256")
    f.add_argument("--dest", help="data folder (default: $BFCL_DATA or data/bfcl)")
    r = sub.add_parser("replay", help="replay ground truths: the package's checker and the world's grade")
    r.add_argument("--category", choices=[*CATEGORIES, "all"], default="all")
    r.add_argument("--task", help="one task id (e.g. multi_turn_base_0)")
    r.add_argument("--json", action="store_true")
    d = sub.add_parser("describe", help="categories, classes and tools")
    d.add_argument("--json", action="store_true")
    f = sub.add_parser(
        "failures", help="a faults run's failed episodes: dropped argument, tool error, silent"
    )
    f.add_argument("run", help="the run folder (results/bfcl-faults/<run>)")
    f.add_argument("--json", action="store_true")
    return p


def _failures(args: argparse.Namespace) -> int:
    from pathlib import Path

    from environments.bfcl.report import failures, render

    run = Path(args.run)
    if not (run / "episodes.jsonl").is_file():
        sys.stderr.write(f"bfcl: error: no episodes.jsonl in {run}\n")
        return 2
    table = failures(run)
    print(json.dumps(table, indent=1) if args.json else render(table))
    return 0


def _fetch(args: argparse.Namespace) -> int:
    from environments.bfcl.fetch import fetch

    path = fetch(args.dest)
    print(f"bfcl-eval wheel verified: {path}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from environments.bfcl.replay import replay

    cats = CATEGORIES if args.category == "all" else (args.category,)
    reports = [replay(c, ids=[args.task] if args.task else None) for c in cats]
    rows = [r for rep in reports for r in rep.rows]
    if args.task and not rows:
        sys.stderr.write(f"bfcl: error: no task {args.task!r} in {', '.join(cats)}\n")
        return 2
    n, ok = len(rows), sum(r.package for r in rows)
    agree = sum(r.package == r.world for r in rows)
    droppable = sum(r.dropped is not None for r in rows)
    dropped_fail = sum(r.dropped is False for r in rows)
    if args.json:
        print(
            json.dumps(
                {
                    "categories": {
                        rep.category: {"pass": rep.passed, "tasks": len(rep.rows), "agree": rep.agree}
                        for rep in reports
                    },
                    "pass": ok,
                    "tasks": n,
                    "agree": agree,
                    "dropped_last_fail": dropped_fail,
                    "droppable": droppable,
                    "disagree": [r.task_id for r in rows if r.package != r.world and not r.early],
                    "early_withheld_calls": {r.task_id: list(r.early) for r in rows if r.early},
                },
                indent=1,
            )
        )
    else:
        for rep in reports:
            print(f"{rep.category}: {rep.passed}/{len(rep.rows)} pass, world agrees on {rep.agree}")
        print(f"{ok}/{n} ground truths pass")
        print(f"the world's grade agrees with the package's on {agree}/{n}")
        print(f"without its last call: {dropped_fail}/{droppable} fail")
        for r in rows:
            if r.package != r.world or not r.package:
                why = (
                    f" (its ground truth calls {', '.join(r.early)} before the turn that adds it)"
                    if r.early
                    else ""
                )
                print(f"  {r.task_id}: package {r.package}, world {r.world} {r.error}{why}")
    explained = sum(len(rep.explained) for rep in reports)
    return 0 if ok == n and agree + explained == n else 1


def _describe(args: argparse.Namespace) -> int:
    from environments.bfcl.data import entries
    from environments.bfcl.tools import CLASSES, catalog

    cat = catalog()
    out = {
        "categories": {c: len(entries(c)) for c in CATEGORIES},
        "classes": {c: sorted(t.name for t in cat.values() if t.domain == c) for c in CLASSES},
        "tools": len(cat),
        "writes": sorted(t.name for t in cat.values() if t.category == "write"),
    }
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"categories: {', '.join(f'{c} {n}' for c, n in out['categories'].items())}")
    print(
        f"{out['tools']} tools in {len(CLASSES)} classes; {len(out['writes'])} writes (state changed by a base ground truth)"
    )
    for c, names in out["classes"].items():
        print(f"  {c} ({len(names)}): {', '.join(names)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    from environments.bfcl.fetch import FetchError
    from environments.bfcl.paths import DataError

    args = build_parser().parse_args(argv)
    try:
        return {"fetch": _fetch, "replay": _replay, "describe": _describe, "failures": _failures}[
            args.command
        ](args)
    except (DataError, FetchError) as exc:
        sys.stderr.write(f"bfcl: error: {exc}\n")
        return 2
    except BrokenPipeError:
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
