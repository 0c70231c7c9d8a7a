"""A write's report of what it did: a tool named for a change that gives back the list it was asked
(``create_relations``) may leave out what already held (a relation already there is not created
again, and an empty report is a write that found everything done); a computation that echoes its
input (``sum``) keeps its exact echo."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Registry, learn
from outcome_monitor.learning.write_reports import name_words, write_tool


def _relations(rng: random.Random, n: int) -> list[dict[str, Any]]:
    people = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"]
    rows = []
    for _ in range(n):
        asked = [
            {"from": rng.choice(people), "to": rng.choice(people), "relationType": "knows"}
            for _ in range(rng.randint(1, 3))
        ]
        rows.append(
            {"tool": "create_relations", "arguments": {"relations": asked}, "result": {"relations": asked}}
        )
    return rows


def _fired(reg: Registry, args: dict[str, Any], result: Any) -> list[str]:
    return [v.rule_id for v in reg.check("create_relations", args, result)]


def test_a_write_may_report_fewer_of_what_it_was_asked_never_others():
    reg = learn(_relations(random.Random(2), 14))
    echo = next(r for r in reg.rules_for("create_relations") if r.params.get("form") == "echo_list")
    assert echo.params["omits"] is True
    asked = [
        {"from": "Ada", "to": "Bo", "relationType": "knows"},
        {"from": "Cy", "to": "Di", "relationType": "knows"},
    ]
    args = {"relations": asked}
    assert _fired(reg, args, {"relations": asked}) == []
    assert _fired(reg, args, {"relations": asked[1:]}) == []  # the first one already held
    assert _fired(reg, args, {"relations": []}) == []  # every one already held
    other = {"from": "Ed", "to": "Bo", "relationType": "knows"}
    assert any(":echo_list" in i for i in _fired(reg, args, {"relations": [asked[0], other]}))
    assert any(":echo_list" in i for i in _fired(reg, args, {"relations": asked[::-1]}))
    assert "omits" in echo.sentence() or "leave out" in echo.sentence()


def test_a_computation_keeps_its_exact_echo():
    rng = random.Random(3)
    rows = []
    for _ in range(12):
        numbers = [rng.randint(1, 999) for _ in range(rng.randint(1, 7))]
        rows.append({"tool": "sum", "arguments": {"numbers": numbers}, "result": {"numbers": numbers}})
    reg = learn(rows)
    echo = next(r for r in reg.rules_for("sum") if r.params.get("form") == "echo_list")
    assert "omits" not in echo.params
    assert any(r.cls == "positive" for r in reg.rules_for("sum"))
    assert reg.check("sum", {"numbers": [4, 5, 6]}, {"numbers": [4, 5]})


def test_a_write_is_read_from_its_name_words():
    assert name_words("createRelations") == name_words("create-relations") == ["create", "relations"]
    assert write_tool("create_relations") and write_tool("git_add") and write_tool("addObservations")
    assert not write_tool("read_graph") and not write_tool("get_updates") and not write_tool("sum")
