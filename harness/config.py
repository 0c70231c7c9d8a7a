"""The structured-config schema behind ``conf/``: what a study, an arm and a model may say.

Registered in Hydra's ConfigStore as ``schema`` (the root) so a typo or a missing value fails with
Hydra's own message before any episode starts. Arms and models are Hydra config groups (``arm=``,
``model=``: one each per job, swept with ``-m``) or, inside one job, lists of names (``arms``,
``models``), each resolved from ``conf/arm/<name>.yaml`` / ``conf/model/<name>.yaml`` and validated
against :class:`ArmCfg` /
:class:`ModelCfg` here. This module knows nothing about environments, monitors or litellm.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from hydra.core.config_store import ConfigStore
from omegaconf import MISSING, DictConfig, OmegaConf

from core import worlds
from harness.llm.models import CUSTOM_PROVIDERS

CONF_DIR = worlds.ROOT_CONF  # the generic configs (arms, models, launchers); worlds bring their own

PROMPTS = ("fault_aware", "no_hint")
MONITOR_VARIANTS = ("none", "full", "stripped", "generic")  # harness.monitor.VARIANTS plus "none"
DETECTORS = ("mined", "schema_only")
DELIVERIES = ("immediate", "deferred")
CACHE_MODES = ("off", "record", "replay", "passthrough")


@dataclass
class EnvCfg:
    name: str = MISSING  # a world of core.worlds, or "module:attr" of a Plugin (tests' worlds)
    max_rounds: int = 25
    options: dict[str, Any] = field(default_factory=dict)  # keyword options for the world's make()
    traces: dict[str, Any] = field(default_factory=dict)  # options for the world's clean_traces()


@dataclass
class SelectionCfg:
    rule: str = "all"  # all | ids | stratified_hash (see harness.run.schedule)
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class StudyCfg:
    name: str = MISSING
    env: EnvCfg = field(default_factory=EnvCfg)
    split: str = "test"
    selection: SelectionCfg = field(default_factory=SelectionCfg)


@dataclass
class CacheCfg:
    mode: str = "off"
    path: str | None = None  # null: <run folder>/llm_cache.sqlite (one per job: never shared across a sweep)


@dataclass
class BudgetCfg:
    usd: float | None = None  # stop scheduling once spent (agent + reviewer)
    tokens: int | None = None


CONTRACT_SOURCES = ("traces", "schemas", "database")


@dataclass
class MonitorCfg:
    n_folds: int = 5
    seed: int = 0
    # where contracts come from: mined clean traces (cross-fitted), each tool's result schema, a public
    # database; null = every source the world offers (Plugin.contract_sources)
    sources: list[str] | None = None

    def __post_init__(self) -> None:
        bad = sorted(set(self.sources or ()) - set(CONTRACT_SOURCES))
        if bad:
            raise ValueError(f"monitor.sources: unknown source(s) {bad}; allowed: {list(CONTRACT_SOURCES)}")


@dataclass
class SamplingCfg:
    """A study's sampling settings for the agent models; null keeps each model's own (conf/model)."""

    temperature: float | None = None


@dataclass
class Config:
    study: StudyCfg = field(default_factory=StudyCfg)
    # the fault group belongs to the fault library: a free-form mapping with at least ``name``
    fault: dict[str, Any] = field(default_factory=lambda: {"name": "none"})
    # several conf/fault names crossed with the study's tasks (each task runs under each); replaces ``fault``
    faults: list[str] | None = None
    arms: Any = field(default_factory=lambda: ["baseline"])  # list of conf/arm names (or "a,b")
    models: Any = field(default_factory=lambda: ["scripted-trusting"])  # conf/model names or litellm strings
    # one arm and one model as Hydra config groups (``arm=monitor model=scripted-skeptic``, sweepable with
    # -m, validated by Hydra against ArmCfg / ModelCfg); when set, each replaces its list above
    arm: ArmCfg | None = None
    model: ModelCfg | None = None
    reviewer_model: str | None = None  # conf/model name or litellm string; None = the agent's own model
    # the simulated user of worlds that have one: conf/model name or litellm string; None = the world's
    # first scripted user (offline)
    user_model: str | None = None
    # per-model field overrides from the command line, e.g. +model_overrides.deepseek-chat.max_concurrency=4
    model_overrides: dict[str, dict[str, Any]] = field(default_factory=dict)
    sampling: SamplingCfg = field(default_factory=SamplingCfg)
    seed: int = 0
    replicates: int = 1
    # each pair played k times, every model sampling from a trial's own stream (harness.run.schedule.sampling_draw);
    # run control like limit: raising it resumes the run and adds the new trials
    trials: int = 1
    limit: int | None = None  # first N workflows of the frozen list
    cache: CacheCfg = field(default_factory=CacheCfg)
    budget: BudgetCfg = field(default_factory=BudgetCfg)
    monitor: MonitorCfg = field(default_factory=MonitorCfg)
    concurrency: int = 8  # global cap (per worker process); each model also has its own max_concurrency
    # processes running episodes (harness.run.workers): 1 = this one; 0 = one per CPU when every model is
    # scripted, else 1; N > 1 forks N (scripted models only)
    workers: int = 0  # the same default as conf/config.yaml
    retry_infra_errors: bool = False
    # every notice known before the first episode (harness.run.notices: a player reading schemas alone, an arm
    # that is a no-op, a monitor or tool without rules, a fault without a target) stops the run instead
    strict: bool = False
    progress: bool = True
    run_name: str = "default"
    out: str | None = None  # run dir override

    def __post_init__(self) -> None:
        if self.replicates < 1:
            raise ValueError(f"replicates must be >= 1, got {self.replicates}")
        if self.trials < 1:
            raise ValueError(f"trials must be >= 1 (each pair played that many times), got {self.trials}")
        if self.concurrency < 1:
            raise ValueError(f"concurrency must be >= 1, got {self.concurrency}")
        if self.workers < 0:
            raise ValueError(f"workers must be >= 0 (0: one per CPU for scripted runs), got {self.workers}")
        if self.cache.mode not in CACHE_MODES:
            raise ValueError(f"cache.mode must be one of {CACHE_MODES}, got {self.cache.mode!r}")
        if self.limit is not None and self.limit < 1:
            raise ValueError(f"limit must be >= 1, got {self.limit}")


@dataclass
class ArmCfg:
    name: str = MISSING
    prompt: str = "fault_aware"
    monitor: str = "none"  # receipt variant: none | full | stripped (no recovery tools) | generic
    detector: str = "mined"  # mined | schema_only
    delivery: str = "immediate"  # immediate | deferred
    reviewer: bool = False
    max_reviewer_calls: int = 5
    reasoning_budget: int | None = None  # overrides the model's budget (reasoning-budget arm)

    def __post_init__(self) -> None:
        for key, allowed in (
            ("prompt", PROMPTS),
            ("monitor", MONITOR_VARIANTS),
            ("detector", DETECTORS),
            ("delivery", DELIVERIES),
        ):
            if getattr(self, key) not in allowed:
                raise ValueError(
                    f"arm {self.name!r}: {key} must be one of {allowed}, got {getattr(self, key)!r}"
                )
        if self.delivery == "deferred" and self.monitor == "none":
            raise ValueError(f"arm {self.name!r}: deferred delivery needs a monitor variant")


@dataclass
class ModelCfg:
    """Mirrors ``harness.llm.models.ModelSpec`` field for field."""

    name: str = MISSING
    model: str = MISSING
    temperature: float = 0.0
    seed: int | None = 0
    max_tokens: int = 2048
    reasoning_effort: str | None = None
    reasoning_budget: int | None = None
    timeout_s: float = 120.0
    api_key_env: str | None = None
    input_cost_per_mtok: float | None = None
    output_cost_per_mtok: float | None = None
    max_concurrency: int = 8
    max_attempts: int = 6
    api_base: str | None = None  # the provider's URL, e.g. http://127.0.0.1:8089/v1 for a local server
    cached_input_cost_per_mtok: float | None = None  # cached prompt tokens; None: the input price
    deprecated: str | None = None  # ISO date from which the provider retires the model (pre-flight warns)
    tool_choice: str | None = None  # sent with tools when set ("auto" for llama-cpp-python's server)
    requests_per_minute: float | None = None  # the provider's limits (harness.llm.ratelimit); null: none
    tokens_per_minute: float | None = None
    preamble: str = (
        "auto"  # where litellm's per-call preamble runs: auto, inline, thread (harness.llm.inline)
    )


def register() -> None:
    """Store the root schema so ``conf/config.yaml`` can list ``schema`` first in its defaults."""
    ConfigStore.instance().store(name="schema", node=Config)
    register_resolvers()


def to_config(cfg: DictConfig) -> Config:
    """The typed config; raises Hydra/OmegaConf errors for missing or ill-typed values."""
    obj = OmegaConf.to_object(cfg)
    if not isinstance(obj, Config):  # composed without the schema (e.g. a bare yaml)
        obj = OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(Config), cfg))
    assert isinstance(obj, Config)
    return obj


def name_list(value: Any) -> list[str]:
    """``[a, b]`` or ``"a,b"`` or ``"a"`` -> ``["a", "b"]`` (the ``models=``/``arms=`` overrides)."""
    if isinstance(value, str):
        items = [v.strip() for v in value.split(",")]
    else:
        items = [str(v).strip() for v in value]
    items = [v for v in items if v]
    if not items:
        raise ValueError("an empty list of names")
    if len(set(items)) != len(items):
        raise ValueError(f"duplicate names in {items}")
    return items


def _load_group(group: str, name: str, schema: type, conf_dir: Path, override: dict | None = None) -> Any:
    path = conf_dir / group / f"{name}.yaml"
    if not path.exists():
        known = sorted(p.stem for p in (conf_dir / group).glob("*.yaml"))
        raise ValueError(f"no {group} '{name}': {path} does not exist (known: {', '.join(known)})")
    node = OmegaConf.merge(OmegaConf.structured(schema), OmegaConf.load(path), override or {})
    return OmegaConf.to_object(node)


def load_fault(name: str, conf_dir: Path | None = None) -> dict[str, Any]:
    """A fault config as a plain mapping (the fault library validates it): ``conf/fault/<name>.yaml``
    or a world's own ``<world>/conf/fault/<name>.yaml``."""
    if conf_dir is not None:
        path: Path | None = conf_dir / "fault" / f"{name}.yaml"
        known = sorted(p.stem for p in (conf_dir / "fault").glob("*.yaml"))
    else:
        path, known = worlds.config_file("fault", name), sorted(worlds.config_index()["fault"])
    if path is None or not path.exists():
        raise ValueError(
            f"no fault '{name}' in conf/fault or any world's conf/fault (known: {', '.join(known)})"
        )
    node = OmegaConf.to_container(OmegaConf.load(path), resolve=True)
    assert isinstance(node, dict)
    return node


