"""Command line: regenerate tables and figures from a run's records, without rerunning anything.

    python -m analysis figures --run DIR [--out DIR]   # every table (CSV + Markdown) and figure (PNG + PDF)
    python -m analysis DIR                              # alias of ``figures --run DIR``
    python -m analysis table1 --run DIR                 # print Table 1 (Markdown) and write table1.csv/.md
    python -m analysis ablations --run DIR              # print the ablation table and write it
    python -m analysis report --run DIR [--out FILE]    # one self-contained HTML page (default DIR/report.html)
    python -m analysis inspect-export --run DIR --out DIR  # inspect_ai eval logs (needs the 'inspect' extra)
    python -m analysis design --pairs N [--discordance D] [--power P] [--alpha A]
                                                        # design-stage MDE before a run (no records)
    python -m analysis design --run DIR [--effect POINTS] [--trials K ...]
                                                        # tasks x trials needed, from a run's own flip rates

Never imports litellm or the runner: records are the whole interface.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path

import pandas as pd

from analysis import endpoints, paper, tables
from analysis.load import ENDPOINTS, LoadReport, has_endpoint, load_records, load_world
from analysis.stats import design_mde
from analysis.view import resolve

COMMANDS = ("figures", "table1", "ablations", "design", "report", "inspect-export")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m analysis", description=__doc__.splitlines()[0])
    p.add_argument("command", choices=COMMANDS)
    p.add_argument("--run", default=None, help="run folder holding episodes.jsonl (all but design)")
    p.add_argument(
        "--pairs", type=int, action="append", default=[], help="design: pairs (or clusters); repeatable"
    )
    p.add_argument(
        "--discordance",
        type=float,
        default=None,
        help="design: planned (wins+losses)/n; default: the paper's, per model and pooled",
    )
    p.add_argument("--effect", type=float, default=None,
                   help="design --run: the effect to detect, in points (default: the run's own delta)")  # fmt: skip
    p.add_argument("--trials", type=int, action="append", default=[],
                   help="design --run: trials per task to plan for; repeatable (default 1,2,3,4,5,8,10 and the run's)")  # fmt: skip
    p.add_argument("--power", type=float, default=0.8, help="design: power")
    p.add_argument("--alpha", type=float, default=0.05, help="design: two-sided alpha")
    p.add_argument(
        "--out", default=None, help="where to write (default: the run folder; report: DIR/report.html)"
    )
    p.add_argument("--study", default=None, help="restrict Table 1 and ablations to one study")
    p.add_argument(
        "--replication", action="append", default=[], help="a model shown in Table 1 but not pooled"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of every bootstrap and sign-flip draw")
    p.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples")
    p.add_argument("--flips", type=int, default=100_000, help="sign flips when the exact test does not apply")
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                   help="processes computing tables and drawing figures (the same files either way; 1: all in this process)")  # fmt: skip
    return p


def load(run: str, report: LoadReport) -> pd.DataFrame:
    """The run's records; a torn or changed records file is said on stderr, one ``warning:`` line each."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # said below, whatever the warning filters say
        records = load_records(run, report)
    warn(report)
    return records


def warn(report: LoadReport) -> None:
    for said in report.warnings():
        print(f"warning: {said}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
        argv = ["figures", "--run", *argv]  # the alias: python -m analysis DIR
    args = _parser().parse_args(argv)
    if args.command in ("report", "inspect-export"):
        return _export(args)
    if args.command == "design":
        return design_from_run(args) if args.run else design(args)
    if not args.run:
        print(f"error: {args.command} needs --run DIR (a run folder holding episodes.jsonl)", file=sys.stderr)
        return 2
    report = LoadReport()
    try:
        records = load(args.run, report)
        view = resolve(load_world(args.run), records)  # world.json: endpoint, unit, the paper's figures
    except (OSError, ValueError) as exc:  # no records, a corrupt line, a record without a core key
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out or args.run)
    kw = {"seed": args.seed, "n_resamples": args.resamples, "n_flips": args.flips, "world": view}
    if report.missing_keys:
        print(f"note: records lack optional key(s) {report.missing_keys}", file=sys.stderr)
    if args.command == "table1":
        for endpoint in ENDPOINTS:
            if endpoint != "success" and not has_endpoint(records, endpoint):
                print(f"note: no record carries {endpoint}: no {tables.TABLE1_NAMES[endpoint]} table")
                continue
            t = tables.table1(records, args.replication, args.study, endpoint=endpoint, **kw)
            t.write(out)
            print(t.to_markdown())
        return 0
    if args.command == "ablations":
        t = tables.ablations(records, study=args.study, **kw)
        t.write(out)
        print(t.to_markdown())
        return 0
    from analysis.figures import all_figures  # matplotlib only when drawing

    ts = tables.all_tables(records, args.replication, args.study, workers=args.workers, **kw)
    written = [p for t in ts for p in t.write(out)] + all_figures(ts, out, workers=args.workers)
    written += endpoints.write(
        records, args.run, out, seed=args.seed, n_resamples=args.resamples, n_flips=args.flips
    )
    for p in written:
        print(p)
    return 0


