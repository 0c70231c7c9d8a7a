"""The two tau-bench domains behind one world: what each brings, and how to get it by name.

A :class:`Domain` is what the shared machinery (data loading, episodes, reward, traces, the plugin)
needs to know about a domain: its tools, which tools return which stored record (for state access
and database contracts), the JSON Schemas of its results, the split its clean traces come from by
default, and its seeded random calls. Each domain folder (``retail/``, ``airline/``) defines its
``DOMAIN``; it is imported when first asked for. Knows nothing about episodes, users or the harness.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from core.protocol import ToolResult, ToolSpec
from environments.taubench import checksums
from environments.taubench.tools import Tool, execute, to_result

DEFAULT = "retail"

RandomCall = Callable[[Any, str, random.Random], tuple[str, dict[str, Any]]]


@dataclass(frozen=True)
class Domain:
    name: str
    tools: Mapping[str, type[Tool]]
    record_of: Mapping[str, tuple[str, str]]  # tool -> (collection, argument naming the record)
    result_schemas: Mapping[str, Mapping[str, Any]]
    trace_split: str  # the split clean traces come from unless told otherwise
    valid_read: RandomCall  # (db, user_id, rng) -> a call that succeeds and changes nothing
    invalid_call: RandomCall  # (db, user_id, rng) -> a call that fails before any write
    # (db, user_id, rng) -> a write the tools accept, or None: post-states without any task's ground truth
    valid_write: Callable[[Any, str, random.Random], tuple[str, dict[str, Any]] | None] | None = None
    # record views beyond the stored collections: (collections) -> ({name: {id: record}}, {tool: [(name, context)]})
    views: (
        Callable[[Mapping[str, Any]], tuple[dict[str, dict[str, Any]], dict[str, list[tuple[str, str]]]]]
        | None
    ) = None

    @functools.cached_property
    def splits(self) -> tuple[str, ...]:
        return tuple(checksums.TASK_FILES[self.name])

    @functools.cached_property  # derived once: asked on every call of every episode
    def write_tools(self) -> frozenset[str]:
        return frozenset(n for n, t in self.tools.items() if t.category == "write")

    @functools.cached_property
    def terminal_tools(self) -> frozenset[str]:
        return frozenset(n for n, t in self.tools.items() if t.category == "terminal")

    def specs(self) -> dict[str, ToolSpec]:
        """Public specs; JSON-returning tools carry their result schema as ``output_schema``."""
        return {
            name: dataclasses.replace(tool.spec(self.name), output_schema=self.result_schemas.get(name))
            for name, tool in self.tools.items()
        }

    def execute(self, db: Any, name: str, arguments: Any) -> str:
        return execute(self.tools, db, name, arguments)

    def to_result(self, name: str, raw: str) -> ToolResult:
        return to_result(self.tools, name, raw)


def get_domain(name: str) -> Domain:
    if name not in checksums.DOMAINS:
        raise ValueError(f"unknown tau-bench domain {name!r}; known: {', '.join(checksums.DOMAINS)}")
    return importlib.import_module(f"environments.taubench.{name}").DOMAIN
