"""The layers as import contracts (pyproject's [tool.importlinter]), checked by import-linter itself.

The contracts hold on this checkout, and a deliberately forbidden import in a copy of the tree
breaks the contract that names it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")


def lint(root: Path) -> subprocess.CompletedProcess:
    # the library's src folder first: a copy of the tree lints its own copy of outcome_monitor
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "outcome-monitor" / "src"), str(root)])}
    return subprocess.run(
        [str(LINT), "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_contracts_hold():
    res = lint(ROOT)
    assert res.returncode == 0, res.stdout[-3000:]
    import tomllib

    n = len(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"])
    assert "0 broken" in res.stdout and f"{n} kept" in res.stdout and n >= 9


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        (
            "environments/toolmaze/env.py",
            "import harness.records",
            "environments know nothing of the harness",
        ),
        ("environments/toolmaze/env.py", "import environments.taubench.env", "worlds are independent"),
        ("core/protocol.py", "import harness.records", "core is the floor"),
        ("harness/run/workers.py", "import harness.run.study", "nor between the run's modules"),
        ("harness/records/chain.py", "import harness.run.plan", "no circle between the harness's packages"),
        ("harness/run/study.py", "import environments.toolmaze.env", "import no world"),
        (
            "outcome-monitor/src/outcome_monitor/receipts/monitor.py",
            "import harness.llm.models",
            "the monitor makes no model call",
        ),
        ("outcome-monitor/src/outcome_monitor/registry.py", "import core.protocol", "the monitor library"),
        (
            "harness/faults/classes.py",
            "import outcome_monitor.checking.rules",
            "written apart from the monitor",
        ),
        ("analysis/tables.py", "import harness.run.study", "analysis reads records only"),
        ("harness/records/files.py", "import litellm", "the records schema stays light"),
        ("harness/llm/providers/scripted.py", "import harness.llm.models", "no circle"),
    ],
)
def test_a_forbidden_import_breaks_its_contract(tmp_path, module, line, contract):
    for part in ("core", "environments", "harness", "analysis", "hydra_plugins", "outcome-monitor"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / module
    target.write_text(target.read_text() + f"\n{line}  # noqa\n")
    res = lint(tmp_path)
    assert res.returncode != 0
    broken = res.stdout[res.stdout.index("Broken contracts") :]
    assert contract in broken, broken[:2000]


LONG = 80  # lines: a function longer than this in the run's spine hides its steps


@pytest.mark.parametrize(
    "module", ["harness/run/study.py", "harness/run/workers.py", "harness/agents/loop.py"]
)
def test_no_long_function_in_the_runs_spine(module):
    import ast

    tree = ast.parse((ROOT / module).read_text())
    long = [
        f"{n.name} ({n.end_lineno - n.lineno + 1} lines)"
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.end_lineno - n.lineno + 1 > LONG
    ]
    assert not long, f"{module}: {', '.join(long)} over {LONG} lines"


def test_no_file_outside_a_world_names_it():
    """A world is one folder: outside environments/<world>/ only docs, tests, scripts, results, the
    Makefile, .gitignore and conf/config.yaml may name it."""
    from core import worlds

    allowed = (
        ":!*.md",
        ":!tests",
        ":!scripts",
        ":!results",
        ":!Makefile",
        ":!.gitignore",
        ":!conf/config.yaml",
    )
    offenders = {}
    for name in worlds.world_names():
        folder = worlds.discover()[name].folder
        if folder is None or ROOT not in folder.parents:
            continue
        out = subprocess.run(
            ["git", "grep", "-il", name, "--", ".", f":!{folder.relative_to(ROOT)}", *allowed],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if out.stdout.strip():
            offenders[name] = out.stdout.split()
    assert not offenders, offenders


CIRCLE_PACKAGES = ("core", "harness", "analysis", "environments")


def mutual_imports(*packages: str) -> list[tuple[str, str]]:
    """Every pair of modules of ``packages`` that import each other, directly: at module level, inside a
    function or under ``if TYPE_CHECKING:`` alike (a reader cannot tell which of such a pair comes first)."""
    import grimp

    graph = grimp.build_graph(*packages, include_external_packages=False, cache_dir=None)
    return sorted(
        (a, b)
        for a in graph.modules
        for b in graph.find_modules_directly_imported_by(a)
        if a < b and a in graph.find_modules_directly_imported_by(b)
    )


def test_no_module_imports_a_module_that_imports_it():
    pairs = mutual_imports(*CIRCLE_PACKAGES)
    assert not pairs, "modules that import each other: " + "; ".join(f"{a} <-> {b}" for a, b in pairs)


def test_a_pair_that_imports_each_other_is_named(tmp_path, monkeypatch):
    """The check finds a pair (one side importing only for annotations) and names both modules."""
    pkg = tmp_path / "circlepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "first.py").write_text("from circlepkg import second\n")
    (pkg / "second.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from circlepkg.first import x\n"
    )
    (pkg / "third.py").write_text("import circlepkg.first\n")  # one way only: no pair
    monkeypatch.syspath_prepend(str(tmp_path))
    assert mutual_imports("circlepkg") == [("circlepkg.first", "circlepkg.second")]
