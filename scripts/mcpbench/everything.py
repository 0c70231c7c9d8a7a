"""@modelcontextprotocol/server-everything (npm): the reference server that exercises the protocol's result forms.

Its results are the forms no other server here gives of its own accord: several content blocks (a text,
then resource links; a text, an embedded resource of text or of base64 data, a text; a text, an image, a
text), annotated text, structured JSON with an ``outputSchema`` whose text block is compact JSON, and
sentences with numbers in them. Its embedded text resources carry the time they were made. The workload
keeps to its tools that read (no environment dump, no long-running operation, nothing fetched).
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

MESSAGES = (
    "Order {n} shipped to Lisbon",
    "Invoice {n} paid in full",
    "Ticket {n} closed by Ada",
    "Backup {n} finished without errors",
    "Meeting moved to room {n}",
    "Build {n} passed all checks",
)
CITIES = ("New York", "Chicago", "Los Angeles")


def everything_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    return Fixture([*binary, "stdio"])


def everything_call(rng: random.Random, fx: Fixture) -> Call:
    r = rng.random()
    if r < 0.14:
        return "echo", {"message": rng.choice(MESSAGES).format(n=rng.randrange(100, 10_000))}
    if r < 0.28:
        a = rng.choice((rng.randrange(1, 1000), round(rng.uniform(0, 500), 2)))
        return "get-sum", {"a": a, "b": rng.randrange(1, 1000)}
    if r < 0.42:
        return "get-structured-content", {"location": rng.choice(CITIES)}
    if r < 0.58:
        return "get-resource-links", {"count": rng.randrange(1, 11)}
    if r < 0.8:
        kind = rng.choice(("Text", "Text", "Blob"))
        return "get-resource-reference", {"resourceType": kind, "resourceId": rng.randrange(1, 101)}
    if r < 0.93:
        image = {"includeImage": rng.random() < 0.4}
        return "get-annotated-message", {"messageType": rng.choice(("success", "debug")), **image}
    return "get-tiny-image", {}
