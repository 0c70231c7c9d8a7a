"""``receipt-aware``: trusting, plus it acts on outcome-monitor receipts.

On a receipt it stops using the flagged values and switches to the first listed recovery tool that
is a different tool it can call now (with a world's conventions: on a live route of the same
sub-task; in generic mode: a read it can fill); with no such tool, or no list at all (stripped /
generic receipts), it retries. Two failed attempts at a tool reroute
or abort like explicit errors. A receipt on an Action result is noted but the write is not repeated
(repeating a side effect on a warning would do more harm than good).
"""

from __future__ import annotations

from core.players import ToolInfo
from harness.agents.policies._history import Step
from harness.agents.policies._judge import Decisions, JudgeState, Verdict
from harness.agents.policies._planner import PlanningPolicy
from harness.llm.providers.registry import register_policy


def follow_receipt(step: Step, tool: ToolInfo | None, state: JudgeState) -> Verdict | None:
    """The receipt-following verdict for ``step``, or None when there is nothing to follow."""
    if step.receipt is None or step.error or (tool is not None and tool.is_action):
        return None
    why = f"outcome monitor: {step.receipt.violated or 'warning'}"
    return Verdict(bad=True, switch_to=state.usable_recovery(step, step.receipt), why=why)


class ReceiptAware(PlanningPolicy):
    name = "receipt-aware"

    def judge(self, step: Step, tool: ToolInfo | None, state: JudgeState, decisions: Decisions) -> Verdict:
        return follow_receipt(step, tool, state) or super().judge(step, tool, state, decisions)


register_policy("receipt-aware", ReceiptAware)
