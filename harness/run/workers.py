"""Episodes in several forked processes: scripted policies are CPU-bound, one process uses one core.

``workers: N`` (N > 1) plans once, builds the monitors once (in a forked child while this process
imports litellm: two slow, independent steps on two cores), then forks N workers that inherit all
of it. Each worker claims the next pending episode from a shared counter,
runs it as the single-process runner would (same episode, same seeds, same record), and sends the
record to the parent, the one writer of ``episodes.jsonl`` (one line, fsync'ed, as always). Spend is
shared, so a budget stops every worker (each may finish the episode it had started). ``workers: 0``
picks one worker per usable CPU for a run whose every model is scripted and that has no budget,
and one process otherwise (and for each job of a sweep, whose launcher already runs jobs side by
side).

A worker that dies loses only the episodes it had started: they stay unrecorded and a rerun of the
same command runs them (the parent names the worker and says so). Ctrl-C stops every worker; the
records they had sent are written before the parent stops.

Real models may use workers too (asked for with ``workers: N``; ``workers: 0`` keeps them in one
process): when one event loop cannot keep hundreds of calls in flight, N loops can. The parent makes
each model's budget before the fork, so the workers share it: one ``max_concurrency`` (a process-
shared semaphore each worker polls without blocking its loop) and one requests/tokens-per-minute
bucket (``harness.llm.ratelimit.share``). Records, resume and the reply cache are as with scripted
workers: the parent is the one writer.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import os
import sys
import time
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, cast

from harness.llm.models import drain_success_logging
from harness.records import RecordWriter
from harness.records.files import signals_held
from harness.run.episode import chain_for, episode_chains, run_episode
from harness.run.registries import monitor_parts
from harness.run.shared import (
    Progress,
    SharedSpend,
    arm_factories,
    close_world,
    pending_work,
    run_summary,
    within_budget,
)
from harness.run.stopping import as_worker, leave_quietly, raising_on_signals

log = logging.getLogger(__name__)


class WorkerFailed(RuntimeError):
    """A worker process ended without finishing its share; every record it sent is written."""


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def worker_count(requested: int, plan: Any, multirun: bool = False) -> int:
    """The number of processes that will run episodes (1: the ordinary single-process run)."""
    real = sorted({s.name for s in plan.specs() if not s.scripted})
    if requested == 0:
        budget = plan.cfg.budget.usd is not None or plan.cfg.budget.tokens is not None
        # one process: a sweep's job (the launcher runs jobs side by side), real models (their calls
        # wait on the network), a budget (it stops exactly only in one process), not Linux (fork)
        if multirun or real or budget or sys.platform != "linux":
            return 1
        return max(1, min(usable_cpus(), len(plan.schedule)))
    return requested


class SharedSlots:
    """One model's ``max_concurrency`` across forked workers: a process-shared semaphore, made before
    the fork, that each worker's loop takes without blocking (it polls, backing off to 20 ms)."""

    POLL_S = (0.001, 0.02)

    def __init__(self, ctx: Any, slots: int):
        self.sem = ctx.BoundedSemaphore(slots)

    async def __aenter__(self) -> None:
        wait = self.POLL_S[0]
        while not self.sem.acquire(False):
            await asyncio.sleep(wait)
            wait = min(wait * 2, self.POLL_S[1])

    async def __aexit__(self, *exc: Any) -> None:
        self.sem.release()


def shared_budgets(ctx: Any, plan: Any) -> tuple[dict[str, SharedSlots], list[Any]]:
    """Each real model's concurrency slots and every limited model's rate bucket in shared memory, for
    workers forked after. Scripted models keep a cap per worker: nothing waits on a provider there."""
    from harness.llm import ratelimit

    slots = {
        name: SharedSlots(ctx, spec.max_concurrency)
        for name, spec in plan.models.items()
        if not spec.scripted
    }
    limits = {
        spec.name: (spec.requests_per_minute, spec.tokens_per_minute)
        for spec in plan.specs()
        if spec.requests_per_minute or spec.tokens_per_minute
    }
    return slots, ratelimit.share(ctx, limits)


