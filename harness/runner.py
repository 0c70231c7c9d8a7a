"""The runner: study config -> frozen task list -> paired, interleaved schedule -> asyncio -> records.

``run_study(cfg, run_dir)`` is the whole run: it resolves the world through its plugin, validates
arms and models up front (a scripted policy must be able to play the world), builds the monitor
registries once from the contract sources the world offers (saved under ``registries/``), skips
episodes already recorded (resume, also after ``kill -9``), runs the rest with a global and a
per-model concurrency cap, stops scheduling when the USD/token budget is spent, and writes one
record per episode plus its transcript. An exception from the world, its bridge or its user becomes
an ``env_error`` record (infrastructure: never scored, rerun by ``--retry-infra-errors``) and the
run goes on. Model calls go through a *completer factory* (default: ``harness.llm.models.acomplete``)
so tests can run the runner with fakes. Knows no particular world; never reads API key values.

Fault labels: with a fault injector, ``fault_class`` is the injector's name; for a world that plants
its own faults (``Plugin.planned_fault``) it is the world's class, while ids and pair ids use the
world's label. Each record also lists ``fault_kinds_hit``, the kinds the episode actually received.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omegaconf import OmegaConf

from core.plugin import Plugin
from core.protocol import Environment
from core.worlds import UnknownEnvironmentError, get_plugin
from harness.agents import prompts
from harness.agents.loop import Completer, LoopResult, run_loop
from harness.agents.reviewer import ModelReviewer
from harness.config import ArmCfg, Config, load_arms, load_fault, load_models, model_fields
from harness.llm.inline import run_inline_if_scripted
from harness.llm.models import InfraError, ModelConfigError, ModelSpec, acomplete, check_model_available
from harness.llm.providers import registry as policies
from harness.manifest import finish_manifest, start_manifest, write_atomic
from harness.records import RECORD_VERSION, EpisodeRecord, RecordWriter, latest_by_episode, load_records
from harness.stream import Interposer, MonitorInterposer
from harness.studies import EpisodeSpec, build_schedule, select_tasks

log = logging.getLogger(__name__)

# spec, replicate -> completer; the default calls harness.llm.models.acomplete with the run's cache
CompleterFactory = Callable[[ModelSpec, int], Completer]
MonitorSource = Callable[[str, str, str], Any]  # (group_id, variant, detector) -> monitor | None

REVIEWER_SCRIPTED = "scripted-reviewer"
RETRIED_STATUSES = ("infra_error", "env_error")  # what --retry-infra-errors reruns


@dataclass
class Plan:
    """Everything resolved before the first episode starts."""

    cfg: Config
    plugin: Plugin
    env: Environment
    arms: dict[str, ArmCfg]
    models: dict[str, ModelSpec]
    reviewers: dict[str, ModelSpec]  # agent model name -> reviewer model spec
    user: ModelSpec | None  # the world's simulated user, when it has one
    schedule: list[EpisodeSpec]
    resolved: dict[str, Any]
    # fault label -> its injector (shared by every arm); a study may cross its tasks with several faults
    faults: dict[str, Interposer] = field(default_factory=dict)
    folds: dict[str, int | None] = field(default_factory=dict)

    def specs(self) -> list[ModelSpec]:
        return model_specs(self.models, self.reviewers, self.user)


def model_specs(
    models: dict[str, ModelSpec], reviewers: dict[str, ModelSpec], user: ModelSpec | None
) -> list[ModelSpec]:
    """Every model a run calls: agents, reviewers and the simulated user."""
    return [*models.values(), *reviewers.values(), *([user] if user else [])]


def spec_of(model: Any) -> ModelSpec:
    return ModelSpec.from_config(model_fields(model))


def register_world_players(plugin: Plugin) -> dict[str, str]:
    """Register the world's own scripted agents and users as ``<world>.<name>``; returns name -> policy."""
    out = {}
    for name, factory in {**plugin.scripted_policies(), **plugin.scripted_users()}.items():
        policies.register_policy(f"{plugin.name}.{name}", factory)
        out[name] = f"{plugin.name}.{name}"
    return out


