"""What a server's setup hands the run: the command that starts the server, and facts its workload draws on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Fixture:
    command: list[str]
    facts: dict[str, Any] = field(default_factory=dict)
