"""The tool-result stream: what sits between an environment's tool call and the agent.

An arm is a chain of interposers: ``env.call -> fault injector(s) -> monitor -> agent``. Each
interposer receives the call, the result so far and a :class:`StreamContext`, and returns the
(possibly new) result. Harness-side facts go into ``result.meta`` (never shown to the agent) and
into ``ctx.labels`` (copied into the episode record).

Meta keys by convention:
- fault injectors: ``meta["injected_fault"] = {"fault_class", "kind", "mode", "path", "original",
  "corrupted"}`` (``kind`` is "structured" or "string"); they may corrupt state via ``ctx.episode``.
- the monitor (``MonitorInterposer``, only when it fired): ``meta["receipt"]`` (a :class:`Receipt`),
  ``meta["violations"]`` (one JSON object per violated rule, at least ``rule_id`` and ``rule_class``),
  ``meta["recovery_tools"]``, ``meta["n_admissible"]``; and ``ctx.labels["receipts_fired"]`` gets
  ``{"call_index", "tool"}``.
- environments' own perturbations (e.g. planted perturbation modes): ``meta["perturbed"]``, ``["fault_kind"]``,
  ``["contract_class"]``.

This module knows nothing about models, monitors or faults; it only defines the protocol (the
receipt's shape included: the monitor writes it, the agent loop reads it) and how a chain is applied.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from outcome_monitor.receipts.receipt import Receipt, receipt_text

from core.protocol import Episode, Task, ToolCall, ToolResult


@dataclass
class StreamContext:
    """Everything an interposer may know about where a tool call sits in its episode."""

    episode: Episode
    task: Task
    seed: int
    call_index: int  # 0-based index of this tool call in the episode
    calls_per_tool: dict[str, int] = field(default_factory=dict)  # prior calls of each tool (before this one)
    exposed_tools: list[str] = field(default_factory=list)
    labels: dict[str, Any] = field(
        default_factory=dict
    )  # harness-side notes (fault applied, receipt fired...) -> records


class Interposer(Protocol):
    def __call__(self, call: ToolCall, result: ToolResult, ctx: StreamContext) -> ToolResult: ...


def apply_chain(
    interposers: Sequence[Interposer], call: ToolCall, result: ToolResult, ctx: StreamContext
) -> ToolResult:
    """Pass ``result`` through each interposer in order; the last one's output reaches the agent."""
    for interposer in interposers:
        result = interposer(call, result, ctx)
    return result


def is_hit(result: ToolResult) -> bool:
    """Whether the agent saw a perturbed (environment) or injected (fault library) result."""
    return bool(result.meta.get("perturbed")) or bool(result.meta.get("injected_fault"))


class MonitorInterposer:
    """Asks an outcome monitor about each result; records its verdict in ``meta``.

    ``monitor_for(ctx)`` returns the monitor for this episode (e.g. the registry of the workflow's
    held-out fold) or None; it must offer ``annotate(tool, arguments, content, exposed_tools, status)``
    returning an object with ``content, violations, receipt, recovery_tools, n_admissible``
    (``outcome_monitor.Monitor``; ``receipt`` a
    :class:`Receipt`, each violation a ``Violation`` or its JSON). With ``deferred`` delivery the
    agent-visible content stays raw: the loop delivers the receipt one turn later.
    """

    def __init__(self, monitor_for: Callable[[StreamContext], Any], delivery: str = "immediate"):
        self.monitor_for = monitor_for
        self.delivery = delivery

    def __call__(self, call: ToolCall, result: ToolResult, ctx: StreamContext) -> ToolResult:
        monitor = self.monitor_for(ctx)
        if monitor is None:
            return result
        ann = monitor.annotate(
            call.name, dict(call.arguments), result.content, list(ctx.exposed_tools), result.status
        )
        if not ann.receipt:
            return result
        meta = dict(result.meta)
        meta["receipt"] = ann.receipt
        meta["violations"] = [v.to_json() if hasattr(v, "to_json") else v for v in (ann.violations or [])]
        meta["recovery_tools"] = list(ann.recovery_tools or [])
        meta["n_admissible"] = ann.n_admissible
        ctx.labels.setdefault("receipts_fired", []).append({"call_index": ctx.call_index, "tool": call.name})
        content = result.content if self.delivery == "deferred" else ann.content
        return ToolResult(content=content, status=result.status, terminal=result.terminal, meta=meta)


__all__ = [
    "Interposer",
    "MonitorInterposer",
    "Receipt",
    "StreamContext",
    "apply_chain",
    "is_hit",
    "receipt_text",
]
