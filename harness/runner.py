"""The runner: study config -> frozen task list -> paired, interleaved schedule -> asyncio -> records.

``run_study(cfg, run_dir)`` is the whole run: it validates arms and models up front, builds the
monitor registries once (saved under ``registries/``), skips episodes already recorded (resume,
also after ``kill -9``), runs the rest with a global and a per-model concurrency cap, stops
scheduling when the USD/token budget is spent, and writes one record per episode plus its
transcript. Model calls go through a *completer factory* (default: ``harness.llm.models.acomplete``)
so tests can run the runner with fakes. Never reads or writes API key values.

Fault labels: with a fault injector, ``fault_class`` is the injector's class; for an environment
that perturbs results itself (ToolMaze), it is the task's planned payload kind read from the hidden
instance here (never shown to agents), while ids and pair ids keep the mode label so existing run
folders resume. Each record also lists ``fault_kinds_hit``, the kinds the episode actually received.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omegaconf import OmegaConf

from environments.base import Environment
from environments.registry import get_environment
from harness.agents import prompts
from harness.agents.loop import Completer, LoopResult, run_loop
from harness.agents.reviewer import ModelReviewer
from harness.config import ArmCfg, Config, load_arms, load_models, model_fields
from harness.llm.models import InfraError, ModelSpec, acomplete, check_model_available
from harness.manifest import finish_manifest, start_manifest, write_atomic
from harness.records import RECORD_VERSION, RecordWriter, latest_by_episode, load_records
from harness.stream import Interposer, MonitorInterposer
from harness.studies import EpisodeSpec, build_schedule, select_tasks

# spec, replicate -> completer; the default calls harness.llm.models.acomplete with the run's cache
CompleterFactory = Callable[[ModelSpec, int], Completer]
MonitorSource = Callable[[str, str, str], Any]  # (workflow_id, variant, detector) -> monitor | None

REVIEWER_SCRIPTED = "scripted-reviewer"


@dataclass
class Plan:
    """Everything resolved before the first episode starts."""

    cfg: Config
    env: Environment
    arms: dict[str, ArmCfg]
    models: dict[str, ModelSpec]
    reviewers: dict[str, ModelSpec]  # agent model name -> reviewer model spec
    schedule: list[EpisodeSpec]
    resolved: dict[str, Any]
    faults: list[Interposer] = field(default_factory=list)  # the fault injector(s), shared by every arm
    folds: dict[str, int | None] = field(default_factory=dict)


def make_env(cfg: Config) -> Environment:
    env_cfg = cfg.study.env
    if env_cfg.factory:  # "module:attr" (tests use a small fake world)
        import importlib

        module, _, attr = env_cfg.factory.partition(":")
        return getattr(importlib.import_module(module), attr)(**env_cfg.options)
    return get_environment(env_cfg.name, **env_cfg.options)


def spec_of(model: Any) -> ModelSpec:
    return ModelSpec.from_config(model_fields(model))


def plan_run(cfg: Config) -> Plan:
    """Resolve arms, models, environment and schedule; every config error surfaces here."""
    arms = {a.name: a for a in load_arms(cfg.arms)}
    models = {m.name: spec_of(m) for m in load_models(cfg.models, cfg.model_overrides)}
    reviewers: dict[str, ModelSpec] = {}
    if any(a.reviewer for a in arms.values()):
        from harness.agents.reviewer import register_scripted_reviewer

        register_scripted_reviewer()
        for name, spec in models.items():
            chosen = cfg.reviewer_model or (REVIEWER_SCRIPTED if spec.scripted else None)
            reviewers[name] = spec_of(load_models([chosen])[0]) if chosen else spec
    for spec in [*models.values(), *reviewers.values()]:
        check_model_available(spec)
    env = make_env(cfg)
    faults = fault_interposers(cfg)
    injected = (faults[0].spec.name, faults[0].spec.kind) if faults else None
    selected = select_tasks(
        env, cfg.study.split, cfg.study.selection.rule, cfg.study.selection.params, cfg.seed,
        injected=injected, fault_name=str(cfg.fault.get("name", "none")), limit=cfg.limit,
    )
    if not selected:
        raise ValueError(f"study {cfg.study.name!r} selects no task")
    schedule = build_schedule(cfg.study.name, selected, list(arms), list(models), cfg.seed, cfg.replicates)
    if injected is None:
        schedule = label_planned_faults(env, schedule)
    resolved = OmegaConf.to_container(OmegaConf.structured(cfg), resolve=True)
    assert isinstance(resolved, dict)
    plan = Plan(cfg, env, arms, models, reviewers, schedule, resolved, faults)
    record_folds(plan)
    return plan


# ---------------------------------------------------------------------------------------------
# fault labels of environments that perturb results themselves (ToolMaze)


def planned_fault_kind(env: Environment, task_id: str) -> str | None:
    """The environment's own fault kind for ``task_id`` (e.g. "negative_value"), from its hidden instance.

    Harness-side only, never shown to agents. A task may plant several payloads (one per route of a
    substitutable slot); the label is the first one on the instance's reference path (the C1 victim
    when there is one), so it is a property of the task and both arms of a pair share it. None when
    the environment has no hidden instance; "none" for an unperturbed task.
    """
    instance_of = getattr(env, "instance", None)
    if instance_of is None:
        return None
    inst = instance_of(task_id)
    faults = getattr(inst, "faults", None)
    if faults is None:
        return None
    if not faults:
        return "none"
    victim = getattr(inst, "c1_victim", None)
    if victim not in faults:
        paths = getattr(getattr(inst, "base", None), "paths", ()) or ()
        on_path = [t for t in (paths[0].tools if paths else ()) if t in faults]
        victim = on_path[0] if on_path else next(iter(faults))
    return str(faults[victim].kind)


def label_planned_faults(env: Environment, schedule: list[EpisodeSpec]) -> list[EpisodeSpec]:
    """``fault_class`` := the planned fault kind of each task (ids and pair ids keep the mode label)."""
    kinds: dict[str, str | None] = {}
    out = []
    for ep in schedule:
        if ep.task_id not in kinds:
            kinds[ep.task_id] = planned_fault_kind(env, ep.task_id)
        kind = kinds[ep.task_id]
        out.append(ep if kind is None else dataclasses.replace(ep, fault_class=kind))
    return out


def fault_kinds_hit(results_meta: list[dict]) -> list[str]:
    """The environment's fault kinds the episode actually received, in call order (ToolResult.meta)."""
    return [str(m["fault_kind"]) for m in results_meta if m.get("perturbed") and m.get("fault_kind")]


