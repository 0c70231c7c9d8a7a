import copy

import pytest
from faults_fakes import QUOTE, Ctx, FakeEpisode, StatefulEpisode, make_task

from core.protocol import ToolCall, ToolResult, ToolSpec
from harness.faults.inject import FaultInjector


def _run(injector, calls, episode=None, seed=0):
    """Feed (tool, content) pairs through the injector as one episode; return the results."""
    task = make_task()
    episode = episode or FakeEpisode(
        task, [ToolSpec("quote", "", {}, category="read"), ToolSpec("fx", "", {}, category="write")]
    )
    counts: dict[str, int] = {}
    labels: dict = {}
    out = []
    for i, (tool, content) in enumerate(calls):
        ctx = Ctx(episode, task, seed, i, dict(counts), labels=labels)
        out.append(injector(ToolCall(tool, {"ticker": "AAPL"}), ToolResult(content=content), ctx))
        counts[tool] = counts.get(tool, 0) + 1
    return out, labels


def test_transient_fires_only_on_first_call_and_never_mutates_input():
    inj = FaultInjector(
        {"fault_class": "negative_or_zero", "mode": "transient", "params": {"variant": "negative"}}
    )
    original = copy.deepcopy(QUOTE)
    results, labels = _run(inj, [("quote", QUOTE), ("quote", QUOTE)])
    assert QUOTE == original
    assert results[0].content["price_usd"] < 0 and results[1].content == QUOTE
    fault = results[0].meta["injected_fault"]
    assert fault["fault_class"] == "negative_or_zero" and fault["kind"] == "structured"
    assert fault["path"] == "$.price_usd" and fault["original"] == 187.25 and fault["level"] == "observation"
    assert "injected_fault" not in results[1].meta
    assert labels["injected_faults"][0]["tool"] == "quote"


def test_permanent_fires_every_call_of_the_first_touched_tool_only():
    inj = FaultInjector({"fault_class": "unit_mixup", "mode": "permanent"})
    results, _ = _run(inj, [("quote", QUOTE), ("fx", {"rate": 0.9}), ("quote", QUOTE)])
    assert all("injected_fault" in r.meta for r in (results[0], results[2]))
    assert "injected_fault" not in results[1].meta  # the target is the first touched eligible tool


def test_target_tool_category_and_field_rules():
    inj = FaultInjector({"fault_class": "unit_mixup", "target": {"tool": "fx"}})
    results, _ = _run(inj, [("quote", QUOTE), ("fx", {"rate": 0.9})])
    assert "injected_fault" not in results[0].meta and results[1].content["rate"] == pytest.approx(90.0)
    inj = FaultInjector({"fault_class": "unit_mixup", "target": {"category": "read"}})
    results, _ = _run(inj, [("fx", {"rate": 0.9}), ("quote", QUOTE)])
    assert "injected_fault" not in results[0].meta and "injected_fault" in results[1].meta
    inj = FaultInjector({"fault_class": "plausible_string", "target": {"field": "^as_of$"}})
    results, _ = _run(inj, [("quote", QUOTE)])
    assert "injected_fault" not in results[0].meta  # a date is not a plausible-string target
    inj = FaultInjector({"fault_class": "stale_value", "target": {"field": "^as_of$"}})
    results, _ = _run(inj, [("quote", QUOTE)])
    assert results[0].meta["injected_fault"]["path"] == "$.as_of"


def test_deterministic_per_seed_and_varies_with_seed():
    cfg = {"fault_class": "plausible_string", "mode": "permanent"}
    calls = [("quote", {"city": "Paris", "note": "x1", "name": "Chen Wei", "desc": "abc"})] * 3
    a, _ = _run(FaultInjector(cfg, seed=1), calls)
    b, _ = _run(FaultInjector(cfg, seed=1), calls)
    assert [r.content for r in a] == [r.content for r in b]
    paths_a = {r.meta["injected_fault"]["path"] for r in a}
    assert len(paths_a) == 1  # a permanent fault keeps hitting the same field
    others = {
        tuple(r.meta["injected_fault"]["path"] for r in _run(FaultInjector(cfg, seed=s), calls)[0])
        for s in range(12)
    }
    assert len(others) > 1


def test_errors_and_environment_perturbations_pass_through():
    inj = FaultInjector({"fault_class": "unit_mixup"})
    task = make_task()
    ctx = Ctx(FakeEpisode(task), task, 0, 0)
    err = ToolResult(content={"error": "x", "n": 5}, status="error")
    assert inj(ToolCall("quote", {}), err, ctx) is err
    pert = ToolResult(content={"n": 5}, meta={"perturbed": True})
    assert inj(ToolCall("quote", {}), pert, ctx) is pert


def test_state_level_uses_episode_hook_when_offered():
    cfg = {"fault_class": "negative_or_zero", "level": "state", "params": {"variant": "zero"}}
    ep = StatefulEpisode(make_task())
    results, _ = _run(FaultInjector(cfg), [("quote", QUOTE)], episode=ep)
    assert ep.state_writes == [("$.price_usd", 0)]
    assert results[0].meta["injected_fault"]["level"] == "state"
    results, _ = _run(FaultInjector(cfg), [("quote", QUOTE)])
    assert results[0].meta["injected_fault"]["level"] == "observation"


def test_bad_config_is_rejected():
    with pytest.raises(KeyError):
        FaultInjector({"fault_class": "nope"})
    with pytest.raises(ValueError):
        FaultInjector({"fault_class": "unit_mixup", "mode": "sometimes"})


def test_shape_rule_keeps_only_targets_of_that_shape():
    inj = FaultInjector({"fault_class": "stale_value", "target": {"shape": "date"}})
    results, _ = _run(inj, [("quote", QUOTE)])
    assert results[0].meta["injected_fault"]["path"] == "$.as_of"
    inj = FaultInjector({"fault_class": "stale_value", "target": {"shape": "list"}})
    results, _ = _run(inj, [("quote", QUOTE)])
    assert "injected_fault" not in results[0].meta
