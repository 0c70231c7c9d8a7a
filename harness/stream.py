"""The tool-result stream: what sits between an environment's tool call and the agent.

An arm is a chain of interposers: ``env.call -> fault injector(s) -> monitor -> agent``. Each
interposer receives the call, the result so far and a :class:`StreamContext`, and returns the
(possibly new) result. Harness-side facts go into ``result.meta`` (never shown to the agent) and
into ``ctx.labels`` (copied into the episode record).

Meta keys by convention:
- fault injectors: ``meta["injected_fault"] = {"fault_class", "kind", "mode", "path", "original",
  "corrupted"}`` (``kind`` is "structured" or "string"); they may corrupt state via ``ctx.episode``.
- the monitor: ``meta["receipt"]`` (str | None), ``meta["violations"]``, ``meta["recovery_tools"]``,
  ``meta["n_admissible"]``.
- environments' own perturbations (ToolMaze P1-P4): ``meta["perturbed"]``, ``["fault_kind"]``,
  ``["contract_class"]``.

This module knows nothing about models, monitors or faults; it only defines the protocol and
how a chain is applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from environments.base import Episode, Task, ToolCall, ToolResult


@dataclass
class StreamContext:
    """Everything an interposer may know about where a tool call sits in its episode."""

    episode: Episode
    task: Task
    seed: int
    call_index: int  # 0-based index of this tool call in the episode
    calls_per_tool: dict[str, int] = field(default_factory=dict)  # prior calls of each tool (before this one)
    exposed_tools: list[str] = field(default_factory=list)
    labels: dict = field(default_factory=dict)  # harness-side notes (fault applied, receipt fired...) -> records


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
