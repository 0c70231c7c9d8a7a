"""A list whose clean elements were all strings (names, observations) keeps them strings: a null
or a number among them fires (``collection`` ``elements`` with ``strings``), where the list already
keeps an ``elements`` rule of its own support."""

from __future__ import annotations

import random

from outcome_monitor import learn


def _rows(rng: random.Random) -> list[dict]:
    words = ["speaks Go", "prefers tea", "lives in Lisbon", "joined Acme in 2012", "met on Monday"]
    return [
        {
            "tool": "open_node",
            "arguments": {"name": f"n{i}"},
            "result": {"name": f"n{i}", "observations": rng.sample(words, rng.randint(1, 4)) + [f"id {i}"]},
        }
        for i in range(20)
    ]


def test_a_null_among_strings_fires_and_strings_pass():
    reg = learn(_rows(random.Random(4)))
    rule = next(
        r
        for r in reg.rules_for("open_node")
        if r.params.get("form") == "elements" and r.fields == ("observations",)
    )
    assert rule.params["strings"] is True and "string" in rule.sentence()
    args = {"name": "n3"}
    assert reg.check("open_node", args, {"name": "n3", "observations": ["speaks Go", "a new one"]}) == []
    for odd in (None, 3, {"x": 1}):
        found = reg.check("open_node", args, {"name": "n3", "observations": ["speaks Go", odd]})
        assert any(":elements" in v.rule_id for v in found), odd
