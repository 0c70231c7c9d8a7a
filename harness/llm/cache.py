"""The record/replay cache of model replies: SQLite (WAL), JSON values, never pickle.

Key = ``harness.llm.keys.request_key`` (sha256 of the canonical request incl. the replicate slot, which
carries the episode's sampling draw: the replicate for trial 0, a draw derived from the config seed for
later trials, ``harness.run.schedule.sampling_draw``; so each trial has its own recorded replies).
Modes: ``record`` (answer hits, store misses), ``replay`` (strict: a miss is an InfraError
cache_miss), ``passthrough`` (always call, store nothing) and ``off``. The mode logic lives in
``harness.llm.models.acomplete``; this module only stores and loads.

It must not import litellm.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from harness.llm.keys import CACHE_SCHEMA_VERSION, request_key

if TYPE_CHECKING:
    from harness.llm.spec import Completion, ModelSpec

MODES = ("record", "replay", "passthrough", "off")


class CacheError(RuntimeError):
    """The cache file or a row in it is unusable."""


def key_for(
    spec: ModelSpec,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    replicate: int = 0,
    arm: str = "",
) -> str:
    return request_key(spec, messages, tools, replicate, arm)


class Cache:
    """One SQLite file shared by every process of a run (WAL lets readers and a writer coexist)."""

    def __init__(self, path: str | os.PathLike[str], mode: str = "record"):
        if mode not in MODES:
            raise ValueError(f"cache mode {mode!r} not in {MODES}")
        self.path = Path(path)
        self.mode = mode
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if mode == "replay" and not self.path.exists():
            raise CacheError(f"replay cache {self.path} does not exist: record it first (cache mode=record)")
        if mode in ("record", "replay"):
            self._connect()

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=30.0, check_same_thread=False, isolation_level=None)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute(
                    "CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, model TEXT NOT NULL, "
                    "schema INTEGER NOT NULL, value TEXT NOT NULL)"
                )
            except sqlite3.DatabaseError as exc:
                db.close()
                raise CacheError(
                    f"{self.path} is not a usable SQLite cache ({exc}); move it away and re-record"
                ) from None
            self._db = db
        return self._db

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored reply for ``key`` or None; a corrupted row raises CacheError naming it."""
        with self._lock:
            row = (
                self._connect()
                .execute("SELECT model, schema, value FROM replies WHERE key = ?", (key,))
                .fetchone()
            )
        if row is None:
            return None
        model, schema, text = row
        if schema != CACHE_SCHEMA_VERSION:
            return None  # written by another layout: treat as a miss
        try:
            value = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise CacheError(self._corrupt(key, model, f"value is not valid JSON ({exc})")) from None
        missing = [
            k
            for k in ("message", "usage", "cost_usd", "latency_s")
            if not isinstance(value, dict) or k not in value
        ]
        if missing:
            raise CacheError(self._corrupt(key, model, f"value lacks {missing}"))
        return cast(dict[str, Any], value)  # a dict: ``missing`` is empty

    def _corrupt(self, key: str, model: str, why: str) -> str:
        return (
            f"corrupted cache row in {self.path} (model {model}, key {key[:16]}...): {why}; delete it with "
            f"`sqlite3 {self.path} \"DELETE FROM replies WHERE key='{key}'\"` and re-record"
        )

    def put(self, key: str, spec: ModelSpec, completion: Completion) -> None:
        value: dict[str, Any] = {
            "message": completion.message,
            "usage": completion.usage,
            "cost_usd": completion.cost_usd,
            "cost_source": completion.cost_source,
            "latency_s": completion.latency_s,
            "finish_reason": completion.finish_reason,
            "attempts": completion.attempts,
            "model": spec.model,
            "litellm_version": _litellm_version(),
        }
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
        with self._lock:
            self._connect().execute(
                "INSERT OR REPLACE INTO replies (key, model, schema, value) VALUES (?, ?, ?, ?)",
                (key, spec.model, CACHE_SCHEMA_VERSION, text),
            )

    def __len__(self) -> int:
        with self._lock:
            return int(self._connect().execute("SELECT COUNT(*) FROM replies").fetchone()[0])

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Cache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _litellm_version() -> str:
    from harness.llm.litellm_lazy import litellm_version

    return litellm_version()
