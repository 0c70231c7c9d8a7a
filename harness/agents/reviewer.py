"""The reviewer arm: a port of the inference-time reviewer of "Reinforced Agent" (arXiv:2604.27233).

Before a proposed tool call runs, a reviewer model sees the task, the conversation so far and the
proposed call, and judges the tool choice, the arguments, and whether a call is needed at all. It
answers with a JSON verdict (approve, or revise with feedback); the agent revises on feedback. The
loop allows at most ``max_reviewer_calls`` reviews per episode and counts their tokens and cost.

Holds: :class:`ModelReviewer` (reviews through any Completer, i.e. the same litellm path as the
agent) and :class:`ScriptedReviewerPolicy`, registered as the scripted policy ``reviewer`` for
offline runs. Knows nothing about environments beyond the public Task.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from core.protocol import Task
from harness.agents.loop import Completer, Review

REVIEWER_SYSTEM = """You review the next tool call an agent proposes, before it runs.
Check three things: is this the right tool for the next step, are the arguments correct (every value
must come from the user's request or from earlier tool results, and be plausible), and is a call needed
at all. Reply with a single JSON object: {"decision": "approve"} or
{"decision": "revise", "feedback": "<what is wrong and what to do instead>"}."""

_MARKER = "PROPOSED_CALL_JSON:"
_HISTORY_CHARS = 6000  # keep review requests bounded: the tail of the conversation matters most


def review_request(
    task: Task, messages: list[dict[str, Any]], tools: list[dict[str, Any]], call: dict[str, Any]
) -> list[dict[str, Any]]:
    """The reviewer's messages: instructions, then one user turn with the evidence and the call."""
    history = []
    for m in messages[1:]:  # the agent's system prompt is not evidence
        if m.get("role") == "assistant" and m.get("tool_calls"):
            fn = m["tool_calls"][0].get("function", {})
            history.append(f"agent called {fn.get('name')} with {fn.get('arguments')}")
        elif m.get("role") in ("tool", "user"):
            history.append(f"{m['role']}: {m.get('content')}")
        elif m.get("content"):
            history.append(f"agent said: {m.get('content')}")
    text = "\n".join(history)[-_HISTORY_CHARS:]
    names = [t.get("function", {}).get("name") for t in tools]
    body = (
        f"Task: {task.query}\n\nAvailable tools: {', '.join(str(n) for n in names)}\n\n"
        f"Conversation so far:\n{text}\n\n{_MARKER} {json.dumps(call, ensure_ascii=False, sort_keys=True)}"
    )
    return [{"role": "system", "content": REVIEWER_SYSTEM}, {"role": "user", "content": body}]


def parse_verdict(content: str | None) -> tuple[bool, str]:
    """(approved, feedback); anything unparseable counts as approval so a reviewer glitch never blocks."""
    if not content:
        return True, ""
    match = re.search(r"\{.*\}", content, flags=re.S)
    if match:
        try:
            obj = json.loads(match.group(0))
            decision = str(obj.get("decision", "approve")).lower()
            return decision != "revise", str(obj.get("feedback", ""))
        except ValueError:
            pass
    lowered = content.lower()
    return ("revise" not in lowered and "reject" not in lowered), content.strip()[:500]


class ModelReviewer:
    """Reviews through a Completer (no tools offered to the reviewer)."""

    def __init__(self, complete: Completer):
        self.complete = complete

    async def review(
        self, task: Task, messages: list[dict[str, Any]], tools: list[dict[str, Any]], call: dict[str, Any]
    ) -> Review:
        completion = await self.complete(review_request(task, messages, tools, call), [])
        approved, feedback = parse_verdict((completion.message or {}).get("content"))
        usage = completion.usage or {}
        return Review(
            approved=approved,
            feedback=feedback,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            cost_usd=float(completion.cost_usd or 0.0),
        )


# ---------------------------------------------------------------------------------------------
# the scripted reviewer (offline runs)

_IMPLAUSIBLE = re.compile(r"<html|error|traceback|null|undefined|nan", re.I)


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]


def judge_call(evidence: str, call: dict[str, Any]) -> tuple[bool, str]:
    """Approve a call whose argument values appear in the evidence and look plausible."""
    problems = []
    for value in _leaves(call.get("arguments") or {}):
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, (int, float)) and value < 0:
            problems.append(f"the value {value} is negative")
        elif isinstance(value, str) and _IMPLAUSIBLE.search(value):
            problems.append(f"the value {value[:60]!r} looks like an error payload")
        elif (
            isinstance(value, (int, float, str))
            and str(value) not in evidence
            and _num_text(value) not in evidence
        ):
            problems.append(
                f"the value {str(value)[:60]!r} does not appear in the request or earlier results"
            )
    if problems:
        return False, f"check the arguments of {call.get('name')}: " + "; ".join(problems)
    return True, ""


def _num_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class ScriptedReviewerPolicy:
    """Deterministic reviewer for scripted runs: reads the proposed call from the review request."""

    name = "reviewer"

    def respond(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any]:
        text = str(messages[-1].get("content") or "") if messages else ""
        evidence, _, raw = text.partition(_MARKER)
        try:
            call = json.loads(raw)
        except ValueError:
            return {"role": "assistant", "content": json.dumps({"decision": "approve"})}
        approved, feedback = judge_call(evidence, call)
        verdict = {"decision": "approve"} if approved else {"decision": "revise", "feedback": feedback}
        return {"role": "assistant", "content": json.dumps(verdict)}


def register_scripted_reviewer() -> None:
    """Register ``scripted/reviewer`` with the scripted provider (imports it, hence litellm, lazily)."""
    from harness.llm.providers.registry import register_policy

    register_policy("reviewer", ScriptedReviewerPolicy)
