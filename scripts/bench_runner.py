"""Benchmark of the model adapter (not a test: it prints figures, it asserts nothing).

1. Harness overhead: calls/s through ``acomplete`` with the scripted provider (real litellm path),
   sequentially and at concurrency C, plus the same with a record-mode cache and replay.
2. Latency-bound throughput: the ``chaos/latency-<ms>`` provider sleeps per call; with C calls in
   flight the bound is C / latency calls/s; we print achieved throughput as a share of it.

Usage: .venv/bin/python scripts/bench_runner.py [--calls 400] [--concurrency 8] [--latency-ms 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import models  # noqa: E402
from harness.cache import Cache  # noqa: E402
from harness.models import ModelSpec, acomplete  # noqa: E402

TOOLS = [
    {"type": "function", "function": {"name": "get_price", "description": "price of an item",
     "parameters": {"type": "object", "properties": {"item": {"type": "string"}}, "required": ["item"]}}},
]


def messages(i: int) -> list[dict]:
    return [{"role": "system", "content": "You are a tool agent."}, {"role": "user", "content": f"Task number {i}"}]


async def run_calls(spec: ModelSpec, n: int, concurrency: int, cache: Cache | None = None) -> float:
    """Seconds to complete n distinct calls with at most ``concurrency`` in flight."""
    sem = asyncio.Semaphore(concurrency)

    async def one(i: int) -> None:
        async with sem:
            await acomplete(spec, messages(i), TOOLS, cache=cache)

    t0 = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(n)))
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=400)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--latency-ms", type=int, default=200)
    ap.add_argument("--latency-calls", type=int, default=0, help="calls for the latency run (default 20*C)")
    args = ap.parse_args()

    t0 = time.perf_counter()
    models._litellm()
    print(f"litellm import + provider registration: {time.perf_counter() - t0:.2f} s")
    scripted = ModelSpec(name="scripted-first", model="scripted/first_tool")
    asyncio.run(run_calls(scripted, 4, 1))  # warm litellm's lazy paths

    for conc in (1, args.concurrency):
        cpu0 = time.process_time()
        dt = asyncio.run(run_calls(scripted, args.calls, conc))
        cpu = (time.process_time() - cpu0) / args.calls
        print(f"scripted, concurrency {conc:>2}: {args.calls / dt:8.1f} calls/s  ({1000 * dt / args.calls:.2f} ms/call wall, "
              f"{1000 * cpu:.2f} ms/call CPU of this process)")

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "cache.sqlite"
        with Cache(path, "record") as cache:
            dt = asyncio.run(run_calls(scripted, args.calls, args.concurrency, cache))
        print(f"scripted, record cache     : {args.calls / dt:8.1f} calls/s")
        with Cache(path, "replay") as cache:
            dt = asyncio.run(run_calls(scripted, args.calls, args.concurrency, cache))
        print(f"replay from cache          : {args.calls / dt:8.1f} calls/s")

    n = args.latency_calls or 20 * args.concurrency
    slow = ModelSpec(name="latency", model=f"chaos/latency-{args.latency_ms}", timeout_s=30.0)
    asyncio.run(run_calls(slow, args.concurrency, args.concurrency))  # warm the chaos provider's path
    cpu0 = time.process_time()
    dt = asyncio.run(run_calls(slow, n, args.concurrency))
    cpu = time.process_time() - cpu0
    bound = args.concurrency / (args.latency_ms / 1000.0)
    print(
        f"{args.latency_ms} ms latency provider, concurrency {args.concurrency}, {n} calls: "
        f"{n / dt:.1f} calls/s vs bound {bound:.1f} calls/s = {100 * (n / dt) / bound:.1f}% of the concurrency bound"
        f" (process CPU {100 * cpu / dt:.0f}% of wall: near 100% means CPU-bound, e.g. a busy machine)"
    )
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