# ---------------------------------------------------------------------------------------------
# the tool-result stream of an arm


def fault_interposers(cfg: Config) -> list[Interposer]:
    """The fault library's injector when the fault config names a fault, else none (none, toolmaze)."""
    from harness.faults.inject import build_injector

    injector = build_injector(cfg.fault, seed=cfg.seed)
    return [] if injector is None else [injector]


def arm_interposers(arm: ArmCfg, faults: list[Interposer], monitors: MonitorSource | None) -> list[Interposer]:
    chain = list(faults)
    if arm.monitor != "none":
        if monitors is None:
            raise ValueError(f"arm {arm.name!r} needs a monitor but none was built")
        chain.append(
            MonitorInterposer(lambda ctx: monitors(ctx.task.workflow_id, arm.monitor, arm.detector), arm.delivery)
        )
    return chain


def _import_attr(ref: str) -> Any:
    import importlib

    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


def record_folds(plan: Plan) -> None:
    """Each workflow's cross-fitting fold (from its id alone), recorded for every arm."""
    from harness.monitor.crossfit import fold_of

    n, seed = plan.cfg.monitor.n_folds, plan.cfg.monitor.seed
    plan.folds.update({ep.workflow_id: fold_of(ep.workflow_id, n, seed) for ep in plan.schedule})


