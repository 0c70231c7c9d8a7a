"""`make replicate-table1`: run the Table 1 study, analyse it, print Table 1, check the frozen copy.

Steps, each a separate process so a failure says where it happened:
  1. python -m harness.run study=table1 ...   (episodes -> <out>/episodes.jsonl; resumes)
  2. python -m analysis figures --run <out>   (tables and figures from records alone)
  3. print <out>/table1.md (success, the process judge: the paper's endpoint) and table1_outcome.md
     (outcome correct); compare both CSVs with results/frozen/table1-scripted/ when the run used the
     default scripted models and the full frozen list.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FROZEN = ROOT / "results" / "frozen" / "table1-scripted"
# success (the process judge, the paper's endpoint) and outcome correct, same columns
TABLES: tuple[str, ...] = ("table1", "table1_outcome")


def hydra_list(items: list[str]) -> str:
    return "[" + ",".join(f"'{i}'" for i in items) + "]"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="", help="comma list of conf/model names or litellm model strings")
    ap.add_argument("--limit", default="", help="first N workflows of the frozen list (smoke run)")
    ap.add_argument("--out", default="", help="run folder; rerunning with the same folder resumes")
    ap.add_argument("--replay", default="", help="a recorded cache (SQLite) to replay strictly")
    ap.add_argument("--progress", default="true")
    args = ap.parse_args(argv)
    if args.limit and not (args.limit.isdigit() and int(args.limit) >= 1):
        print(
            f"error: LIMIT must be a whole number of workflows (1 or more), got {args.limit!r}",
            file=sys.stderr,
        )
        return 2

    models = [m.strip() for m in args.models.split(",") if m.strip()]
    default_run = not models and not args.limit
    out = (
        Path(args.out) if args.out else ROOT / "results" / "table1" / ("scripted" if not models else "models")
    )
    overrides = ["study=table1", f"out={out}", f"progress={args.progress}"]
    if models:
        overrides.append(f"models={hydra_list(models)}")
        if not args.replay and any(not m.startswith("scripted") for m in models):
            # real models: keep every response so the run can be replayed exactly later
            overrides += ["cache.mode=record", f"cache.path={out / 'llm_cache.sqlite'}"]
    if args.limit:
        overrides.append(f"limit={int(args.limit)}")
    if args.replay:
        replay = Path(args.replay)
        if not replay.exists():
            print(
                f"REPLAY={replay}: no such cache file. Point REPLAY at the llm_cache.sqlite of a recorded run."
            )
            return 2
        overrides += ["cache.mode=replay", f"cache.path={replay}"]

    steps = [
        [sys.executable, "-m", "harness.run", *overrides],
        [sys.executable, "-m", "analysis", "figures", "--run", str(out)],
    ]
    for cmd in steps:
        print("+", " ".join(cmd[1:]), flush=True)
        rc = run_step(cmd)
        if rc in (130, 143):  # stopped by a signal: the step said what is recorded and how to go on
            return rc
        if rc != 0:
            print(f"step failed (exit {rc}): {' '.join(cmd[1:])}", file=sys.stderr)
            return rc

    print()
    for name in TABLES:
        table_md = out / f"{name}.md"
        if table_md.exists():
            print(table_md.read_text())
        else:
            print(f"({name}.md not written: the records carry no outcome_correct)\n")
    print(f"run folder: {out}")
    if default_run:
        return report_frozen(out)
    print("(frozen comparison skipped: it applies to the default scripted models on the full list)")
    return 0


def run_step(cmd: list[str]) -> int:
    """The step's exit status. A Ctrl-C reaches the step too (one process group): it stops on its own
    and says what is recorded, so this waits for it instead of killing it or printing a traceback."""
    proc = subprocess.Popen(cmd, cwd=ROOT)
    while True:
        try:
            return proc.wait()
        except KeyboardInterrupt:
            continue


def report_frozen(run_dir: Path, frozen_dir: Path = FROZEN) -> int:
    """Compare every frozen endpoint table with the run's; REPRODUCED only when all present ones match."""
    checked, failed = [], False
    for name in TABLES:
        frozen, csv_path = frozen_dir / f"{name}.csv", run_dir / f"{name}.csv"
        if not frozen.exists():
            print(f"no frozen {name}.csv at {_rel(frozen)}; copy {csv_path} there to freeze this run")
            continue
        if not csv_path.exists():
            print(f"NOT REPRODUCED: the run wrote no {name}.csv but {_rel(frozen)} exists")
            failed = True
            continue
        mine, ref = read_rows(csv_path), read_rows(frozen)
        checked.append(name)
        if mine == ref:
            continue
        failed = True
        print(f"NOT REPRODUCED: {name}.csv differs from {_rel(frozen)}:")
        for a, b in zip(ref, mine, strict=False):
            if a != b:
                print("  frozen:", a)
                print("  run:   ", b)
        if len(ref) != len(mine):
            print(f"  row count: frozen {len(ref)}, run {len(mine)}")
    if failed:
        return 1
    if checked:
        print(f"REPRODUCED: {', '.join(f'{n}.csv' for n in checked)} identical to {_rel(frozen_dir)}")
    return 0


def _rel(p: Path) -> str:
    try:
        return str(p.relative_to(ROOT))
    except ValueError:
        return str(p)


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:  # between steps: nothing is half-written; the run resumes where it stopped
        print("stopped by SIGINT; rerun the same command to go on.", file=sys.stderr)
        raise SystemExit(130) from None