def fit_to_world(spec: ModelSpec, plugin: Plugin, own: dict[str, str]) -> ModelSpec:
    """A scripted model for this world: the world's own player of that name, or a generic one that
    understands the world's conventions; anything else is refused before any episode."""
    if spec.provider != "scripted":
        return spec
    name = spec.model.split("/", 1)[1]
    if name in own:
        return dataclasses.replace(spec, model=f"scripted/{own[name]}")
    try:
        needs = policies.plays(name)
    except KeyError as exc:
        raise ModelConfigError(f"model {spec.name!r}: {exc.args[0]}") from None
    if needs is None or needs & set(plugin.conventions):
        return spec
    raise ModelConfigError(
        f"model {spec.name!r}: scripted policy {name!r} was written for worlds following {sorted(needs)}, and "
        f"environment {plugin.name!r} follows {list(plugin.conventions) or 'none of them'}; it would score 0 "
        f"without meaning it. Scripted players this world ships: {sorted(own) or 'none'}"
    )


def sampled(spec: ModelSpec, cfg: Config) -> ModelSpec:
    """The agent model with the study's sampling settings (recorded in the resolved specs)."""
    if cfg.sampling.temperature is None:
        return spec
    return dataclasses.replace(spec, temperature=float(cfg.sampling.temperature))


def resolved_specs(plan_parts: dict[str, Any]) -> dict[str, Any]:
    """The resolved specs (not just names) that enter the saved config, the manifest and the identity hash."""
    return json.loads(json.dumps(plan_parts, default=lambda o: dataclasses.asdict(o)))


def plan_run(cfg: Config) -> Plan:
    """Resolve world, arms, models and schedule; every config error surfaces here (ValueError family)."""
    try:
        plugin = get_plugin(cfg.study.env.name)
    except UnknownEnvironmentError as exc:
        raise ValueError(exc.args[0]) from None
    own = register_world_players(plugin)
    arms = {a.name: a for a in ([cfg.arm] if cfg.arm is not None else load_arms(cfg.arms))}
    chosen = [cfg.model] if cfg.model is not None else load_models(cfg.models, cfg.model_overrides)
    models = {m.name: sampled(fit_to_world(spec_of(m), plugin, own), cfg) for m in chosen}
    reviewers: dict[str, ModelSpec] = {}
    if any(a.reviewer for a in arms.values()):
        from harness.agents.reviewer import register_scripted_reviewer

        register_scripted_reviewer()
        for name, spec in models.items():
            chosen = cfg.reviewer_model or (REVIEWER_SCRIPTED if spec.scripted else None)
            reviewers[name] = spec_of(load_models([chosen])[0]) if chosen else spec
    try:
        env = plugin.make(**cfg.study.env.options)
    except TypeError as exc:
        raise ValueError(f"environment {plugin.name!r}: bad study.env.options: {exc}") from None
    user = None
    if getattr(env, "needs_user", False):
        user = spec_of(load_models([cfg.user_model or default_user(plugin, own)])[0])
        user = fit_to_world(user, plugin, own)
    for spec in model_specs(models, reviewers, user):  # before any task is selected
        check_model_available(spec)
    faults = fault_injectors(cfg)
    selected = []
    for injector in faults.values() or [None]:  # every task under each fault, the limit per fault
        injected = (injector.spec.name, injector.spec.kind) if injector is not None else None
        selected += select_tasks(
            env,
            plugin,
            cfg.study.split,
            cfg.study.selection.rule,
            cfg.study.selection.params,
            cfg.seed,
            injected=injected,
            fault_name=str(cfg.fault.get("name", "none")),
            limit=cfg.limit,
        )
    if not selected:
        raise ValueError(f"study {cfg.study.name!r} selects no task")
    schedule = build_schedule(cfg.study.name, selected, list(arms), list(models), cfg.seed, cfg.replicates)
    resolved = OmegaConf.to_container(OmegaConf.structured(cfg), resolve=True)
    assert isinstance(resolved, dict)
    resolved["resolved"] = resolved_specs(
        {
            "arms": arms,
            "models": models,
            "reviewers": reviewers,
            "user": user,
            "env": {
                "name": plugin.name,
                "options": dict(cfg.study.env.options),
                "contract_sources": list(cfg.monitor.sources or plugin.contract_sources),
            },
        }
    )
    plan = Plan(cfg, plugin, env, arms, models, reviewers, user, schedule, resolved, faults)
    record_folds(plan)
    log.info(
        "planned %d episodes of study %s on %s (%d arms x %d models)",
        len(schedule),
        cfg.study.name,
        plugin.name,
        len(arms),
        len(models),
    )
    return plan