def _export(args: argparse.Namespace) -> int:
    """The report and the inspect export: bad input is one line on stderr and exit 2."""
    from analysis.report import ReportInputError

    try:
        if args.command == "report":
            from analysis.report import build_report

            loaded = LoadReport()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # said by warn(), once
                path = build_report(args.run, args.out, args.replication, args.study, seed=args.seed,
                                    n_resamples=args.resamples, n_flips=args.flips, report=loaded)  # fmt: skip
            warn(loaded)
            print(path)
            return 0
        from analysis.export_inspect import InspectMissingError, export_run

        try:
            paths = export_run(args.run, args.out or str(Path(args.run) / "inspect"))
        except InspectMissingError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        for p in paths:
            print(p)
        return 0
    except ReportInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def design_from_run(args: argparse.Namespace) -> int:
    """Tasks (and episodes) needed per number of trials at the given power, from the run's own variance:
    between tasks and trial to trial (its flip rates). Needs a run with at least two trials."""
    from analysis import trials

    bad = [k for k in args.trials if k < 1]
    if (
        bad
        or not (0 < args.power < 1 and 0 < args.alpha < 1)
        or (args.effect is not None and not 0 < abs(args.effect) <= 100)
    ):
        print(f"error: trials must be >= 1, effect in (0, 100] points, power and alpha in (0, 1); got trials={bad or ''} "
              f"effect={args.effect} power={args.power} alpha={args.alpha}", file=sys.stderr)  # fmt: skip
        return 2
    report = LoadReport()
    try:
        records = load(args.run, report)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    records = records if args.study is None else records[records["study"] == args.study]
    if not trials.has_trials(records):
        print(f"error: {args.run} holds one trial per pair, so its trial-to-trial variance is unknown: rerun the "
              "study with trials=2 or more into the same folder (the first trial is kept), or plan with "
              "--pairs N --discordance D", file=sys.stderr)  # fmt: skip
        return 2
    pairs = trials.paired_trials(records)
    if not len(pairs):
        print(f"error: {args.run} has no scored monitor/baseline pairs to plan from", file=sys.stderr)
        return 2
    effect = args.effect / 100 if args.effect is not None else None
    rows = pd.DataFrame(
        trials.design_rows(pairs, effect, args.trials or trials.DESIGN_TRIALS, args.power, args.alpha)
    )
    flips = pd.DataFrame(trials.flip_rows(trials.task_counts(records), pairs))
    print(f"tasks needed to detect the effect with power {args.power:g} (two-sided alpha {args.alpha:g}), from "
          f"{args.run}'s {trials.n_trials(records)} trials per pair: between-task and trial-to-trial spread of the "
          "paired difference; a normal approximation (optimistic for few tasks)")  # fmt: skip
    print(tables.markdown_table(rows))
    print("\nthe run's flip rates (tasks whose outcome differs across trials):")
    print(tables.markdown_table(flips))
    return 0


def design(args: argparse.Namespace) -> int:
    """Print the design-stage MDE for each --pairs at the planned (or the paper's) discordance."""
    if not args.pairs:
        print("error: design needs --pairs N (the study's number of pairs, or of clusters; repeat for several) "
              "or --run DIR (a run with trials: tasks x trials from its own flip rates)", file=sys.stderr)  # fmt: skip
        return 2
    if args.discordance is not None:
        plans = {"planned": args.discordance}
    else:
        plans = {f"paper {m}": d for m, d in paper.paper_discordance().items()}
    bad = [n for n in args.pairs if n < 1] + [d for d in plans.values() if not 0 < d <= 1]
    if bad or not (0 < args.power < 1 and 0 < args.alpha < 1):
        print(f"error: pairs must be >= 1, discordance in (0, 1], power and alpha in (0, 1); got {bad or ''} "
              f"power={args.power} alpha={args.alpha}", file=sys.stderr)  # fmt: skip
        return 2
    print(f"design-stage MDE (points): exact McNemar, power {args.power:g}, two-sided alpha {args.alpha:g}; "
          "fixed before a run from its size and a planned discordance")  # fmt: skip
    print("| discordance source | discordance | " + " | ".join(f"{n} pairs" for n in args.pairs) + " |")
    print("|---|---|" + "---|" * len(args.pairs))
    for label, d in plans.items():
        cells = []
        for n in args.pairs:
            m = design_mde(n, d, args.alpha, args.power)
            cells.append("not reached" if m != m else f"{100 * m:.1f}")
        print(f"| {label} | {d:.3f} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
