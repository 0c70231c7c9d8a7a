"""docs/monitor/library-layout.md names every module of the package, each once and under its own
folder, and nothing that is gone: the page cannot go stale unseen."""

from __future__ import annotations

import re
from pathlib import Path

import outcome_monitor
import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "monitor" / "library-layout.md"
PACKAGE = Path(outcome_monitor.__file__).resolve().parent

pytestmark = pytest.mark.skipif(not PAGE.is_file(), reason=f"no {PAGE} (run from the repository)")


def listed() -> dict[str, list[str]]:
    """Per folder heading (``""`` for the top), the names in the first column of its table."""
    out: dict[str, list[str]] = {}
    folder = None
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"## `outcome_monitor/` \(top\)|## `(\w+)/`", line)
        if line.startswith("## "):
            folder = (heading.group(1) or "") if heading else None
            continue
        cell = re.match(r"\| `([\w.]+)` \|", line)
        if folder is not None and cell:
            out.setdefault(folder, []).append(cell.group(1))
    return out


def present() -> dict[str, list[str]]:
    """Per folder of the package, its modules and data files (a sub-package's ``__init__`` is its
    heading, not a line)."""
    out: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*")):
        if "__pycache__" in path.parts or path.is_dir():
            continue
        if path.suffix not in (".py", ".json") and path.name != "py.typed":
            continue
        folder = path.parent.relative_to(PACKAGE).as_posix()
        folder = "" if folder == "." else folder
        if folder and path.name == "__init__.py":
            continue
        out.setdefault(folder, []).append(path.name)
    return out


def test_every_module_is_on_the_page_once_under_its_folder():
    on_page, in_package = listed(), present()
    assert set(in_package) >= {"", "learning", "checking", "text", "receipts", "adapters", "cli"}
    for folder in sorted(set(on_page) | set(in_package)):
        names = on_page.get(folder, [])
        assert len(names) == len(set(names)), (folder, names)
        assert sorted(names) == sorted(in_package.get(folder, [])), folder
