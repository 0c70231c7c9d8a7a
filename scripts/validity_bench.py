"""Speed figures for the fault library (printed, never asserted): injector calls/s and the ToolMaze study.

.venv/bin/python scripts/validity_bench.py [--skip-study]
"""

from __future__ import annotations

import argparse
import time
from types import SimpleNamespace

from core.protocol import ToolCall, ToolResult
from harness.faults.classes import CLASSES
from harness.faults.inject import FaultInjector
from harness.stream import StreamContext

RESULT = {
    "product_id": "B08L5TNJHG",
    "record_id": "SHP-6C302582",
    "unit_price_usd": 722.68,
    "price_currency": "USD",
    "quantity": 5,
    "subtotal_usd": 3613.4,
    "line_items": [{"label": "handling", "amount": 4.8}, {"label": "packaging", "amount": 13.96}],
    "fees_usd": 18.76,
    "total_due_usd": 3632.16,
    "availability": "preorder",
    "valid_from": "2026-01-18",
    "valid_to": "2026-02-13",
}


class _Ep:
    def tools(self):
        return []


def bench_injector(n: int = 2000) -> None:
    for name in sorted(CLASSES):
        inj = FaultInjector({"fault_class": name, "mode": "permanent"}, seed=0)
        ep = _Ep()
        task = SimpleNamespace(task_id="t", terminal_tool="finish")
        t0 = time.perf_counter()
        for i in range(n):
            ctx = StreamContext(episode=ep, task=task, seed=0, call_index=i)  # type: ignore[arg-type]
            inj(ToolCall("get_price", {"product_id": "B08L5TNJHG", "units": 5}), ToolResult(RESULT), ctx)
        dt = time.perf_counter() - t0
        print(f"  {name:<28} {n / dt:>9.0f} calls/s  ({1e6 * dt / n:.1f} us/call)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skip-study", action="store_true")
    args = ap.parse_args()
    print("FaultInjector throughput (one ToolMaze-shaped result, permanent mode):")
    bench_injector()
    if not args.skip_study:
        from harness.evaluations.validity import StudyOptions, run_validity

        for folds in ((0,), None):
            t0 = time.perf_counter()
            rep = run_validity(StudyOptions(env="toolmaze", folds=folds))
            print(f"validity study, folds {rep['folds']}: {time.perf_counter() - t0:.1f} s wall")


if __name__ == "__main__":
    main()
