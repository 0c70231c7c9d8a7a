"""``trusting``: takes the first route, believes every result; retries or reroutes only on explicit errors.

Receipts are read past, exactly as a model that ignores warnings would.
"""

from __future__ import annotations

from harness.agents.policies._planner import PlanningPolicy
from harness.llm.providers.registry import register_policy


class Trusting(PlanningPolicy):
    name = "trusting"


register_policy("trusting", Trusting)
