"""The run manifest (``<run_dir>/manifest.json``): what ran, from which code, with which config.

Written at run start (git commit, dirty flag, package versions, python, config hash, resolved
config) and updated at the end (finished time, counts, and ``records``: the ``seq`` and ``chain`` of
the last line of ``episodes.jsonl``, the anchor that shows records removed from the file's end).
Every write is atomic (temp file + rename) so a killed run leaves the previous manifest intact. A
run folder is refused before anything is written when its records are of another configuration
(:class:`ResumeMismatch`) or were changed after they were written (``RecordChainError``). Knows
nothing about episodes beyond the counts it is given and the records file's anchor; never stores
environment variables.
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

from core.seeding import sha256_hex
from harness import records

PINNED = ("hydra-core", "omegaconf", "numpy", "pandas", "scipy", "tqdm", "matplotlib", "litellm", "httpx")
REPO_ROOT = Path(__file__).resolve().parents[2]


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=10, check=True
        )
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
RUN_CONTROL_KEYS = (
    "progress",
    "concurrency",
    "workers",
    "retry_infra_errors",
    "strict",
    "budget",
    "cache",
    "limit",
    "trials",  # more trials add episodes; each (pair, trial) is the same whatever the count
    "out",
    "run_name",
)
# fields of a resolved model spec that steer calls or price them, never what a reply is
MODEL_CONTROL_FIELDS = (
    "max_concurrency",
    "requests_per_minute",
    "tokens_per_minute",
    "preamble",
    "max_attempts",
    "timeout_s",
    "api_key_env",
    "input_cost_per_mtok",
    "cached_input_cost_per_mtok",
    "output_cost_per_mtok",
)


def config_hash(resolved: dict[str, Any]) -> str:
    return sha256_hex(resolved)


def identity(resolved: dict[str, Any]) -> dict[str, Any]:
    """What the records measure: the resolved config without run-control keys (models' included)."""
    # the model group's nodes and model_overrides made the resolved specs, which carry each model's identity
    # (less its run-control fields): a max_concurrency set either way may change on resume
    out = {k: v for k, v in resolved.items() if k not in (*RUN_CONTROL_KEYS, "model", "model_overrides")}
    specs = dict(out.get("resolved") or {})
    for group in ("models", "reviewers"):
        if isinstance(specs.get(group), dict):
            specs[group] = {n: _model_identity(m) for n, m in specs[group].items()}
    if isinstance(specs.get("user"), dict):
        specs["user"] = _model_identity(specs["user"])
    if specs:
        out["resolved"] = specs
    return out


def _model_identity(spec: Any) -> Any:
    return (
        {k: v for k, v in spec.items() if k not in MODEL_CONTROL_FIELDS} if isinstance(spec, dict) else spec
    )


def identity_hash(resolved: dict[str, Any]) -> str:
    """Hash of what the records measure; a resumed run must match it."""
    return sha256_hex(identity(resolved))


def changed_keys(old: Any, new: Any, prefix: str = "") -> list[str]:
    """Dotted keys whose values differ between two JSON trees (``resolved.models.x.temperature``)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[str] = []
        for k in sorted(set(old) | set(new), key=str):
            out += changed_keys(old.get(k), new.get(k), f"{prefix}.{k}" if prefix else str(k))
        return out
    return [] if old == new else [prefix or "(root)"]


def _now() -> str:
    # wall-clock time is a label of the run, never an input to any draw
    return datetime.now(UTC).isoformat(timespec="seconds")


def write_atomic(path: Path, obj: Any, *, indent: int | None = 2) -> None:
    """Write JSON so a reader sees the old file or the whole new one. ``indent=None`` writes one
    compact line through json's C encoder (any indent takes its pure-Python path: transcripts, a
    file per episode, are written compact)."""
    text = json.dumps(obj, indent=indent, sort_keys=True, ensure_ascii=False, default=str)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


class ResumeMismatch(ValueError):
    """A run folder's records were made with another configuration."""


PRICE_FIELDS = ("input_cost_per_mtok", "cached_input_cost_per_mtok", "output_cost_per_mtok")


def previous_manifest(run_dir: Path) -> dict[str, Any] | None:
    path = run_dir / "manifest.json"
    return json.loads(path.read_text()) if path.exists() else None


