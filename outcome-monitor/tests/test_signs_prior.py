"""Signs past a field's own support (wide vocabulary only): elements of lists of numbers, and fields a
tool saw too few values of, signed by the recording's own rate of places that change sign."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn
from outcome_monitor.checking.paths import context_steps, iter_context
from outcome_monitor.learning.signs import MIN_PRIOR_PLACES, prior_distinct
from outcome_monitor.thresholds import DEFAULT


def _fired(reg: Any, tool: str, result: Any, args: dict[str, Any] | None = None) -> bool:
    return Monitor(reg).annotate(tool, args or {}, result).fired


def _signed_tools(rng: random.Random, n_tools: int, negative_share: float = 0.0) -> list[dict[str, Any]]:
    """Tools of one well-supported number each (12 distinct values); ``negative_share`` of them mixed."""
    rows = []
    mixed = round(n_tools * negative_share)
    for t in range(n_tools):
        for i in range(12):
            v = round(rng.uniform(1, 900), 2) * (-1 if t < mixed and i % 2 else 1)
            rows.append({"tool": f"stat{t}", "arguments": {"i": i}, "result": {f"v{t}": v}})
    return rows


def _distance_rows(values: list[float]) -> list[dict[str, Any]]:
    return [
        {"tool": "estimate", "arguments": {"a": f"c{i}"}, "result": {"distance": v}}
        for i, v in enumerate(values)
    ]


FEW = [980.0, 630.0, 750.0, 410.0, 1210.0]  # five distinct values: too few for a sign of its own


def test_a_list_of_numbers_keeps_its_elements_sign():
    rng = random.Random(1)
    rows = [
        {"tool": "cost", "arguments": {"i": i}, "result": {"costs": [round(rng.uniform(50, 5000), 1)]}}
        for i in range(30)
    ]
    reg = learn(rows)
    assert not _fired(reg, "cost", {"costs": [321.5]})
    assert _fired(reg, "cost", {"costs": [-321.5]})
    assert _fired(reg, "cost", {"costs": [0.0]})
    assert not _fired(learn(rows, vocabulary="paper"), "cost", {"costs": [-321.5]})


def test_a_list_that_held_a_negative_keeps_no_sign():
    rng = random.Random(2)
    rows = [
        {"tool": "delta", "arguments": {"i": i}, "result": {"changes": [round(rng.uniform(-50, 50), 1)]}}
        for i in range(30)
    ]
    assert not _fired(learn(rows), "delta", {"changes": [-7.5]})


def test_a_field_seen_few_times_takes_the_recordings_sign():
    rows = _signed_tools(random.Random(3), MIN_PRIOR_PLACES + 2) + _distance_rows(FEW)
    reg = learn(rows)
    assert not _fired(reg, "estimate", {"distance": 500.0})
    assert _fired(reg, "estimate", {"distance": -980.0})
    # a zero is one value among many, not a coin flip: the prior keeps "non-negative" only
    assert not _fired(reg, "estimate", {"distance": 0.0})
    assert not _fired(learn(rows, vocabulary="paper"), "estimate", {"distance": -980.0})


def test_a_recording_whose_numbers_often_change_sign_gives_no_prior():
    rows = _signed_tools(random.Random(4), MIN_PRIOR_PLACES + 2, negative_share=0.5) + _distance_rows(FEW)
    assert not _fired(learn(rows), "estimate", {"distance": -980.0})


def test_too_few_supported_places_give_no_prior():
    rows = _signed_tools(random.Random(5), MIN_PRIOR_PLACES - 2) + _distance_rows(FEW)
    assert not _fired(learn(rows), "estimate", {"distance": -980.0})


def test_a_sibling_tools_negative_at_the_same_place_keeps_the_prior_out():
    rows = _signed_tools(random.Random(6), MIN_PRIOR_PLACES + 2) + _distance_rows(FEW)
    rows.append({"tool": "route", "arguments": {}, "result": {"distance": -3.0}})
    assert not _fired(learn(rows), "estimate", {"distance": -980.0})


def test_too_few_values_of_its_own_keep_the_prior_out():
    rows = _signed_tools(random.Random(7), MIN_PRIOR_PLACES + 2) + _distance_rows(FEW[:1])
    assert not _fired(learn(rows), "estimate", {"distance": -980.0})


def test_the_prior_asks_more_values_the_more_places_are_mixed():
    assert prior_distinct(MIN_PRIOR_PLACES - 1, 0, DEFAULT) is None
    clean = prior_distinct(40, 0, DEFAULT)
    some = prior_distinct(40, 8, DEFAULT)
    assert clean is not None and some is not None and clean <= some < DEFAULT.min_distinct_sign
    assert prior_distinct(40, 30, DEFAULT) is None


def test_the_generated_check_agrees_with_each_sign_rules_closure():
    rng = random.Random(8)
    rows = _signed_tools(rng, MIN_PRIOR_PLACES + 2) + _distance_rows(FEW)
    rows += [
        {"tool": "cost", "arguments": {"i": i}, "result": {"costs": [round(rng.uniform(50, 5000), 1), 7.0]}}
        for i in range(30)
    ]
    reg = learn(rows)
    probes = {
        "estimate": [{"distance": d} for d in (500.0, 0.0, -1.0, "x", None)] + [{}],
        "cost": [{"costs": c} for c in ([1.0, 2.0], [1.0, -2.0], [0.0], [], ["x", -1])] + [{}],
    }
    for tool, results in probes.items():
        # the signs of fields and elements (lengths and sums read through derived getters)
        rules = [r for r in reg.rules[tool] if r.cls == "positive" and "(" not in r.fields[0]]
        assert rules
        for result in results:
            expected = set()
            for r in rules:
                check = r.compile()
                for element, _ in iter_context(result, context_steps(r.context)):
                    vals = dict(element) if type(element) is dict else {"": element}
                    if check(vals, {}) is not None:
                        expected.add(r.rule_id)
            got = {v.rule_id for v in reg.check(tool, {}, result) if v.rule_id in {r.rule_id for r in rules}}
            assert got == expected, (tool, result)


def _counts(rows_per_tool: int = 12, negative: bool = False) -> list[dict[str, Any]]:
    """A document tool with three counts: words and paragraphs vary widely, tables take 0 to 2."""
    rng = random.Random(11)
    rows = []
    for i in range(rows_per_tool):
        info = {
            "word_count": rng.randint(200, 4000),
            "paragraph_count": rng.randint(5, 60),
            "table_count": [0, 1, 1, 2][i % 4],
        }
        if negative and i == 3:
            info["paragraph_count"] = -1
        rows.append({"tool": "doc_info", "arguments": {"f": f"d{i}.docx"}, "result": info})
    return rows


def test_counts_lend_their_sign_to_a_count_seen_with_few_values() -> None:
    reg = learn(_counts())
    ok = {"word_count": 900, "paragraph_count": 12, "table_count": 0}
    assert not _fired(reg, "doc_info", ok)
    assert _fired(reg, "doc_info", {**ok, "table_count": -1})  # three values of its own: lent by namesakes
    # a namesake that was once negative lends nothing
    assert not _fired(learn(_counts(negative=True)), "doc_info", {**ok, "table_count": -1})
    assert not _fired(learn(_counts(), vocabulary="paper"), "doc_info", {**ok, "table_count": -1})
