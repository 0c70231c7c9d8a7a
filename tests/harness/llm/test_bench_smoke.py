"""scripts/bench_runner.py keeps working (figures are printed by the script, never asserted here)."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

from harness.llm.cache import Cache
from harness.llm.models import ModelSpec

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "bench_runner.py"


def test_bench_helpers_run_scripted_and_latency_calls(tmp_path):
    spec = importlib.util.spec_from_file_location("bench_runner", SCRIPT)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    with Cache(tmp_path / "c.sqlite", "record") as cache:
        assert asyncio.run(bench.run_calls(ModelSpec(name="s", model="scripted/first_tool"), 5, 2, cache)) > 0
        assert len(cache) == 5  # five distinct requests went through the adapter
    assert asyncio.run(bench.run_calls(ModelSpec(name="l", model="chaos/latency-1"), 3, 3)) > 0


def test_bench_episode_helpers_run_toolmaze_episodes():
    spec = importlib.util.spec_from_file_location("bench_runner_ep", SCRIPT)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    plan = bench.episode_plan(1, 2)
    dt, n, calls = bench.run_episodes(plan, bench.direct_factory)
    assert n == len(plan.schedule) and calls >= n and dt > 0
    factory = bench.LatencyFactory(0.001)
    _, n2, calls2 = bench.run_episodes(plan, factory)
    assert (n2, calls2) == (n, calls)  # the latency wrapper changes timing, not what the episodes do
    assert len(factory.starts) == n and len(factory.waits) == calls
    assert 0.0 < factory.steady_share(2) <= 1.0


def test_bench_door_cell_in_one_and_in_two_processes():
    spec = importlib.util.spec_from_file_location("bench_runner_door", SCRIPT)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    latency = ModelSpec(name="l", model="chaos/latency-1")
    for processes in (1, 2):
        dt, cpu = bench.door_cell(latency, 6, 3, processes)
        assert dt > 0 and cpu > 0  # every process reported its calls' wall and CPU time
    assert bench.python_calls_per_call(latency, n=4) > 100  # litellm's path is counted, not only ours