def check_resume(run_dir: Path, resolved: dict[str, Any]) -> None:
    """Refuse to resume a folder whose records measure another configuration or were priced from
    another price table, or whose records were changed after they were written; reads only."""
    previous = previous_manifest(run_dir)
    records.check_resumable(run_dir / "episodes.jsonl", (previous or {}).get("records"))
    if previous is None:
        return
    if "arms" in (previous.get("config") or {}):  # written before arms, models and faults were config groups
        raise ResumeMismatch(
            f"{run_dir} was started before arms, models and faults became config groups (2026-12-06), so its "
            "saved config cannot be compared with today's: its records stay as they are (analysis and "
            "`make verify` read them); run the study again with another run_name= or out=."
        )
    if previous.get("identity_hash") != identity_hash(resolved):
        before = previous.get("identity")
        if before is None and isinstance(previous.get("config"), dict):
            before = identity(previous["config"])
        keys = changed_keys(before, identity(resolved)) if before is not None else []
        shown = ", ".join(keys[:12]) + (f" (+{len(keys) - 12} more)" if len(keys) > 12 else "")
        raise ResumeMismatch(
            f"{run_dir} holds records of a different configuration; changed: {shown or 'unknown keys'}. "
            "Resuming would mix records of two configurations: undo the change, or use another run_name= "
            "or out= for the new configuration."
        )
    changes = price_changes(previous.get("config") or {}, resolved)
    if changes:
        raise ResumeMismatch(
            f"{run_dir} was priced from another price table: {'; '.join(changes)}. A run keeps one price table "
            "(records hold the cost of each call when it was made): restore the price in conf/model, or use "
            "another run_name= or out= for the new prices."
        )


def price_changes(before: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """``model field old -> new`` for every price that differs between two resolved configs."""
    out = []
    old_specs, new_specs = (c.get("resolved") or {} for c in (before, now))
    for group in ("models", "reviewers"):
        old, new = old_specs.get(group) or {}, new_specs.get(group) or {}
        for name in sorted(set(old) & set(new)):
            for key in PRICE_FIELDS:
                if (old[name] or {}).get(key) != (new[name] or {}).get(key):
                    out.append(f"{group[:-1]} {name} {key} {old[name].get(key)} -> {new[name].get(key)}")
    old_user, new_user = old_specs.get("user") or {}, new_specs.get("user") or {}
    for key in PRICE_FIELDS if old_user and new_user else ():
        if old_user.get(key) != new_user.get(key):
            out.append(f"user {new_user.get('name')} {key} {old_user.get(key)} -> {new_user.get(key)}")
    return out


def start_manifest(
    run_dir: Path, resolved: dict[str, Any], planned: int, fingerprint: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Write the manifest at run start; earlier starts of a resumed run are kept in ``resumes``.

    ``fingerprint`` (``harness.run.fingerprint``) holds the hashes ``verify`` recomputes later. Records
    changed after they were written stop the run here (``RecordChainError``), before any write.
    """
    check_resume(run_dir, resolved)
    previous = previous_manifest(run_dir)
    anchor = (previous or {}).get("records")  # the last finish's anchor, until this run finishes
    manifest: dict[str, Any] = {
        "manifest_version": 1,
        "git": git_state(),
        "python": platform.python_version(),
        "platform": sys.platform,
        "packages": package_versions(),
        "config_hash": config_hash(resolved),
        "identity_hash": identity_hash(resolved),
        "identity": identity(resolved),
        "config": resolved,
        "fingerprint": fingerprint or {},
        "started": _now(),
        "finished": None,
        "counts": {"planned": planned},
        "records": anchor,
        "resumes": [],
    }
    if previous is not None:
        manifest["resumes"] = [
            *previous.get("resumes", []),
            {
                "started": previous.get("started"),
                "finished": previous.get("finished"),
                "git": previous.get("git"),
            },
        ]
    write_atomic(run_dir / "manifest.json", manifest)
    return manifest


def finish_manifest(run_dir: Path, manifest: dict[str, Any], counts: dict[str, Any]) -> dict[str, Any]:
    """The finish time, the counts, and the records file's last line as the anchor ``verify`` checks."""
    manifest = {
        **manifest,
        "finished": _now(),
        "counts": {**manifest.get("counts", {}), **counts},
        "records": records.head(run_dir / "episodes.jsonl"),
    }
    write_atomic(run_dir / "manifest.json", manifest)
    return manifest