def default_user(plugin: Plugin, own: dict[str, str]) -> str:
    users = list(plugin.scripted_users())
    if not users:
        raise ValueError(
            f"environment {plugin.name!r} needs a simulated user: set user_model=<conf/model name "
            "or litellm string>"
        )
    return f"scripted/{own[users[0]]}"


def fault_kinds_hit(results_meta: list[dict]) -> list[str]:
    """The environment's fault kinds the episode actually received, in call order (ToolResult.meta)."""
    return [str(m["fault_kind"]) for m in results_meta if m.get("perturbed") and m.get("fault_kind")]


# ---------------------------------------------------------------------------------------------
# the tool-result stream of an arm


def fault_injectors(cfg: Config) -> dict[str, Any]:
    """Fault name -> the fault library's injector: ``faults`` (conf/fault names, crossed with the
    tasks), else the ``fault`` node when it names a fault; none for none or a world's own planted faults."""
    from harness.faults.inject import build_injector

    nodes = [load_fault(name) for name in cfg.faults] if cfg.faults else [cfg.fault]
    out: dict[str, Any] = {}
    for node in nodes:
        injector = build_injector(node, seed=cfg.seed)
        if injector is not None:
            if injector.spec.name in out:
                raise ValueError(f"two faults of this study are both named {injector.spec.name!r}")
            out[injector.spec.name] = injector
    return out


def arm_interposers(
    arm: ArmCfg, faults: list[Interposer], monitors: MonitorSource | None
) -> list[Interposer]:
    chain = list(faults)
    if arm.monitor != "none":
        if monitors is None:
            raise ValueError(f"arm {arm.name!r} needs a monitor but none was built")
        chain.append(
            MonitorInterposer(
                lambda ctx: monitors(ctx.task.group_id, arm.monitor, arm.detector), arm.delivery
            )
        )
    return chain


def record_folds(plan: Plan) -> None:
    """Each group's cross-fitting fold (from its id alone), recorded for every arm."""
    from harness.monitor.crossfit import fold_of

    n, seed = plan.cfg.monitor.n_folds, plan.cfg.monitor.seed
    plan.folds.update({ep.group_id: fold_of(ep.group_id, n, seed) for ep in plan.schedule})


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


# ---------------------------------------------------------------------------------------------
# budget and progress


@dataclass
class Spend:
    """Money and tokens spent by the run so far (earlier invocations included), updated per call."""

    usd: float = 0.0
    tokens: int = 0

    def charge(self, completion: Any) -> None:
        usd, tokens = cost_of(completion)
        self.usd += usd
        self.tokens += tokens

    def add(self, rec: dict) -> None:
        self.usd += sum(float(rec.get(k) or 0.0) for k in ("cost_usd", "reviewer_cost_usd", "user_cost_usd"))
        self.tokens += int(rec.get("prompt_tokens") or 0) + int(rec.get("completion_tokens") or 0)
        for who in ("reviewer", "user"):
            self.tokens += int(rec.get(f"{who}_prompt_tokens") or 0) + int(
                rec.get(f"{who}_completion_tokens") or 0
            )


def cost_of(completion: Any) -> tuple[float, int]:
    """(USD, prompt + completion tokens) of one completion."""
    usage = completion.usage or {}
    return (
        float(completion.cost_usd or 0.0),
        int(usage.get("prompt_tokens") or 0) + int(usage.get("completion_tokens") or 0),
    )


