"""Episode records: one JSON line per episode in ``<run_dir>/episodes.jsonl``, and resume.

Holds the record schema (``REQUIRED_KEYS``, ``validate_record``), the id helpers
(``make_pair_id``, ``make_episode_id``), the crash-safe ``RecordWriter`` (one ``write()`` per
line, flush + fsync), ``load_records`` (repairs a torn final line, refuses mid-file
corruption) and the resume helpers ``latest_by_episode`` / ``finished_keys``.

It must not know how episodes are run, nor import litellm.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from core.seeding import sha256_hex

RECORD_VERSION = 2
STATUSES = ("completed", "agent_failed", "infra_error", "env_error", "budget_exhausted")
INFRA_STATUSES = ("infra_error", "env_error")  # infrastructure: never scored
NEXT_ACTIONS = ("switched_listed", "other_tool", "retried_same", "stopped")
# Record fields measured on the wall clock: the only ones a cache replay may change.
WALL_CLOCK_FIELDS = frozenset({"latency_s"})

# key -> accepted types (None allowed where the type tuple includes type(None))
_NONE = type(None)
REQUIRED_KEYS: dict[str, tuple[type, ...]] = {
    "record_version": (int,),
    "study": (str,),
    "arm": (str,),
    "model": (str,),
    "task_id": (str,),
    "group_id": (str,),
    "fold": (int, str, _NONE),
    "fault_class": (str, _NONE),
    "fault_kind": (str, _NONE),
    "seed": (int,),
    "pair_id": (str,),
    "success": (bool,),
    "status": (str,),
    "episode_id": (str,),
    "replicate": (int,),
}
OPTIONAL_KEYS: dict[str, tuple[type, ...]] = {
    "env": (str,),
    "workflow_id": (str,),
    "strata": (dict,),
    "outcome_correct": (bool, _NONE),
    "outcome": (dict, _NONE),
    "user_cost_usd": (int, float),
    "scripted": (bool,),
    "fault_kinds_hit": (list,),
    "tool_calls": (list,),
    "n_tool_calls": (int,),
    "ignored_parallel_calls": (int,),
    "receipts": (list,),
    "n_receipts": (int,),
    "hit": (bool,),
    "final_answer": (str, _NONE),
    "finish_status": (str, _NONE),
    "prompt_tokens": (int,),
    "completion_tokens": (int,),
    "cost_usd": (int, float),
    "reviewer_calls": (int,),
    "reviewer_cost_usd": (int, float),
    "latency_s": (int, float),
    "error": (str, _NONE),
    "transcript": (str, _NONE),
    "trace_check": (dict, _NONE),
}


class RecordCorruptError(ValueError):
    """A line in the middle of a records file is not a JSON object: refuse to guess."""


def make_pair_id(study: str, model: str, task: str, fault: str | None, seed: int, replicate: int) -> str:
    """Shared by both arms of a pair: sha256 of (study, model, workflow/task id, fault, seed, replicate)."""
    return sha256_hex(["pair", study, model, task, fault, int(seed), int(replicate)])


def make_episode_id(
    study: str, arm: str, model: str, task_id: str, fault: str | None, seed: int, replicate: int
) -> str:
    """A readable, filesystem-safe, deterministic episode id (also the transcript file stem)."""
    digest = sha256_hex(["episode", study, arm, model, task_id, fault, int(seed), int(replicate)])[:16]
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in f"{arm}__{task_id}")[:80]
    return f"{safe}__s{int(seed)}r{int(replicate)}__{digest}"


def validate_record(record: Mapping[str, Any]) -> list[str]:
    """Every way ``record`` breaks the current record schema ([] when valid)."""
    errors = []
    for key, types in REQUIRED_KEYS.items():
        if key not in record:
            errors.append(f"missing key {key!r}")
        elif not _is(record[key], types):
            errors.append(f"{key!r} has type {type(record[key]).__name__}")
    for key, types in OPTIONAL_KEYS.items():
        if key in record and not _is(record[key], types):
            errors.append(f"{key!r} has type {type(record[key]).__name__}")
    if record.get("record_version") not in (None, RECORD_VERSION) and "record_version" in record:
        errors.append(f"record_version {record['record_version']!r} != {RECORD_VERSION}")
    if "status" in record and record["status"] not in STATUSES:
        errors.append(f"status {record['status']!r} not in {STATUSES}")
    if record.get("status") in INFRA_STATUSES and record.get("success"):
        errors.append(f"an {record['status']} episode cannot be a success")
    for r in record.get("receipts") or []:
        if isinstance(r, Mapping) and r.get("next_action") not in (None, *NEXT_ACTIONS):
            errors.append(f"receipt next_action {r.get('next_action')!r} not in {NEXT_ACTIONS}")
    try:
        json.dumps(record, allow_nan=False)
    except (TypeError, ValueError) as exc:
        errors.append(f"not JSON-serialisable: {exc}")
    return errors


def _is(value: Any, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool) and bool not in types:
        return False  # JSON semantics: true is not a number
    return isinstance(value, types)


# ---------------------------------------------------------------------------------------------
# writing


class RecordWriter:
    """Append-only JSONL writer that survives ``kill -9``.

    Each record is serialised to one line and written with ONE ``os.write`` on an O_APPEND
    descriptor, then fsync'ed, so a crash leaves at most one torn final line, which
    ``load_records`` (called on open) detects and truncates before anything is appended.
    """

    def __init__(self, path: str | os.PathLike, *, validate: bool = True):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.validate = validate
        if self.path.exists():
            load_records(self.path, repair=True)  # a torn tail must go before we append after it
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._lock = threading.Lock()

    def append(self, record: Mapping[str, Any]) -> None:
        if self.validate:
            errors = validate_record(record)
            if errors:
                raise ValueError(f"invalid episode record {record.get('episode_id')!r}: {'; '.join(errors)}")
        data = (json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")
        with self._lock:
            written = os.write(self._fd, data)
            while written < len(data):  # short writes are rare on regular files; finish the line
                written += os.write(self._fd, data[written:])
            os.fsync(self._fd)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------------------------------------
# reading and repair


def load_records(path: str | os.PathLike, repair: bool = True) -> list[dict]:
    """All records in ``path`` ([] if missing).

    A final line without its newline is torn (the writer died mid-append): with ``repair`` it is
    cut off the file and its bytes appended to ``<path>.torn``; without, it is just ignored. A bad
    line anywhere else raises ``RecordCorruptError`` naming the line.
    """
    path = Path(path)
    if not path.exists():
        return []
    data = path.read_bytes()
    cut = data.rfind(b"\n") + 1  # end of the last complete line
    tail = data[cut:]
    records = []
    for lineno, line in enumerate(data[:cut].split(b"\n")[:-1], start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordCorruptError(
                f"{path}:{lineno}: corrupt record in the middle of the file ({exc}); it is not a torn "
                "final line, so it was not repaired: inspect or remove that line by hand"
            ) from None
        if not isinstance(obj, dict):
            raise RecordCorruptError(f"{path}:{lineno}: expected a JSON object, got {type(obj).__name__}")
        records.append(obj)
    if tail.strip() and repair:
        with open(path.with_name(path.name + ".torn"), "ab") as bak:
            bak.write(tail + b"\n")
            bak.flush()
            os.fsync(bak.fileno())
        with open(path, "r+b") as fh:
            fh.truncate(cut)
            fh.flush()
            os.fsync(fh.fileno())
    return records


def latest_by_episode(records: Iterable[Mapping[str, Any]]) -> dict[str, dict]:
    """episode_id -> its last record (a retried infra error is superseded, never counted twice)."""
    latest: dict[str, dict] = {}
    for rec in records:
        eid = rec.get("episode_id")
        if eid is not None:
            latest.pop(eid, None)  # keep file order of the latest attempt
            latest[eid] = dict(rec)
    return latest


def finished_keys(path: str | os.PathLike, retry_infra: bool = False) -> set[str]:
    """Episode ids a resumed run must skip: all recorded ones, except infra errors when retrying them."""
    latest = latest_by_episode(load_records(path, repair=True))
    return {eid for eid, rec in latest.items() if not (retry_infra and rec.get("status") in INFRA_STATUSES)}
