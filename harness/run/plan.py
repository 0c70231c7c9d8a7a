"""The plan of a run: study config -> world, arms, models, faults and the paired schedule.

``plan_run(cfg)`` resolves everything before the first episode: the world through its plugin
(``core.worlds``), arms and models (a scripted policy fitted to the world: its own player, or a
stock one), the simulated user when the world has one, model availability (keys, local servers),
the fault injectors, the frozen task list and the interleaved schedule, and the resolved specs that
enter the saved config, the manifest and the identity hash. Every config error surfaces here as a
``ValueError`` (family), before anything is written. Knows no particular world.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from omegaconf import OmegaConf

from core.plugin import Plugin
from core.protocol import Environment
from core.worlds import UnknownEnvironmentError, get_plugin
from harness.config import ArmCfg, Config, agent_models, model_fields, role_model
from harness.config import selected as selected_configs
from harness.llm.models import ModelConfigError, ModelSpec, check_model_available
from harness.llm.providers import registry as policies
from harness.run.notices import Board, Notice
from harness.run.schedule import EpisodeSpec, build_schedule, select_tasks
from harness.stream import Interposer

if TYPE_CHECKING:
    from harness.faults.inject import FaultInjector

log = logging.getLogger(__name__)

REVIEWER_SCRIPTED = "scripted-reviewer"


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
    notices: Board = field(default_factory=Board)  # what is plugged in and does nothing (harness.run.notices)

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
    """A scripted model for this world: the world's own player of that name, else the stock policy
    with the world's conventions or, when it offers none, reading the tool schemas alone
    (``harness.agents.policies.players``); an unknown name is refused before any episode."""
    if spec.provider != "scripted":
        return spec
    from harness.agents.policies.players import world_player

    name = spec.model.split("/", 1)[1]
    try:
        player = world_player(name, plugin, own)
    except KeyError as exc:
        raise ModelConfigError(f"model {spec.name!r}: {exc.args[0]}") from None
    return spec if player == name else dataclasses.replace(spec, model=f"scripted/{player}")


def sampled(spec: ModelSpec, cfg: Config) -> ModelSpec:
    """The agent model with the study's sampling settings (recorded in the resolved specs)."""
    if cfg.sampling.temperature is None:
        return spec
    return dataclasses.replace(spec, temperature=float(cfg.sampling.temperature))


def resolved_specs(plan_parts: dict[str, Any]) -> dict[str, Any]:
    """The resolved specs (not just names) that enter the saved config, the manifest and the identity hash."""
    return cast(dict[str, Any], json.loads(json.dumps(plan_parts, default=lambda o: dataclasses.asdict(o))))


def plan_run(cfg: Config) -> Plan:
    """Resolve world, arms, models and schedule; every config error surfaces here (ValueError family)."""
    try:
        plugin = get_plugin(cfg.study.env.name)
    except UnknownEnvironmentError as exc:
        raise ValueError(exc.args[0]) from None
    own = register_world_players(plugin)
    arms: dict[str, ArmCfg] = selected_configs(
        "arm", cfg.arm
    )  # composed by Hydra: read once, here from the config
    if not arms:
        raise ValueError("no arm: select one or several with arm=[baseline,monitor]")
    chosen: list[Any] | str | None  # the agent models, then (below) each reviewer's model name
    chosen = agent_models(cfg)
    chosen_scripted = {m.name: spec_of(m).model.split("/", 1)[1] for m in chosen if spec_of(m).scripted}
    models = {m.name: sampled(fit_to_world(spec_of(m), plugin, own), cfg) for m in chosen}
    reviewers: dict[str, ModelSpec] = {}
    if any(a.reviewer for a in arms.values()):
        from harness.agents.reviewer import register_scripted_reviewer

        register_scripted_reviewer()
        for name, spec in models.items():
            chosen = cfg.reviewer_model or (REVIEWER_SCRIPTED if spec.scripted else None)
            reviewers[name] = spec_of(role_model(chosen, cfg.model_overrides)) if chosen else spec
    try:
        env = plugin.make(**cfg.study.env.options)
    except TypeError as exc:
        raise ValueError(f"environment {plugin.name!r}: bad study.env.options: {exc}") from None
    user = None
    if getattr(env, "needs_user", False):
        user = spec_of(role_model(cfg.user_model or default_user(plugin, own), cfg.model_overrides))
        user = fit_to_world(user, plugin, own)
    for spec in model_specs(models, reviewers, user):  # before any task is selected
        check_model_available(spec)
    faults = fault_injectors(cfg)
    selected = tasks_under_faults(env, plugin, cfg, faults)
    if not selected:
        raise ValueError(f"study {cfg.study.name!r} selects no task")
    schedule = build_schedule(
        cfg.study.name, selected, list(arms), list(models), cfg.seed, cfg.replicates, cfg.trials
    )
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
    # ``resolved``: a structured config's container, keyed by field names
    plan = Plan(
        cfg, plugin, env, arms, models, reviewers, user, schedule, cast(dict[str, Any], resolved), faults
    )
    plan.notices.extend(arm_noops(plan))
    plan.notices.extend(generic_players(plan, chosen_scripted, own))
    record_folds(plan)
    log.info(
        "planned %d episodes of study %s on %s (%d arms x %d models%s)",
        len(schedule),
        cfg.study.name,
        plugin.name,
        len(arms),
        len(models),
        f" x {cfg.trials} trials" if cfg.trials > 1 else "",
    )
    return plan


