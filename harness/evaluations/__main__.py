"""Command line of the evaluations that combine the fault library and the monitor.

python -m harness.evaluations validity --env WORLD [--json] [--seed 0] [--folds 0,1] [--per-fault 10]
    [--vocabulary paper|wide|both] [--examples N]
python -m harness.evaluations stabletoolbench --cache PATH/tool_response_cache [--json] [--train-fraction 0.5]
python -m harness.evaluations organic [--file PATH] [--env WORLD] [--domain airline] [--no-world] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, cast

from core import offline

PAPER = Path(__file__).resolve().parents[2].parent / "shared" / "paper" / "reported.json"


def _paper_validity() -> dict[str, Any] | None:
    try:
        return cast("dict[str, Any] | None", json.loads(PAPER.read_text())["validity_incident_faults"])
    except (OSError, ValueError, KeyError):
        return None


def _paper_organic() -> dict[str, Any] | None:
    """The paper's organic fire rate (StableToolBench's cached responses), labelled as the paper's."""
    rep = _paper_validity()
    if rep is not None and "organic_fire_rate_pct" in rep:
        return {
            "fire_rate_pct": float(rep["organic_fire_rate_pct"]),
            "responses": rep.get("organic_responses"),
            "source": rep.get("organic_source", "the paper's organic replay"),
        }
    try:  # the repository's copy of the published figures carries the rate alone
        pub = json.loads(
            (Path(__file__).resolve().parents[2] / "results" / "paper" / "outcome_monitors.json").read_text()
        )
        return {
            "fire_rate_pct": float(pub["fire_rates"]["organic_fire_rate_pct"]),
            "responses": None,
            "source": "the paper's organic replay of StableToolBench's cached responses",
        }
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _organic(args: argparse.Namespace) -> int:
    from core.protocol import WorldUnavailable
    from harness.evaluations.organic import OrganicError, format_report, organic, published

    options = {"domain": args.domain} if args.domain else {}
    try:
        world, path, hint = published(args.env, options)
        if args.file:
            path, hint = Path(args.file), "check --file"
        rep = organic(path, None if args.no_world else world, options, args.seed, args.split, hint)
    except (OrganicError, WorldUnavailable) as exc:  # missing data, a bad file, an unknown world or domain
        print(f"error: {exc}", file=sys.stderr)
        return 2
    paper = _paper_organic()
    rep["paper"] = None if paper is None else {**paper, "label": "the paper's figure, on other traffic"}
    print(json.dumps(rep, indent=1, default=str) if args.json else format_report(rep, paper))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m harness.evaluations",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = ap.add_subparsers(dest="cmd", required=True)
    val = sub.add_parser("validity", help="incident detection, clean fire rate and propagation")
    val.add_argument("--env", required=True, help="a discovered world (python -m environments list)")
    val.add_argument("--seed", type=int, default=0)
    val.add_argument("--env-seed", type=int, default=0)
    val.add_argument("--folds", help="comma-separated held-out folds (default: all)")
    val.add_argument("--per-fault", type=int, default=10)
    val.add_argument("--propagation-tasks", type=int, default=3)
    val.add_argument("--json", action="store_true")
    val.add_argument(
        "--vocabulary",
        default="both",
        choices=("paper", "wide", "both"),
        help="the registries' rule vocabulary: the paper's seven classes, the wide one, or both side by side",
    )
    val.add_argument(
        "--examples", type=int, default=0, metavar="N", help="missed applications kept per fault"
    )
    stb = sub.add_parser("stabletoolbench", help="organic fire rate on StableToolBench's response cache")
    stb.add_argument("--cache", required=True, help="the unpacked tool_response_cache folder")
    stb.add_argument("--train-fraction", type=float, default=0.5)
    stb.add_argument("--seed", type=int, default=0)
    stb.add_argument("--json", action="store_true")
    org = sub.add_parser("organic", help="organic fire rate on a world's published model trajectories")
    org.add_argument("--file", help="a trajectories file (default: the one the world's plugin names)")
    org.add_argument(
        "--env",
        help="the world whose published runs are read and whose own contracts also check them (default: "
        "the first discovered world that publishes any)",
    )
    org.add_argument("--domain", default="airline", help="the world's domain option ('' for none)")
    org.add_argument("--split", default="test", help="the world's split the runs' task ids index")
    org.add_argument("--no-world", action="store_true", help="only the arms cross-fitted on the traffic")
    org.add_argument("--seed", type=int, default=0)
    org.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    if args.cmd == "organic":
        return _organic(args)

    if args.cmd == "validity":
        from harness.evaluations.validity import StudyOptions, format_report, run_validity

        folds = tuple(int(x) for x in args.folds.split(",")) if args.folds else None
        opts = StudyOptions(
            env=args.env,
            env_seed=args.env_seed,
            seed=args.seed,
            folds=folds,
            per_fault=args.per_fault,
            propagation_tasks=args.propagation_tasks,
            vocabularies=("paper", "wide") if args.vocabulary == "both" else (args.vocabulary,),
            examples=max(0, args.examples),
        )
        try:
            rep = run_validity(opts)
        except (NotImplementedError, KeyError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps(rep, indent=1, default=str))
        else:
            print(format_report(rep, _paper_validity()))
        return 0
    from harness.evaluations.stabletoolbench import organic_fire_rate

    try:
        rep = organic_fire_rate(args.cache, args.train_fraction, args.seed)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(rep, indent=1))
    else:
        print(
            f"StableToolBench organic replay: {rep['checked']} checked of {rep['organic']} organic responses "
            f"({rep['apis']} APIs, {rep['tools']} tools); fired {rep['fired']} "
            f"({rep['fire_rate_pct'] if rep['fire_rate_pct'] is None else round(rep['fire_rate_pct'], 2)}%), "
            f"in {rep['tools_with_fires']} tools"
        )
        for name, row in rep["by_tool"].items():
            if row["fired"]:
                print(f"  {name:<50} {row['fired']:>5} / {row['checked']:<6} {row['fire_rate_pct']:.2f}%")
    return 0


if __name__ == "__main__":
    offline.apply()  # an entry point: offline unless a real model is asked for
    raise SystemExit(main())
