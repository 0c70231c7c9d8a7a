"""The run's contract registries: built once from the world's contract sources, served per group.

``traces``: contracts mined from the world's clean traces, cross-fitted, so an episode is checked by
the registry of its group's held-out fold (or the schema-only registry of the same folds);
``schemas``: each tool's result schema; ``database``: the world's public database, bound to the
tools that return its records. Registries are saved under ``<run>/registries/``. Knows no world.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.plugin import Plugin
from core.protocol import Environment
from harness.run.notices import Notice
from harness.run.plan import Plan

log = logging.getLogger(__name__)

MonitorSource = Callable[[str, str, str], Any]  # (group_id, variant, detector) -> monitor | None


@dataclass(frozen=True)
class ContractSpec:
    """What a run's registries are built from: the sources, the cross-fitting, the trace options."""

    sources: tuple[str, ...]
    n_folds: int = 5
    seed: int = 0
    traces: tuple[tuple[str, Any], ...] = ()  # options of the world's clean_traces, as sorted items
    schema_only: bool = False  # also the schema-only twins of the mined registries
    vocabulary: str = "paper"  # the mined registries' rule classes (paper | wide)
    wide: bool = False  # also twins mined with the wider vocabulary (arms with detector "wide")


@dataclass
class Parts:
    """The registries a monitor source serves (plain data: a forked child may build them)."""

    shared: Any  # schema and database rules, merged into every fold's registry
    mined: MinedRegistries | None

    def save(self, out: Path) -> None:
        """Every registry as a file under ``out`` (what ``verify`` hashes)."""
        out.mkdir(parents=True, exist_ok=True)
        if self.shared.n_rules:
            self.shared.save(out / "shared.json")
        if self.mined is not None:
            self.mined.crossfit.save(out / "crossfit.json")
            for k, registry in sorted(self.mined.schema_only.items()):
                registry.save(out / f"schema_only_fold{k}.json")
            for k, registry in sorted(self.mined.wide.items()):
                registry.save(out / f"wide_fold{k}.json")

    def registries(self, detector: str = "mined") -> list[Any]:
        """Each fold's registry as a monitor of ``detector`` checks with (shared rules merged in)."""
        if self.mined is None:
            return [self.shared]
        folds = [self.mined.registry(k, detector) for k in range(len(self.mined.crossfit.registries))]
        return [r.merged(self.shared) if self.shared.n_rules else r for r in folds]


def build_monitors(plan: Plan, run_dir: Path) -> MonitorSource | None:
    """Registries from the world's contract sources, built once and saved under ``registries/``.

    ``traces``: contracts mined from clean traces, cross-fitted, so an episode is checked by the
    registry of its group's held-out fold (or the schema-only registry of the same folds).
    ``schemas``: each tool's result schema. ``database``: the world's public database, bound to the
    tools that return its records. Every fold's registry holds the rules of every source used.
    """
    parts = monitor_parts(plan)
    if parts is not None:
        parts.save(run_dir / "registries")
    return monitors_from(plan, parts)


def monitors_from(plan: Plan, parts: Parts | None) -> MonitorSource | None:
    """The monitor source of built registries; what they leave unchecked becomes the run's notices."""
    if parts is not None:
        plan.notices.extend(coverage_notices(plan, parts))
    return monitor_source(plan.env.tool_specs(), parts)