def within_budget(cfg: Config, spend: Spend) -> bool:
    if cfg.budget.usd is not None and spend.usd >= cfg.budget.usd:
        return False
    return not (cfg.budget.tokens is not None and spend.tokens >= cfg.budget.tokens)


def _default_factory(cache: Any, arm: str) -> CompleterFactory:
    """Completers of one arm: the arm is part of every cache key (arms never share a recorded reply)."""

    def factory(spec: ModelSpec, replicate: int) -> Completer:
        async def complete(messages: list[dict], tools: list[dict]) -> Any:
            return await acomplete(spec, messages, tools, replicate=replicate, cache=cache, arm=arm)

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


def _open_cache(cfg: Config, run_dir: Path) -> Any:
    if cfg.cache.mode == "off":
        return None
    from harness.llm.cache import Cache

    path = Path(cfg.cache.path) if cfg.cache.path else run_dir / "llm_cache.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    return Cache(path, mode=cfg.cache.mode)


# ---------------------------------------------------------------------------------------------
# one episode


def _jsonable(obj: Any) -> Any:
    return json.loads(json.dumps(obj, ensure_ascii=False, default=str))


def episode_record(
    plan: Plan,
    ep: EpisodeSpec,
    loop: LoopResult,
    user: UserChannel | None,
    success: bool,
    status: str,
    outcome: dict | None,
    latency_s: float,
    transcript: str,
) -> dict[str, Any]:
    spec = plan.models[ep.model]
    outcome = dict(outcome or {})
    trace_check = outcome.pop("trace_check", None)
    scored = status in ("completed", "agent_failed")
    # Built through the schema: a key outside it, or a value of the wrong type, fails here, not in the file.
    # Returned as the dict the progress tally and the worker pipe carry; RecordWriter validates it again.
    return EpisodeRecord(
        record_version=RECORD_VERSION,
        study=ep.study,
        arm=ep.arm,
        model=ep.model,
        task_id=ep.task_id,
        group_id=ep.group_id,
        strata=dict(ep.strata),
        fold=plan.folds.get(ep.group_id),
        fault_class=ep.fault_class,
        fault_kind=ep.fault_kind,
        fault_kinds_hit=fault_kinds_hit(loop.results_meta),
        seed=ep.seed,
        pair_id=ep.pair_id,
        success=bool(success),
        outcome_correct=outcome.get("outcome_correct") if scored else None,
        status=status,
        env=plan.plugin.name,
        replicate=ep.replicate,
        episode_id=ep.episode_id,
        scripted=bool(spec.scripted),
        tool_calls=_jsonable(loop.tool_calls),
        n_tool_calls=sum(1 for c in loop.tool_calls if c["status"] in ("ok", "error")),
        ignored_parallel_calls=loop.ignored_parallel_calls,
        receipts=_jsonable(loop.receipts),
        n_receipts=len(loop.receipts),
        hit=loop.hit,
        final_answer=loop.final_answer,
        finish_status=loop.finish_status,
        stop_reason=loop.stop_reason,
        rounds=loop.rounds,
        user_turns=loop.user_turns,
        prompt_tokens=loop.prompt_tokens,
        completion_tokens=loop.completion_tokens,
        cost_usd=loop.cost_usd,
        reviewer_calls=loop.reviewer_calls,
        reviewer_prompt_tokens=loop.reviewer_prompt_tokens,
        reviewer_completion_tokens=loop.reviewer_completion_tokens,
        reviewer_cost_usd=loop.reviewer_cost_usd,
        user_calls=user.calls if user else 0,
        user_prompt_tokens=user.prompt_tokens if user else 0,
        user_completion_tokens=user.completion_tokens if user else 0,
        user_cost_usd=user.cost_usd if user else 0.0,
        latency_s=latency_s,
        error=loop.error,
        error_kind=loop.error_kind,
        transcript=transcript,
        trace_check=_jsonable(trace_check) if trace_check is not None else None,
        outcome=_jsonable(outcome) if outcome else None,
        labels=_jsonable(loop.labels),
    ).model_dump()