def execute_forked(
    plan: Any, run_dir: Path, workers: int, monitors: Any, factory: Any = None
) -> dict[str, Any]:
    """``harness.run.process.execute`` with the episodes spread over ``workers`` forked processes."""

    records_path, before, todo = pending_work(plan, run_dir)
    global _PARENT_PID
    _PARENT_PID = os.getpid()
    ctx = multiprocessing.get_context("fork")
    spend = SharedSpend(ctx, before.usd, before.tokens)
    claim = ctx.Value("q", 0)
    slots, shared_limits = shared_budgets(ctx, plan)
    n = max(1, min(workers, len(todo)))
    log.info("running %d episodes in %d worker processes", len(todo), n)
    gc.freeze()  # what the workers inherit stays out of their collections (no scans, fewer copied pages)
    since = (time.monotonic(), spend.calls, spend.tokens)  # before any worker can make a call
    procs = _start_workers(ctx, n, (plan, run_dir, factory, monitors, todo, claim, spend, slots))

    progress = Progress(len(todo), plan.cfg, spend, since)
    stopped = False
    failures: list[str] = []

    def take(reader: Connection, writer: RecordWriter) -> bool:
        """One message from a worker; False once it has ended (or died mid-message)."""
        nonlocal stopped
        with signals_held():  # a record received is a record written: Ctrl-C waits for the line
            try:
                kind, payload = reader.recv()
            except Exception:  # noqa: BLE001  (EOF, or a message cut off by a terminated worker)
                return False
            if kind == "record":
                writer.append(payload)
        if kind == "record":
            progress.add(payload)
        elif kind == "done":
            stopped = stopped or bool(payload)
        elif kind == "error":
            failures.append(payload)
        return True

    with RecordWriter(records_path) as writer, raising_on_signals():
        open_readers = list(procs)
        try:
            while open_readers:
                for reader in cast("list[Connection]", wait(open_readers)):  # the readers it was given
                    if not take(reader, writer):
                        open_readers.remove(reader)
        except BaseException:
            # Ctrl-C (or a failing write): stop the workers, then keep every record they had sent
            for proc in procs.values():
                if proc.is_alive():
                    proc.terminate()
            for reader in open_readers:
                while reader.poll(5) and take(reader, writer):
                    pass
            raise
        finally:
            progress.close()
            for proc in procs.values():
                proc.join()
            gc.unfreeze()
            from harness.llm import ratelimit

            ratelimit.unshare(shared_limits)
    for proc in procs.values():
        if proc.exitcode not in (0, -15) and not any(f.startswith(proc.name) for f in failures):
            failures.append(f"{proc.name}: exited with code {proc.exitcode}")
    if failures:
        raise WorkerFailed(
            f"{len(failures)} of {n} worker processes failed ({'; '.join(failures)}). Every episode they finished "
            f"is recorded in {records_path}; rerun the same command to run the rest (workers=1 runs them in one "
            "process)."
        )
    return run_summary(plan, records_path, todo, progress.counts, stopped, spend, progress.rates())


def _start_workers(ctx: Any, n: int, shared: tuple[Any, ...]) -> dict[Connection, Any]:
    """``n`` forked workers, each with ``shared`` and its own pipe; reader -> process."""
    procs: dict[Connection, Any] = {}
    for k in range(n):
        reader, sender = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_worker, name=f"episodes-{k}", args=(*shared, sender, [*procs, reader]))
        proc.start()
        sender.close()  # the parent reads only: EOF on a reader means its worker has ended
        procs[reader] = proc
    return procs


_PARTS_JOB: Any = None
_PARENT_PID = os.getpid()  # set again by execute_forked before it forks