def coverage_notices(plan: Plan, parts: Parts) -> list[Notice]:
    """A monitor without any rule, and tools the world's clean traces call (or, without traces, its read
    tools) that carry no rule in some fold's registry: each a notice on the monitored arms."""
    arms = tuple(sorted(a.name for a in plan.arms.values() if a.monitor != "none"))
    registries = parts.registries()
    if all(r.n_rules == 0 for r in registries):
        return [
            Notice(
                "monitor_no_rules",
                "all folds",
                f"the monitor of arm(s) {', '.join(arms)} holds no rule "
                f"(sources: {', '.join(plan_contracts(plan).sources)}): those arms are the baseline under "
                "another name",
                arms=arms,
            )
        ]
    if parts.mined is not None:
        used, where = sorted(parts.mined.tools), "its clean traces call"
    else:
        used = sorted(n for n, s in plan.env.tool_specs().items() if s.category == "read")
        where = "are read tools"
    bare = {t: sum(1 for r in registries if not r.rules.get(t)) for t in used}
    bare = {t: n for t, n in bare.items() if n}
    if not bare:
        return []
    shown = ", ".join(f"{t} ({n}/{len(registries)} folds)" for t, n in list(bare.items())[:8])
    return [
        Notice(
            "tool_without_rules",
            f"{len(bare)} tools",
            f"{len(bare)} of {len(used)} tools that {where} carry "
            f"no rule in some fold's registry, so their results go unchecked there: {shown}"
            f"{' ...' if len(bare) > 8 else ''}",
            arms=arms,
        )
    ]


COVERAGE_FILE = "coverage.json"  # beside the records: what the run's monitor reads of the results


def result_path_coverage(plan: Plan, parts: Parts | None) -> dict[str, Any] | None:
    """How much of the world's clean results the run's monitor reads: the share of result paths
    (``$.variants.*.price``: list elements and map entries generalised) that some rule reads, and
    that a rule beyond presence and type reads, each fold's registry over the clean traces of the
    groups it checks. For the run's notes and report; None without a monitor or clean traces."""
    if parts is None:
        return None
    return contract_coverage(plan.plugin, plan.env, plan_contracts(plan), parts)


def contract_coverage(
    plugin: Plugin, env: Environment, spec: ContractSpec, parts: Parts
) -> dict[str, Any] | None:
    """``result_path_coverage`` for a world, contract spec and built registries (no plan needed).

    Returns ``{"paths", "covered", "with_value_rule", "share", "value_share", "by_tool": {tool:
    {"paths", "share", "value_share"}}, "no_rule": [[tool, path, reason], ...]}`` (a path no fold reads at all, or only some); paths are counted
    once per fold (each fold's registry against the results it checks)."""
    from outcome_monitor.checking.coverage import Coverage, path_coverage

    from harness.monitor.crossfit import workflow_of

    try:
        traces = _traces_of(plugin, env, spec)
    except NotImplementedError:
        return None
    ok = [r for r in traces if r.get("status", "ok") != "error"]
    registries = parts.registries()
    if parts.mined is None:
        cov = path_coverage(registries[0], ok)
    else:
        by_fold: dict[int, list[Any]] = {}
        for r in ok:
            by_fold.setdefault(parts.mined.crossfit.fold(workflow_of(r)), []).append(r)
        cov = Coverage(
            [p for k, rows in sorted(by_fold.items()) for p in path_coverage(registries[k], rows).paths]
        )
    out: dict[str, Any] = cov.summary()
    out["by_tool"] = {
        t: {
            "paths": len(cov.of(t)),
            "share": cov.share(t),
            "value_share": cov.value_share(t),
        }
        for t in cov.tools()
    }
    no_rule: dict[tuple[str, str], str] = {}
    for p in cov.paths:
        if not p.covered:
            no_rule.setdefault((p.tool, p.path), p.reason)  # the first fold's reason
    out["no_rule"] = [[t, path, why] for (t, path), why in sorted(no_rule.items())]
    return out


def _traces_of(plugin: Plugin, env: Environment, spec: ContractSpec) -> list[Any]:
    """The clean traces the mined registries came from (the memo), else the world's clean traces."""
    key = _memo_key(plugin, env, spec)
    memo = _CROSSFIT_MEMO.get(key)
    if memo is not None:
        return memo[0]
    return list(plugin.clean_traces(env, **dict(spec.traces)))


def plan_contracts(plan: Plan) -> ContractSpec:
    monitored = [a for a in plan.arms.values() if a.monitor != "none"]
    return ContractSpec(
        sources=tuple(plan.cfg.monitor.sources or plan.plugin.contract_sources),
        n_folds=plan.cfg.monitor.n_folds,
        seed=plan.cfg.monitor.seed,
        traces=tuple(sorted(plan.cfg.study.env.traces.items())),
        schema_only=any(a.detector == "schema_only" for a in monitored),
        vocabulary=plan.cfg.monitor.vocabulary,
        wide=any(a.detector == "wide" for a in monitored),
    )


