"""The README and the documentation site: short README naming both commands, no timings in it, the
architecture page's contracts equal to pyproject's and its drawing checked against them and against the
code's imports, and the site built with --strict and shown in a real browser."""

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


WIDTH = 1280  # px: a laptop's window; no page of the site may scroll sideways in it

# What does not fit at this width, said per element: the page wider than the window, a block that
# scrolls sideways inside the page (a code block, a table), or an element running past the window.
FIT_JS = """
const W = window.innerWidth, bad = [];
const name = el => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
    ? '.' + el.className.trim().split(/\\s+/)[0] : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
if (document.documentElement.scrollWidth > W) bad.push('the page is ' + document.documentElement.scrollWidth + ' px wide');
for (const el of document.querySelectorAll('.md-content *')) {
  const x = getComputedStyle(el).overflowX;
  if ((x === 'auto' || x === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
    bad.push(name(el) + ' scrolls sideways (' + el.scrollWidth + ' > ' + el.clientWidth + ' px)');
  } else if (el.getBoundingClientRect().right > W + 1) {
    bad.push(name(el) + ' runs past the window');
  }
}
return {width: W, bad: bad.slice(0, 5), titles: document.querySelectorAll('.md-content h1').length};
"""


def site_pages(site: Path) -> list[str]:
    """Every page of the built site, as its URL path."""
    skip = ("assets", "search")
    pages = (p.parent.relative_to(site) for p in site.rglob("index.html"))
    return sorted("" if str(p) == "." else f"{p}/" for p in pages if not str(p).startswith(skip))


def test_every_page_fits_1280_px_with_one_title(site, tmp_path):
    """Each page in chromium at 1280 px: a screenshot, nothing wider than the window (no sideways
    scrolling, also none inside a code block or table), and one title (an embedded package README
    brings no second one)."""
    from analysis.report.browser import browser_missing, headless_chromium

    why = browser_missing()
    if why:
        pytest.skip(f"no headless browser for the docs test: {why}")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *a, **k: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    pages = site_pages(site)
    assert len(pages) >= 15 and "architecture/" in pages and "monitor/" in pages, pages
    failures = {}
    try:
        with headless_chromium(WIDTH, 900) as d:
            for page in pages:
                d.get(f"{base}/{page}")
                fit = d.execute_script(FIT_JS)
                assert fit["width"] == WIDTH, fit  # measured at the width the test names
                shot = tmp_path / f"{page.strip('/').replace('/', '_') or 'home'}.png"
                assert d.save_screenshot(str(shot)) and shot.stat().st_size > 10_000, page
                said = [*fit["bad"], *([f"{fit['titles']} page titles"] if fit["titles"] != 1 else [])]
                if said:
                    failures[page] = said
            # and the check sees what it looks for: a page with a block wider than the window
            d.get("data:text/html,<div class='md-content'><pre style='overflow-x:auto'>" + "x" * 400 + "</pre>"
                  "<h1>one</h1><h1>two</h1></div>")  # fmt: skip
            wide = d.execute_script(FIT_JS)
            assert wide["titles"] == 2 and any("scrolls sideways" in b for b in wide["bad"]), wide
    finally:
        server.shutdown()
    assert not failures, f"pages that do not fit {WIDTH} px: {failures}"


