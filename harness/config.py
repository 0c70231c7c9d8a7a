"""The structured-config schema behind ``conf/``: what a study, an arm, a model and a fault may say.

Registered in Hydra's ConfigStore as ``schema`` (the root) so a typo or a missing value fails with
Hydra's own message before any episode starts. Arms, models and faults are Hydra config groups that
select one or several configs (Hydra's "select multiple configs from a config group" pattern:
``arm=[baseline,monitor]``, ``model=scripted-skeptic``, ``fault=[a,b]``; a sweep varies them with
``-m``). Each file puts itself under its own name (``# @package arm.monitor``), so the composed
config holds ``arm: {baseline: ..., monitor: ...}``, validated against :class:`ArmCfg` and the
model schema here, and the run reads them from there: Hydra reads each file once. A model's config
has one definition, :class:`harness.llm.spec.ModelSpec`; the Hydra schema is derived from it.

``models`` adds agent models given as raw litellm strings (``provider/model``, no conf file);
``arms=``, ``models=`` and ``faults=`` on the command line are the older spellings, rewritten by
:func:`cli_overrides`. This module knows nothing about environments, monitors or litellm.
"""

from __future__ import annotations

import dataclasses
import typing
import warnings
from dataclasses import MISSING as NO_DEFAULT
from dataclasses import dataclass, field, fields, make_dataclass
from pathlib import Path
from typing import Any, cast

from hydra.core.config_store import ConfigStore
from omegaconf import MISSING, DictConfig, OmegaConf

from core import worlds
from harness.llm.spec import CUSTOM_PROVIDERS, ModelSpec

CONF_DIR = worlds.ROOT_CONF  # the generic configs (arms, models, launchers); worlds bring their own

PROMPTS = ("fault_aware", "no_hint")
MONITOR_VARIANTS = ("none", "full", "stripped", "generic")  # harness.monitor.VARIANTS plus "none"
DETECTORS = ("mined", "schema_only", "wide")  # wide: mined with the wider vocabulary
VOCABULARIES = ("paper", "wide")
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
    # the mined detector's rule classes: the paper's seven (its figures are pinned), or the wider
    # vocabulary a user's recording gets (errors set aside, text read, shape and collection rules)
    vocabulary: str = "paper"

    def __post_init__(self) -> None:
        bad = sorted(set(self.sources or ()) - set(CONTRACT_SOURCES))
        if bad:
            raise ValueError(f"monitor.sources: unknown source(s) {bad}; allowed: {list(CONTRACT_SOURCES)}")
        if self.vocabulary not in VOCABULARIES:
            raise ValueError(
                f"monitor.vocabulary must be one of {list(VOCABULARIES)}, got {self.vocabulary!r}"
            )


@dataclass
class SamplingCfg:
    """A study's sampling settings for the agent models; null keeps each model's own (conf/model)."""

    temperature: float | None = None


@dataclass
class Config:
    study: StudyCfg = field(default_factory=StudyCfg)
    # the selected configs of each group, by name (Hydra composes them: arm=[baseline,monitor]); one fault is
    # applied to every task, several are crossed with the tasks (each task runs under each)
    fault: dict[str, dict[str, Any]] = field(default_factory=dict)  # the fault library validates each
    arm: dict[str, ArmCfg] = field(default_factory=dict)
    model: dict[str, ModelCfg] = field(default_factory=dict)  # type: ignore[valid-type]
    # agent models given as raw litellm strings (provider/model), run beside the model group's
    models: list[str] = field(default_factory=list)
    reviewer_model: str | None = None  # conf/model name or litellm string; None = the agent's own model
    # the simulated user of worlds that have one: conf/model name or litellm string; None = the world's
    # first scripted user (offline)
    user_model: str | None = None
    # per-model field overrides for a raw litellm string (a conf model takes model.<name>.<field>=...),
    # e.g. +model_overrides.hosted_vllm/qwen.api_base=http://127.0.0.1:8000/v1
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
    name: str = ""  # its name in the arm group (conf/arm/<name>.yaml says it too)
    prompt: str = "fault_aware"
    monitor: str = "none"  # receipt variant: none | full | stripped (no recovery tools) | generic
    detector: str = "mined"  # mined | schema_only | wide (mined with the wider vocabulary)
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