def parts_beside_litellm(plan: Any) -> Any:
    """Build the contract registries in a forked child while this process imports litellm (seconds
    each, one core apiece); the workers forked later inherit both."""
    global _PARTS_JOB
    from concurrent.futures import ProcessPoolExecutor

    from harness.llm.models import _litellm

    if all(a.monitor == "none" for a in plan.arms.values()):
        _litellm()
        return None
    _PARTS_JOB = plan  # the forked child reads it: a plan is too big to pickle
    try:
        with ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("fork"), initializer=as_worker
        ) as pool:
            parts = pool.submit(_build_parts)
            _litellm()
            return parts.result()
    finally:
        _PARTS_JOB = None


def _build_parts() -> Any:
    assert _PARTS_JOB is not None
    return monitor_parts(_PARTS_JOB)


def send_home(sender: Connection, message: tuple[str, Any]) -> None:
    """A record to the parent; a parent that is gone (``kill -9``) means leaving quietly, now."""
    if os.getppid() != _PARENT_PID:  # orphaned: the parent died before our pipe could tell us
        leave_quietly()
    try:
        sender.send(message)
    except (BrokenPipeError, ConnectionResetError, EOFError):
        leave_quietly()


def _worker(
    plan: Any,
    run_dir: Path,
    factory: Any,
    monitors: Any,
    todo: list[Any],
    claim: Any,
    spend: SharedSpend,
    slots: dict[str, SharedSlots],
    sender: Connection,
    readers: list[Connection],
) -> None:
    """One forked worker: run claimed episodes until none is left, sending each record home."""
    as_worker()
    for reader in readers:  # inherited read ends: while any is open here, a dead parent would never
        reader.close()  # be noticed (no EPIPE) and a full pipe would block this worker for good
    name = multiprocessing.current_process().name
    try:
        stopped = asyncio.run(
            _run_claimed(plan, run_dir, factory, monitors, todo, claim, spend, slots, sender)
        )
        sender.send(("done", stopped))
    except (BrokenPipeError, ConnectionResetError):  # the parent is gone: its rerun runs these episodes
        leave_quietly()
    except BaseException as exc:  # noqa: BLE001  (reported to the parent, which says what to do)
        try:
            sender.send(("error", f"{name}: {type(exc).__name__}: {exc}"[:1000]))
        except OSError:
            pass
        log.error("%s failed", name, exc_info=True)
        sys.exit(1)
    finally:
        sender.close()


async def _run_claimed(
    plan: Any,
    run_dir: Path,
    factory: Any,
    monitors: Any,
    todo: list[Any],
    claim: Any,
    spend: SharedSpend,
    slots: dict[str, SharedSlots],
    sender: Connection,
) -> bool:

    cfg = plan.cfg
    factories, cache = arm_factories(plan, run_dir, factory, spend)
    chains = episode_chains(plan, monitors)
    # a real model's max_concurrency is shared by every worker; a scripted one's holds per worker
    model_sems = {
        name: slots.get(name) or asyncio.Semaphore(spec.max_concurrency) for name, spec in plan.models.items()
    }
    stopped = False

    def budget_ok() -> bool:
        return within_budget(cfg, spend)

    def next_episode() -> Any:
        with claim.get_lock():
            i = claim.value
            claim.value += 1
        return todo[i] if i < len(todo) else None

    async def lane() -> None:
        nonlocal stopped
        while (ep := next_episode()) is not None:
            async with model_sems[ep.model]:
                if not budget_ok():  # stop scheduling: unstarted episodes stay unrecorded
                    stopped = True
                    return
                rec = await run_episode(
                    plan, ep, factories[ep.arm], chain_for(plan, chains, ep), budget_ok, run_dir
                )
            send_home(sender, ("record", rec))

    try:
        await asyncio.gather(*(lane() for _ in range(cfg.concurrency)))
    finally:
        if cache is not None and hasattr(cache, "close"):
            cache.close()
        await close_world(plan)
        await drain_success_logging()  # a configured callback gets the last calls' events
    if stopped:
        log.warning(
            "budget spent (%s USD, %d tokens): no new episode starts", round(spend.usd, 6), spend.tokens
        )
    return stopped
