"""docs/monitor/python-api.md runs as written: its Python blocks, top to bottom, in one namespace
(the inspect_ai block only with the 'inspect' extra), and what its comments say they print is printed;
and the page teaches the library's own imports (``from outcome_monitor import ...``), nothing of the
harness."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "monitor" / "python-api.md"
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)

# the page lives in the repository beside the package (an sdist of the package alone has no docs/)
pytestmark = pytest.mark.skipif(not PAGE.is_file(), reason=f"no {PAGE} (run from the repository)")


def blocks() -> list[str]:
    return BLOCK.findall(PAGE.read_text(encoding="utf-8"))


def test_the_page_has_its_sections():
    text = PAGE.read_text(encoding="utf-8")
    for heading in ("## Learn from a few clean traces", "## Check a result", "## Read a receipt"):
        assert heading in text
    assert len(blocks()) >= 8


def test_the_page_imports_the_library_not_the_harness():
    code = "\n".join(blocks())
    assert "from outcome_monitor import Monitor, learn" in code
    for project in ("harness", "core", "environments", "analysis"):
        assert not re.search(rf"^\s*(from|import) {project}\b", code, re.M), project


def test_every_python_block_runs_and_prints_what_it_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    has_inspect = importlib.util.find_spec("inspect_ai") is not None
    namespace: dict = {"__name__": "python_api_doc"}
    ran = 0
    for code in blocks():
        if "inspect_ai" in code and not has_inspect:
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(PAGE), "exec"), namespace)  # noqa: S102 (our own page)
        ran += 1
        # a one-line `# ['a', 'b']` or `# text` comment after a print states its output
        for line in code.splitlines():
            m = re.match(r"print\(.*\)\s+# (\[.*\])$", line.strip())
            if m:
                assert m.group(1) in out.getvalue(), (line, out.getvalue())
    assert ran >= (len(blocks()) if has_inspect else len(blocks()) - 1)
    assert namespace["receipt"]["violated"] == "total must be positive"


@pytest.mark.skipif(importlib.util.find_spec("inspect_ai") is None, reason="needs the 'inspect' extra")
def test_the_inspect_block_is_on_the_page():
    assert any("monitored(" in code and "mockllm/model" in code for code in blocks())
