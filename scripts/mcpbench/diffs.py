"""diffchunk (PyPI, ``mcp.server.fastmcp`` of the SDK 1.x): a billing service's patch series, navigated chunk by
chunk.

Its results are one text block and no structured content: an overview as indented JSON (chunks with their files,
per-file line counts, token estimates and summaries; totals), a load's counts as indented JSON, chunk numbers as a
compact JSON list (empty when no file matches), a chunk's raw diff under a ``=== Chunk N of M ===`` header (files,
lines, a ``=`` rule) or annotated with line numbers, and one file's diff as git prints it. The fixture is fourteen
unified diffs made here with difflib (new, changed and deleted files of Python modules, SQL migrations, YAML
settings, docs and tests, with ``diff --git`` and ``index`` lines); custom loads go to copies that the other tools
never read, so every chunk number drawn exists whatever the session loaded before.
"""

from __future__ import annotations

import difflib
import random
import shutil
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import FIRST, Fixture

DIRS = ("src/billing", "src/ledger", "src/api", "migrations", "config", "docs", "tests")
STEMS = (
    "invoice",
    "refund",
    "tax",
    "currency",
    "customer",
    "payment",
    "report",
    "schedule",
    "audit",
    "export",
)
EXT = {"src/billing": "py", "src/ledger": "py", "src/api": "py", "migrations": "sql", "config": "yaml",
       "docs": "md", "tests": "py"}  # fmt: skip
PATTERNS = (
    "*.py",
    "*.sql",
    "*.yaml",
    "*.md",
    "src/*",
    "tests/*",
    "*test*",
    "docs/*",
    "src/billing/*",
    "*invoice*",
)


def _source(rng: random.Random, ext: str, n: int) -> list[str]:
    out = []
    for i in range(n):
        word, k = rng.choice(STEMS), rng.randrange(1000)
        out.append({"py": f"    {word}_{i} = compute_{word}(amount={k}, rate={rng.uniform(0, 1):.3f})",
                    "sql": f"ALTER TABLE {word}s ADD COLUMN c{i} NUMERIC({rng.randrange(8, 20)}, 2) DEFAULT {k};",
                    "yaml": f"  {word}_{i}: {k}",
                    "md": f"- The {word} step {i} takes {k} ms for {rng.choice(FIRST)}."}[ext])  # fmt: skip
    return out


def _edit(rng: random.Random, lines: list[str], ext: str) -> list[str]:
    new = list(lines)
    for _ in range(rng.randrange(1, 8)):
        at = rng.randrange(len(new) + 1)
        r = rng.random()
        if r < 0.4 and new:
            new[min(at, len(new) - 1)] = _source(rng, ext, 1)[0]
        elif r < 0.7:
            new[at:at] = _source(rng, ext, rng.randrange(1, 12))
        elif new:
            del new[at : at + rng.randrange(1, 6)]
    return new if new != lines else [*new, *_source(rng, ext, 1)]


def _file_diff(rng: random.Random, path: str) -> list[str]:
    ext = path.rsplit(".", 1)[1]
    old = _source(rng, ext, rng.randrange(10, 160))
    kind = rng.choice(("change", "change", "change", "new", "deleted"))
    a, b = f"{rng.getrandbits(28):07x}", f"{rng.getrandbits(28):07x}"
    head = [f"diff --git a/{path} b/{path}"]
    if kind == "new":
        head += ["new file mode 100644", f"index 0000000..{b}"]
        body = difflib.unified_diff([], old, "/dev/null", f"b/{path}", lineterm="")
    elif kind == "deleted":
        head += ["deleted file mode 100644", f"index {a}..0000000"]
        body = difflib.unified_diff(old, [], f"a/{path}", "/dev/null", lineterm="")
    else:
        head += [f"index {a}..{b} 100644"]
        body = difflib.unified_diff(old, _edit(rng, old, ext), f"a/{path}", f"b/{path}", lineterm="",
                                    n=rng.choice((3, 3, 1, 5)))  # fmt: skip
    return head + list(body)


def diffs_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    store, custom = work / "patches", work / "custom"
    store.mkdir(parents=True)
    custom.mkdir()
    patches: list[dict[str, object]] = []
    for k in range(14):
        names = sorted({f"{d}/{rng.choice(STEMS)}{'_test' if d == 'tests' else ''}.{EXT[d]}"
                        for d in rng.choices(DIRS, k=rng.randrange(3, 30))})  # fmt: skip
        lines = [line for name in names for line in _file_diff(rng, name)]
        path = (
            store
            / f"{k + 1:04d}-{rng.choice(STEMS)}-{rng.choice(('fix', 'feature', 'cleanup', 'release'))}.diff"
        )
        path.write_text("\n".join(lines) + "\n")
        shutil.copy(path, custom / path.name)
        patches.append(
            {"path": str(path), "copy": str(custom / path.name), "files": names, "lines": len(lines)}
        )
    return Fixture([*binary], {"patches": patches})


def diffs_call(rng: random.Random, fx: Fixture) -> Call:
    patch = rng.choice(fx.facts["patches"])
    path, files = patch["path"], patch["files"]
    r = rng.random()
    if r < 0.2:
        return "list_chunks", {"absolute_file_path": path}
    if r < 0.5:  # chunks hold at most 1000 lines: there are at least lines // 1000 of them (and one)
        args = {
            "absolute_file_path": path,
            "chunk_number": rng.randrange(1, max(1, patch["lines"] // 1000) + 1),
        }
        if rng.random() < 0.4:
            args["format"] = rng.choice(("raw", "annotated", "compact"))
        if rng.random() < 0.2:
            args["include_context"] = False
        return "get_chunk", args
    if r < 0.65:
        pattern = rng.choice(PATTERNS) if rng.random() < 0.8 else rng.choice(files).rsplit("/", 1)[0] + "/*"
        return "find_chunks_for_files", {"absolute_file_path": path, "pattern": pattern}
    if r < 0.85:
        return "get_file_diff", {"absolute_file_path": path, "file_path": rng.choice(files)}
    args = {"absolute_file_path": patch["copy"], "max_chunk_lines": rng.choice((50, 120, 300, 1000, 4000))}
    if rng.random() < 0.3:
        args["include_patterns"] = rng.choice(files).rsplit("/", 1)[0] + "/*"
    if rng.random() < 0.3:
        args["context_lines"] = rng.randrange(0, 4)
    if rng.random() < 0.2:
        args["skip_trivial"] = False
    return "load_diff", args
