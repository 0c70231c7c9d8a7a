"""transfer_to_human_agents: hand the user to a human agent; ends the episode (terminal)."""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import Tool, obj, string


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    category = "terminal"
    returns = "text"
    description = (
        "Transfer the user to a human agent, with a summary of the issue. Only when the user "
        "explicitly asks for a human, or the request cannot be handled with the available tools."
    )
    parameters = obj(summary=string("A summary of the user's issue."))

    @staticmethod
    def invoke(db: Any, summary: Any) -> str:
        return "Transfer successful"
