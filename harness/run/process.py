"""Episodes in one process: a global and a per-model concurrency cap, one record each.

The one-process way to run a study's pending episodes (``harness.run.workers`` is the forked one);
what both need (completers, spend and budget, pending work, progress) is ``harness.run.shared``.
Knows no particular world.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, cast

from harness.llm.models import drain_success_logging
from harness.records import RecordWriter
from harness.run.episode import CompleterFactory as CompleterFactory  # re-exported: harness.run.study
from harness.run.episode import chain_for, episode_chains, run_episode
from harness.run.plan import Plan
from harness.run.registries import MonitorSource
from harness.run.schedule import EpisodeSpec
from harness.run.shared import (
    Progress,
    arm_factories,
    close_world,
    pending_work,
    run_summary,
    within_budget,
)
from harness.run.stopping import TaskStop

log = logging.getLogger(__name__)


async def execute(
    plan: Plan, run_dir: Path, monitors: MonitorSource | None, factory: CompleterFactory | None = None
) -> dict[str, Any]:
    """Every pending episode in this process, a global and a per-model concurrency cap, one record each.

    ``monitors``: the run's registries (``harness.run.registries``; None when no arm has a monitor)."""
    cfg = plan.cfg
    records_path, spend, todo = pending_work(plan, run_dir)
    factories, cache = arm_factories(plan, run_dir, factory, spend)
    chains = episode_chains(plan, monitors)

    global_sem = asyncio.Semaphore(cfg.concurrency)
    model_sems = {name: asyncio.Semaphore(spec.max_concurrency) for name, spec in plan.models.items()}
    progress = Progress(len(todo), cfg, spend)
    stopped_by_budget = False

    def budget_ok() -> bool:
        return within_budget(cfg, spend)

    stop = TaskStop()
    with RecordWriter(records_path) as writer:

        async def one(ep: EpisodeSpec) -> None:
            nonlocal stopped_by_budget
            # the model's own cap first: episodes queued behind a busy model must not hold global slots
            async with model_sems[ep.model], global_sem:
                if not budget_ok():  # stop scheduling: unstarted episodes stay unrecorded
                    if not stopped_by_budget:
                        log.warning(
                            "budget spent (%s USD, %d tokens): no new episode starts",
                            round(spend.usd, 6),
                            spend.tokens,
                        )
                    stopped_by_budget = True
                    return
                rec = await run_episode(
                    plan, ep, factories[ep.arm], chain_for(plan, chains, ep), budget_ok, run_dir
                )
                if stop.signum is None:  # an episode finishing after the stop is not recorded
                    writer.append(rec)
                    progress.add(rec)

        tasks = [asyncio.create_task(one(ep)) for ep in todo]
        stop.install(tasks)
        try:
            await wait_all(tasks)
        finally:
            stop.remove()
            progress.close()
            if cache is not None and hasattr(cache, "close"):
                cache.close()
            await close_world(plan)
            await drain_success_logging()  # a configured callback gets the last calls' events
    stop.raise_if_stopped()
    return run_summary(plan, records_path, todo, progress.counts, stopped_by_budget, spend, progress.rates())


async def wait_all(tasks: list[asyncio.Task[Any]]) -> None:
    """Wait until every task has ended (none outlives the records file). The first error cancels the
    rest and is raised once they have ended; a cancelled task is a stop, not an error."""
    pending = set(tasks)
    while pending:
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_EXCEPTION)
        failed = [t for t in done if not t.cancelled() and t.exception() is not None]
        if failed:  # a bug, not a stop: the others are cancelled, then the error goes up
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending)
            raise cast(BaseException, failed[0].exception())  # not None: ``failed`` keeps only those