def build_monitors(plan: Plan, run_dir: Path) -> MonitorSource | None:
    """Cross-fitted registries from clean traces, built once and saved under ``registries/``.

    An episode is checked by the registry of its workflow's held-out fold (mined contracts), or
    by the schema-only registry learned from the same training folds.
    """
    if all(a.monitor == "none" for a in plan.arms.values()):
        return None
    from harness.monitor import Monitor
    from harness.monitor.crossfit import build_crossfit, workflow_of
    from harness.monitor.registry import learn_schema_only

    env_cfg = plan.cfg.study.env
    if not env_cfg.clean_traces:
        raise ValueError(f"environment {env_cfg.name!r} names no clean_traces source: monitor arms need one")
    traces = list(_import_attr(env_cfg.clean_traces)(plan.env, **env_cfg.clean_traces_args))
    n, seed = plan.cfg.monitor.n_folds, plan.cfg.monitor.seed
    out = run_dir / "registries"
    out.mkdir(parents=True, exist_ok=True)
    crossfit = build_crossfit(traces, n_folds=n, seed=seed)
    crossfit.save(out / "crossfit.json")
    schema_only: dict[int, Any] = {}
    if any(a.detector == "schema_only" for a in plan.arms.values() if a.monitor != "none"):
        for k in range(n):
            schema_only[k] = learn_schema_only([r for r in traces if crossfit.fold(workflow_of(r)) != k])
            schema_only[k].save(out / f"schema_only_fold{k}.json")
    catalog = plan.env.tool_specs()
    cache: dict[tuple[int, str, str], Any] = {}

    def source(workflow_id: str, variant: str, detector: str) -> Any:
        fold = crossfit.fold(workflow_id)
        key = (fold, variant, detector)
        if key not in cache:
            registry = schema_only[fold] if detector == "schema_only" else crossfit.registry_for(workflow_id)
            cache[key] = Monitor(registry, catalog, variant)
        return cache[key]

    return source


# ---------------------------------------------------------------------------------------------
# budget and progress


@dataclass
class Spend:
    """Money and tokens spent by the run so far (earlier invocations included), updated per call."""

    usd: float = 0.0
    tokens: int = 0

    def charge(self, completion: Any) -> None:
        usage = completion.usage or {}
        self.usd += float(completion.cost_usd or 0.0)
        self.tokens += int(usage.get("prompt_tokens") or 0) + int(usage.get("completion_tokens") or 0)

    def add(self, rec: dict) -> None:
        self.usd += float(rec.get("cost_usd") or 0.0) + float(rec.get("reviewer_cost_usd") or 0.0)
        self.tokens += int(rec.get("prompt_tokens") or 0) + int(rec.get("completion_tokens") or 0)
        self.tokens += int(rec.get("reviewer_prompt_tokens") or 0) + int(rec.get("reviewer_completion_tokens") or 0)


def within_budget(cfg: Config, spend: Spend) -> bool:
    if cfg.budget.usd is not None and spend.usd >= cfg.budget.usd:
        return False
    return not (cfg.budget.tokens is not None and spend.tokens >= cfg.budget.tokens)


def _default_factory(cache: Any) -> CompleterFactory:
    def factory(spec: ModelSpec, replicate: int) -> Completer:
        async def complete(messages: list[dict], tools: list[dict]) -> Any:
            return await acomplete(spec, messages, tools, replicate=replicate, cache=cache)

        return complete

    return factory


def _metered(factory: CompleterFactory, spend: Spend) -> CompleterFactory:
    """Charge every completion (agent and reviewer) to the run's spend as it returns."""

    def metered_factory(spec: ModelSpec, replicate: int) -> Completer:
        inner = factory(spec, replicate)

        async def complete(messages: list[dict], tools: list[dict]) -> Any:
            completion = await inner(messages, tools)
            spend.charge(completion)
            return completion

        return complete

    return metered_factory


def _open_cache(cfg: Config) -> Any:
    if cfg.cache.mode == "off":
        return None
    from harness.llm.cache import Cache

    Path(cfg.cache.path).parent.mkdir(parents=True, exist_ok=True)
    return Cache(cfg.cache.path, mode=cfg.cache.mode)


# ---------------------------------------------------------------------------------------------
# one episode


def _jsonable(obj: Any) -> Any:
    return json.loads(json.dumps(obj, ensure_ascii=False, default=str))