def test_every_module_the_architecture_page_draws_exists():
    """The drawing is by hand: each path it names must still be in the tree."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawing = page[page.index("```") : page.index("```", page.index("```") + 3)]
    named = set(re.findall(r"\b((?:conf|core|environments|harness|analysis)/[\w/]*(?:\.py|/))", drawing))
    assert len(named) > 8
    missing = sorted(p for p in named if "<" not in p and not (ROOT / p).exists())
    assert not missing, f"docs/architecture.md draws modules that are gone: {missing}"


# The drawing of the house: its boxes, and the list of imports under it (one importer a line,
# ``a -> b, c``), checked against the contracts (nothing drawn that a contract forbids) and against the
# code (every import between the boxes drawn), so the drawing cannot go stale unseen.

PACKAGES = ("core", "environments", "harness", "analysis", "hydra_plugins")


def drawn_imports() -> dict[str, set[str]]:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = page[page.index("<!-- imports -->") : page.index("<!-- /imports -->")]
    edges: dict[str, set[str]] = {}
    for line in block.splitlines():
        m = re.fullmatch(r"([\w.]+)\s*->\s*([\w., ]+)", line.strip())
        if m:
            edges.setdefault(m[1], set()).update(t.strip() for t in m[2].split(","))
    assert edges, "no import list under the drawing"
    return edges


def drawn_boxes() -> dict[str, int]:
    """Each module the drawing names (``harness/run/`` -> ``harness.run``) and the line it is first on."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawing = page[page.index("```") : page.index("```", page.index("```") + 3)]
    boxes: dict[str, int] = {}
    for i, line in enumerate(drawing.splitlines()):
        for path in re.findall(rf"(?<![\w/])((?:{'|'.join(PACKAGES)})(?:/\w+)*(?:\.py|/))(?!<)", line):
            boxes.setdefault(path.removesuffix(".py").rstrip("/").replace("/", "."), i)
    return boxes


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def matches(pattern: str, module: str) -> bool:
    """import-linter's module expression: ``*`` one name, ``**`` any names."""
    regex = re.escape(pattern).replace(r"\*\*", r"[\w.]+").replace(r"\*", r"\w+")
    return re.fullmatch(regex, module) is not None


def forbidden_by(contract: dict, source: str, target: str) -> bool:
    """Whether ``contract`` forbids the drawn import ``source -> target`` (the box or a parent of it
    named as source, the target or a parent of it as forbidden), unless an ignored import covers it."""
    kind = contract["type"]
    if kind == "forbidden":
        hit = any(within(source, s) for s in contract["source_modules"]) and any(
            within(target, f) for f in contract["forbidden_modules"]
        )
    elif kind == "independence":
        a, b = independent(contract["modules"], source), independent(contract["modules"], target)
        hit = a is not None and b is not None and a != b
    else:
        return False
    ignored = (ln.split("->") for ln in contract.get("ignore_imports", []))
    return hit and not any(
        (within(source, i) or matches(i, source)) and (within(target, j) or matches(j, target))
        for i, j in ((i.strip(), j.strip()) for i, j in ignored)
    )


def independent(patterns: list[str], module: str) -> str | None:
    """The module of an independence contract that holds ``module`` (itself or a parent), if any."""
    for candidate in [module, *parents(module)]:
        if any(matches(p, candidate) for p in patterns):
            return candidate
    return None


def parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:n]) for n in range(len(parts) - 1, 0, -1)]


def contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def test_the_drawing_and_its_import_list_name_the_same_boxes_each_above_what_it_imports():
    edges, boxes = drawn_imports(), drawn_boxes()
    listed = set(edges) | {t for ts in edges.values() for t in ts}
    assert listed == set(boxes), (
        f"drawn, not listed: {set(boxes) - listed}; listed, not drawn: {listed - set(boxes)}"
    )
    below = [(s, t) for s, ts in edges.items() for t in ts if boxes[s] >= boxes[t]]
    assert not below, f"the drawing puts an importer at or under what it imports: {below}"


def test_the_drawn_imports_are_allowed_by_the_contracts():
    edges = drawn_imports()
    refused = sorted(
        (s, t, c["name"]) for s, ts in edges.items() for t in ts for c in contracts() if forbidden_by(c, s, t)
    )
    assert not refused, f"docs/architecture.md draws imports a contract forbids: {refused}"
    # and no circle between siblings of an acyclic contract's ancestors
    for c in (c for c in contracts() if c["type"] == "acyclic_siblings"):
        for ancestor in c["ancestors"]:
            sibling = {
                b for b in {*edges, *(t for ts in edges.values() for t in ts)} if b.startswith(ancestor + ".")
            }
            graph = {s: {t for t in edges.get(s, ()) if t in sibling} for s in sibling}
            while graph:
                leaves = {s for s, ts in graph.items() if not ts}
                assert leaves, f"a drawn circle between the siblings under {ancestor}: {sorted(graph)}"
                graph = {s: ts - leaves for s, ts in graph.items() if s not in leaves}


def test_every_import_between_the_drawn_boxes_is_drawn():
    grimp = pytest.importorskip("grimp")
    boxes = set(drawn_boxes())
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True)

    def box(module: str) -> str | None:
        """The innermost drawn box holding ``module``."""
        held = [b for b in boxes if within(module, b)]
        return max(held, key=len) if held else None

    # every package of the harness and every root package is a box, so nothing goes undrawn
    children = {m for m in graph.modules if m.count(".") == 1 and m.startswith("harness.")}
    assert children - boxes == set(), f"harness packages the drawing leaves out: {children - boxes}"
    assert {"core", "environments", "analysis", "hydra_plugins"} <= boxes
    undrawn = sorted(m for m in graph.modules if box(m) is None and m not in ("harness", "hydra_plugins"))
    assert not undrawn, undrawn

    edges = drawn_imports()
    missing: dict[tuple[str, str], str] = {}
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            a, b = box(importer), box(imported)
            if a and b and a != b and not within(a, b) and not within(b, a) and b not in edges.get(a, ()):
                missing.setdefault((a, b), f"{importer} -> {imported}")
    assert not missing, f"imports the drawing lacks (docs/architecture.md): {missing}"
