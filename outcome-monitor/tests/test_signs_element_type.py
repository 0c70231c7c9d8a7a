"""A list of numbers signed element by element keeps its elements numbers (wide vocabulary only): an
error page as an element of a list of costs passes a sign, not a type."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn

PAGE = "<html><head><title>502 Bad Gateway</title></head><body>502 Bad Gateway</body></html>"


def _rows() -> list[dict[str, Any]]:
    rng = random.Random(5)
    return [
        {
            "tool": "get_flight_cost",
            "arguments": {"route": f"r{i}"},
            "result": {"travel_cost_list": [round(rng.uniform(90, 900), 1)]},
        }
        for i in range(30)
    ]


def _fired(reg: Any, costs: list[Any]) -> bool:
    return Monitor(reg).annotate("get_flight_cost", {"route": "r0"}, {"travel_cost_list": costs}).fired


def test_a_page_among_costs_fires_and_an_integer_cost_does_not() -> None:
    reg = learn(_rows())
    assert _fired(reg, [PAGE])
    assert _fired(reg, ["N/A"])
    assert not _fired(reg, [320])  # an integer is a number too
    assert not _fired(reg, [410.5])
    assert not _fired(learn(_rows(), vocabulary="paper"), [PAGE])


def test_a_list_that_also_held_text_keeps_no_element_sign_from_its_all_number_lists() -> None:
    # a command's output: a count alone on some calls ([22]), lines of text on others
    rows = [
        {
            "tool": "run",
            "arguments": {"i": i},
            "result": {"out": [i + 3] if i % 2 else [f"line {i}\n", "more\n"]},
        }
        for i in range(40)
    ]
    reg = learn(rows)
    assert not [r for r in reg.rules["run"] if r.context == "$.out[*]" and r.cls in ("positive", "type")]
    assert reg.check("run", {"i": 99}, {"out": ["text again\n"]}) == []


def test_text_beside_numbers_in_a_list_keeps_placeholders_out_of_the_text() -> None:
    r = random.Random("mixed-elements")
    rows = []
    for i in range(40):
        out: list[Any] = [r.randint(0, 40)] if i % 3 == 0 else [f"{r.randint(1, 99)} line {i} of the log\n"]
        rows.append({"tool": "run", "arguments": {"i": i}, "result": {"out": out}})
    reg = learn(rows)
    (rule,) = [x for x in reg.rules["run"] if x.params.get("form") == "elements"]
    assert (
        "placeholder" in rule.params["not"] and "strings" not in rule.params and "values" not in rule.params
    )
    assert reg.check("run", {"i": 99}, {"out": ["7 line 99 of the log\n"]}) == []
    assert reg.check("run", {"i": 99}, {"out": [12]}) == []
    assert reg.check("run", {"i": 99}, {"out": ["undefined"]})