def monitor_parts(plan: Plan) -> Parts | None:
    """The registries of ``plan``'s monitored arms (in memory); None when no arm has a monitor."""
    if all(a.monitor == "none" for a in plan.arms.values()):
        return None
    return contract_parts(plan.plugin, plan.env, plan_contracts(plan))


def contract_parts(plugin: Plugin, env: Environment, spec: ContractSpec) -> Parts:
    """The registries of ``spec`` for a world: the one way they are built (runs, the driver, the
    validity study; ``python -m harness.monitor learn --env`` builds its shared rules the same way)."""
    from harness.monitor.sources import shared_registry

    shared = shared_registry(plugin, env, spec.sources)
    mined = MinedRegistries.build(plugin, env, spec) if "traces" in spec.sources else None
    return Parts(shared, mined)


def monitor_source(catalog: Mapping[str, Any], parts: Parts | None) -> MonitorSource | None:
    """(group, variant, detector) -> the monitor of that group's fold, made once per key."""
    if parts is None:
        return None
    from harness.monitor import Monitor

    shared, mined = parts.shared, parts.mined
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
    """Cross-fitted registries mined from the world's clean traces, and their schema-only and
    wide-vocabulary twins (the same folds)."""

    crossfit: Any
    schema_only: dict[int, Any]
    tools: frozenset[str] = frozenset()  # the tools the clean traces call successfully
    wide: dict[int, Any] = field(default_factory=dict)

    @classmethod
    def build(cls, plugin: Plugin, env: Environment, spec: ContractSpec) -> MinedRegistries:
        from outcome_monitor.registry import learn_schema_only

        from harness.monitor.crossfit import build_crossfit, workflow_of

        key = _memo_key(plugin, env, spec)
        memo = _CROSSFIT_MEMO.get(key)
        if memo is None:
            traces = list(plugin.clean_traces(env, **dict(spec.traces)))
            _CROSSFIT_MEMO.clear()
            memo = _CROSSFIT_MEMO[key] = (
                traces,
                build_crossfit(traces, n_folds=spec.n_folds, seed=spec.seed, vocabulary=spec.vocabulary),
            )
        traces, crossfit = memo
        schema_only: dict[int, Any] = {}
        if spec.schema_only:
            for k in range(spec.n_folds):
                schema_only[k] = learn_schema_only([r for r in traces if crossfit.fold(workflow_of(r)) != k])
        wide: dict[int, Any] = {}
        if spec.wide:
            if spec.vocabulary == "wide":
                wide = dict(enumerate(crossfit.registries))
            else:
                twins = build_crossfit(traces, n_folds=spec.n_folds, seed=spec.seed, vocabulary="wide")
                wide = dict(enumerate(twins.registries))
        tools = frozenset(str(r["tool"]) for r in traces if r.get("status", "ok") == "ok")
        return cls(crossfit, schema_only, tools, wide)

    def registry(self, fold: int, detector: str) -> Any:
        if detector == "schema_only":
            return self.schema_only[fold]
        if detector == "wide":
            return self.wide[fold]
        return self.crossfit.registries[fold]


def _memo_key(plugin: Plugin, env: Environment, spec: ContractSpec) -> str:
    return json.dumps(
        [plugin.name, plugin.data_digest(env), spec.traces, spec.n_folds, spec.seed, spec.vocabulary],
        sort_keys=True,
        default=str,
    )


# Cross-fitted registries are a pure function of the world's data, the trace options and the
# cross-fitting. A sweep's worker process runs several jobs of one study (joblib's loky reuses it),
# so every job after the first takes them from here instead of mining the same traces again. One
# entry: a worker holds no more traces than one job needs.
_CROSSFIT_MEMO: dict[str, tuple[list[Any], Any]] = {}


def database_registry(plugin: Plugin, env: Environment) -> Any:
    """Contracts of the world's public database, bound to the tools whose results are its records."""
    from harness.monitor.sources import database_registry as build

    return build(plugin, env)
