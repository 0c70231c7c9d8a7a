"""``episodes.jsonl`` on disk: the chained, crash-safe writer; the reader that checks, upgrades and
validates every line; torn-tail repair; resume helpers.

A records file is append-only. ``RecordWriter`` writes each record as ONE ``os.write`` on an
O_APPEND descriptor, then fsyncs, so a kill leaves at most one torn last line; the next writer (or a
loading run) moves that line to ``<file>.torn`` and says so in a WARNING of the ``harness.records``
logger (on the console, and in ``run.log`` under Hydra). ``scan`` reads a file without changing it:
every record validated through the schema (versions 1 and 2 upgraded), and the chain checked line by
line (``harness.records.chain``). ``load_records`` is what the runner and the sweep read: it refuses a
broken chain (:class:`RecordChainError`) before touching anything.

Knows nothing of how episodes are run, of the manifest's other contents, of litellm or pandas.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import signal
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from harness.records.chain import START, Break, Walk, seal, seq_of, split
from harness.records.schema import (
    INFRA_STATUSES,
    LINE_FIELDS,
    RECORD_VERSION,
    EpisodeRecord,
    LegacyKeyError,
    RecordLine,
    upgrade,
)

log = logging.getLogger(__name__)

_V3_PREFIX = b'{"record_version":3,'  # how the writer starts every line: such lines take pydantic's JSON path
_JSON: TypeAdapter[Any] = TypeAdapter(Any)  # any other line: parsed, then upgraded or validated


class RecordCorruptError(ValueError):
    """A line in the middle of a records file is not a record: refuse to guess."""


class RecordSchemaError(RecordCorruptError):
    """A line is JSON, but not a record of its version (a key unknown or missing, a type wrong)."""


class RecordChainError(RecordCorruptError):
    """The file is not what its writer wrote: a line edited, removed, inserted or moved."""


# ---------------------------------------------------------------------------------------------
# one record


def as_record(record: EpisodeRecord | Mapping[str, Any]) -> EpisodeRecord:
    """The record as a validated model; ValueError naming every fault of a mapping that is not one."""
    if isinstance(record, EpisodeRecord):
        return record
    try:
        return EpisodeRecord.model_validate(record)
    except ValidationError as exc:
        eid = record.get("episode_id") if isinstance(record, Mapping) else None
        raise ValueError(f"invalid episode record {eid!r}: {_errors(exc)}") from None


def validate_record(record: Mapping[str, Any]) -> list[str]:
    """Every way ``record`` breaks the version-3 schema ([] when it is a valid record)."""
    try:
        rec = EpisodeRecord.model_validate(record)
    except ValidationError as exc:
        return [_error(e) for e in exc.errors()]
    return (
        []
        if rec.record_version == RECORD_VERSION
        else [f"record_version {rec.record_version} != {RECORD_VERSION}"]
    )


def _error(e: Mapping[str, Any]) -> str:
    where = ".".join(str(p) for p in e["loc"])
    said = f"{where}: {e['msg']}" if where else str(e["msg"])
    if e["type"] in ("missing", "extra_forbidden") or isinstance(e.get("input"), dict | list):
        return said
    return f"{said}, got {e.get('input')!r:.80}"


def _errors(exc: ValidationError, limit: int = 4) -> str:
    errs = exc.errors()
    shown = "; ".join(_error(e) for e in errs[:limit])
    return shown + (f" (+{len(errs) - limit} more)" if len(errs) > limit else "")


def encode(record: EpisodeRecord) -> bytes:
    """The record's JSON object, as the writer puts it on a line (before ``seq`` and ``chain``)."""
    if record.record_version != RECORD_VERSION:
        raise ValueError(
            f"only version-{RECORD_VERSION} records are written, not version {record.record_version}"
        )
    # trial 0 is left out: its line is byte for byte what it was before trials existed (older readers read it)
    return record.model_dump_json(exclude={"trial"} if record.trial == 0 else None).encode("utf-8")