def episode_record(plan: Plan, ep: EpisodeSpec, loop: LoopResult, success: bool, status: str,
                   trace_check: dict | None, latency_s: float, transcript: str) -> dict[str, Any]:
    spec = plan.models[ep.model]
    return {
        "record_version": RECORD_VERSION,
        "study": ep.study,
        "arm": ep.arm,
        "model": ep.model,
        "task_id": ep.task_id,
        "workflow_id": ep.workflow_id,
        "fold": plan.folds.get(ep.workflow_id),
        "fault_class": ep.fault_class,
        "fault_kind": ep.fault_kind,
        "fault_kinds_hit": fault_kinds_hit(loop.results_meta),
        "seed": ep.seed,
        "pair_id": ep.pair_id,
        "success": bool(success),
        "status": status,
        "env": plan.cfg.study.env.name,
        "complexity": ep.complexity,
        "mode": ep.mode,
        "replicate": ep.replicate,
        "episode_id": ep.episode_id,
        "scripted": bool(spec.scripted),
        "tool_calls": _jsonable(loop.tool_calls),
        "n_tool_calls": sum(1 for c in loop.tool_calls if c["status"] in ("ok", "error")),
        "ignored_parallel_calls": loop.ignored_parallel_calls,
        "receipts": _jsonable(loop.receipts),
        "n_receipts": len(loop.receipts),
        "hit": loop.hit,
        "final_answer": loop.final_answer,
        "finish_status": loop.finish_status,
        "stop_reason": loop.stop_reason,
        "rounds": loop.rounds,
        "prompt_tokens": loop.prompt_tokens,
        "completion_tokens": loop.completion_tokens,
        "cost_usd": loop.cost_usd,
        "reviewer_calls": loop.reviewer_calls,
        "reviewer_prompt_tokens": loop.reviewer_prompt_tokens,
        "reviewer_completion_tokens": loop.reviewer_completion_tokens,
        "reviewer_cost_usd": loop.reviewer_cost_usd,
        "latency_s": latency_s,
        "error": loop.error,
        "error_kind": loop.error_kind,
        "transcript": transcript,
        "trace_check": _jsonable(trace_check) if trace_check is not None else None,
        "labels": _jsonable(loop.labels),
    }


async def run_episode(plan: Plan, ep: EpisodeSpec, factory: CompleterFactory, interposers: list[Interposer],
                      budget_ok: Callable[[], bool], run_dir: Path) -> dict[str, Any]:
    arm = plan.arms[ep.arm]
    spec = plan.models[ep.model]
    if arm.reasoning_budget is not None:  # scripted providers accept it too (recorded, ignored): same path
        spec = dataclasses.replace(spec, reasoning_budget=arm.reasoning_budget)
    reviewer = None
    if arm.reviewer:
        reviewer = ModelReviewer(factory(plan.reviewers[ep.model], ep.replicate))
    task = plan.env.task(ep.task_id)
    episode = plan.env.start(ep.task_id, seed=ep.seed)
    t0 = time.monotonic()  # latency is a measurement, never an input to a draw
    loop = await run_loop(
        episode, task, factory(spec, ep.replicate),
        system_prompt=prompts.system_prompt(arm.prompt, task.terminal_tool),
        interposers=interposers, seed=ep.seed, max_rounds=plan.cfg.study.env.max_rounds,
        delivery=arm.delivery, reviewer=reviewer, max_reviewer_calls=arm.max_reviewer_calls,
        budget_ok=budget_ok, infra_errors=(InfraError,),
    )
    trace_check = None
    success = False
    if loop.stop_reason == "infra_error":
        status = "infra_error"
    elif loop.stop_reason == "budget":
        status = "budget_exhausted"
    else:
        outcome = episode.score(loop.final_answer)
        details = outcome.details or {}
        trace_check = details.get("trace_check", details)
        success = bool(outcome.success) and loop.stop_reason != "round_cap"
        status = "completed" if success else "agent_failed"
    latency = time.monotonic() - t0
    transcript = f"transcripts/{ep.episode_id}.json"
    write_atomic(run_dir / transcript, {
        "episode": ep.to_json(), "arm": dataclasses.asdict(arm), "model": spec.name, "litellm_model": spec.model,
        "tools": [s.openai_schema() for s in episode.tools()], "messages": loop.messages, "turns": loop.turns,
        "results_meta": _jsonable(loop.results_meta), "reviews": loop.reviews, "status": status,
    })
    return episode_record(plan, ep, loop, success, status, trace_check, latency, transcript)


# ---------------------------------------------------------------------------------------------
# the run


def pending_episodes(schedule: list[EpisodeSpec], records: list[dict], retry_infra: bool) -> list[EpisodeSpec]:
    """Episodes still to run: never recorded, stopped by the budget, or (when asked) infra errors."""
    latest = latest_by_episode(records)
    todo = []
    for ep in schedule:
        rec = latest.get(ep.episode_id)
        if rec is None or rec.get("status") == "budget_exhausted":
            todo.append(ep)
        elif retry_infra and rec.get("status") == "infra_error":
            todo.append(ep)
    return todo