def _schema_of(spec: type) -> type:
    """A mutable dataclass with ``spec``'s fields, types and defaults: Hydra's schema for it (OmegaConf
    makes a frozen dataclass's node read-only, which would refuse ``model.<name>.<field>=`` overrides)."""
    hints = typing.get_type_hints(spec)
    schema = make_dataclass(
        "ModelCfg",
        [
            (f.name, hints[f.name], field(default=MISSING if f.default is NO_DEFAULT else f.default))
            for f in fields(spec)
        ],
    )
    schema.__module__ = __name__  # pickled by reference (a sweep's launcher sends the config)
    return schema


# the model group's schema: ModelSpec's fields, the one definition of a model's config
ModelCfg = _schema_of(ModelSpec)


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
    """``[a, b]`` or ``"a,b"`` or ``"a"`` -> ``["a", "b"]``."""
    if isinstance(value, str):
        items = [v.strip() for v in value.strip("[]").split(",")]
    else:
        items = [str(v).strip() for v in value]
    items = [v for v in items if v]
    if len(set(items)) != len(items):
        raise ValueError(f"duplicate names in {items}")
    return items


def selected(group: str, node: dict[str, Any]) -> dict[str, Any]:
    """The configs selected in ``group`` (name -> config), each checked to carry its own name."""
    out: dict[str, Any] = {}
    for key, value in node.items():
        name = value.get("name") if isinstance(value, dict) else getattr(value, "name", None)
        if name and name != key:
            raise ValueError(
                f"conf/{group}/{key}.yaml names itself {name!r}: its '# @package {group}.{key}' line and its "
                "name must agree"
            )
        if isinstance(value, dict):
            out[key] = {**value, "name": key}
        else:
            out[key] = value if name else dataclasses.replace(value, name=key)
    return out


def load_fault(name: str, conf_dir: Path | None = None) -> dict[str, Any]:
    """A fault config as a plain mapping, for tools outside a run (the conformance kit, the MCP proxy):
    ``conf/fault/<name>.yaml`` or a world's own ``<world>/conf/fault/<name>.yaml``. A run's faults come
    from Hydra's composition (the ``fault`` group), never from here."""
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
    return cast(dict[str, Any], node)  # a fault file: keyed by field names


def role_model(name: str, overrides: dict[str, dict[str, Any]] | None = None) -> Any:
    """The reviewer's or the simulated user's model: a conf/model name or a raw litellm string.

    A role names one model outside the agents' ``model`` group, so its file is read here, once, the
    one model config read outside Hydra's composition."""
    overrides = overrides or {}
    path = worlds.config_file("model", name)
    if path is not None:
        node = OmegaConf.merge(
            OmegaConf.structured(ModelCfg), OmegaConf.load(path), overrides.get(name) or {}
        )
        return OmegaConf.to_object(node)
    return raw_model(name, overrides)


def raw_model(name: str, overrides: dict[str, dict[str, Any]] | None = None) -> Any:
    """A model given by its litellm string alone (``provider/model``), with a warning about prices."""
    if "/" not in name:
        known = sorted(worlds.config_index()["model"])
        raise ValueError(
            f"unknown model '{name}': not a conf/model name (known: {', '.join(known)}); a raw litellm model "
            "string needs a provider prefix, e.g. deepseek/deepseek-chat or scripted/trusting"
        )
    if name.split("/", 1)[0] not in CUSTOM_PROVIDERS:  # our offline providers have no price
        warnings.warn(
            f"model '{name}' has no conf/model yaml: cost falls back to litellm's bundled price map",
            stacklevel=2,
        )
    node = OmegaConf.merge(
        OmegaConf.structured(ModelCfg), {"name": name, "model": name}, (overrides or {}).get(name) or {}
    )
    return OmegaConf.to_object(node)


