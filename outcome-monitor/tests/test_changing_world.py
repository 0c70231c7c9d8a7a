"""The same call gives a list as long (``len_by_args``) only where the recording never showed the
tool's answers changing size: a search whose relations grew between two identical calls reads a
store that is written to, and its entities' count, though it stayed, is no contract."""

from __future__ import annotations

from typing import Any

from outcome_monitor import Registry, learn
from outcome_monitor.learning.collection_mining import changing_world
from outcome_monitor.learning.executions import index_executions


def _forms(reg: Registry, tool: str) -> set[str]:
    return {str(r.params["form"]) for r in reg.rules_for(tool) if r.cls == "collection"}


def _search(grow: bool) -> list[dict[str, Any]]:
    """search per query, each asked three times; with ``grow`` one query's relations grew between
    its repeats (a write came in between), the entities' count the same every time."""
    rows = []
    for q, n in {"ada": 2, "bo": 3, "cy": 5, "di": 1}.items():
        for k in range(3):
            more = k if grow and q == "cy" else 0
            result = {
                "entities": [{"name": f"{q}{i}"} for i in range(n)],
                "relations": [{"from": f"{q}0", "to": f"x{j}"} for j in range(n + more)],
            }
            rows.append({"tool": "search", "arguments": {"query": q}, "result": result})
    return rows


def test_a_still_world_keeps_the_same_call_length():
    reg = learn(_search(grow=False))
    assert "len_by_args" in _forms(reg, "search")
    cut = {"entities": [{"name": "cy0"}], "relations": [{"from": "cy0", "to": f"x{j}"} for j in range(5)]}
    assert any(":len_by_args" in v.rule_id for v in reg.check("search", {"query": "cy"}, cut))


def test_a_sibling_list_that_changed_under_the_same_call_takes_the_rule_away():
    rows = _search(grow=True)
    assert changing_world(index_executions(rows)["search"])
    reg = learn(rows)
    assert "len_by_args" not in _forms(reg, "search")
    fewer = {"entities": [{"name": "cy0"}], "relations": []}
    assert not any(":len_by_args" in v.rule_id for v in reg.check("search", {"query": "cy"}, fewer))


def test_a_nested_list_that_changed_counts_too():
    """An entity's observations grew (an observation added between two identical calls)."""
    rows = []
    for q, n in {"ada": 2, "bo": 3, "cy": 5, "di": 1}.items():
        for k in range(3):
            grown = k if q == "bo" else 0
            entities = [
                {"name": f"{q}{i}", "notes": ["n"] * (1 + (grown if i == 0 else 0))} for i in range(n)
            ]
            rows.append({"tool": "search", "arguments": {"query": q}, "result": {"entities": entities}})
    assert changing_world(index_executions(rows)["search"])
    assert "len_by_args" not in _forms(learn(rows), "search")
    still = [r for r in rows if r["arguments"]["query"] != "bo"] + [
        r for r in _search(grow=False) if r["arguments"]["query"] == "bo"
    ]
    assert not changing_world(index_executions(still)["search"])


def _requests(grow: bool) -> list[dict[str, Any]]:
    """list_requests: titles from a pool of a few words, never repeated within a list; with ``grow``
    the list grew between identical calls (requests planned in between)."""
    import random

    rng = random.Random(5)
    words = ("nightly", "reports", "backups", "billing", "search", "alerts", "exports", "audit")
    rows = []
    for i in range(40):
        n = 4 + (i % 5 if grow else 0)
        titles = rng.sample([f"Set up {a} {b}" for a in words[:4] for b in words[4:]], n)
        args: dict[str, Any] = {} if grow else {"page": i}
        rows.append(
            {
                "tool": "list_requests",
                "arguments": args,
                # votes move between calls: each listing is a fresh draw of records, not the same ones again
                "result": {"requests": [{"title": t, "votes": rng.randint(0, 999)} for t in titles]},
            }
        )
    return rows


def test_names_unique_by_the_odds_of_draws_need_a_still_world():
    still, growing = learn(_requests(grow=False)), learn(_requests(grow=True))
    unique = {
        r.params.get("key") for r in still.rules_for("list_requests") if r.params.get("form") == "unique"
    }
    assert "title" in unique
    assert not [r for r in growing.rules_for("list_requests") if r.params.get("form") == "unique"]