# ---------------------------------------------------------------------------------------------
# reading


@dataclass
class Scan:
    """A records file as read: its records (file order, without ``seq``/``chain``) and every break."""

    path: Path
    records: list[dict[str, Any]] = field(default_factory=list)
    breaks: list[Break] = field(default_factory=list)
    torn: bytes = b""  # an unfinished last line (no newline): not a record, not part of the chain
    complete: int = 0  # bytes up to the end of the last complete line
    filled: set[str] = field(default_factory=set)  # keys older records lacked, filled in by the upgrade
    walk: Walk = field(default_factory=Walk)

    def problem(self) -> str | None:
        """One line about the first break, with the file's path; None when the chain holds."""
        return f"{self.path}: {self.breaks[0].describe()}" if self.breaks else None


@contextmanager
def _no_gc() -> Iterator[None]:
    """Collections paused while a file's records are built: none of them is garbage, and tens of
    thousands of fresh containers would trigger collections for nothing (20,000 records: 3.05 -> 2.40 s CPU)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def scan(path: str | os.PathLike[str], anchor: Mapping[str, Any] | None = None) -> Scan:
    """Read ``path`` without changing it: every record validated, the chain checked.

    ``anchor`` (``{"seq", "chain"}``, from the run's manifest) is a line the file must still hold. A
    line that is no record (bad JSON, an unknown key, a wrong type...) raises RecordCorruptError naming
    it; chain breaks are collected in ``Scan.breaks`` (the caller decides: refuse, or warn).
    """
    path = Path(path)
    out = Scan(path, walk=Walk(anchor=(int(anchor["seq"]), str(anchor["chain"])) if anchor else None))
    if not path.exists():  # nothing to check (an anchor too: a file moved away starts the run over)
        return out
    data = path.read_bytes()
    out.complete = data.rfind(b"\n") + 1
    tail = data[out.complete :]
    out.torn = tail if tail.strip() else b""
    walk, records, filled = out.walk, out.records, out.filled
    with _no_gc():
        for lineno, raw in enumerate(data[: out.complete].split(b"\n")[:-1], start=1):
            if not raw.strip():
                continue
            rec = _record(path, lineno, raw, filled)
            brk = walk.feed(lineno, raw, must_chain=rec["record_version"] == RECORD_VERSION)
            if brk is not None:
                brk.episode_id = rec["episode_id"]
            records.append(rec)
    out.breaks = walk.finish()
    return out


def _record(path: Path, lineno: int, raw: bytes, filled: set[str]) -> dict[str, Any]:
    """One line as a version-3-shaped dict without ``seq``/``chain``; RecordCorruptError naming the line."""
    if raw.startswith(_V3_PREFIX) and split(raw) is not None:
        try:
            rec = dict(RecordLine.model_validate_json(raw).__dict__)  # pydantic's JSON path: no json.loads
        except ValidationError as exc:
            raise _schema_error(path, lineno, exc, raw) from None
        del rec["seq"], rec["chain"]
        return rec
    try:
        obj = _JSON.validate_json(raw)  # pydantic's parser: about twice json.loads' speed
    except ValidationError as exc:
        raise RecordCorruptError(
            f"{path}:{lineno}: corrupt record in the middle of the file ({_errors(exc)}); it is not a torn "
            "final line, so it was not repaired: inspect or remove that line by hand"
        ) from None
    if not isinstance(obj, dict):
        raise RecordCorruptError(f"{path}:{lineno}: expected a JSON object, got {type(obj).__name__}")
    try:
        if obj.get("record_version") == RECORD_VERSION:  # a version-3 line not as the writer wrote it
            model: type[EpisodeRecord] = RecordLine if any(k in obj for k in LINE_FIELDS) else EpisodeRecord
            rec = dict(model.model_validate(obj).__dict__)
        else:
            rec = dict(EpisodeRecord.model_validate(upgrade(obj, filled)).__dict__)
    except LegacyKeyError as exc:
        raise RecordSchemaError(f"{path}:{lineno} (episode {obj.get('episode_id')}): {exc}") from None
    except ValidationError as exc:
        raise _schema_error(path, lineno, exc, raw, obj.get("episode_id")) from None
    for k in LINE_FIELDS:
        rec.pop(k, None)
    return rec


def _schema_error(
    path: Path, lineno: int, exc: ValidationError, raw: bytes, eid: Any = None
) -> RecordSchemaError:
    if eid is None:
        try:
            eid = json.loads(raw).get("episode_id")
        except (ValueError, AttributeError):
            eid = None
    return RecordSchemaError(f"{path}:{lineno} (episode {eid}): not a valid record: {_errors(exc)}")


def refusal(s: Scan, run_dir: Path | None = None) -> str:
    """One line for a run that will not resume on a broken chain: where, what, and what to do."""
    where = run_dir if run_dir is not None else s.path.parent
    more = f" (and {len(s.breaks) - 1} more)" if len(s.breaks) > 1 else ""
    return (
        f"{s.problem()}{more}. The records were changed after they were written, so this run will not resume "
        f"into them; nothing was changed. Restore {s.path.name} (or move it away to start over), or run into "
        f"another folder (out= or run_name=); python -m harness.verify --run {where} lists every break"
    )


def check_resumable(path: str | os.PathLike[str], anchor: Mapping[str, Any] | None = None) -> Scan:
    """The file's scan, or RecordChainError (one line) when its chain is broken. Changes nothing."""
    s = scan(path, anchor)
    if s.breaks:
        raise RecordChainError(refusal(s))
    return s


def load_records(
    path: str | os.PathLike[str], repair: bool = True, *, anchor: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Every record in ``path`` as a dict ([] if missing), checked, validated, upgraded to version 3.

    Refuses a broken chain (RecordChainError) and a line that is no record (RecordCorruptError),
    both before any change. A last line without its newline is torn (the writer died mid-append):
    with ``repair`` it is moved to ``<path>.torn`` (logged as a WARNING); without, it is skipped.
    """
    s = check_resumable(path, anchor)
    if s.torn and repair:
        move_torn(s.path, s.complete, s.torn)
    return s.records


def move_torn(path: Path, complete: int, tail: bytes) -> None:
    """Cut the unfinished last line off ``path`` and keep its bytes in ``<path>.torn``."""
    bak = path.with_name(path.name + ".torn")
    with open(bak, "ab") as fh:
        fh.write(tail + b"\n")
        fh.flush()
        os.fsync(fh.fileno())
    with open(path, "r+b") as fh:
        fh.truncate(complete)
        fh.flush()
        os.fsync(fh.fileno())
    log.warning(
        "%s: its last line was cut short (%d bytes, an append interrupted by a kill); moved it to %s: "
        "that episode has no record and runs again",
        path,
        len(tail),
        bak.name,
    )


def latest_by_episode(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """episode_id -> its last record (a retried infra error is superseded, never counted twice)."""
    latest: dict[str, dict[str, Any]] = {}
    for rec in records:
        eid = rec.get("episode_id")
        if eid is not None:
            latest.pop(eid, None)  # keep file order of the latest attempt
            latest[eid] = dict(rec)
    return latest


def finished_keys(path: str | os.PathLike[str], retry_infra: bool = False) -> set[str]:
    """Episode ids a resumed run must skip: all recorded ones, except infra errors when retrying them."""
    latest = latest_by_episode(load_records(path, repair=True))
    return {eid for eid, rec in latest.items() if not (retry_infra and rec.get("status") in INFRA_STATUSES)}


# ---------------------------------------------------------------------------------------------
# the end of a file: where the next line links, and the manifest's anchor


def _last_line(path: Path) -> tuple[bytes, int, bytes]:
    """(last complete line without its newline, bytes up to its end, the torn tail after it)."""
    with open(path, "rb") as fh:
        size = fh.seek(0, os.SEEK_END)
        block, end, buf = 1 << 16, size, b""
        while True:
            start = max(0, end - block)
            fh.seek(start)
            buf = fh.read(end - start) + buf
            end = start
            cut = buf.rfind(b"\n")
            if cut >= 0 and (buf.rfind(b"\n", 0, cut) >= 0 or start == 0):
                break
            if start == 0:
                return b"", 0, buf  # no complete line at all
    complete = start + cut + 1
    prev = buf.rfind(b"\n", 0, cut)
    return buf[prev + 1 : cut], complete, buf[cut + 1 :]


def head(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """``{"seq", "chain"}`` of the file's last line (the anchor a manifest keeps); None without one."""
    path = Path(path)
    if not path.exists():
        return None
    line, _, _ = _last_line(path)
    parts = split(line.strip())
    if parts is None or (seq := seq_of(parts[0])) is None:
        return None
    return {"seq": seq, "chain": parts[1]}


def _resume_point(path: Path) -> tuple[int, str]:
    """(seq of the next line, chain it links to), after moving a torn last line aside."""
    if not path.exists() or path.stat().st_size == 0:
        return 1, START
    line, complete, tail = _last_line(path)
    if tail.strip():
        move_torn(path, complete, tail)
    parts = split(line.strip())
    seq = seq_of(parts[0]) if parts else None
    if parts is not None and seq is not None:
        return seq + 1, parts[1]
    walk = Walk()  # the last line has no chain (an older version's file): fold every line in
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            if raw.strip():
                walk.feed(lineno, raw.rstrip(b"\n"))
    return walk.expected, walk.state


# ---------------------------------------------------------------------------------------------
# writing


_HELD = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block ends, then reach the handler that was there: a line is
    written and counted, or neither (a handler raising between the write and the count would leave
    the next line reusing its seq). Python runs signal handlers in the main thread only, so the
    handler is swapped there (a thread mask would not do: the kernel hands a process's signal to any
    thread that does not block it); elsewhere there is nothing to hold."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    before = {s: signal.signal(s, lambda signum, frame: caught.append(signum)) for s in _HELD}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
        for signum in caught[:1]:  # delivered now, once, as if it had just arrived
            signal.raise_signal(signum)


class RecordWriter:
    """Append-only, chained JSONL writer that survives ``kill -9``.

    Each record is validated through the schema (a mapping) or taken as built (an ``EpisodeRecord``),
    serialised to one line ending in ``seq`` and ``chain``, written with ONE ``os.write`` on an
    O_APPEND descriptor, then fsync'ed, so a crash leaves at most one torn last line, which the next
    writer moves aside before it appends. One writer per file at a time (the runner's parent process).
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._seq, self._chain = _resume_point(self.path)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._lock = threading.Lock()

    def append(self, record: EpisodeRecord | Mapping[str, Any]) -> None:
        body = encode(as_record(record))
        with self._lock, signals_held():  # the chain is a sequence: one line at a time
            data, chain = seal(body, self._seq, self._chain)
            written = os.write(self._fd, data)
            while written < len(data):  # short writes are rare on regular files; finish the line
                written += os.write(self._fd, data[written:])
            os.fsync(self._fd)
            self._seq, self._chain = self._seq + 1, chain

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_records(
    path: str | os.PathLike[str], records: Iterable[EpisodeRecord | Mapping[str, Any]]
) -> dict[str, Any] | None:
    """Write a whole records file at once (a sweep's merge, fixtures): chained from its first line,
    atomically (temp file + rename, one fsync). Returns its anchor (``head``)."""
    path = Path(path)
    chain, seq, parts = START, 1, []
    for rec in records:
        line, chain = seal(encode(as_record(rec)), seq, chain)
        parts.append(line)
        seq += 1
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(b"".join(parts))
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return {"seq": seq - 1, "chain": chain} if parts else None
