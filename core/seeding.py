"""Stable hashing and seeded generators: every random draw in the project comes from here.

Never Python's ``hash()`` (salted per process) and never the clock.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np


def canonical_json(obj: Any) -> str:
    """JSON with sorted keys and no whitespace: the one byte form that hashes are taken of."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def sha256_hex(obj: Any) -> str:
    data = obj if isinstance(obj, bytes) else canonical_json(obj).encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def stable_int(*parts: Any, bits: int = 64) -> int:
    """A deterministic integer from any JSON-able parts (seed, purpose, ids ...)."""
    return int(sha256_hex(list(parts))[: bits // 4], 16)


def rng(*parts: Any) -> random.Random:
    """A ``random.Random`` seeded from (seed, purpose, ids ...)."""
    return random.Random(stable_int(*parts))


def np_rng(*parts: Any) -> np.random.Generator:
    """A numpy Generator seeded from (seed, purpose, ids ...)."""
    return np.random.default_rng(stable_int(*parts))
