"""``noisy``: a seeded stochastic agent for power and coverage simulations.

Three explicit probabilities, each drawn once per event from the request's rng and written into the
policy's own message (``{judged: ...}``) so later turns replay the same choice:

- ``p_notice`` (default 0.15): per result that fails the skeptic's plausibility checks (and has no
  receipt), the chance it notices unaided and treats the result as bad (retry, then reroute).
- ``p_follow`` (default 0.70): per receipt, the chance it follows it like ``receipt-aware``;
  otherwise it ignores the receipt like ``trusting``.
- ``p_overreact`` (default 0.20): per receipt, the chance it abandons the task (finishes
  "aborted") instead. The policy cannot tell a false alarm from a true fault (it sees only the
  messages), so this applies to every receipt; on clean tasks it is the harm a false alarm does.

Names: ``scripted/noisy`` uses the defaults; ``noisy?p_notice=0.3&p_follow=0.6`` (any subset of the
three) is registered by :func:`register_noisy` and then answers as ``scripted/noisy?p_notice=...``.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl

from core.players import ToolInfo
from harness.agents.policies._checks import implausible
from harness.agents.policies._history import Step
from harness.agents.policies._judge import Decisions, JudgeState, Verdict
from harness.agents.policies._planner import PlanningPolicy
from harness.agents.policies.receipt_aware import follow_receipt
from harness.llm.providers.registry import register_policy


@dataclass(frozen=True)
class NoisyParams:
    p_notice: float = 0.15
    p_follow: float = 0.70
    p_overreact: float = 0.20

    def __post_init__(self) -> None:
        for key, value in vars(self).items():
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{key} must be in [0, 1], got {value}")
        if self.p_follow + self.p_overreact > 1.0:
            raise ValueError("p_follow + p_overreact must be <= 1 (they split one draw per receipt)")


def parse_noisy_name(name: str) -> NoisyParams:
    """``noisy`` or ``noisy?p_notice=0.3&p_follow=0.6`` -> the parameters (unknown keys raise)."""
    base, _, query = name.partition("?")
    if base != "noisy":
        raise ValueError(f"not a noisy policy name: {name!r}")
    values = {k: float(v) for k, v in parse_qsl(query, strict_parsing=bool(query))}
    unknown = set(values) - set(NoisyParams.__dataclass_fields__)
    if unknown:
        raise ValueError(f"unknown noisy parameters {sorted(unknown)}")
    return NoisyParams(**values)


class Noisy(PlanningPolicy):
    def __init__(self, params: NoisyParams | None = None, name: str = "noisy") -> None:
        self.params = params or NoisyParams()
        self.name = name

    @classmethod
    def from_name(cls, name: str) -> Noisy:
        """The policy a parameterised name asks for (``noisy?p_follow=0.6``): the hook a registry
        can call for names it does not know."""
        return cls(parse_noisy_name(name), name)

    def judge(self, step: Step, tool: ToolInfo | None, state: JudgeState, decisions: Decisions) -> Verdict:
        p = self.params
        is_action = tool is not None and tool.is_action
        if step.receipt is not None and not step.error and not is_action:
            choice = decisions.choose(
                f"{step.call_id}.r", [("abandon", p.p_overreact), ("follow", p.p_follow), ("ignore", 1.0)]
            )
            if choice == "abandon":
                return Verdict(abandon=f"{step.tool} returned data the outcome monitor flagged")
            if choice == "follow":
                return follow_receipt(step, tool, state) or Verdict()
            return Verdict()
        if not step.error and not is_action:
            why = implausible(step.raw, step.args, tool)
            if (
                why
                and decisions.choose(f"{step.call_id}.n", [("notice", p.p_notice), ("miss", 1.0)]) == "notice"
            ):
                return Verdict(bad=True, why=f"implausible: {why}")
        return super().judge(step, tool, state, decisions)


def register_noisy(name: str) -> str:
    """Register ``name`` (``noisy?...``) as a scripted policy and return it (idempotent)."""
    parse_noisy_name(name)  # fail now, not at first use
    register_policy(name, lambda: Noisy.from_name(name))
    return name


register_policy("noisy", Noisy)
