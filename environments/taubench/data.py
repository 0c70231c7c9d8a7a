"""Find, verify and load a domain's data folder (database, policy, task lists).

The root is ``data_dir`` when given, else ``$TAUBENCH_DATA``, else ``<repo>/data/taubench``; it holds
one folder per domain (``retail/``, ``airline/``). A folder holding a domain's files directly (the
layout of one domain's folder, e.g. a retail folder as this world read before airline came) serves
as that domain's folder. Every file is checked against the pinned
sha256 of ``checksums`` before it is read; a missing folder, a missing file or a mismatch raises
:class:`DataError` naming the file and the fix. Loaded data is cached per folder for the process.
Knows nothing about tools, episodes or rewards.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.protocol import WorldUnavailable
from environments.taubench.checksums import DB_FILES, SHA256, TASK_FILES
from environments.taubench.db import BaseDB

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ROOT = REPO_ROOT / "data" / "taubench"
ENV_VAR = "TAUBENCH_DATA"
FIX = (
    f"run `make data-taubench` (or set {ENV_VAR} to a folder holding retail/ and airline/ "
    "with the verified files)"
)


class DataError(WorldUnavailable):
    """A domain's data folder is missing, incomplete or altered."""


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
class DomainData:
    domain: str
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


def resolve_root(data_dir: str | os.PathLike[str] | None = None) -> Path:
    if data_dir is not None and str(data_dir) != "":
        return Path(data_dir).expanduser()
    env = os.environ.get(ENV_VAR)
    return Path(env).expanduser() if env else DEFAULT_ROOT


def domain_dir(root: Path, domain: str) -> Path:
    """``root/<domain>``; a folder holding the domain's database files itself is that domain's folder."""
    sub = root / domain
    if not sub.is_dir() and all((root / name).is_file() for name in DB_FILES[domain]):
        return root
    return sub


def resolve_dir(data_dir: str | os.PathLike[str] | None = None, domain: str = "retail") -> Path:
    return domain_dir(resolve_root(data_dir), domain)


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def verify(folder: Path, domain: str = "retail") -> dict[str, bytes]:
    """The bytes of every pinned file of a domain's ``folder``, each checked against its sha256."""
    if not folder.is_dir():
        raise DataError(f"tau-bench {domain} data folder {folder} does not exist: {FIX}")
    out: dict[str, bytes] = {}
    for name, want in SHA256[domain].items():
        path = folder / name
        if not path.is_file():
            raise DataError(f"tau-bench {domain} data file {path} is missing: {FIX}")
        raw = path.read_bytes()
        got = hashlib.sha256(raw).hexdigest()
        if got != want:
            raise DataError(
                f"tau-bench {domain} data file {path} has sha256 {got}, expected {want} "
                f"(altered or wrong version): {FIX}"
            )
        out[name] = raw
    return out


_CACHE: dict[tuple[str, str], DomainData] = {}


def load(data_dir: str | os.PathLike[str] | None = None, domain: str = "retail") -> DomainData:
    """The verified data of a domain (cached per resolved folder for the process)."""
    if domain not in SHA256:
        raise ValueError(f"unknown tau-bench domain {domain!r}; known: {', '.join(SHA256)}")
    folder = resolve_dir(data_dir, domain).resolve()
    key = (str(folder), domain)
    if key not in _CACHE:
        raw = verify(folder, domain)
        identity = f"{domain}:{folder_digest(SHA256[domain])}"
        base = BaseDB({name[:-5]: json.loads(raw[name]) for name in DB_FILES[domain]}, identity)
        tasks = {split: _tasks(split, json.loads(raw[name])) for split, name in TASK_FILES[domain].items()}
        _CACHE[key] = DomainData(
            domain, folder, base, raw["wiki.md"].decode("utf-8"), tasks, dict(SHA256[domain])
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
