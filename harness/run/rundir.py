"""The run folder around a run: what is checked before anything is written, and an abort before the
first record that leaves the harness's files as they were.

Everything that can refuse a run (a config error, a resume of another configuration or price table,
a corrupt records file, ``strict`` notices, contracts that cannot be built) is decided before the
first write. What can still stop a run later but before its first record (Ctrl-C, a worker that
dies at start) is undone by ``untouched_unless_recorded``: the manifest and saved config get their
old bytes back and files the run created are removed. Hydra's own ``.hydra/`` and ``run.log`` are
Hydra's (it writes them before the harness starts); the records file and a torn tail moved aside
(``episodes.jsonl.torn``) are never removed.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

RESTORED = (
    "manifest.json",
    "config.yaml",
    "world.json",
    "coverage.json",
)  # rewritten at every start: their old bytes come back
KEPT = frozenset({".hydra", "run.log", "episodes.jsonl", "episodes.jsonl.torn"})


def _records_size(run_dir: Path) -> int:
    path = run_dir / "episodes.jsonl"
    return path.stat().st_size if path.exists() else 0


@contextmanager
def untouched_unless_recorded(run_dir: Path) -> Iterator[None]:
    """Undo the harness's writes to ``run_dir`` if the block fails before any record is appended."""
    existed = run_dir.is_dir()
    before = {p.name for p in run_dir.iterdir()} if existed else set()
    saved = {name: (run_dir / name).read_bytes() for name in RESTORED if (run_dir / name).is_file()}
    size = _records_size(run_dir)
    try:
        yield
    except BaseException:
        if _records_size(run_dir) <= size:  # nothing recorded (a repaired torn tail only shrinks it)
            restore(run_dir, existed, before, saved)
        raise


def restore(run_dir: Path, existed: bool, before: set[str], saved: dict[str, bytes]) -> None:
    if not run_dir.is_dir():
        return
    for name in RESTORED:
        path = run_dir / name
        if name in saved:
            path.write_bytes(saved[name])
        elif path.exists():
            path.unlink()
    for path in run_dir.iterdir():
        if path.name not in before and path.name not in KEPT:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    if not existed and not any(run_dir.iterdir()):
        run_dir.rmdir()
