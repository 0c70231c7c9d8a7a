"""Organic traffic: replay StableToolBench's public tool-response cache through a learned monitor.

The cache (from the StableToolBench release; download it yourself, this project never fetches it)
is laid out as ``tool_response_cache/<category>/<tool>/<api>.json``; each file is a JSON object
mapping the string form of a call's arguments to ``{"error": ..., "response": ...}``. Point the
study at the unpacked folder::

    python -m harness.faults stabletoolbench --cache /data/StableToolBench/tool_response_cache --json

Each API is one monitor tool (``<category>/<tool>/<api>``). Its organic (error-free) responses are
split by a seeded hash of (seed, api, argument key): the train share is learned with the monitor's
``learn(traces)``, the rest is checked, and the fire rate is reported overall and by tool.

Knows nothing about environments; the learner is passed in (the monitor's by default).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.seeding import stable_int

_MAX_LITERAL = 20_000  # longer argument keys are not parsed as Python literals (cost, safety)


@dataclass(frozen=True)
class CachedResponse:
    category: str
    tool: str
    api: str
    key: str  # the cache's string form of the arguments
    arguments: dict[str, Any]
    response: Any
    error: Any

    @property
    def name(self) -> str:
        return f"{self.category}/{self.tool}/{self.api}"

    @property
    def organic(self) -> bool:
        """A real, error-free response (what a monitor sees on clean traffic)."""
        return not self.error and self.response not in (None, "")


def parse_arguments(key: str) -> dict[str, Any]:
    """The cache keys are ``str(dict)`` or JSON; anything unparsable is kept whole under ``_raw``."""
    for parse in (json.loads, ast.literal_eval):
        if parse is ast.literal_eval and len(key) > _MAX_LITERAL:
            break
        try:
            value = parse(key)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, dict):
            return {str(k): v for k, v in value.items()}
    return {"_raw": key}


def parse_response(response: Any) -> Any:
    """Responses are usually JSON text; decode it when it is, keep the text otherwise."""
    if isinstance(response, str):
        text = response.strip()
        if text[:1] in "{[":
            try:
                return json.loads(text)
            except ValueError:
                return response
    return response


def iter_cache(root: str | Path) -> Iterator[CachedResponse]:
    """Every cached call under ``root`` in a stable order (sorted paths, then sorted keys)."""
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"no StableToolBench cache folder at {root}")
    for path in sorted(root.glob("*/*/*.json")):
        category, tool, api = path.parent.parent.name, path.parent.name, path.stem
        try:
            entries = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue  # a damaged file is skipped, not fatal: the cache is third-party data
        if not isinstance(entries, dict):
            continue
        for key in sorted(entries):
            entry = entries[key]
            if not isinstance(entry, dict):
                entry = {"error": "", "response": entry}
            yield CachedResponse(
                category,
                tool,
                api,
                key,
                parse_arguments(key),
                parse_response(entry.get("response")),
                entry.get("error"),
            )


def split(
    responses: list[CachedResponse], train_fraction: float, seed: int
) -> tuple[list[CachedResponse], list[CachedResponse]]:
    train: list[CachedResponse]
    test: list[CachedResponse]
    train, test = [], []
    for r in responses:
        u = stable_int(seed, "stabletoolbench-split", r.name, r.key) / 2**64
        (train if u < train_fraction else test).append(r)
    return train, test


def _trace(r: CachedResponse) -> dict[str, Any]:
    return {
        "task_id": r.name,
        "workflow_id": r.name,
        "tool": r.name,
        "arguments": r.arguments,
        "result": r.response,
        "status": "ok",
    }


def default_learner() -> Callable[[list[dict[str, Any]]], Any]:
    try:
        from harness.monitor import learn
    except ImportError:
        from outcome_monitor.registry import learn
    return learn


def organic_fire_rate(
    root: str | Path,
    train_fraction: float = 0.5,
    seed: int = 0,
    learner: Callable[[list[dict[str, Any]]], Any] | None = None,
) -> dict[str, Any]:
    """Learn per-API contracts on the train share of organic responses; fire rate on the rest."""
    everything = list(iter_cache(root))
    organic = [r for r in everything if r.organic]
    train, test = split(organic, train_fraction, seed)
    registry = (learner or default_learner())([_trace(r) for r in train])
    by_tool: dict[str, dict[str, Any]] = {}
    fired_total = 0
    for r in test:
        violations = registry.check(r.name, r.arguments, r.response)
        row = by_tool.setdefault(f"{r.category}/{r.tool}", {"checked": 0, "fired": 0, "apis": set()})
        row["checked"] += 1
        row["apis"].add(r.api)
        if violations:
            row["fired"] += 1
            fired_total += 1
    tools = {
        name: {
            "checked": v["checked"],
            "fired": v["fired"],
            "apis": len(v["apis"]),
            "fire_rate_pct": 100.0 * v["fired"] / v["checked"],
        }
        for name, v in sorted(by_tool.items())
    }
    return {
        "cache": str(root),
        "seed": seed,
        "train_fraction": train_fraction,
        "responses": len(everything),
        "organic": len(organic),
        "train": len(train),
        "checked": len(test),
        "tools": len({f"{r.category}/{r.tool}" for r in organic}),
        "apis": len({r.name for r in organic}),
        "fired": fired_total,
        "fire_rate_pct": 100.0 * fired_total / len(test) if test else None,
        "tools_with_fires": sum(1 for v in tools.values() if v["fired"]),
        "by_tool": tools,
    }
