"""The run's contract registries: built once from the world's contract sources, served per group.

``traces``: contracts mined from the world's clean traces, cross-fitted, so an episode is checked by
the registry of its group's held-out fold (or the schema-only registry of the same folds);
``schemas``: each tool's result schema; ``database``: the world's public database, bound to the
tools that return its records. Registries are saved under ``<run>/registries/``. Knows no world.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.plan import Plan

log = logging.getLogger(__name__)

MonitorSource = Callable[[str, str, str], Any]  # (group_id, variant, detector) -> monitor | None


def build_monitors(plan: Plan, run_dir: Path) -> MonitorSource | None:
    """Registries from the world's contract sources, built once and saved under ``registries/``.

    ``traces``: contracts mined from clean traces, cross-fitted, so an episode is checked by the
    registry of its group's held-out fold (or the schema-only registry of the same folds).
    ``schemas``: each tool's result schema. ``database``: the world's public database, bound to the
    tools that return its records. Every fold's registry holds the rules of every source used.
    """
    return monitor_source(plan, monitor_parts(plan, run_dir))


def monitor_parts(plan: Plan, run_dir: Path) -> tuple[Any, MinedRegistries | None] | None:
    """The registries ``build_monitors`` serves (plain data: a forked child may build them), or None
    when no arm has a monitor."""
    if all(a.monitor == "none" for a in plan.arms.values()):
        return None
    from harness.monitor.registry import Registry

    sources = list(plan.cfg.monitor.sources or plan.plugin.contract_sources)
    out = run_dir / "registries"
    out.mkdir(parents=True, exist_ok=True)
    shared = Registry([], {"source": "+".join(s for s in sources if s != "traces") or "none"})
    if "schemas" in sources:
        from harness.monitor import registry_from_schemas

        shared = shared.merged(registry_from_schemas(plan.plugin.tool_schemas(plan.env)))
    if "database" in sources:
        shared = shared.merged(database_registry(plan))
    if shared.n_rules:
        shared.save(out / "shared.json")
    mined = MinedRegistries.build(plan, out) if "traces" in sources else None
    return shared, mined


def monitor_source(plan: Plan, parts: tuple[Any, MinedRegistries | None] | None) -> MonitorSource | None:
    """(group, variant, detector) -> the monitor of that group's fold, made once per key."""
    if parts is None:
        return None
    from harness.monitor import Monitor

    shared, mined = parts
    catalog = plan.env.tool_specs()
    cache: dict[tuple[int, str, str], Any] = {}

    def source(group_id: str, variant: str, detector: str) -> Any:
        fold = mined.crossfit.fold(group_id) if mined else 0
        key = (fold, variant, detector)
        if key not in cache:
            registry = shared if mined is None else mined.registry(fold, detector)
            if mined is not None and shared.n_rules:
                registry = registry.merged(shared)
            cache[key] = Monitor(registry, catalog, variant)
        return cache[key]

    return source


@dataclass
class MinedRegistries:
    """Cross-fitted registries mined from the world's clean traces, and their schema-only twins."""

    crossfit: Any
    schema_only: dict[int, Any]

    @classmethod
    def build(cls, plan: Plan, out: Path) -> MinedRegistries:
        from harness.monitor.crossfit import build_crossfit, workflow_of
        from harness.monitor.registry import learn_schema_only

        n, seed = plan.cfg.monitor.n_folds, plan.cfg.monitor.seed
        key = crossfit_key(plan)
        memo = _CROSSFIT_MEMO.get(key)
        if memo is None:
            traces = list(plan.plugin.clean_traces(plan.env, **plan.cfg.study.env.traces))
            _CROSSFIT_MEMO.clear()
            memo = _CROSSFIT_MEMO[key] = (traces, build_crossfit(traces, n_folds=n, seed=seed))
        traces, crossfit = memo
        crossfit.save(out / "crossfit.json")
        schema_only: dict[int, Any] = {}
        if any(a.detector == "schema_only" for a in plan.arms.values() if a.monitor != "none"):
            for k in range(n):
                schema_only[k] = learn_schema_only([r for r in traces if crossfit.fold(workflow_of(r)) != k])
                schema_only[k].save(out / f"schema_only_fold{k}.json")
        return cls(crossfit, schema_only)

    def registry(self, fold: int, detector: str) -> Any:
        return self.schema_only[fold] if detector == "schema_only" else self.crossfit.registries[fold]


# Cross-fitted registries are a pure function of the world's data and the study's env and monitor
# config. A sweep's worker process runs several jobs of one study (joblib's loky reuses it), so
# every job after the first takes them from here instead of mining the same traces again. One
# entry: a worker holds no more traces than one job needs.
_CROSSFIT_MEMO: dict[str, tuple[list[Any], Any]] = {}


def crossfit_key(plan: Plan) -> str:
    parts = [
        plan.plugin.name,
        plan.plugin.data_digest(plan.env),
        plan.resolved.get("study", {}).get("env"),
        plan.resolved.get("monitor"),
    ]
    return json.dumps(parts, sort_keys=True, default=str)


def database_registry(plan: Plan) -> Any:
    """Contracts of the world's public database, bound to the tools whose results are its records."""
    from harness.monitor import bind_records, from_records
    from harness.monitor.registry import Registry

    db = plan.plugin.database(plan.env)
    by_collection = from_records(db.collections)
    rules = []
    for tool, places in sorted(db.bindings.items()):
        for collection, context in places:
            if collection not in by_collection:
                raise ValueError(
                    f"environment {plan.plugin.name!r} binds {tool} to unknown collection {collection!r}"
                )
            rules.extend(bind_records(by_collection[collection], tool, context))
    return Registry(rules, {"source": "database"})
