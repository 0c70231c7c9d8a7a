"""The outcome monitor in the experiments: the library (``outcome_monitor``, its own distribution
under ``outcome-monitor/``) plus what only studies need.

Kept here: cross-fitting over tasks (``crossfit``: the registry that checks a workflow never saw its
traces), a world's contract sources as registries (``sources``), synthetic traces with known
contracts for tests and benchmarks (``synthetic``) and the experiment's command line (``cli``: the
library's plus ``--env``, folds and cross-fit files). The library's surface is re-exported, so
``from harness.monitor import Monitor, learn`` keeps working.
"""

from outcome_monitor import (
    Annotation,
    Monitor,
    Receipt,
    Registry,
    Thresholds,
    Violation,
    from_json_schema,
    learn,
    wrap_async_tool,
    wrap_tool,
)

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
