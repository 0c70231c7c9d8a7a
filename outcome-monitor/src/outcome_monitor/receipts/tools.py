"""What the monitor reads of a tool catalog: enough to name recovery tools, nothing about tasks.

Any object with these attributes will do (the harness passes its own tool specs); ``ToolInfo`` is
the plain one the proxy builds from an MCP server's tool list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class ToolLike(Protocol):
    @property
    def category(self) -> str: ...  # read | write | terminal (write and terminal are never offered)
    @property
    def capability(self) -> str: ...  # tools that compute the same thing share it
    @property
    def substitutes(self) -> tuple[str, ...]: ...  # tools declared as alternatives
    @property
    def output_fields(self) -> tuple[str, ...]: ...  # JSON paths the result carries


@dataclass(frozen=True)
class ToolInfo:
    name: str
    category: str = "read"
    capability: str = ""
    substitutes: tuple[str, ...] = ()
    output_fields: tuple[str, ...] = ()