@dataclass
class UserChannel:
    """The world's simulated user as a ``UserModel``: its model's replies, costed apart from the agent's."""

    complete: Completer
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    async def __call__(self, messages: list[dict]) -> str:
        completion = await self.complete(messages, [])
        usage = completion.usage or {}
        self.calls += 1
        self.prompt_tokens += int(usage.get("prompt_tokens") or 0)
        self.completion_tokens += int(usage.get("completion_tokens") or 0)
        self.cost_usd += float(completion.cost_usd or 0.0)
        return str((completion.message or {}).get("content") or "")


async def run_episode(
    plan: Plan,
    ep: EpisodeSpec,
    factory: CompleterFactory,
    interposers: list[Interposer],
    budget_ok: Callable[[], bool],
    run_dir: Path,
) -> dict[str, Any]:
    arm = plan.arms[ep.arm]
    spec = plan.models[ep.model]
    if arm.reasoning_budget is not None:  # scripted providers accept it too (recorded, ignored): same path
        spec = dataclasses.replace(spec, reasoning_budget=arm.reasoning_budget)
    reviewer = None
    if arm.reviewer:
        reviewer = ModelReviewer(factory(plan.reviewers[ep.model], ep.replicate))
    user = UserChannel(factory(plan.user, ep.replicate)) if plan.user is not None else None
    task = plan.env.task(ep.task_id)
    t0 = time.monotonic()  # latency is a measurement, never an input to a draw
    episode = plan.env.episode(ep.task_id, seed=ep.seed, user=user)
    outcome: dict | None = None
    success = False
    try:
        loop = await run_loop(
            episode,
            task,
            factory(spec, ep.replicate),
            system_prompt=system_prompt(arm.prompt, task),
            interposers=interposers,
            seed=ep.seed,
            max_rounds=plan.cfg.study.env.max_rounds,
            delivery=arm.delivery,
            reviewer=reviewer,
            max_reviewer_calls=arm.max_reviewer_calls,
            budget_ok=budget_ok,
            infra_errors=(InfraError,),
        )
        status = {"infra_error": "infra_error", "env_error": "env_error", "budget": "budget_exhausted"}.get(
            loop.stop_reason, ""
        )
        if not status:
            try:
                verdict = await episode.score()
            except Exception as exc:  # noqa: BLE001  (the world's grader failed: infrastructure)
                loop.stop_reason, loop.error = "env_error", f"score: {type(exc).__name__}: {exc}"[:500]
                loop.error_kind, status = type(exc).__name__, "env_error"
            else:
                outcome = dict(verdict.details or {})
                success = bool(verdict.success) and loop.stop_reason != "round_cap"
                status = "completed" if success else "agent_failed"
    finally:
        try:
            await episode.close()
        except Exception:  # noqa: BLE001  (a failed close must not lose the record)
            log.warning("episode %s: close failed", ep.episode_id, exc_info=True)
    if status in RETRIED_STATUSES:
        log.warning("episode %s: %s (%s)", ep.episode_id, status, loop.error)
    latency = time.monotonic() - t0
    transcript = f"transcripts/{ep.episode_id}.json"
    write_atomic(
        run_dir / transcript,
        {
            "episode": ep.to_json(),
            "arm": dataclasses.asdict(arm),
            "model": spec.name,
            "litellm_model": spec.model,
            "tools": [s.openai_schema() for s in episode.tools()],
            "messages": loop.messages,
            "turns": loop.turns,
            "results_meta": _jsonable(loop.results_meta),
            "reviews": loop.reviews,
            "status": status,
            "error": loop.error,
            "outcome": _jsonable(outcome) if outcome is not None else None,
        },
        indent=None,
    )
    return episode_record(plan, ep, loop, user, success, status, outcome, latency, transcript)


