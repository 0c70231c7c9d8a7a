"""The outcome monitor: contracts mined from clean tool traces (or derived from schemas and public
records), checked against every tool result, with a nonbinding receipt appended on a violation.

Public API (see each module): ``learn``, ``learn_schema_only``, ``Registry``, ``Rule``,
``Violation``, ``fold_of``, ``build_crossfit``, ``CrossFit``, ``Monitor``, ``Annotation``,
``wrap_tool``, ``annotate_stream``, ``from_json_schema``, ``registry_from_schemas``,
``from_records``, ``bind_records``, ``Thresholds``. Never imports litellm or the agent loop.
"""

from harness.monitor.crossfit import CrossFit, build_crossfit, build_fold, fold_of, workflow_of
from harness.monitor.derive import bind_records, from_json_schema, from_records, registry_from_schemas
from harness.monitor.receipt import VARIANTS, Annotation, Monitor, annotate_stream, wrap_tool
from harness.monitor.recovery import recovery_tools
from harness.monitor.registry import FORMAT_VERSION, Registry, learn, learn_schema_only
from harness.monitor.rules import RULE_CLASSES, Rule, Violation
from harness.monitor.thresholds import DEFAULT, Thresholds

__all__ = [
    "DEFAULT",
    "FORMAT_VERSION",
    "RULE_CLASSES",
    "VARIANTS",
    "Annotation",
    "CrossFit",
    "Monitor",
    "Registry",
    "Rule",
    "Thresholds",
    "Violation",
    "annotate_stream",
    "bind_records",
    "build_crossfit",
    "build_fold",
    "fold_of",
    "from_json_schema",
    "from_records",
    "learn",
    "learn_schema_only",
    "recovery_tools",
    "registry_from_schemas",
    "workflow_of",
    "wrap_tool",
]
