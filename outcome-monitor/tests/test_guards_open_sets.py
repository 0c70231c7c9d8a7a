"""Categorical fields whose values are no closed set keep no domain (wide vocabulary): a numbered
series and names of things; a closed set of status words keeps its domain. A count under an
argument named as a limit is bounded by it, not its echo."""

from __future__ import annotations

from typing import Any

from outcome_monitor import Monitor, learn


def _fired(reg: Any, tool: str, result: Any) -> list[str]:
    return [v.rule_id for v in Monitor(reg).annotate(tool, {}, result).violations]


def _rows(tool: str, field: str, values: list[str], n: int = 60) -> list[dict[str, Any]]:
    return [
        {"tool": tool, "arguments": {"i": i}, "result": {"items": [{field: values[i % len(values)]}]}}
        for i in range(n)
    ]


def test_a_numbered_series_is_no_closed_set() -> None:
    reg = learn(_rows("outline", "style", ["Heading 1", "Heading 2", "Normal", "List Bullet"]))
    assert not _fired(reg, "outline", {"items": [{"style": "Heading 3"}]})
    assert _fired(reg, "outline", {"items": [{"style": 3}]})  # the type rule speaks again
    assert "numbered series" in str(reg.meta.get("held_back"))


def test_names_of_things_are_no_closed_set() -> None:
    reg = learn(_rows("query", "name", ["Classic Backpack", "Classic Tent", "Mini Camera", "Ultra Lamp"]))
    assert not _fired(reg, "query", {"items": [{"name": "Mini Kettle"}]})


def test_status_words_keep_their_domain() -> None:
    reg = learn(_rows("orders", "status", ["pending", "shipped", "delivered", "cancelled"]))
    assert _fired(reg, "orders", {"items": [{"status": "teleported"}]})


def test_a_count_under_a_limit_argument_is_bounded_not_echoed() -> None:
    rows = [
        {"tool": "stats", "arguments": {"max_rows": 20 + i}, "result": {"count": 20 + i}} for i in range(30)
    ]
    reg = learn(rows)
    # a file shorter than the limit asked gives what it has
    assert not [
        v
        for v in Monitor(reg).annotate("stats", {"max_rows": 400}, {"count": 335}).violations
        if v.rule_class == "echo"
    ]
    ids = [
        {"tool": "user", "arguments": {"user_id": 100 + i}, "result": {"user_id": 100 + i}} for i in range(30)
    ]
    assert Monitor(learn(ids)).annotate("user", {"user_id": 7}, {"user_id": 8}).fired  # an id is echoed


def test_a_field_sometimes_empty_or_cut_still_never_holds_a_todo() -> None:
    notes = [
        "",
        "see the keys: a1, b2, c3 ...",
        "moved to the archive",
        "",
        "keys: d4, e5 ...",
        "renamed twice",
    ]
    rows = [
        {"tool": "entry", "arguments": {"k": i}, "result": {"note": notes[i % len(notes)], "id": i}}
        for i in range(30)
    ]
    reg = learn(rows)
    assert _fired(reg, "entry", {"note": "TODO", "id": 3})
    assert not _fired(reg, "entry", {"note": "", "id": 3})  # empty, as clean notes were


def test_a_count_under_a_limit_argument_pooled_over_tools_is_no_echo_either() -> None:
    rows = [
        {
            "tool": tool,
            "arguments": {"path": f"/d/{tool}{i}.csv", "max_rows": 20 + i},
            "result": {"count": 20 + i},
        }
        for tool in ("stats", "profile", "preview")
        for i in range(4)
    ]
    reg = learn(rows)
    assert not [
        v
        for v in Monitor(reg).annotate("stats", {"max_rows": 400}, {"count": 335}).violations
        if v.rule_class == "echo"
    ]


def test_names_joined_by_commas_may_join_none() -> None:
    tables = ["holds", "loans", "books, holds, loans", "members", "books, members", "loans, members"]
    rows = [
        {"tool": "tables", "arguments": {"q": f"q{i}"}, "result": {"result": tables[i % 6]}}
        for i in range(30)
    ]
    reg = learn(rows)
    assert not _fired(reg, "tables", {"result": ""})  # no table matched
    assert _fired(reg, "tables", {"result": "TODO"})
