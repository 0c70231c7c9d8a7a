"""The runner: a study config -> its plan -> episodes in this process or in forked workers -> records.

``run_study(cfg, run_dir)`` is the whole run: it plans (``harness.run.plan``: world, arms, models,
faults, the paired schedule; every config error before anything is written), writes the config and
the manifest, builds the contract registries once (``harness.run.registries``), skips episodes already
recorded (resume, also after ``kill -9``), runs the rest (``execute`` here, or ``harness.run.workers``
with forked processes) with a global and a per-model concurrency cap, stops scheduling when the
USD/token budget is spent, and writes one record per episode (``harness.run.episode``) plus its
transcript. Model calls go through a *completer factory* (default: ``harness.llm.models.acomplete``)
so tests can run the runner with fakes. Knows no particular world; never reads API key values.

Fault labels: with a fault injector, ``fault_class`` is the injector's name; for a world that plants
its own faults (``Plugin.planned_fault``) it is the world's class, while ids and pair ids use the
world's label. Each record also lists ``fault_kinds_hit``, the kinds the episode actually received.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from omegaconf import OmegaConf

from harness.config import Config
from harness.records import load_records
from harness.run import stopping
from harness.run.manifest import check_resume, finish_manifest, start_manifest, write_atomic
from harness.run.plan import Plan, faults_without_target, plan_run
from harness.run.process import CompleterFactory, execute
from harness.run.registries import (
    COVERAGE_FILE,
    MonitorSource,
    Parts,
    monitor_parts,
    monitors_from,
    result_path_coverage,
)
from harness.run.rundir import untouched_unless_recorded
from harness.run.workers import execute_forked, parts_beside_litellm, worker_count

log = logging.getLogger(__name__)


def world_description(plan: Plan) -> dict[str, Any]:
    """``world.json``: how the world's results read (its plugin's presentation), beside the records."""
    return {
        "name": plan.plugin.name,
        "options": dict(plan.cfg.study.env.options),
        **plan.plugin.presentation(plan.env),
    }


def run_study(
    cfg: Config,
    run_dir: Path | str,
    factory: CompleterFactory | None = None,
    monitors: MonitorSource | None = None,
    plan: Plan | None = None,
    multirun: bool = False,
) -> dict[str, Any]:
    """Plan, check, write config + manifest, run what is pending, update the manifest; returns the counts.

    Every refusal comes before the first write (``harness.run.rundir``): the plan, the worker count, the
    resume checks (same configuration and price table, readable records), the contracts and, with
    ``strict``, the notices. ``factory`` and ``monitors`` replace the model adapter and the mined
    monitors (tests use fakes); ``plan`` is a plan already made from ``cfg``. With ``workers`` > 1
    (``harness.run.workers``) the episodes run in forked processes; ``multirun``: this run is one job of
    a sweep (``workers: 0`` then means one process).
    """
    run_dir = Path(run_dir)
    plan = plan if plan is not None else plan_run(cfg)
    workers = worker_count(cfg.workers, plan, multirun)
    check_resume(run_dir, plan.resolved)
    load_records(run_dir / "episodes.jsonl", repair=False)  # a corrupt records file stops the run here
    parts = None
    if monitors is None:
        parts = parts_beside_litellm(plan) if workers > 1 and factory is None else monitor_parts(plan)
        monitors = monitors_from(plan, parts)
    if cfg.strict:  # known only by trying each fault on the world's clean results: paid for when asked
        plan.notices.extend(faults_without_target(plan))
    plan.notices.enforce(cfg.strict)
    stopping.check()  # a stop asked for while planning or building contracts
    from harness.run.fingerprint import plan_fingerprint, registries_digest

    with untouched_unless_recorded(run_dir):
        run_dir.mkdir(parents=True, exist_ok=True)
        manifest = start_manifest(run_dir, plan.resolved, len(plan.schedule), plan_fingerprint(plan))
        (run_dir / "config.yaml").write_text(OmegaConf.to_yaml(OmegaConf.create(plan.resolved)))
        write_atomic(run_dir / "world.json", world_description(plan))
        if parts is not None:
            parts.save(run_dir / "registries")
        coverage = write_coverage(plan, parts, run_dir)
        if workers > 1:
            counts = execute_forked(plan, run_dir, workers, monitors, factory)
        else:
            counts = asyncio.run(execute(plan, run_dir, monitors, factory))
    manifest["fingerprint"]["registries"] = registries_digest(run_dir / "registries")
    notices = plan.notices.manifest(counts.pop("notice_codes", None))
    if coverage is not None:
        manifest["coverage"] = coverage
    finish_manifest(run_dir, manifest, {**counts, "notices": notices})
    return counts


def write_coverage(plan: Plan, parts: Parts | None, run_dir: Path) -> dict[str, Any] | None:
    """``coverage.json``: the share of the world's clean result paths the run's monitor reads (per tool,
    and each path no rule reads with why), one line of it in ``run.log``; the summary for the manifest.
    None when no arm has a monitor or the world has no clean traces."""
    cov = result_path_coverage(plan, parts)
    if cov is None:
        return None
    write_atomic(run_dir / COVERAGE_FILE, cov)
    unread = len(cov["no_rule"])
    log.info(
        "monitor coverage: %.1f%% of %d result paths read by a rule, %.1f%% by one beyond presence and "
        "type; %d path(s) no rule reads (%s; python -m harness.monitor coverage --env %s)",
        100 * cov["share"],
        cov["paths"],
        100 * cov["value_share"],
        unread,
        COVERAGE_FILE,
        plan.plugin.name,
    )
    return {k: cov[k] for k in ("paths", "covered", "with_value_rule", "share", "value_share")}
