"""The run manifest (``<run_dir>/manifest.json``): what ran, from which code, with which config.

Written at run start (git commit, dirty flag, package versions, python, config hash, resolved
config) and updated at the end (finished time, counts). Every write is atomic (temp file +
rename) so a killed run leaves the previous manifest intact. Knows nothing about episodes beyond
the counts it is given; never stores environment variables.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from environments.seeding import sha256_hex

PINNED = ("hydra-core", "omegaconf", "numpy", "pandas", "scipy", "tqdm", "matplotlib", "litellm", "httpx")
REPO_ROOT = Path(__file__).resolve().parents[1]


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


def _head_from_files(root: Path = REPO_ROOT) -> str | None:
    """HEAD read from ``.git`` directly, for machines without a git executable."""
    head = root / ".git" / "HEAD"
    try:
        text = head.read_text().strip()
        if text.startswith("ref: "):
            ref = text[5:]
            loose = root / ".git" / ref
            if loose.exists():
                return loose.read_text().strip()
            for line in (root / ".git" / "packed-refs").read_text().splitlines():
                if line.endswith(" " + ref):
                    return line.split()[0]
            return None
        return text or None
    except OSError:
        return None


def git_state() -> dict[str, Any]:
    """{"commit", "dirty"}; commit is None outside a git checkout (e.g. an sdist)."""
    commit = _git("rev-parse", "HEAD") or _head_from_files()
    status = _git("status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": None if status is None else bool(status)}


def package_versions(names: tuple[str, ...] = PINNED) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


# keys that steer how a run proceeds, not what it measures: changing them may resume a run
RUN_CONTROL_KEYS = ("progress", "concurrency", "retry_infra_errors", "budget", "cache", "limit", "out", "run_name")


def config_hash(resolved: dict[str, Any]) -> str:
    return sha256_hex(resolved)


def identity_hash(resolved: dict[str, Any]) -> str:
    """Hash of what the records measure; a resumed run must match it."""
    return sha256_hex({k: v for k, v in resolved.items() if k not in RUN_CONTROL_KEYS})


def _now() -> str:
    # wall-clock time is a label of the run, never an input to any draw
    return datetime.now(UTC).isoformat(timespec="seconds")


def write_atomic(path: Path, obj: Any) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, indent=2, sort_keys=True, ensure_ascii=False, default=str)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def start_manifest(run_dir: Path, resolved: dict[str, Any], planned: int) -> dict[str, Any]:
    """Write the manifest at run start; earlier starts of a resumed run are kept in ``resumes``."""
    path = run_dir / "manifest.json"
    previous = json.loads(path.read_text()) if path.exists() else None
    manifest = {
        "manifest_version": 1,
        "git": git_state(),
        "python": platform.python_version(),
        "platform": sys.platform,
        "packages": package_versions(),
        "config_hash": config_hash(resolved),
        "identity_hash": identity_hash(resolved),
        "config": resolved,
        "started": _now(),
        "finished": None,
        "counts": {"planned": planned},
        "resumes": [],
    }
    if previous is not None:
        if previous.get("identity_hash") != manifest["identity_hash"]:
            raise ValueError(
                f"{run_dir} holds a run of a different study config (identity hash "
                f"{str(previous.get('identity_hash'))[:12]} vs {manifest['identity_hash'][:12]}): "
                "use another run_name= or out= instead of mixing records"
            )
        manifest["resumes"] = [*previous.get("resumes", []), {"started": previous.get("started"),
                                                              "finished": previous.get("finished"),
                                                              "git": previous.get("git")}]
    write_atomic(path, manifest)
    return manifest


def finish_manifest(run_dir: Path, manifest: dict[str, Any], counts: dict[str, Any]) -> dict[str, Any]:
    manifest = {**manifest, "finished": _now(), "counts": {**manifest.get("counts", {}), **counts}}
    write_atomic(run_dir / "manifest.json", manifest)
    return manifest
