"""Benchmark of the model adapter (not a test: it prints figures, it asserts nothing).

1. Harness overhead: calls/s through ``acomplete`` with the scripted provider (real litellm path),
   sequentially and at concurrency C, plus the same with a record-mode cache and replay.
2. Latency-bound throughput: the ``chaos/latency-<ms>`` provider sleeps per call; with C calls in
   flight the bound is C / latency calls/s; we print achieved throughput as a share of it.
3. Episodes (``--episodes``): whole scripted ToolMaze episodes (study=smoke, baseline arm) through
   ``harness.run.process.execute`` -- runner, agent loop, environment, litellm and the scripted provider --
   as episodes/s, and the same with a direct completer (no litellm) to split the harness's own cost.
4. Episodes at latency: every model call of those episodes first waits ``--latency-ms`` (a fake
   provider latency) and then goes the real adapter path; the bound is C calls in flight, i.e.
   C / latency model calls/s; printed as a share of it at concurrency 4, 8 and 16.
5. The door at scale (unless ``--no-door``; ``--only-door`` for just this): concurrency 16, 64 and
   256 at 200 ms and at 2 s provider latency, each as a share of its bound C / latency, with the
   process CPU per call (robust to other load, unlike the share), in one process and split over two
   forked processes (each its own event loop; ``--door-processes``).

Usage: .venv/bin/python scripts/bench_runner.py [--calls 400] [--concurrency 8] [--latency-ms 200]
       [--episodes] [--per-cell 10] [--only-episodes] [--waves 8] [--no-door | --only-door]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.llm import models  # noqa: E402
from harness.llm.cache import Cache  # noqa: E402
from harness.llm.models import ModelSpec, acomplete  # noqa: E402

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_price",
            "description": "price of an item",
            "parameters": {
                "type": "object",
                "properties": {"item": {"type": "string"}},
                "required": ["item"],
            },
        },
    },
]


def messages(i: int) -> list[dict]:
    return [
        {"role": "system", "content": "You are a tool agent."},
        {"role": "user", "content": f"Task number {i}"},
    ]


async def run_calls(
    spec: ModelSpec, n: int, concurrency: int, cache: Cache | None = None, offset: int = 0
) -> float:
    """Seconds to complete n distinct calls with at most ``concurrency`` in flight."""
    sem = asyncio.Semaphore(concurrency)

    async def one(i: int) -> None:
        async with sem:
            await acomplete(spec, messages(i), TOOLS, cache=cache)

    t0 = time.perf_counter()
    await asyncio.gather(*(one(offset + i) for i in range(n)))
    return time.perf_counter() - t0


# ---------------------------------------------------------------------------------------------
# episode level


def episode_plan(
    per_cell: int, concurrency: int, model: str = "scripted-trusting", replicates: int = 1
) -> Any:
    """A smoke-study plan (ToolMaze, baseline arm, one scripted model): ``4 * per_cell * replicates`` episodes."""
    from hydra import compose, initialize_config_dir

    from harness.config import CONF_DIR, register, to_config
    from harness.run.plan import plan_run

    register()
    overrides = [
        "study=smoke",
        "arm=[baseline]",
        f"model=[{model}]",
        "progress=false",
        f"study.selection.params.per_cell={per_cell}",
        f"concurrency={concurrency}",
        f"replicates={replicates}",
        f"model.{model}.max_concurrency={concurrency}",
    ]
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        return plan_run(to_config(compose("config", overrides=overrides)))


class _Reply:
    """What the loop reads from a completion (no dataclass: tests load this script by path)."""

    def __init__(self, message: dict, usage: dict):
        self.message, self.usage = message, usage
        self.cost_usd, self.latency_s, self.attempts = 0.0, 0.0, []


def direct_factory(spec: ModelSpec, replicate: int) -> Any:
    """The scripted policy answered in-process: the runner + loop + environment cost without litellm."""
    from harness.llm.providers.scripted import finalize_reply, get_policy, policy_rng, usage_for

    policy = get_policy(spec.model.split("/", 1)[1])

    async def complete(messages: list[dict], tools: list[dict]) -> _Reply:
        reply = finalize_reply(
            policy.respond(messages, tools, policy_rng(spec.seed, messages, tools)), messages
        )
        return _Reply(reply, usage_for(messages, tools, reply))

    return complete


class LatencyFactory:
    """Each call waits ``latency_s`` (a provider's latency), then takes the real adapter path.

    Logs when each episode gets its completer (= starts) and each call's latency interval, so the
    share of the concurrency bound can be measured over the steady window (every episode started,
    none yet missing for lack of work) as well as over the whole run (which includes the tail).
    """

    def __init__(self, latency_s: float):
        self.latency_s = latency_s
        self.starts: list[float] = []
        self.waits: list[tuple[float, float]] = []

    def __call__(self, spec: ModelSpec, replicate: int) -> Any:
        self.starts.append(time.perf_counter())

        async def complete(messages: list[dict], tools: list[dict]) -> Any:
            t = time.perf_counter()
            await asyncio.sleep(self.latency_s)
            self.waits.append((t, time.perf_counter()))
            return await acomplete(spec, messages, tools, replicate=replicate)

        return complete

    def steady_share(self, concurrency: int) -> float:
        """Slot-seconds spent in provider latency / (C x window), window = first to last episode start."""
        lo, hi = min(self.starts), max(self.starts)
        busy = sum(max(0.0, min(b, hi) - max(a, lo)) for a, b in self.waits)
        return busy / (concurrency * (hi - lo)) if hi > lo else float("nan")


def run_episodes(plan: Any, factory: Any = None) -> tuple[float, int, int]:
    """(wall seconds of harness.run.process.execute, episodes, model calls) in a fresh run folder."""
    from harness.records import load_records
    from harness.run.process import execute

    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        asyncio.run(execute(plan, Path(d), None, factory))  # arms=[baseline]: no monitor
        dt = time.perf_counter() - t0
        records = load_records(Path(d) / "episodes.jsonl")
    assert all(r["status"] in ("completed", "agent_failed") for r in records), "an episode hit an infra error"
    return dt, len(records), sum(int(r["rounds"]) for r in records)


def episode_figures(per_cell: int, concurrency: int, latency_ms: int) -> None:
    run_episodes(episode_plan(1, 1))  # warm imports and litellm's lazy paths
    for conc in (1, concurrency):
        plan = episode_plan(per_cell, conc)
        for label, factory in (
            ("litellm + scripted provider", None),
            ("direct completer, no litellm", direct_factory),
        ):
            cpu0 = time.process_time()
            dt, n, calls = run_episodes(plan, factory)
            cpu = time.process_time() - cpu0
            print(
                f"ToolMaze episodes, {label:<28}, concurrency {conc:>2}: {n / dt:6.1f} episodes/s "
                f"({1000 * dt / n:6.1f} ms/episode wall, {1000 * cpu / n:6.1f} ms/episode CPU, "
                f"{calls / n:.1f} model calls/episode, {1000 * cpu / calls:.2f} ms CPU/call)"
            )
    latency = latency_ms / 1000.0
    for conc in (4, 8, 16):
        # 12 x C episodes of ~5 calls: the tail (fewer than C episodes left) is a small part of the run
        plan = episode_plan(3 * conc // 2, conc, replicates=2)
        factory = LatencyFactory(latency)
        cpu0 = time.process_time()
        dt, n, calls = run_episodes(plan, factory)
        cpu = time.process_time() - cpu0
        bound = conc / latency
        print(
            f"ToolMaze episodes at {latency_ms} ms/call, concurrency {conc:>2}: {n} episodes, {calls} calls, "
            f"{calls / dt:5.1f} calls/s vs bound {bound:5.1f} = {100 * calls / dt / bound:5.1f}% whole run, "
            f"{100 * factory.steady_share(conc):5.1f}% steady window "
            f"({n / dt:.2f} episodes/s; process CPU {100 * cpu / dt:3.0f}% of wall)"
        )


def _door_child(spec: ModelSpec, n: int, conc: int, offset: int, barrier: Any, out: Any) -> None:
    barrier.wait()
    cpu0, t0 = time.process_time(), time.perf_counter()
    asyncio.run(run_calls(spec, n, conc, offset=offset))
    out.put((t0, time.perf_counter(), time.process_time() - cpu0))


def door_cell(spec: ModelSpec, n: int, conc: int, processes: int) -> tuple[float, float]:
    """(wall seconds, process CPU seconds) for n calls with ``conc`` in flight in all, split over
    ``processes`` forked processes (each its own event loop; 1: this process)."""
    if processes == 1:
        cpu0, t0 = time.process_time(), time.perf_counter()
        asyncio.run(run_calls(spec, n, conc))
        return time.perf_counter() - t0, time.process_time() - cpu0
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    barrier, out = ctx.Barrier(processes), ctx.Queue()
    shares = [
        (n // processes + (k < n % processes), conc // processes + (k < conc % processes))
        for k in range(processes)
    ]
    procs = [
        ctx.Process(target=_door_child, args=(spec, nk, ck, k * n, barrier, out))
        for k, (nk, ck) in enumerate(shares)
    ]
    for proc in procs:
        proc.start()
    got = [out.get() for _ in procs]
    for proc in procs:
        proc.join()
    return max(g[1] for g in got) - min(g[0] for g in got), sum(g[2] for g in got)


def python_calls_per_call(spec: ModelSpec, n: int = 200) -> float:
    """Function calls (Python and C) per ``acomplete``, on every thread (litellm's preamble may run on
    its executor's), litellm's queued logging included: a measure of the door's work per call that
    other load on the machine cannot move."""
    import threading

    count = [0]

    def counter(frame: Any, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            count[0] += 1  # (threads may race on this: a handful lost in millions)

    async def calls_then_logging() -> None:
        await run_calls(spec, n, 16)
        from litellm.litellm_core_utils.logging_worker import GLOBAL_LOGGING_WORKER

        await GLOBAL_LOGGING_WORKER.flush()

    asyncio.run(run_calls(spec, 16, 16))
    threading.setprofile(counter)  # the executor's threads start inside the run: each gets it
    sys.setprofile(counter)
    try:
        asyncio.run(calls_then_logging())
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    return count[0] / n


def door_figures(
    latencies_ms: tuple[int, ...],
    concurrencies: tuple[int, ...],
    waves: int,
    processes: tuple[int, ...] = (1, 2),
) -> None:
    """Section 5: the model door at scale. For each latency and concurrency C, ``waves x C`` distinct
    calls through ``acomplete`` with C in flight (in one process, or split over forked processes,
    each its own event loop); printed as a share of the bound C / latency, with the CPU per call
    (process CPU time of every process / calls: robust to other load on the machine, unlike the
    wall-clock share) and the number of processes that made the calls."""
    for model in ("scripted/first_tool", "chaos/latency-20"):
        per_call = python_calls_per_call(ModelSpec(name="door", model=model, timeout_s=30.0))
        print(f"door, {model}: {per_call:.0f} Python function calls per call (load-independent)")
    for ms in latencies_ms:
        spec = ModelSpec(name=f"latency-{ms}", model=f"chaos/latency-{ms}", timeout_s=30.0 + ms / 1000.0)
        asyncio.run(run_calls(spec, 8, 8))  # warm the chaos provider's path
        for conc in concurrencies:
            for procs in processes:
                n = waves * conc
                dt, cpu = door_cell(spec, n, conc, procs)
                bound = conc / (ms / 1000.0)
                print(
                    f"door, {ms:>4} ms latency, concurrency {conc:>3}, {n:>4} calls, {procs} process{'es' if procs > 1 else '  '}: "
                    f"{n / dt:7.1f} calls/s vs bound {bound:7.1f} = {100 * n / dt / bound:5.1f}% of bound; "
                    f"{1000 * cpu / n:.2f} ms CPU/call (CPU {100 * cpu / dt:3.0f}% of wall)"
                )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=400)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--latency-ms", type=int, default=200)
    ap.add_argument("--latency-calls", type=int, default=0, help="calls for the latency run (default 20*C)")
    ap.add_argument("--episodes", action="store_true", help="also the episode-level figures (sections 3-4)")
    ap.add_argument("--only-episodes", action="store_true", help="only the episode-level figures")
    ap.add_argument("--per-cell", type=int, default=10, help="smoke workflows per (complexity, mode) cell")
    ap.add_argument("--waves", type=int, default=8, help="door section: calls per cell = waves x concurrency")
    ap.add_argument(
        "--no-door", action="store_true", help="skip the door section (16/64/256 at 200 ms and 2 s)"
    )
    ap.add_argument("--only-door", action="store_true", help="only the door section")
    ap.add_argument("--door-processes", default="1,2", help="door section: process counts to try, e.g. 1,2")
    args = ap.parse_args()
    door_processes = tuple(int(p) for p in args.door_processes.split(","))
    if args.only_door:
        models._litellm()
        door_figures((200, 2000), (16, 64, 256), args.waves, door_processes)
        print(
            f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
        )
        return
    if args.only_episodes:
        episode_figures(args.per_cell, args.concurrency, args.latency_ms)
        print(
            f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
        )
        return

    t0 = time.perf_counter()
    models._litellm()
    print(f"litellm import + provider registration: {time.perf_counter() - t0:.2f} s")
    scripted = ModelSpec(name="scripted-first", model="scripted/first_tool")
    asyncio.run(run_calls(scripted, 4, 1))  # warm litellm's lazy paths

    for conc in (1, args.concurrency):
        cpu0 = time.process_time()
        dt = asyncio.run(run_calls(scripted, args.calls, conc))
        cpu = (time.process_time() - cpu0) / args.calls
        print(
            f"scripted, concurrency {conc:>2}: {args.calls / dt:8.1f} calls/s  ({1000 * dt / args.calls:.2f} ms/call wall, "
            f"{1000 * cpu:.2f} ms/call CPU of this process)"
        )

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
    if not args.no_door:
        door_figures((200, 2000), (16, 64, 256), args.waves, door_processes)
    if args.episodes:
        episode_figures(args.per_cell, args.concurrency, args.latency_ms)
    print(
        f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
