"""What a server's setup hands the run: the command that starts the server, and facts its workload draws on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Fixture:
    command: list[str]
    facts: dict[str, Any] = field(default_factory=dict)


# people's names for the fixtures (shop customers, graph entities, sheet staff)
FIRST = (
    "Amira",
    "Ben",
    "Carla",
    "Dmitri",
    "Elena",
    "Farid",
    "Grace",
    "Hugo",
    "Ines",
    "Jonas",
    "Keiko",
    "Liam",
)
LAST = ("Novak", "Okoye", "Petrov", "Quispe", "Rossi", "Sato", "Tanaka", "Umar", "Varga", "Weber")
