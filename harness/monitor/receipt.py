"""The monitor proper: check a tool result, and on a violation keep the raw result and append a
nonbinding receipt (paper shape), in the ablation variants full / stripped / generic.

``Monitor.annotate`` is the one entry point; ``Monitor`` is also a tool-result-stream interposer
(``harness.stream``), and ``wrap_tool`` / ``annotate_stream`` adapt it to plain functions and row
streams. The monitor never calls a tool, blocks an action, or reads ``ToolResult.meta`` (where
fault labels live) to decide anything.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.protocol import ToolResult, ToolSpec
from harness.monitor.recovery import recovery_tools
from harness.monitor.registry import Registry
from harness.monitor.rules import Violation
from harness.monitor.values import MISSING

VARIANTS = ("full", "stripped", "generic")
GENERIC_WARNING = "This tool result may be incorrect; verify it before relying on it."
MAX_OBSERVED_CHARS = 200
MAX_EXTRA = 2  # further violated rules listed after the first, so receipts stay short


@dataclass
class Annotation:
    content: Any  # the raw result when clean, else {"tool_result": raw, "outcome_monitor": receipt}
    violations: list[Violation] = field(default_factory=list)
    receipt: dict[str, Any] | None = None
    recovery_tools: list[str] = field(default_factory=list)
    n_admissible: int = 0

    @property
    def fired(self) -> bool:
        return bool(self.violations)


def observed_value(v: Any) -> Any:
    """The witness as shown to the agent: JSON-able and bounded in size."""
    if v is MISSING:
        return "<missing>"
    if isinstance(v, str):
        return v if len(v) <= MAX_OBSERVED_CHARS else v[:MAX_OBSERVED_CHARS] + "..."
    if isinstance(v, (dict, list)):
        text = json.dumps(v, ensure_ascii=False, default=repr)
        return v if len(text) <= MAX_OBSERVED_CHARS else text[:MAX_OBSERVED_CHARS] + "..."
    return v


class Monitor:
    """An outcome monitor over a registry, for one tool catalog and one receipt variant."""

    def __init__(
        self, registry: Registry, catalog: Mapping[str, ToolSpec] | None = None, variant: str = "full"
    ):
        if variant not in VARIANTS:
            raise ValueError(f"unknown receipt variant {variant!r}; known: {', '.join(VARIANTS)}")
        self.registry = registry
        self.catalog = dict(catalog or {})
        self.variant = variant
        self.events: list[dict[str, Any]] = []  # one per fired receipt, in call order

    def annotate(
        self,
        tool: str,
        arguments: Mapping[str, Any] | None,
        result: Any,
        exposed_tools: Sequence[str] = (),
        status: str = "ok",
    ) -> Annotation:
        if status == "error":
            return Annotation(result)  # explicit failures are already visible to the agent
        violations = self.registry.check(tool, arguments or {}, result)
        if not violations:
            return Annotation(result)
        fields = [f for v in violations for f in _violated_fields(v)]
        # with no episode interface given, the whole catalog is the public interface (or just a retry)
        tools = recovery_tools(tool, fields, self.catalog, exposed_tools or ([] if self.catalog else [tool]))
        receipt = self.render(violations, tools)
        self.events.append(
            {
                "tool": tool,
                "rule_ids": [v.rule_id for v in violations],
                "rule_classes": sorted({v.rule_class for v in violations}),
                "n_violations": len(violations),
                "recovery_tools": tools,
                "n_admissible": len(tools),
                "variant": self.variant,
            }
        )
        return Annotation(
            {"tool_result": result, "outcome_monitor": receipt}, violations, receipt, tools, len(tools)
        )

    def render(self, violations: list[Violation], tools: list[str]) -> dict[str, Any]:
        if self.variant == "generic":
            return {"warning": GENERIC_WARNING, "recovery_tools": tools}
        first = violations[0]
        receipt: dict[str, Any] = {"violated": first.sentence, "observed": observed_value(first.observed)}
        extra = list(dict.fromkeys(v.sentence for v in violations[1:] if v.sentence != first.sentence))[
            :MAX_EXTRA
        ]
        if extra:
            receipt["also_violated"] = extra
        if self.variant == "full":
            receipt["recovery_tools"] = tools
        return receipt

    # the tool-result-stream interposer (harness.stream.Interposer)
    def __call__(self, call: Any, result: ToolResult, ctx: Any) -> ToolResult:
        exposed = list(getattr(ctx, "exposed_tools", []) or [])
        ann = self.annotate(call.name, call.arguments, result.content, exposed, result.status)
        meta = dict(result.meta)
        meta["receipt"] = json.dumps(ann.receipt, ensure_ascii=False, default=repr) if ann.receipt else None
        meta["violations"] = [v.to_json() for v in ann.violations]
        meta["recovery_tools"] = ann.recovery_tools
        meta["n_admissible"] = ann.n_admissible
        labels = getattr(ctx, "labels", None)
        if ann.fired and isinstance(labels, dict):
            labels.setdefault("monitor_events", []).append(self.events[-1])
        return ToolResult(content=ann.content, status=result.status, terminal=result.terminal, meta=meta)


def _violated_fields(v: Violation) -> list[str]:
    return [v.path]


def wrap_tool(
    fn: Callable[..., Any], tool_name: str, monitor: Monitor, exposed_tools: Sequence[str] = ()
) -> Callable[..., Any]:
    """``fn`` with every result passed through ``monitor`` (raw result kept, receipt appended)."""
    sig = inspect.signature(fn)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        result = fn(*args, **kwargs)
        bound = sig.bind(*args, **kwargs)
        return monitor.annotate(tool_name, dict(bound.arguments), result, exposed_tools).content

    wrapped.__name__ = getattr(fn, "__name__", tool_name)
    wrapped.__doc__ = fn.__doc__
    return wrapped


def annotate_stream(
    monitor: Monitor, rows: Iterable[Mapping[str, Any]], exposed_tools: Sequence[str] = ()
) -> Iterator[dict[str, Any]]:
    """Each ``{tool, arguments, result[, status, exposed_tools]}`` row plus ``violations``,
    ``receipt``, ``content``, ``recovery_tools`` and ``n_admissible``."""
    for row in rows:
        exposed = row.get("exposed_tools") or exposed_tools
        ann = monitor.annotate(
            row["tool"], row.get("arguments") or {}, row.get("result"), exposed, row.get("status", "ok")
        )
        yield {
            **row,
            "violations": [v.to_json() for v in ann.violations],
            "receipt": ann.receipt,
            "content": ann.content,
            "recovery_tools": ann.recovery_tools,
            "n_admissible": ann.n_admissible,
        }
