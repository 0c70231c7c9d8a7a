"""Print the tau-bench tables of a faults run and a clean run beside the paper's figures (retail only).

    python scripts/taubench_tables.py --faults results/taubench-faults/<run> [--clean results/taubench-clean/<run>]
    python scripts/taubench_tables.py --faults results/taubench-airline-faults/<run> --clean results/taubench-airline-clean/<run>

Reads episodes.jsonl (and the domain from manifest.json). Per model and fault: success in each arm,
the paired difference, wins (monitor solved, baseline not) and losses, and the share of monitor
episodes with a receipt; the clean run: success per arm and receipts in the monitor arm (all
spurious: nothing is injected). The paper ran retail only: an airline run is printed beside no paper
figure. Every table says that the scripted user's cards come from the ground-truth writes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

PAPER = Path(__file__).resolve().parents[1].parent / "shared" / "paper" / "reported.json"


CARDS = (
    "scripted agents and the card user, whose cards come from the ground-truth writes (the write tool's name "
    "included): baselines are near perfect by construction"
)


def load(run: str) -> list[dict]:
    path = Path(run) / "episodes.jsonl"
    if not path.is_file():
        sys.exit(f"error: no episodes.jsonl in {run}; pass a run folder of python -m harness.run")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def domain_of(run: str) -> str:
    """The tau-bench domain a run played (its saved config's env options; retail when unsaid)."""
    path = Path(run) / "manifest.json"
    if not path.is_file():
        return "retail"
    options = (
        json.loads(path.read_text()).get("config", {}).get("study", {}).get("env", {}).get("options") or {}
    )
    return str(options.get("domain") or "retail")


def faults_table(rows: list[dict]) -> None:
    cells: dict[tuple[str, str], dict[str, dict[str, dict]]] = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        cells[(r["model"], r["fault_class"])][r["arm"]][r["task_id"]] = r
    print(f"this run ({CARDS})")
    print(
        f"{'model':26} {'fault':24} {'n':>3} {'base':>6} {'mon':>6} {'delta':>6} {'wins':>4} {'loss':>4} {'flagged':>8}"
    )
    overall: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for (model, fault), arms in sorted(cells.items()):
        b, m = arms.get("baseline", {}), arms.get("monitor", {})
        ids = sorted(set(b) & set(m))
        if not ids:
            continue
        sb = sum(b[t]["success"] for t in ids)
        sm = sum(m[t]["success"] for t in ids)
        wins = sum(m[t]["success"] and not b[t]["success"] for t in ids)
        loss = sum(b[t]["success"] and not m[t]["success"] for t in ids)
        flagged = sum(m[t]["n_receipts"] > 0 for t in ids)
        n = len(ids)
        overall[model][0] += sb
        overall[model][1] += sm
        overall[model][2] += n
        print(
            f"{model:26} {fault:30} {n:3d} {100 * sb / n:6.1f} {100 * sm / n:6.1f} {100 * (sm - sb) / n:+6.1f} "
            f"{wins:4d} {loss:4d} {100 * flagged / n:7.1f}%"
        )
    for model, (sb, sm, n) in sorted(overall.items()):
        print(
            f"{model:26} {'both faults':30} {n:3d} {100 * sb / n:6.1f} {100 * sm / n:6.1f} {100 * (sm - sb) / n:+6.1f}"
        )


def clean_table(rows: list[dict]) -> None:
    print(f"this run, clean ({CARDS})")
    by: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in rows:
        by[(r["model"], r["arm"])].append(r)
    for (model, arm), rs in sorted(by.items()):
        rec = sum(r["n_receipts"] for r in rs)
        eps = sum(r["n_receipts"] > 0 for r in rs)
        print(
            f"{model:26} {arm:9} episodes {len(rs):3d}  success {100 * sum(r['success'] for r in rs) / len(rs):5.1f}%"
            f"  receipts {rec} (in {eps} episodes)"
        )


def paper() -> None:
    print("paper")
    if not PAPER.is_file():
        print(f"  ({PAPER} not found)")
        return
    rep = json.loads(PAPER.read_text())["figure2_boundaries"]
    for row in rep["rows"]:
        if "tau-bench" in row["study"]:
            print(
                f"  {row['study']} ({row['note']}): {row['baseline_pct']} -> {row['monitor_pct']} "
                f"({row['delta_points']:+} points), wins {row.get('wins')}, losses {row.get('losses')}"
            )
    for row in rep["taubench_overall"]:
        print(f"  overall, {row['model']}: {row['delta_points']:+} points (p={row['p']})")
    print(f"  clean: {rep['clean_spurious_receipts']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--faults", help="run folder of study=taubench-faults")
    ap.add_argument("--clean", help="run folder of study=taubench-clean")
    a = ap.parse_args()
    if not a.faults and not a.clean:
        sys.exit("error: pass --faults and/or --clean with a run folder")
    domains = {domain_of(run) for run in (a.faults, a.clean) if run}
    if len(domains) > 1:
        sys.exit(f"error: the runs played different domains ({', '.join(sorted(domains))}); print them apart")
    if a.faults:
        faults_table(load(a.faults))
    if a.clean:
        clean_table(load(a.clean))
    if domains == {"retail"}:
        paper()
    else:
        print(f"paper: retail only (no {', '.join(sorted(domains))} figure to compare with)")


if __name__ == "__main__":
    main()
