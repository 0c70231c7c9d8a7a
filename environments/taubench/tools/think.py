"""think: a scratchpad that changes nothing and returns an empty string; read."""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import Tool, obj, string


class Think(Tool):
    name = "think"
    category = "read"
    returns = "text"
    description = (
        "Think about something. It obtains no new information and changes nothing; it only records "
        "the thought. Use it for complex reasoning."
    )
    parameters = obj(thought=string("A thought to think about."))

    @staticmethod
    def invoke(db: Any, thought: Any) -> str:
        return ""
