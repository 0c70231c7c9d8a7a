"""The README and the documentation site: short README naming both commands, no timings in it, the
architecture page's contracts equal to pyproject's, and the site built with --strict and shown in a
real browser."""

from __future__ import annotations

import functools
import http.server
import os
import re
import subprocess
import sys
import threading
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_short_and_names_both_commands():
    assert len(README.splitlines()) <= 150
    assert "make replicate-table1" in README and "make test" in README


def test_the_readme_holds_no_timing_and_no_unmet_goal():
    dated = re.findall(r"20\d\d-\d\d-\d\d", README)
    assert not dated, f"dated figures belong on docs/benchmarks.md: {dated}"
    assert "not met" not in README
    assert not re.search(r"\b\d+(\.\d+)? ?(ms|s|seconds|minutes)\b", README), (
        "timings belong on docs/benchmarks.md"
    )


def test_the_architecture_page_lists_every_import_contract():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = page[page.index("<!-- contracts -->") : page.index("<!-- /contracts -->")]
    listed = [ln[2:] for ln in block.splitlines() if ln.startswith("- ")]
    assert listed == [c["name"] for c in contracts]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    pytest.importorskip("mkdocs", reason="the 'docs' extra is not installed (make docs installs it)")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(out)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def test_the_site_builds_strict_with_every_page(site):
    for page in (
        "index.html",
        "getting-started/index.html",
        "architecture/index.html",
        "benchmarks/index.html",
    ):
        assert (site / page).is_file(), page
    # a page per world folder, its README embedded (not the snippet marker)
    for readme in sorted((ROOT / "environments").glob("*/README.md")):
        if (readme.parent / "plugin.py").is_file():
            page = (site / "worlds" / readme.parent.name / "index.html").read_text(encoding="utf-8")
            assert "--8&lt;--" not in page and "embedded where it lives" in page, readme
    assert "fonts.googleapis" not in (site / "index.html").read_text(encoding="utf-8")


def test_a_page_renders_in_chromium_and_fetches_nothing_outside(site, tmp_path):
    from analysis.report.browser import browser_missing, headless_chromium

    why = browser_missing()
    if why:
        pytest.skip(f"no headless browser for the docs test: {why}")
    from selenium.webdriver.common.by import By

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *a, **k: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with headless_chromium() as d:
            d.get(f"{base}/getting-started/")
            assert d.find_element(By.TAG_NAME, "h1").text == "Getting started"
            nav = d.find_element(By.CSS_SELECTOR, "nav.md-nav--primary").get_attribute("textContent")
            assert "Architecture" in nav and "Benchmarks" in nav
            links = d.execute_script("return Array.from(document.querySelectorAll('a[href]')).length")
            assert links > 20
            fetched = d.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
            assert [u for u in fetched if not u.startswith(base) and not u.startswith("data:")] == []
            shot = tmp_path / "docs.png"
            assert d.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    finally:
        server.shutdown()


def test_every_module_the_architecture_page_draws_exists():
    """The drawing is by hand: each path it names must still be in the tree."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawing = page[page.index("```") : page.index("```", page.index("```") + 3)]
    named = set(re.findall(r"\b((?:conf|core|environments|harness|analysis)/[\w/]*(?:\.py|/))", drawing))
    assert len(named) > 8
    missing = sorted(p for p in named if "<" not in p and not (ROOT / p).exists())
    assert not missing, f"docs/architecture.md draws modules that are gone: {missing}"
