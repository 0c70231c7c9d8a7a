"""The outcome monitor: contracts learned from clean tool results (or derived from a JSON Schema),
checked against every tool result, with a nonbinding receipt appended on a violation.

The library's surface is ``__all__`` (``docs/monitor/python-api.md`` walks through it): ``learn``
a ``Registry`` from clean ``{tool, arguments, result}`` rows (or ``from_json_schema``), give it to a
``Monitor``, and ``annotate`` a result (an ``Annotation``, whose ``receipt`` is a ``Receipt``) or
wrap a tool function (``wrap_tool``, ``wrap_async_tool``); ``annotate`` never raises because of a
result (one it cannot check passes through raw with a ``note``, counted). ``monitored`` in
``harness.monitor.inspect_tool`` does the same for an inspect_ai tool (the ``inspect`` extra). The
experiment's machinery stays in its modules (cross-fitting in ``crossfit``, database contracts in
``derive``, ``VARIANTS`` and ``annotate_stream`` in ``receipt``, ...).

Importing it changes no environment variable and imports neither litellm, Hydra, omegaconf nor
pandas (``tests/harness/monitor/test_library.py``); it never makes a model call.
"""

from harness.monitor.derive import from_json_schema
from harness.monitor.receipt import Annotation, Monitor, wrap_async_tool, wrap_tool
from harness.monitor.registry import Registry, learn
from harness.monitor.rules import Violation
from harness.monitor.thresholds import Thresholds
from harness.stream import Receipt

__all__ = [
    "Annotation",
    "Monitor",
    "Receipt",
    "Registry",
    "Thresholds",
    "Violation",
    "from_json_schema",
    "learn",
    "wrap_async_tool",
    "wrap_tool",
]