def progress_text(counts: Counter[str], arms: Counter[str], models: Counter[str], spend: Spend) -> str:
    """The progress bar's postfix: outcomes, errors, cost, and the arm/model mix so far."""
    def mix(c: Counter[str]) -> str:
        return " ".join(f"{k}:{v}" for k, v in sorted(c.items()))

    return (f"ok {counts['completed']} fail {counts['agent_failed']} infra {counts['infra_error']} "
            f"budget {counts['budget_exhausted']} ${spend.usd:.4f} | {mix(arms)} | {mix(models)}")


def _progress(total: int, enabled: bool, desc: str) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, disable=not enabled, desc=desc, unit="ep", dynamic_ncols=True, mininterval=1.0)


async def execute(plan: Plan, run_dir: Path, factory: CompleterFactory | None = None,
                  monitors: MonitorSource | None = None) -> dict[str, Any]:
    cfg = plan.cfg
    (run_dir / "transcripts").mkdir(parents=True, exist_ok=True)
    records_path = run_dir / "episodes.jsonl"
    existing = load_records(records_path, repair=True)
    spend = Spend()
    for rec in existing:  # superseded attempts cost money too
        spend.add(rec)
    todo = pending_episodes(plan.schedule, existing, cfg.retry_infra_errors)
    cache = None
    if factory is None:
        cache = _open_cache(cfg)
        factory = _default_factory(cache)
    factory = _metered(factory, spend)
    if monitors is None:
        monitors = build_monitors(plan, run_dir)
    chains = {name: arm_interposers(arm, plan.faults, monitors) for name, arm in plan.arms.items()}

    global_sem = asyncio.Semaphore(cfg.concurrency)
    model_sems = {name: asyncio.Semaphore(spec.max_concurrency) for name, spec in plan.models.items()}
    counts: Counter[str] = Counter()
    arms_done: Counter[str] = Counter()
    models_done: Counter[str] = Counter()
    bar = _progress(len(todo), cfg.progress, cfg.study.name)
    stopped_by_budget = False

    def budget_ok() -> bool:
        return within_budget(cfg, spend)

    with RecordWriter(records_path) as writer:
        async def one(ep: EpisodeSpec) -> None:
            nonlocal stopped_by_budget
            # the model's own cap first: episodes queued behind a busy model must not hold global slots
            async with model_sems[ep.model], global_sem:
                if not budget_ok():  # stop scheduling: unstarted episodes stay unrecorded
                    stopped_by_budget = True
                    return
                rec = await run_episode(plan, ep, factory, chains[ep.arm], budget_ok, run_dir)
                writer.append(rec)
                counts[rec["status"]] += 1
                arms_done[ep.arm] += 1
                models_done[ep.model] += 1
                bar.update(1)
                bar.set_postfix_str(progress_text(counts, arms_done, models_done, spend), refresh=False)

        try:
            await asyncio.gather(*(one(ep) for ep in todo))
        finally:
            bar.close()
            if cache is not None and hasattr(cache, "close"):
                cache.close()
    final = latest_by_episode(load_records(records_path, repair=False))
    in_schedule = {ep.episode_id for ep in plan.schedule}
    by_status = Counter(r.get("status") for eid, r in final.items() if eid in in_schedule)
    return {
        "planned": len(plan.schedule),
        "ran_now": sum(counts.values()),
        "skipped_finished": len(plan.schedule) - len(todo),
        "by_status": dict(by_status),
        "stopped_by_budget": stopped_by_budget or counts["budget_exhausted"] > 0,
        "cost_usd": round(spend.usd, 6),
        "tokens": spend.tokens,
    }


def run_study(cfg: Config, run_dir: Path | str, factory: CompleterFactory | None = None,
              monitors: MonitorSource | None = None, plan: Plan | None = None) -> dict[str, Any]:
    """Plan, write config + manifest, run what is pending, update the manifest; returns the counts.

    ``factory`` and ``monitors`` replace the model adapter and the mined monitors (tests use fakes);
    ``plan`` is a plan already made from ``cfg`` (the CLI plans first to report config errors cleanly).
    """
    run_dir = Path(run_dir)
    plan = plan if plan is not None else plan_run(cfg)
    run_dir.mkdir(parents=True, exist_ok=True)
    manifest = start_manifest(run_dir, plan.resolved, len(plan.schedule))
    (run_dir / "config.yaml").write_text(OmegaConf.to_yaml(OmegaConf.create(plan.resolved)))
    counts = asyncio.run(execute(plan, run_dir, factory, monitors))
    finish_manifest(run_dir, manifest, counts)
    return counts

