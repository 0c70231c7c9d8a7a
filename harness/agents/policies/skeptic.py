"""``skeptic``: its own plausibility checks on raw results, the scripted analogue of the fault-aware prompt.

A result that fails a check (``_checks.implausible``) is treated like an explicit error: retried
once, then rerouted or aborted. Receipts are followed as by ``receipt-aware`` (a careful reader
reads warnings). Action results are never second-guessed (no repeated writes).
"""

from __future__ import annotations

from core.players import ToolInfo
from harness.agents.policies._checks import implausible
from harness.agents.policies._history import Step
from harness.agents.policies._judge import Decisions, JudgeState, Verdict
from harness.agents.policies._planner import PlanningPolicy
from harness.agents.policies.receipt_aware import follow_receipt
from harness.llm.providers.registry import register_policy


class Skeptic(PlanningPolicy):
    name = "skeptic"

    def judge(self, step: Step, tool: ToolInfo | None, state: JudgeState, decisions: Decisions) -> Verdict:
        verdict = follow_receipt(step, tool, state)
        if verdict is not None:
            return verdict
        if not step.error and not (tool is not None and tool.is_action):
            why = implausible(step.raw, step.args, tool)
            if why:
                return Verdict(bad=True, why=f"implausible: {why}")
        return super().judge(step, tool, state, decisions)


register_policy("skeptic", Skeptic)