def system_prompt(arm_prompt: str, task: Any) -> str:
    """The arm's prompt; a world with standing instructions (its policy) has them appended and says
    itself how an episode ends, else the prompt names the terminal tool."""
    if task.instructions:
        return f"{prompts.system_prompt(arm_prompt, None)}\n\n{task.instructions}"
    return prompts.system_prompt(arm_prompt, task.terminal_tool)


# ---------------------------------------------------------------------------------------------
# the run


def pending_episodes(
    schedule: list[EpisodeSpec], records: list[dict], retry_infra: bool
) -> list[EpisodeSpec]:
    """Episodes still to run: never recorded, stopped by the budget, or (when asked) infra/env errors."""
    latest = latest_by_episode(records)
    todo = []
    for ep in schedule:
        rec = latest.get(ep.episode_id)
        if rec is None or rec.get("status") == "budget_exhausted":
            todo.append(ep)
        elif retry_infra and rec.get("status") in RETRIED_STATUSES:
            todo.append(ep)
    return todo


def progress_text(counts: Counter[str], arms: Counter[str], models: Counter[str], spend: Spend) -> str:
    """The progress bar's postfix: outcomes, errors, cost, and the arm/model mix so far."""

    def mix(c: Counter[str]) -> str:
        return " ".join(f"{k}:{v}" for k, v in sorted(c.items()))

    return (
        f"ok {counts['completed']} fail {counts['agent_failed']} infra {counts['infra_error']} "
        f"env {counts['env_error']} "
        f"budget {counts['budget_exhausted']} ${spend.usd:.4f} | {mix(arms)} | {mix(models)}"
    )


class Progress:
    """Outcomes so far, and the bar that shows them with the spend."""

    def __init__(self, total: int, cfg: Config, spend: Any):
        from tqdm import tqdm

        self.counts: Counter[str] = Counter()
        self.arms: Counter[str] = Counter()
        self.models: Counter[str] = Counter()
        self.spend = spend
        self.bar = tqdm(
            total=total,
            disable=not cfg.progress,
            desc=cfg.study.name,
            unit="ep",
            dynamic_ncols=True,
            mininterval=1.0,
        )

    def add(self, rec: dict) -> None:
        self.counts[rec["status"]] += 1
        self.arms[rec["arm"]] += 1
        self.models[rec["model"]] += 1
        self.bar.update(1)
        self.bar.set_postfix_str(
            progress_text(self.counts, self.arms, self.models, self.spend), refresh=False
        )

    def close(self) -> None:
        self.bar.close()


def pending_work(plan: Plan, run_dir: Path) -> tuple[Path, Spend, list[EpisodeSpec]]:
    """The records file, what earlier invocations spent (superseded attempts cost money too) and the
    episodes still to run."""
    (run_dir / "transcripts").mkdir(parents=True, exist_ok=True)
    records_path = run_dir / "episodes.jsonl"
    existing = load_records(records_path, repair=True)
    spend = Spend()
    for rec in existing:
        spend.add(rec)
    return records_path, spend, pending_episodes(plan.schedule, existing, plan.cfg.retry_infra_errors)


def episode_chains(
    plan: Plan, monitors: MonitorSource | None
) -> dict[tuple[str, str | None], list[Interposer]]:
    """(arm, fault label) -> the arm's interposers behind that fault's injector."""
    return {
        (name, label): arm_interposers(arm, [injector] if injector is not None else [], monitors)
        for name, arm in plan.arms.items()
        for label, injector in ({**plan.faults} or {None: None}).items()
    }


def arm_factories(
    plan: Plan, run_dir: Path, factory: CompleterFactory | None, spend: Any
) -> tuple[dict, Any]:
    """Each arm's metered completer factory, and the reply cache they share (None when off)."""
    if factory is not None:  # a test's completers: one for every arm
        return dict.fromkeys(plan.arms, _metered(factory, spend)), None
    cache = _open_cache(plan.cfg, run_dir)
    return {arm: _metered(_default_factory(cache, arm), spend) for arm in plan.arms}, cache


def chain_for(plan: Plan, chains: dict, ep: EpisodeSpec) -> list[Interposer]:
    return chains[(ep.arm, ep.fault_class if plan.faults else None)]


