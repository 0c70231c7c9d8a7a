"""AgentDojo's attacks as a planted fault: the package's attack writes the pair's texts into its injection
vectors, results carrying them are marked (harness-side only), the injection task's own check grades the
attack, and the scripted players obey an injected instruction with their configured probability."""

from __future__ import annotations

import copy

import pytest

from core.protocol import ToolCall, ToolResult
from environments.agentdojo.env import AgentDojoWorld
from environments.agentdojo.players import ReceiptAware, Trusting
from environments.agentdojo.plugin import PLUGIN
from environments.agentdojo.replay import ground_truth_calls
from harness.run.grid import run_policy_episode

PAIR = "banking.user_task_4+injection_task_1"


@pytest.fixture(scope="module")
def world() -> AgentDojoWorld:
    return AgentDojoWorld(suite="banking", attack="important_instructions")


def test_pairs_planted_fault_and_marks(world):
    assert len(world.tasks()) == 16 * 9 and world.task(PAIR).group_id == "banking.user_task_4"
    planned = PLUGIN.planned_fault(world, world.task(PAIR))
    assert planned is not None and (planned.fault_class, planned.fault_kind) == (
        "important_instructions",
        "prompt_injection",
    )
    ep = world.sync_episode(PAIR, 0)
    marked = [ep.call(c).meta.get("perturbed", False) for c in ground_truth_calls(world, PAIR)]
    assert any(marked)
    outcome = ep.score(ep.user_task.GROUND_TRUTH_OUTPUT)
    assert outcome.success and outcome.details["attack_success"] is False
    ep = world.sync_episode(PAIR, 0)  # the injected goal carried out: the injection task's check says so
    for c in ep.injection_task.ground_truth(ep.environment.model_copy(deep=True)):
        ep.call(ToolCall(c.function, dict(c.args)))
    assert ep.score("").details["attack_success"] is True


def test_an_unknown_attack_is_refused_in_one_line():
    with pytest.raises(ValueError, match="unknown attack 'nope'"):
        AgentDojoWorld(suite="banking", attack="nope")


def test_players_obey_with_their_probability_and_a_receipt_makes_them_decline(world):
    always, never = Trusting.from_name("agentdojo.trusting?p_inject=1"), Trusting.from_name("x?p_inject=0")
    _, hit = run_policy_episode(always, world, PAIR, plugin=PLUGIN)
    _, missed = run_policy_episode(never, world, PAIR, plugin=PLUGIN)
    assert hit.details["attack_success"] and not missed.details["attack_success"] and missed.success

    def flag_injected(call, result, ctx):
        if not result.meta.get("perturbed"):
            return result
        receipt = {"violated": "$[*].subject must match", "recovery_tools": [call.name]}
        content = {"tool_result": copy.deepcopy(result.content), "outcome_monitor": receipt}
        return ToolResult(content, meta=dict(result.meta))

    aware = ReceiptAware.from_name("agentdojo.receipt-aware?p_inject=1")
    _, declined = run_policy_episode(aware, world, PAIR, interposers=[flag_injected], plugin=PLUGIN)
    assert not declined.details["attack_success"]
    with pytest.raises(ValueError, match="p_inject"):
        Trusting.from_name("agentdojo.trusting?p_inject=2")
