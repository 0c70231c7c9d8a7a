"""Learning time with numpy and without it (prints figures; no assertions).

    python scripts/bench_learn_numpy.py [--seed 0] [--repeat 3]

numpy is optional in ``outcome_monitor``: mining compares dense numeric columns in array passes when
it is importable and in plain Python passes otherwise, with the same registry either way
(``outcome-monitor/tests/test_without_numpy.py``). This times both paths on the same rows: the five
cross-fit folds of ToolMaze's clean traces (``scripts/bench_monitor.py``'s learning phase), one
registry over all of them in each vocabulary, the harness's synthetic traces, and a stress case for
the dense passes (a table of 45 numeric columns, 2,000 rows in one context). The paths run
interleaved and the best of ``--repeat`` counts, so a busy machine slows both alike. It also
prints what importing numpy costs a fresh interpreter, which the plain path never pays.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from outcome_monitor.learning import relations  # noqa: E402

from core.worlds import get_plugin  # noqa: E402
from harness.monitor import learn  # noqa: E402
from harness.monitor import synthetic as syn  # noqa: E402
from harness.monitor.crossfit import build_crossfit  # noqa: E402


def both(fn: Callable[[], object], repeat: int) -> tuple[float, float, bool]:
    """(best seconds with numpy, best without, whether both gave the same output)."""
    best = {True: float("inf"), False: float("inf")}
    out: dict[bool, str] = {}
    for _ in range(repeat):
        for use in (True, False):
            relations.USE_NUMPY = use
            t0 = time.perf_counter()
            got = fn()
            best[use] = min(best[use], time.perf_counter() - t0)
            out[use] = _as_text(got)
    relations.USE_NUMPY = True
    return best[True], best[False], out[True] == out[False]


def _as_text(obj: object) -> str:
    regs = getattr(obj, "registries", None) or [obj]
    return json.dumps([r.to_json() for r in regs], sort_keys=True)


def wide_table(seed: int, columns: int = 45, per_call: int = 20, calls: int = 100) -> list[dict]:
    """Pages of a numeric table: random columns beside one planted product (t == q * p)."""
    r = random.Random(seed)
    rows = []
    for page in range(calls):
        records = []
        for _ in range(per_call):
            rec: dict = {f"c{j:02d}": round(r.uniform(-100, 100), 2) for j in range(columns - 3)}
            rec["q"], rec["p"] = r.randint(1, 9), round(r.uniform(1, 50), 2)
            rec["t"] = round(rec["q"] * rec["p"], 2)
            records.append(rec)
        rows.append({"tool": "table", "arguments": {"page": page}, "result": {"rows": records}})
    return rows


def numpy_import_seconds() -> float | None:
    code = "import time; t = time.perf_counter(); import numpy; print(time.perf_counter() - t)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return float(proc.stdout) if proc.returncode == 0 else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    if not relations._numpy_importable():
        print("numpy is not importable here: nothing to compare")
        return 1
    toolmaze = get_plugin("toolmaze")
    rows = list(toolmaze.clean_traces(toolmaze.make(seed=args.seed), mode="P0"))
    synthetic = syn.traces(n_workflows=200, calls_per_workflow=6, seed=args.seed)
    wide = wide_table(args.seed)
    cases: list[tuple[str, Callable[[], object]]] = [
        ("ToolMaze, five cross-fit folds (bench_monitor)", lambda: build_crossfit(rows, 5, args.seed)),
        ("ToolMaze, one registry, paper vocabulary", lambda: learn(rows, vocabulary="paper")),
        ("ToolMaze, one registry, wide vocabulary", lambda: learn(rows)),
        ("synthetic traces (200 workflows), wide", lambda: learn(synthetic)),
        ("numeric table, 45 columns x 2,000 rows, wide", lambda: learn(wide)),
    ]
    print(f"ToolMaze clean traces: {len(rows)} rows; synthetic: {len(synthetic)} rows; best of {args.repeat}")
    print(f"{'learning':48} {'numpy s':>9} {'plain s':>9} {'plain/numpy':>12}  same registry")
    for name, fn in cases:
        with_np, plain, same = both(fn, args.repeat)
        print(f"{name:48} {with_np:9.3f} {plain:9.3f} {plain / with_np:11.2f}x  {'yes' if same else 'NO'}")
    cost = numpy_import_seconds()
    if cost is not None:
        print(f"importing numpy in a fresh interpreter (paid once, only by the numpy path): {cost:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
