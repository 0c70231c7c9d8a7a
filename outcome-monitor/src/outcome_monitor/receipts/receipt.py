"""The receipt: the JSON object appended to a violating result, one shape everywhere (a wrapped tool,
the MCP proxy, the inspect_ai wrapper, and the harness's records)."""

from __future__ import annotations

import json
from typing import Any, TypedDict


class Receipt(TypedDict, total=False):
    """A receipt, appended as ``{"tool_result": <raw>, "outcome_monitor": <receipt>}``.

    Variant full: ``violated``, ``observed``, (``also_violated``), ``recovery_tools``; stripped: no
    ``recovery_tools``; generic: ``warning`` and ``recovery_tools`` only (no rule named)."""

    violated: str  # the first violated rule, in words
    observed: Any  # what the result held where that rule looked (bounded in size)
    also_violated: list[str]  # up to two further violated rules, in words
    recovery_tools: list[str]  # tools that could recover (a retry first), from the public interface
    warning: str  # the generic variant's one sentence


def receipt_text(receipt: Receipt) -> str:
    """A receipt as the text an agent reads (a deferred receipt arrives as this)."""
    return json.dumps(receipt, ensure_ascii=False, default=str)
