"""The policies plan from messages and schemas alone: none of their modules imports an environment,
the monitor, the fault library or the loop's records (where task internals and fault labels live)."""

from __future__ import annotations

import ast
from pathlib import Path

import harness.agents.policies as pkg

FORBIDDEN = ("environments", "harness.monitor", "harness.faults", "harness.run.study", "harness.records")
POLICY_MODULES = [
    "_checks",
    "_history",
    "_planner",
    "_schema",
    "trusting",
    "receipt_aware",
    "skeptic",
    "noisy",
]


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_policy_modules_import_nothing_that_knows_the_task():
    folder = Path(pkg.__file__).parent
    for name in POLICY_MODULES:
        imported = _imports(folder / f"{name}.py")
        assert imported, name  # the parse found the module's imports
        bad = sorted(m for m in imported if m.startswith(FORBIDDEN))
        assert not bad, f"{name} imports {bad}"
