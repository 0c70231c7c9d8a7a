"""``first_tool``: a trivial test policy. Calls the first listed tool once, then answers.

It fills required arguments with type-appropriate placeholders, so it exercises the whole
call path (tool call, tool message, final answer) without any task knowledge.
"""

from __future__ import annotations

import json
import random
from typing import Any

from harness.llm.providers.registry import register_policy

_PLACEHOLDER = {"string": "x", "integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}


class FirstTool:
    name = "first_tool"

    def respond(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], rng: random.Random
    ) -> dict[str, Any]:
        tool_msgs = [m for m in messages if m.get("role") == "tool"]
        if tools and not tool_msgs:
            fn = tools[0]["function"]
            params = fn.get("parameters") or {}
            props = params.get("properties") or {}
            args = {}
            for k in params.get("required", []):
                t = (props.get(k) or {}).get("type", "string")
                args[k] = _PLACEHOLDER.get(t if isinstance(t, str) else t[0], "x")
            return {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"type": "function", "function": {"name": fn["name"], "arguments": json.dumps(args)}}
                ],
            }
        last = tool_msgs[-1]["content"] if tool_msgs else ""
        return {"role": "assistant", "content": f"FINAL: {str(last)[:200]}", "tool_calls": []}


register_policy("first_tool", FirstTool)
