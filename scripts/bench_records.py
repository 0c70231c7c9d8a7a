"""Benchmark of reading and writing episode records (prints figures; no assertions).

    python scripts/bench_records.py [--records 20000] [--repeat 3] [--appends 500]

Makes ``--records`` records from the real-shaped version-2 lines in ``tests/harness/data/`` (a ToolMaze
smoke run: tool calls, receipts, the world's trace check; about 3.4 kB a line), each with its own
episode and pair id, and writes them twice: as version-3 lines through ``write_records`` (chained, as
the runner writes them) and as the version-2 lines an older run left. Then times, best of
``--repeat`` by CPU time (wall time beside it): ``harness.records.load_records`` (what a resumed run and a sweep's merge read: every line
validated, the chain checked), ``analysis.load.load_records`` (the same plus the DataFrame), and
``RecordWriter.append`` per record (one write and one fsync each, as the runner appends).

Runs against whatever ``harness`` and ``analysis`` are importable: with ``PYTHONPATH`` set to an older
checkout it times that checkout's loaders on the version-2 file (its own format), which is how the
figures before the typed records were taken.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after PYTHONPATH: an older checkout given there wins

from analysis import load as analysis_load  # noqa: E402
from harness import records  # noqa: E402

SOURCE = ROOT / "tests" / "harness" / "data" / "records_v2.jsonl"


def make(n: int) -> list[dict]:
    src = [json.loads(line) for line in SOURCE.read_text().splitlines()]
    out = []
    for i in range(n):
        r = dict(src[i % len(src)])
        r["episode_id"] = f"{r['episode_id']}-{i}"
        r["pair_id"] = f"{r['pair_id']}-{i // 2}"
        out.append(r)
    return out


def as_v3(rec: dict) -> dict:
    return {k: v for k, v in rec.items() if k != "workflow_id"} | {"record_version": 3}


def best(fn, repeat: int) -> tuple[float, float]:
    """(wall, CPU) seconds of the run with the least CPU: on a shared machine CPU time varies less."""
    runs = []
    for _ in range(repeat):
        gc.collect()
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        runs.append((time.perf_counter() - w0, time.process_time() - c0))
    return min(runs, key=lambda r: r[1])


def fmt(t: tuple[float, float]) -> str:
    return f"{t[1]:6.2f} s CPU ({t[0]:6.2f} s wall)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--appends", type=int, default=500, help="records appended one by one (fsync each)")
    args = ap.parse_args(argv)
    new = hasattr(records, "write_records")
    print(
        f"harness.records from {Path(records.__file__)}, analysis.load from {analysis_load.__file__}; {args.records} records, best of {args.repeat}"
    )
    recs = make(args.records)
    with tempfile.TemporaryDirectory(prefix="bench-records-") as tmp:
        v2 = Path(tmp) / "v2" / "episodes.jsonl"
        v2.parent.mkdir()
        v2.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
        files = {"version-2 file": v2}
        if new:
            v3 = Path(tmp) / "v3" / "episodes.jsonl"
            v3.parent.mkdir()
            t = best(lambda: records.write_records(v3, [as_v3(r) for r in recs]), 1)
            print(f"  write_records (validate, chain, one fsync): {fmt(t)}")
            files = {"version-3 file": v3, **files}
        for label, path in files.items():
            mb = path.stat().st_size / 1e6
            t_h = best(lambda p=path: records.load_records(p, repair=False), args.repeat)
            t_a = best(lambda p=path: analysis_load.load_records(p.parent), args.repeat)
            print(
                f"  {label} ({mb:.0f} MB): harness.records.load_records {fmt(t_h)}, "
                f"{1e6 * t_h[1] / args.records:4.0f} us/record; analysis.load.load_records {fmt(t_a)}"
            )
        out = Path(tmp) / "append" / "episodes.jsonl"
        batch = [as_v3(r) if new else r for r in recs[: args.appends]]
        with records.RecordWriter(out) as w:
            w0, c0 = time.perf_counter(), time.process_time()
            for r in batch:
                w.append(r)
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        print(
            f"  RecordWriter.append: {1e3 * cpu / len(batch):.2f} ms CPU, {1e3 * wall / len(batch):.2f} ms wall "
            f"a record ({len(batch)} appends, fsync each)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
