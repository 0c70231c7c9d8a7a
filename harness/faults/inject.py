"""The fault injector: an interposer on the tool-result stream that corrupts one tool's results.

Config (a ``conf/fault/*.yaml`` node or a plain mapping)::

    name: negative_price          # label in records (defaults to fault_class)
    fault_class: negative_or_zero # a key of harness.faults.classes.CLASSES, or "incident" (below)
    kind: null                    # override the class's kind (incident faults declare their own)
    mode: permanent               # transient: only the first call of the target tool; permanent: every call
    level: observation            # or "state" (see below)
    target:
      tool: null                  # a tool name; null = first touched tool with an eligible field
      category: null              # restrict first-touch targets to a ToolSpec.category (read, write)
      field: null                 # regex over field names/paths, e.g. "price|amount"
      shape: null                 # keep targets whose value is a number | date | text | list | object
      exclude_categories: [terminal]  # tool categories never targeted (the task's terminal tool never is)
    params: {}                    # class options (variant, factor, value, pool, scope)

``fault_class: incident`` with ``incident: <fault id>`` takes class, kind, target and params from
the incident suite (harness/faults/incidents.yaml); ``mode`` and ``level`` may still be set.

Targets are found by rule, never placed per task: the target tool is the configured one or the
first tool in the episode whose result has a field the class can corrupt; the field is a seeded
choice among eligible fields, stable for the episode so a permanent fault keeps hitting it.

Levels: ``observation`` corrupts only what the agent sees (the world is unchanged). ``state``
also asks the world to store the corrupted value through its optional state access (protocol v2
``episode.state``: ``locate(call, result, path)`` then ``corrupt(ref, value)``). Worlds without it,
or a result path the world cannot locate, get observation-level faults; the record
says which level applied in ``meta["injected_fault"]["level"]``.

The caller's result is never mutated: content and meta are deep-copied before corruption.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, cast

from core.protocol import StateAccess, ToolCall, ToolResult, ToolSpec
from core.seeding import rng
from harness.faults import paths
from harness.faults.classes import FaultClass, field_filter, get_class, shape_of

MODES = ("transient", "permanent")
LEVELS = ("observation", "state")
_MAX_TRACKED_EPISODES = 512


@dataclass
class _EpisodeState:
    episode: Any  # kept so its id() cannot be reused while tracked
    target_tool: str | None = None
    path: str | None = None
    fired: int = 0


@dataclass
class FaultSpec:
    """A resolved fault config."""

    name: str
    fault_class: str
    kind: str
    mode: str = "permanent"
    level: str = "observation"
    tool: str | None = None
    category: str | None = None
    field: str | None = None
    shape: str | None = None
    exclude_categories: tuple[str, ...] = ("terminal",)
    params: dict[str, Any] = dc_field(default_factory=dict)

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> FaultSpec:
        cfg = _plain(config)
        if cfg.get("incident") or cfg.get("fault_class") == "incident":
            cfg = _resolve_incident(cfg)
        fc = get_class(cfg["fault_class"])
        target = cfg.get("target") or {}
        spec = cls(
            name=cfg.get("name") or fc.fault_class,
            fault_class=fc.fault_class,
            kind=cfg.get("kind") or fc.kind,
            mode=cfg.get("mode", "permanent"),
            level=cfg.get("level", "observation"),
            tool=target.get("tool"),
            category=target.get("category"),
            field=target.get("field"),
            shape=target.get("shape"),
            exclude_categories=tuple(target.get("exclude_categories", ("terminal",))),
            params=dict(cfg.get("params") or {}),
        )
        if spec.mode not in MODES:
            raise ValueError(f"fault mode must be one of {MODES}, got {spec.mode!r}")
        if spec.level not in LEVELS:
            raise ValueError(f"fault level must be one of {LEVELS}, got {spec.level!r}")
        if spec.kind not in ("structured", "string"):
            raise ValueError(f"fault kind must be 'structured' or 'string', got {spec.kind!r}")
        return spec


class FaultInjector:
    """Interposer: ``__call__(call, result, ctx) -> ToolResult`` (see harness.stream)."""

    def __init__(self, config: Mapping[str, Any], seed: int = 0):
        self.spec = FaultSpec.from_config(config)
        self.fault: FaultClass = get_class(self.spec.fault_class)
        self.seed = int(seed)
        self._episodes: dict[int, _EpisodeState] = {}

    # -- helpers ---------------------------------------------------------------------------
    def _state(self, ctx: Any) -> _EpisodeState:
        key = id(ctx.episode)
        st = self._episodes.get(key)
        if st is None or st.episode is not ctx.episode:
            if len(self._episodes) >= _MAX_TRACKED_EPISODES:
                self._episodes.pop(next(iter(self._episodes)))
            st = self._episodes[key] = _EpisodeState(ctx.episode)
        return st

    def _tool_spec(self, ctx: Any, tool: str) -> ToolSpec | None:
        try:
            return next((s for s in ctx.episode.tools() if s.name == tool), None)
        except Exception:  # a fake or minimal episode without tools(): schema rules fall back to values
            return None

    def eligible_paths(self, call: ToolCall, content: Any, spec: ToolSpec | None) -> list[str]:
        try:
            found = self.fault.eligible(content, call.arguments or {}, spec)
        except (TypeError, KeyError, ValueError, AttributeError):
            return []
        found = field_filter(found, self.spec.field)
        return (
            [p for p in found if shape_of(paths.get(content, p)) == self.spec.shape]
            if self.spec.shape
            else found
        )

    def _ids(self, ctx: Any) -> list[Any]:
        return [self.seed, self.spec.name, ctx.task.task_id, ctx.seed]

    # -- the interposer ----------------------------------------------------------------------
    def __call__(self, call: ToolCall, result: ToolResult, ctx: Any) -> ToolResult:
        if result.status != "ok" or result.meta.get("perturbed") or result.meta.get("injected_fault"):
            return result  # explicit errors and other faults are left as they are
        st = self._state(ctx)
        prior = (ctx.calls_per_tool or {}).get(call.name, 0)
        if self.spec.mode == "transient" and (prior > 0 or st.fired > 0):
            return result
        if st.target_tool is not None and call.name != st.target_tool:
            return result
        if self.spec.tool is not None and call.name != self.spec.tool:
            return result
        if call.name == getattr(ctx.task, "terminal_tool", None):
            return result
        tool_spec = self._tool_spec(ctx, call.name)
        if tool_spec is not None and tool_spec.category in self.spec.exclude_categories:
            return result
        if self.spec.category and (tool_spec is None or tool_spec.category != self.spec.category):
            return result
        content = copy.deepcopy(result.content)
        eligible = self.eligible_paths(call, content, tool_spec)
        if not eligible:
            return result
        if st.path not in eligible:
            st.path = rng(*self._ids(ctx), "fault-path", call.name).choice(eligible)
        st.target_tool = call.name
        applied = self.fault.apply(
            content,
            st.path,
            call.arguments or {},
            rng(*self._ids(ctx), "fault-apply", ctx.call_index),
            self.spec.params,
        )
        st.fired += 1
        level = "observation"
        if self.spec.level == "state":
            state = getattr(ctx.episode, "state", None)
            ref = state.locate(call, result, applied.path) if isinstance(state, StateAccess) else None
            if ref is not None:  # the world stores the corrupted value: later reads see it too
                cast(StateAccess, state).corrupt(ref, copy.deepcopy(applied.corrupted))
                level = "state"
        label = {
            "name": self.spec.name,
            "fault_class": self.spec.fault_class,
            "kind": self.spec.kind,
            "mode": self.spec.mode,
            "level": level,
            "path": applied.path,
            "original": applied.original,
            "corrupted": applied.corrupted,
        }
        meta = copy.deepcopy(result.meta)
        meta["injected_fault"] = label
        ctx.labels.setdefault("injected_faults", []).append(
            {
                "call_index": ctx.call_index,
                "tool": call.name,
                **{k: label[k] for k in ("name", "fault_class", "kind", "path")},
            }
        )
        return ToolResult(content=applied.content, status=result.status, terminal=result.terminal, meta=meta)


def _plain(config: Mapping[str, Any]) -> dict[str, Any]:
    """OmegaConf nodes and mappings alike -> plain dicts."""
    try:
        from omegaconf import DictConfig, OmegaConf

        if isinstance(config, DictConfig):
            return OmegaConf.to_container(config, resolve=True)  # type: ignore[return-value]
    except ImportError:  # pragma: no cover - omegaconf is a project dependency
        pass
    return {k: (_plain(v) if isinstance(v, Mapping) else v) for k, v in config.items()}


def _resolve_incident(cfg: dict[str, Any]) -> dict[str, Any]:
    """``{fault_class: incident, incident: <id>, mode?, level?}`` -> that suite fault's own config."""
    from harness.faults.incidents import load_suite

    if not cfg.get("incident"):
        raise ValueError("fault_class 'incident' needs an 'incident: <fault id>' key")
    resolved = load_suite().by_id(str(cfg["incident"])).config(cfg.get("mode"))
    resolved["level"] = cfg.get("level", "observation")  # the record's fault name is the incident id
    return resolved