def agent_models(cfg: Config) -> list[Any]:
    """The run's agent models: the ``model`` group's, then the raw litellm strings of ``models``;
    ``model_overrides`` (name -> fields) applies to either, validated like the files."""
    named = selected("model", cfg.model)
    raw = name_list(cfg.models) if cfg.models else []
    both = sorted(set(named) & set(raw))
    if both:
        raise ValueError(f"models {both} are both selected in the model group and given in models")
    overrides = cfg.model_overrides
    roles = {cfg.reviewer_model, cfg.user_model} - {None}
    unknown = sorted(set(overrides) - set(raw) - set(named) - roles)
    if unknown:
        raise ValueError(f"model_overrides names models not in this run: {unknown}")
    out = [_overridden(m, overrides.get(m.name)) for m in named.values()]
    out += [raw_model(n, overrides) for n in raw]
    if not out:
        raise ValueError("no agent model: select one with model=<conf/model name> or models=[provider/model]")
    return out


def _overridden(model: Any, fields_: dict[str, Any] | None) -> Any:
    if not fields_:
        return model
    return OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(model), fields_))


def model_fields(model: Any) -> dict[str, Any]:
    return {f.name: getattr(model, f.name) for f in fields(model)}


# the older spellings of the groups on the command line: arms=[a,b] is arm=[a,b]
_OLD_GROUP_KEYS = {"arms": "arm", "faults": "fault"}


def cli_overrides(argv: list[str]) -> list[str]:
    """Rewrite the older list keys into group selections: ``arms=X`` -> ``arm=X``, ``faults=X`` ->
    ``fault=X``, and ``models=[a, p/m]`` -> ``model=[a]`` plus ``models=[p/m]`` (conf/model names go
    to the group, raw litellm strings stay). Anything else passes unchanged."""
    out: list[str] = []
    known_models = set(worlds.config_index()["model"])
    for arg in argv:
        key, sep, value = arg.partition("=")
        if not sep or key.startswith("-"):
            out.append(arg)
        elif key in _OLD_GROUP_KEYS:
            out.append(f"{_OLD_GROUP_KEYS[key]}={value}")
        elif key == "models":
            try:
                names = _override_values(arg)
            except Exception:  # noqa: BLE001  (not Hydra syntax: Hydra says so itself, unchanged)
                out.append(arg)
                continue
            named = [n for n in names if n in known_models]
            raw = [n for n in names if n not in known_models]
            if not any(a.partition("=")[0] == "model" for a in argv):
                out.append(f"model=[{','.join(named)}]")
            out.append(f"models=[{','.join(_quoted(n) for n in raw)}]")
        else:
            out.append(arg)
    return out


def _override_values(arg: str) -> list[str]:
    """The names of a list override as Hydra reads them (quotes removed): ``models=['a?b', c]``."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    value = OverridesParser.create().parse_override(arg).value()
    return name_list(value if isinstance(value, list) else [value])


def unknown_selections(argv: list[str]) -> str | None:
    """A group selection naming no config (``arm=[baseline,nope]``): one line with the known names.
    Hydra says "Could not load 'arm/nope'" for a list without listing what exists."""
    index = worlds.config_index()
    for arg in argv:
        key, sep, value = arg.partition("=")
        key = key.lstrip("~+")
        if sep and key in ("arm", "model", "fault") and value.strip().startswith("["):
            try:
                unknown = [n for n in _override_values(arg.lstrip("~+")) if n not in index[key]]
            except Exception:  # noqa: BLE001  (not Hydra syntax: Hydra's own message follows)
                continue
            if unknown:
                return f"{key}={value}: no {key} {unknown} (known: {', '.join(sorted(index[key]))})"
    return None


def _quoted(name: str) -> str:
    return name if all(c.isalnum() or c in "-_/." for c in name) else "'" + name.replace("'", "\\'") + "'"


def run_dir_path(out: str | None, study: str, run_name: str) -> str:
    """The run folder: ``out`` when given, else ``results/<study>/<run_name>``."""
    return str(out) if out else f"results/{study}/{run_name}"


def register_resolvers() -> None:
    if not OmegaConf.has_resolver("run_dir"):
        OmegaConf.register_new_resolver("run_dir", run_dir_path)
