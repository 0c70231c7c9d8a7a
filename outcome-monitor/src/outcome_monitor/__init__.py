"""The outcome monitor: contracts learned from clean tool results (or derived from a JSON Schema),
checked against every tool result, with a nonbinding receipt appended on a violation.

``learn`` a ``Registry`` from clean ``{tool, arguments, result}`` rows (or ``from_json_schema``),
give it to a ``Monitor``, and ``annotate`` a result (an ``Annotation``, whose ``receipt`` is a
``Receipt``) or wrap a tool function (``wrap_tool``, ``wrap_async_tool``). ``annotate`` never raises
because of a result: one it cannot check passes through raw with a ``note``, counted.

The package's folders are how it works: ``learning`` (clean rows -> rules), ``checking`` (rules ->
compiled checks, violations), ``text`` (structure read out of text), ``receipts`` (a violation ->
the receipt and its recovery tools), ``adapters`` (the MCP proxy, the inspect_ai wrapper) and
``cli`` (``outcome-monitor learn | check | explain | coverage | proxy``).

The names below load on first use, so ``import outcome_monitor`` is cheap. The monitor makes no
model call and needs no third-party package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from outcome_monitor._version import __version__

if TYPE_CHECKING:
    from outcome_monitor.checking.rules import Violation
    from outcome_monitor.learning.derive import from_json_schema
    from outcome_monitor.receipts.monitor import Annotation, Monitor, wrap_async_tool, wrap_tool
    from outcome_monitor.receipts.receipt import Receipt
    from outcome_monitor.registry import Registry, learn
    from outcome_monitor.thresholds import Thresholds

_WHERE = {
    "Annotation": "outcome_monitor.receipts.monitor",
    "Monitor": "outcome_monitor.receipts.monitor",
    "Receipt": "outcome_monitor.receipts.receipt",
    "Registry": "outcome_monitor.registry",
    "Thresholds": "outcome_monitor.thresholds",
    "Violation": "outcome_monitor.checking.rules",
    "from_json_schema": "outcome_monitor.learning.derive",
    "learn": "outcome_monitor.registry",
    "wrap_async_tool": "outcome_monitor.receipts.monitor",
    "wrap_tool": "outcome_monitor.receipts.monitor",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'outcome_monitor' has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "Annotation",
    "Monitor",
    "Receipt",
    "Registry",
    "Thresholds",
    "Violation",
    "__version__",
    "from_json_schema",
    "learn",
    "wrap_async_tool",
    "wrap_tool",
]