def load_arms(names: Any, conf_dir: Path | None = None) -> list[ArmCfg]:
    conf_dir = conf_dir or CONF_DIR
    arms = [_load_group("arm", n, ArmCfg, conf_dir) for n in name_list(names)]
    for n, arm in zip(name_list(names), arms, strict=True):
        if arm.name != n:
            raise ValueError(f"conf/arm/{n}.yaml names itself {arm.name!r}")
    return arms


def load_models(
    names: Any, overrides: dict[str, dict[str, Any]] | None = None, conf_dir: Path | None = None
) -> list[ModelCfg]:
    """conf/model names, or raw litellm strings (``provider/model``) with a warning about prices.

    ``overrides`` maps a model name to field values that replace its yaml's (validated the same way).
    """
    conf_dir = conf_dir or CONF_DIR
    overrides = overrides or {}
    unknown = sorted(set(overrides) - set(name_list(names)))
    if unknown:
        raise ValueError(f"model_overrides names models not in this run: {unknown}")
    out: list[ModelCfg] = []
    for n in name_list(names):
        if (conf_dir / "model" / f"{n}.yaml").exists():
            out.append(_load_group("model", n, ModelCfg, conf_dir, overrides.get(n)))
        elif "/" in n:
            if n.split("/", 1)[0] not in CUSTOM_PROVIDERS:  # our offline providers have no price
                warnings.warn(
                    f"model '{n}' has no conf/model yaml: cost falls back to litellm's bundled price map",
                    stacklevel=2,
                )
            node = OmegaConf.merge(
                OmegaConf.structured(ModelCfg), {"name": n, "model": n}, overrides.get(n) or {}
            )
            out.append(OmegaConf.to_object(node))
        else:
            known = sorted(p.stem for p in (conf_dir / "model").glob("*.yaml"))
            raise ValueError(
                f"unknown model '{n}': not a conf/model name (known: {', '.join(known)}); a raw litellm model "
                "string needs a provider prefix, e.g. deepseek/deepseek-chat or scripted/trusting"
            )
    return out


def model_fields(model: ModelCfg) -> dict[str, Any]:
    return {f.name: getattr(model, f.name) for f in fields(model)}


def run_dir_path(out: str | None, study: str, run_name: str) -> str:
    """The run folder: ``out`` when given, else ``results/<study>/<run_name>``."""
    return str(out) if out else f"results/{study}/{run_name}"


def register_resolvers() -> None:
    if not OmegaConf.has_resolver("run_dir"):
        OmegaConf.register_new_resolver("run_dir", run_dir_path)
