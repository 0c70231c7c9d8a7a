"""Find, verify and load the retail data folder (database, policy, task lists).

The folder is ``data_dir`` when given, else ``$TAUBENCH_DATA``, else ``<repo>/data/taubench/retail``.
Every file is checked against the pinned sha256 of ``checksums`` before it is read; a missing
folder, a missing file or a mismatch raises :class:`DataError` naming the file and the fix.
Loaded data is cached per folder for the process. Knows nothing about tools, episodes or rewards.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.protocol import WorldUnavailable
from environments.taubench.checksums import DB_FILES, SHA256, SPLITS, TASK_FILES
from environments.taubench.db import BaseDB

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DIR = REPO_ROOT / "data" / "taubench" / "retail"
ENV_VAR = "TAUBENCH_DATA"
FIX = f"run `make data-taubench` (or set {ENV_VAR} to a folder holding the verified files)"


class DataError(WorldUnavailable):
    """The retail data folder is missing, incomplete or altered."""


@dataclass(frozen=True)
class TaskRecord:
    """One upstream task, hidden from the agent: the user's instruction and the ground truth."""

    task_id: str
    split: str
    index: int
    user_id: str
    instruction: str
    actions: tuple[dict[str, Any], ...]  # {"name", "kwargs"} in order
    outputs: tuple[str, ...]
    annotator: str = ""


@dataclass(frozen=True)
class RetailData:
    folder: Path
    base: BaseDB
    wiki: str
    tasks: dict[str, list[TaskRecord]]
    sha256: dict[str, str]  # file name -> verified sha256

    def folder_sha256(self) -> str:
        """One hash over the folder: sha256 of the sorted ``<sha256>  <name>`` lines."""
        return folder_digest(self.sha256)


def folder_digest(hashes: dict[str, str]) -> str:
    lines = "".join(f"{h}  {name}\n" for name, h in sorted(hashes.items()))
    return hashlib.sha256(lines.encode()).hexdigest()


def resolve_dir(data_dir: str | os.PathLike[str] | None = None) -> Path:
    if data_dir is not None and str(data_dir) != "":
        return Path(data_dir).expanduser()
    env = os.environ.get(ENV_VAR)
    return Path(env).expanduser() if env else DEFAULT_DIR


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def verify(folder: Path) -> dict[str, bytes]:
    """The bytes of every pinned file of ``folder``, each checked against its sha256."""
    if not folder.is_dir():
        raise DataError(f"tau-bench data folder {folder} does not exist: {FIX}")
    out: dict[str, bytes] = {}
    for name, want in SHA256.items():
        path = folder / name
        if not path.is_file():
            raise DataError(f"tau-bench data file {path} is missing: {FIX}")
        raw = path.read_bytes()
        got = hashlib.sha256(raw).hexdigest()
        if got != want:
            raise DataError(
                f"tau-bench data file {path} has sha256 {got}, expected {want} (altered or wrong version): {FIX}"
            )
        out[name] = raw
    return out


_CACHE: dict[str, RetailData] = {}


def load(data_dir: str | os.PathLike[str] | None = None) -> RetailData:
    """The verified data of a folder (cached per resolved folder for the process)."""
    folder = resolve_dir(data_dir).resolve()
    key = str(folder)
    if key not in _CACHE:
        raw = verify(folder)
        base = BaseDB({name[:-5]: json.loads(raw[name]) for name in DB_FILES})
        tasks = {split: _tasks(split, json.loads(raw[TASK_FILES[split]])) for split in SPLITS}
        _CACHE[key] = RetailData(
            folder, base, raw["wiki.md"].decode("utf-8"), tasks, {name: SHA256[name] for name in SHA256}
        )
    return _CACHE[key]


def _tasks(split: str, rows: list[dict[str, Any]]) -> list[TaskRecord]:
    return [
        TaskRecord(
            task_id=f"{split}-{i}",
            split=split,
            index=i,
            user_id=str(row["user_id"]),
            instruction=str(row["instruction"]),
            actions=tuple({"name": a["name"], "kwargs": dict(a["kwargs"])} for a in row["actions"]),
            outputs=tuple(str(o) for o in row.get("outputs", [])),
            annotator=str(row.get("annotator", "")),
        )
        for i, row in enumerate(rows)
    ]
