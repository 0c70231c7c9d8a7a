"""Rebuilding an episode's history from the OpenAI-format messages a policy receives.

Policies are called once per request and keep no state, so everything (the query, each tool call
and its result, outcome-monitor receipts in every delivery variant, the policy's own notes) is
read back from the messages here. Knows the receipt shapes and the loop's deferred-note prefix,
nothing of how they are produced.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from harness.agents.prompts import DEFERRED_PREFIX

_NOTE = re.compile(r"\{judged: ([^}]*)\}")


@dataclass(frozen=True)
class Receipt:
    """An outcome-monitor receipt as the agent sees it (full, stripped, generic; immediate or deferred)."""

    violated: str | None  # None for a generic warning
    recovery_tools: tuple[str, ...] | None  # None: the variant carries no list


@dataclass
class Step:
    """One executed tool call and what came back."""

    call_id: str
    tool: str
    args: dict[str, Any]
    raw: Any  # the tool's own result (receipt wrapper removed)
    error: bool
    receipt: Receipt | None = None


@dataclass
class History:
    query: str
    steps: list[Step] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)  # decisions the policy wrote in earlier turns
    user_texts: list[str] = field(default_factory=list)  # every user message, deferred receipts removed


def _loads(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _receipt(block: Any) -> Receipt:
    if isinstance(block, dict) and "outcome_monitor" in block and len(block) <= 2:
        block = block["outcome_monitor"]
    if not isinstance(block, dict):  # plain warning text
        return Receipt(None, None)
    tools = block.get("recovery_tools")
    violated = block.get("violated")
    return Receipt(
        str(violated) if violated is not None else None,
        tuple(str(t) for t in tools) if isinstance(tools, list) else None,
    )


def _split_deferred(content: str) -> tuple[str | None, str]:
    """(deferred receipt text or None, the rest): the loop prepends the previous call's receipt."""
    if not content.startswith(DEFERRED_PREFIX):
        return None, content
    body = content[len(DEFERRED_PREFIX) :]
    note, sep, rest = body.partition("\n\n")
    return (note, rest) if sep else (body, "")


def read_history(messages: list[dict[str, Any]]) -> History:
    users = [m for m in messages if m.get("role") == "user"]
    hist = History(query=str(users[0].get("content") or "") if users else "")
    pending: dict[str, Step] = {}
    step: Step | None
    for m in messages:
        role = m.get("role")
        if role == "assistant":
            for k, v in (kv.split("=", 1) for kv in _notes_in(m.get("content")) if "=" in kv):
                hist.notes[k] = v
            for tc in m.get("tool_calls") or []:
                fn = tc.get("function") or {}
                args = _loads(fn.get("arguments") or "{}")
                step = Step(
                    str(tc.get("id") or ""),
                    str(fn.get("name") or ""),
                    args if isinstance(args, dict) else {},
                    None,
                    error=False,
                )
                pending[step.call_id] = step
        elif role in ("tool", "user") and isinstance(m.get("content"), str):
            deferred, rest = _split_deferred(m["content"])
            if deferred is not None and hist.steps:  # it concerns the last executed call
                hist.steps[-1].receipt = _receipt(_loads(deferred))
            if role == "user":
                hist.user_texts.append(rest)
            if role == "tool":
                step = pending.pop(str(m.get("tool_call_id") or ""), None)
                if step is not None:
                    _fill(step, _loads(rest))
                    hist.steps.append(step)
    return hist


def _fill(step: Step, content: Any) -> None:
    if isinstance(content, dict) and "outcome_monitor" in content:
        step.receipt = _receipt(content["outcome_monitor"])
        content = content.get("tool_result", {k: v for k, v in content.items() if k != "outcome_monitor"})
    step.raw = content
    step.error = (isinstance(content, dict) and "error" in content) or (
        isinstance(content, str) and content.lower().startswith(("error", "ignored", "reviewer feedback"))
    )


def _notes_in(content: Any) -> list[str]:
    if not isinstance(content, str):
        return []
    return [kv for m in _NOTE.finditer(content) for kv in m.group(1).split(",") if kv]


def note_text(decisions: dict[str, str]) -> str:
    """The marker a policy appends to its message so later turns can read its decisions back."""
    return "{judged: " + ",".join(f"{k}={v}" for k, v in decisions.items()) + "}" if decisions else ""
