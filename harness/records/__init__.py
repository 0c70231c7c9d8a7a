"""Episode records: one chained, versioned JSON line per episode in ``<run_dir>/episodes.jsonl``.

The package is the one door to records for the runner, the sweep, ``verify`` and the analysis (its
only harness import). ``schema`` holds the models (:class:`EpisodeRecord` version 3 and the entries in
it, :class:`Transcript`) and the upgrade of versions 1 and 2; ``chain`` the hash chain that makes an
edited, removed, inserted or moved line show; ``files`` the crash-safe writer, the checking reader and
the resume helpers; ``python -m harness.records schema|fields`` prints the JSON Schema or the README's
field tables.

Must not know how episodes are run, nor import litellm or pandas (the analysis imports it).
"""

from __future__ import annotations

from core.seeding import sha256_hex
from harness.records.chain import Break
from harness.records.files import (
    RecordChainError,
    RecordCorruptError,
    RecordSchemaError,
    RecordWriter,
    Scan,
    as_record,
    check_resumable,
    finished_keys,
    head,
    latest_by_episode,
    load_records,
    refusal,
    scan,
    validate_record,
    write_records,
)
from harness.records.schema import (
    INFRA_STATUSES,
    NEXT_ACTIONS,
    NOTICE_KINDS,
    RECORD_FIELDS,
    RECORD_VERSION,
    STATUSES,
    WALL_CLOCK_FIELDS,
    Attempt,
    CallStatus,
    EpisodeRecord,
    FailedTurn,
    NextAction,
    Receipt,
    RecordLine,
    Status,
    StopReason,
    ToolCall,
    Transcript,
    Turn,
)

__all__ = [
    "INFRA_STATUSES",
    "NEXT_ACTIONS",
    "NOTICE_KINDS",
    "RECORD_FIELDS",
    "RECORD_VERSION",
    "STATUSES",
    "WALL_CLOCK_FIELDS",
    "Attempt",
    "Break",
    "CallStatus",
    "EpisodeRecord",
    "FailedTurn",
    "NextAction",
    "Receipt",
    "RecordChainError",
    "RecordCorruptError",
    "RecordLine",
    "RecordSchemaError",
    "RecordWriter",
    "Scan",
    "Status",
    "StopReason",
    "ToolCall",
    "Transcript",
    "Turn",
    "as_record",
    "check_resumable",
    "finished_keys",
    "head",
    "latest_by_episode",
    "load_records",
    "make_episode_id",
    "make_pair_id",
    "refusal",
    "scan",
    "validate_record",
    "write_records",
]


def _trial_part(trial: int) -> list[int]:
    # trial 0 hashes as before trials existed: its ids (and so resume and the reply cache) are unchanged
    return [int(trial)] if trial else []


def make_pair_id(
    study: str, model: str, task: str, fault: str | None, seed: int, replicate: int, trial: int = 0
) -> str:
    """Shared by both arms of a pair: sha256 of (study, model, workflow/task id, fault, seed, replicate[, trial])."""
    return sha256_hex(["pair", study, model, task, fault, int(seed), int(replicate), *_trial_part(trial)])


def make_episode_id(
    study: str,
    arm: str,
    model: str,
    task_id: str,
    fault: str | None,
    seed: int,
    replicate: int,
    trial: int = 0,
) -> str:
    """A readable, filesystem-safe, deterministic episode id (also the transcript file stem)."""
    parts = ["episode", study, arm, model, task_id, fault, int(seed), int(replicate), *_trial_part(trial)]
    digest = sha256_hex(parts)[:16]
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in f"{arm}__{task_id}")[:80]
    tag = f"t{int(trial)}" if trial else ""
    return f"{safe}__s{int(seed)}r{int(replicate)}{tag}__{digest}"