async def close_world(plan: Plan) -> None:
    """Release what the world holds (bridges, pools) once its episodes are done, if it says how."""
    closer = getattr(plan.env, "aclose", None)
    if callable(closer):
        try:
            await closer()
        except Exception:  # noqa: BLE001  (records are written; a failed release must not hide them)
            log.warning("closing environment %s failed", plan.plugin.name, exc_info=True)


def run_summary(
    plan: Plan, records_path: Path, todo: list[EpisodeSpec], ran: Counter[str], stopped: bool, spend: Any
) -> dict[str, Any]:
    final = latest_by_episode(load_records(records_path, repair=False))
    in_schedule = {ep.episode_id for ep in plan.schedule}
    by_status = Counter(r.get("status") for eid, r in final.items() if eid in in_schedule)
    return {
        "planned": len(plan.schedule),
        "ran_now": sum(ran.values()),
        "skipped_finished": len(plan.schedule) - len(todo),
        "by_status": dict(by_status),
        "stopped_by_budget": stopped or ran["budget_exhausted"] > 0,
        "cost_usd": round(spend.usd, 6),
        "tokens": spend.tokens,
    }


async def execute(
    plan: Plan, run_dir: Path, factory: CompleterFactory | None = None, monitors: MonitorSource | None = None
) -> dict[str, Any]:
    cfg = plan.cfg
    run_inline_if_scripted(plan.specs())
    records_path, spend, todo = pending_work(plan, run_dir)
    factories, cache = arm_factories(plan, run_dir, factory, spend)
    if monitors is None:
        monitors = build_monitors(plan, run_dir)
    chains = episode_chains(plan, monitors)

    global_sem = asyncio.Semaphore(cfg.concurrency)
    model_sems = {name: asyncio.Semaphore(spec.max_concurrency) for name, spec in plan.models.items()}
    progress = Progress(len(todo), cfg, spend)
    stopped_by_budget = False

    def budget_ok() -> bool:
        return within_budget(cfg, spend)

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
                writer.append(rec)
                progress.add(rec)

        try:
            await asyncio.gather(*(one(ep) for ep in todo))
        finally:
            progress.close()
            if cache is not None and hasattr(cache, "close"):
                cache.close()
            await close_world(plan)
    return run_summary(plan, records_path, todo, progress.counts, stopped_by_budget, spend)


def run_study(
    cfg: Config,
    run_dir: Path | str,
    factory: CompleterFactory | None = None,
    monitors: MonitorSource | None = None,
    plan: Plan | None = None,
    multirun: bool = False,
) -> dict[str, Any]:
    """Plan, write config + manifest, run what is pending, update the manifest; returns the counts.

    ``factory`` and ``monitors`` replace the model adapter and the mined monitors (tests use fakes);
    ``plan`` is a plan already made from ``cfg`` (the CLI plans first to report config errors cleanly).
    With ``workers`` > 1 (``harness.workers``) the episodes run in that many forked processes;
    ``multirun``: this run is one job of a sweep (``workers: 0`` then means one process).
    """
    from harness.workers import execute_forked, worker_count

    run_dir = Path(run_dir)
    plan = plan if plan is not None else plan_run(cfg)
    workers = worker_count(cfg.workers, plan, multirun)  # a refusal comes before anything is written
    run_dir.mkdir(parents=True, exist_ok=True)
    from harness.fingerprint import plan_fingerprint, registries_digest

    manifest = start_manifest(run_dir, plan.resolved, len(plan.schedule), plan_fingerprint(plan))
    (run_dir / "config.yaml").write_text(OmegaConf.to_yaml(OmegaConf.create(plan.resolved)))
    if workers > 1:
        counts = execute_forked(plan, run_dir, workers, factory, monitors)
    else:
        counts = asyncio.run(execute(plan, run_dir, factory, monitors))
    manifest["fingerprint"]["registries"] = registries_digest(run_dir / "registries")
    finish_manifest(run_dir, manifest, counts)
    return counts