class _SpecEpisode:
    """Just enough of an episode for an injector tried on one result: the tool's spec."""

    def __init__(self, specs: Mapping[str, ToolSpec], tool: str):
        self._specs = [specs[tool]] if tool in specs else []

    def tools(self) -> list[ToolSpec]:
        return self._specs


def inject_once(
    injector: FaultInjector,
    tool: str,
    arguments: Mapping[str, Any],
    content: Any,
    specs: Mapping[str, ToolSpec],
    task_id: str,
    seed: int = 0,
) -> ToolResult:
    """``injector`` applied to one clean result outside any episode (``meta["injected_fault"]`` says
    whether it found a target); the result's tool spec still decides its category."""
    from types import SimpleNamespace

    task = SimpleNamespace(task_id=task_id, terminal_tool=None)  # terminal tools are excluded by category
    ctx = SimpleNamespace(
        episode=_SpecEpisode(specs, tool), task=task, seed=seed, call_index=0, calls_per_tool={}, labels={}
    )
    return injector(ToolCall(tool, dict(arguments)), ToolResult(content=copy.deepcopy(content)), ctx)


def build_injector(config: Mapping[str, Any] | None, seed: int = 0) -> FaultInjector | None:
    """The injector for a ``conf/fault`` node, or None when it names no fault (none, or a world that plants its own)."""
    cfg = _plain(config or {})
    if not cfg.get("incident") and cfg.get("fault_class") in (None, "none"):
        return None
    return FaultInjector(cfg, seed)
