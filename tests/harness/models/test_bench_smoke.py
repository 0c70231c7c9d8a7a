"""scripts/bench_runner.py keeps working (figures are printed by the script, never asserted here)."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

from harness.cache import Cache
from harness.models import ModelSpec

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "bench_runner.py"


def test_bench_helpers_run_scripted_and_latency_calls(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_runner", SCRIPT)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    with Cache(tmp_path / "c.sqlite", "record") as cache:
        assert asyncio.run(bench.run_calls(ModelSpec(name="s", model="scripted/first_tool"), 5, 2, cache)) > 0
        assert len(cache) == 5  # five distinct requests went through the adapter
    assert asyncio.run(bench.run_calls(ModelSpec(name="l", model="chaos/latency-1"), 3, 3)) > 0
