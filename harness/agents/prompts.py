"""System prompts and the fixed texts the agent loop sends (written for this project).

The baseline prompt paraphrases the intent of the fault-aware prompt the paper's first benchmark uses: tools may fail or
return wrong data, sub-tasks may be reachable through other tools, check what comes back, and
abort naming the failed step when nothing works. This module holds text only.
"""

from __future__ import annotations

_CORE = """You carry out multi-step tasks by calling the tools you are given, one tool call per turn.
Complete every sub-task the user asks for. Every fact you report and every change you make must come
from a tool call made in this conversation; do not invent values.
When you are done, give a short final answer with only the essential results (for example
confirmation codes or requested values), without markdown."""

_FAULT_AWARE = """
Tools can fail, and they can also return data that looks fine but is wrong. Before you use a result,
check it: the expected fields are present, the types are right, and the values make sense for the
request (for example no negative prices or quantities, identifiers that match what you asked for).
A sub-task can often be done through a different tool or a different combination of tools; if one
route fails or returns implausible data, try another route, or retry when the failure looks temporary.
If a required step cannot be completed by any available tool, stop and answer
"Task aborted: <which step failed and why>"."""

PROMPTS: dict[str, str] = {
    "no_hint": _CORE,
    "fault_aware": _CORE + "\n" + _FAULT_AWARE,
}

IGNORED_CALL = "ignored: one tool call per turn; only the first tool call of your turn was executed"
MALFORMED_ARGUMENTS = "error: the arguments of this call are not a valid JSON object ({detail}); call again"
ROUND_CAP = "round limit reached"
DEFERRED_PREFIX = "[note about your previous tool call] "


def system_prompt(name: str, terminal_tool: str | None = None) -> str:
    """The system prompt of an arm; mentions the environment's terminal tool when it has one."""
    if name not in PROMPTS:
        raise KeyError(f"unknown prompt '{name}'; known: {', '.join(sorted(PROMPTS))}")
    text = PROMPTS[name]
    if terminal_tool:
        text += (
            f"\nWhen you are done (or must abort), call the `{terminal_tool}` tool with your final answer."
        )
    return text