def generic_players(plan: Plan, scripted: dict[str, str], own: dict[str, str]) -> list[Notice]:
    """Stock scripted players that read this world's tool schemas alone: no player or conventions of its own."""
    from harness.agents.policies.players import play_mode

    generic = sorted(
        name for name, policy in scripted.items() if play_mode(policy, plan.plugin, own) == "generic"
    )
    if not generic:
        return []
    return [
        Notice(
            "player_generic",
            ",".join(generic),
            f"{', '.join(generic)} play {plan.plugin.name} from its "
            "tool schemas alone (it ships no player of that name and no conventions adapter): they never "
            "write, so they cannot complete tasks that need a change",
            models=tuple(generic),
        )
    ]


def faults_without_target(plan: Plan, sample: int = 2000) -> list[Notice]:
    """Injected faults that find no target in any of the world's clean results (tried outside episodes,
    as the conformance kit does); empty when the world offers no clean traces to try them on."""
    if not plan.faults or "traces" not in plan.plugin.contract_sources:
        return []
    from harness.faults.inject import inject_once

    rows = [
        r
        for r in plan.plugin.clean_traces(plan.env, **plan.cfg.study.env.traces)
        if r.get("status", "ok") == "ok"
    ]
    specs = plan.env.tool_specs()
    out = []
    for name, injector in plan.faults.items():
        tried = rows[:sample]
        if not any(
            "injected_fault"
            in inject_once(
                cast("FaultInjector", injector),  # plan.faults holds fault_injectors' values
                r["tool"],
                r["arguments"],
                r["result"],
                specs,
                str(r.get("task_id", "t")),
            ).meta
            for r in tried
        ):
            out.append(
                Notice(
                    "fault_no_target",
                    name,
                    f"fault {name} finds no target in {len(tried)} clean results "
                    f"of {plan.plugin.name}: its pairs would measure no fault",
                )
            )
    return out


def arm_noops(plan: Plan) -> list[Notice]:
    """Arms that change nothing for a model or this world, said before the first episode."""
    out = []
    sources = plan.cfg.monitor.sources or plan.plugin.contract_sources
    for arm in plan.arms.values():
        scripted = tuple(sorted(n for n, spec in plan.models.items() if spec.scripted))
        if arm.reasoning_budget is not None and scripted:
            out.append(
                Notice(
                    "arm_noop",
                    f"{arm.name}/scripted",
                    f"arm {arm.name!r} sets a reasoning budget, which "
                    f"scripted policies record and ignore: a no-op for {', '.join(scripted)}",
                    arms=(arm.name,),
                    models=scripted,
                )
            )
        if arm.monitor != "none" and arm.detector == "schema_only" and "traces" not in sources:
            out.append(
                Notice(
                    "arm_noop",
                    arm.name,
                    f"arm {arm.name!r} asks for the schema-only twins of mined "
                    f"registries, but this run mines no traces (sources: {', '.join(sources)}): it "
                    "checks with the same registries as the full monitor",
                    arms=(arm.name,),
                )
            )
    return out


def default_user(plugin: Plugin, own: dict[str, str]) -> str:
    users = list(plugin.scripted_users())
    if not users:
        raise ValueError(
            f"environment {plugin.name!r} needs a simulated user: set user_model=<conf/model name "
            "or litellm string>"
        )
    return f"scripted/{own[users[0]]}"


def planted_fault_name(cfg: Config) -> str:
    """The label of a fault no injector plays (``none``, or a world's own planted faults): the one selected."""
    names = list(cfg.fault)
    return names[0] if len(names) == 1 else "none"


def tasks_under_faults(env: Environment, plugin: Plugin, cfg: Config, faults: dict[str, Any]) -> list[Any]:
    """The frozen task selection under each fault (every task under each, the limit per fault)."""
    selected: list[Any] = []
    for injector in faults.values() or [None]:
        injected = (injector.spec.name, injector.spec.kind) if injector is not None else None
        selected += select_tasks(
            env,
            plugin,
            cfg.study.split,
            cfg.study.selection.rule,
            cfg.study.selection.params,
            cfg.seed,
            injected=injected,
            fault_name=planted_fault_name(cfg),
            limit=cfg.limit,
        )
    return selected


def fault_injectors(cfg: Config) -> dict[str, Any]:
    """Fault name -> the fault library's injector, for each config the ``fault`` group selected (one is
    applied to every task, several are crossed with the tasks); none for ``none`` or a world's own
    planted faults."""
    from harness.faults.inject import build_injector

    out: dict[str, Any] = {}
    for node in selected_configs("fault", dict(cfg.fault)).values():
        injector = build_injector(node, seed=cfg.seed)
        if injector is not None:
            if injector.spec.name in out:
                raise ValueError(f"two faults of this study are both named {injector.spec.name!r}")
            out[injector.spec.name] = injector
    return out


def record_folds(plan: Plan) -> None:
    """Each group's cross-fitting fold (from its id alone), recorded for every arm."""
    from harness.monitor.crossfit import fold_of

    n, seed = plan.cfg.monitor.n_folds, plan.cfg.monitor.seed
    plan.folds.update({ep.group_id: fold_of(ep.group_id, n, seed) for ep in plan.schedule})
