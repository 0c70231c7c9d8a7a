"""A list's size against its call (the wide vocabulary's ``collection`` forms ``len_by_args``,
``len_eq_arg``, ``len_eq_argnum``, ``echo_list``, ``same_width``): each learned only where clean
traffic supports it, each firing on the list cut short, none in the paper's vocabulary."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from outcome_monitor import Registry, learn
from outcome_monitor.checking.answers import call_key
from outcome_monitor.checking.collection_rules import number_after
from outcome_monitor.registry_format import schema

SIZE_FORMS = {"len_by_args", "len_eq_arg", "len_eq_argnum", "echo_list", "same_width"}


def _forms(reg: Registry, tool: str) -> dict[str, dict[str, Any]]:
    return {r.params["form"]: r.params for r in reg.rules_for(tool) if r.cls == "collection"}


def _fires(reg: Registry, tool: str, args: dict[str, Any], result: Any, form: str) -> bool:
    return any(
        v.rule_class == "collection" and f":{form}" in v.rule_id for v in reg.check(tool, args, result)
    )


# ---- the same call gives a list as long


def _channels(repeats: int, members: dict[str, int]) -> list[dict[str, Any]]:
    """get_members per channel, each channel asked ``repeats`` times (the same answer)."""
    rows = []
    for name, n in members.items():
        result = [f"user{i}" for i in range(n)]
        rows += [{"tool": "get_members", "arguments": {"channel": name}, "result": result}] * repeats
    return rows


def test_a_repeated_call_keeps_its_length_and_a_new_call_is_not_judged():
    reg = learn(_channels(3, {"general": 5, "random": 3, "dev": 7, "ops": 2}))
    assert _forms(reg, "get_members")["len_by_args"]["lengths"][call_key({"channel": "dev"})] == 7
    cut = ["user0", "user1", "user2"]
    assert _fires(reg, "get_members", {"channel": "dev"}, cut, "len_by_args")
    assert _fires(reg, "get_members", {"channel": "dev"}, [], "len_by_args")
    assert not _fires(reg, "get_members", {"channel": "random"}, cut, "len_by_args")  # as recorded
    assert not _fires(reg, "get_members", {"channel": "new"}, cut, "len_by_args")  # never recorded
    again = learn(_channels(3, {"general": 5, "random": 3, "dev": 7, "ops": 2}))
    assert again.to_json() == reg.to_json()  # no order, hash or clock in the table


def test_no_same_call_rule_where_a_repeat_changed_or_repeats_are_few():
    rows = _channels(3, {"general": 5, "random": 3, "dev": 7, "ops": 2})
    changed = rows + [{"tool": "get_members", "arguments": {"channel": "dev"}, "result": ["a"] * 8}]
    assert "len_by_args" not in _forms(learn(changed), "get_members")  # the world changes
    few = _channels(2, {"general": 5, "random": 3, "dev": 7})  # 3 repeats, under the coincidence floor
    assert "len_by_args" not in _forms(learn(few), "get_members")
    alone = _channels(20, {"general": 5})  # one call repeated: a constant length needs a constant's support
    assert "len_by_args" not in _forms(learn(alone), "get_members")


# ---- a limit always reached, a number in a query, a list echoed


def _query(rng: random.Random, limit: int | None) -> dict[str, Any]:
    n = limit if limit is not None else rng.randint(1, 9)
    tail = f" ORDER BY price DESC LIMIT {limit}" if limit is not None else ""
    return {
        "tool": "read_query",
        "arguments": {"query": f"SELECT id, price FROM products WHERE price > {rng.randint(1, 99)}{tail}"},
        "result": [{"id": rng.randrange(10**6), "price": round(rng.uniform(1, 99), 2)} for _ in range(n)],
    }


def test_a_list_as_long_as_the_number_after_limit():
    rng = random.Random(1)
    rows = [_query(rng, rng.randint(1, 8)) for _ in range(20)] + [_query(rng, None) for _ in range(10)]
    reg = learn(rows)
    assert _forms(reg, "read_query")["len_eq_argnum"]["word"] == "limit"
    args = {"query": "SELECT id, price FROM products WHERE price > 5 ORDER BY price DESC LIMIT 4"}
    four = [{"id": i, "price": 10.0 + i} for i in range(4)]
    assert not _fires(reg, "read_query", args, four, "len_eq_argnum")
    assert _fires(reg, "read_query", args, four[:2], "len_eq_argnum")
    no_limit = {"query": "SELECT id, price FROM products WHERE price > 5"}
    assert not _fires(reg, "read_query", no_limit, four[:2], "len_eq_argnum")
    # one clean query that gave fewer rows than its limit: no such rule
    short = _query(rng, 6)
    short["result"] = short["result"][:3]
    assert "len_eq_argnum" not in _forms(learn(rows + [short]), "read_query")


def test_number_after_a_word_only_where_it_is_said_once():
    assert number_after("select * from t LIMIT 7", "limit") == 7
    assert number_after("limit 3 union select 1 limit 4", "limit") is None
    assert number_after("select * from t", "limit") is None
    assert number_after(7, "limit") is None


def _log(rng: random.Random, max_count: int, since: bool) -> dict[str, Any]:
    n = rng.randint(0, max_count) if since else max_count
    args: dict[str, Any] = {"repo": "r", "max_count": max_count} | ({"since": "2025-01-01"} if since else {})
    return {
        "tool": "log",
        "arguments": args,
        "result": {"entries": [{"sha": f"{rng.getrandbits(64):016x}"} for _ in range(n)]},
    }


def test_a_limit_reached_on_the_calls_without_a_filter():
    rng = random.Random(2)
    rows = [_log(rng, rng.randint(2, 12), since=i % 3 == 0) for i in range(40)]
    params = _forms(learn(rows), "log")["len_eq_arg"]
    assert params["arg"] == "max_count" and params["when"] == ["max_count", "repo"]
    reg = learn(rows)
    full = _log(rng, 6, since=False)
    assert not _fires(reg, "log", full["arguments"], full["result"], "len_eq_arg")
    cut = {"entries": full["result"]["entries"][:3]}
    assert _fires(reg, "log", full["arguments"], cut, "len_eq_arg")
    assert not _fires(reg, "log", {**full["arguments"], "since": "2025-02-01"}, cut, "len_eq_arg")


def test_a_list_argument_echoed_element_by_element():
    rng = random.Random(3)
    rows = []
    for _ in range(12):
        numbers = [rng.randint(1, 999) for _ in range(rng.randint(1, 7))]
        rows.append(
            {
                "tool": "sum",
                "arguments": {"numbers": numbers},
                "result": {"numbers": [float(x) for x in numbers], "result": str(sum(numbers))},
            }
        )
    reg = learn(rows)
    assert _forms(reg, "sum")["echo_list"]["arg"] == "numbers"
    args = {"numbers": [4, 5, 6]}
    assert not _fires(reg, "sum", args, {"numbers": [4.0, 5.0, 6.0], "result": "15"}, "echo_list")
    assert _fires(reg, "sum", args, {"numbers": [4.0, 5.0], "result": "15"}, "echo_list")
    assert _fires(reg, "sum", args, {"numbers": [4.0, -5.0, 6.0], "result": "15"}, "echo_list")
    assert _fires(reg, "sum", args, {"numbers": [4.0, "5.0", 6.0], "result": "15"}, "echo_list")
    # one clean result that sorted its numbers: the list is not an echo
    rows.append(
        {"tool": "sum", "arguments": {"numbers": [3, 1]}, "result": {"numbers": [1.0, 3.0], "result": "4"}}
    )
    assert "echo_list" not in _forms(learn(rows), "sum")


def test_rows_of_one_width():
    rng = random.Random(4)
    rows = []
    for i in range(5):
        width = rng.randint(2, 5)
        table = [[f"h{j}" for j in range(width)]] + [
            [rng.randint(0, 99) for _ in range(width)] for _ in range(6)
        ]
        rows.append({"tool": "read_sheet", "arguments": {"sheet": f"s{i}"}, "result": {"rows": table}})
    reg = learn(rows)
    assert "same_width" in _forms(reg, "read_sheet")
    table = [["a", "b", "c"], [1, 2, 3], [4, 5, 6]]
    assert not _fires(reg, "read_sheet", {"sheet": "x"}, {"rows": table}, "same_width")
    assert _fires(reg, "read_sheet", {"sheet": "x"}, {"rows": [*table[:2], [4, 5]]}, "same_width")
    ragged = rows + [
        {"tool": "read_sheet", "arguments": {"sheet": "z"}, "result": {"rows": [["a", "b"], [1]]}}
    ]
    assert "same_width" not in _forms(learn(ragged), "read_sheet")


# ---- only the wide vocabulary, in the registry's format


def test_the_paper_vocabulary_learns_none_of_them_and_the_wide_registry_is_valid():
    rng = random.Random(5)
    rows = _channels(3, {"general": 5, "random": 3, "dev": 7, "ops": 2})
    rows += [_query(rng, rng.randint(1, 8)) for _ in range(20)]
    rows += [_log(rng, rng.randint(2, 12), since=i % 3 == 0) for i in range(40)]
    paper = learn(rows, vocabulary="paper")
    assert not [
        r for r in paper.rules_for("get_members") + paper.rules_for("read_query") if r.cls == "collection"
    ]
    wide = learn(rows)
    got = {r.params["form"] for t in wide.tools() for r in wide.rules_for(t) if r.cls == "collection"}
    assert {"len_by_args", "len_eq_argnum", "len_eq_arg"} <= got
    again = Registry.from_json(json.loads(json.dumps(wide.to_json())))
    args = {"channel": "dev"}
    assert [v.rule_id for v in again.check("get_members", args, [])] == [
        v.rule_id for v in wide.check("get_members", args, [])
    ]
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(schema()).validate(wide.to_json())


# ---- the same entry, the same record: a list as long


def _fleet(rng: random.Random) -> dict[str, int]:
    return {f"Company {c}": rng.randint(1, 4) for c in "ABCDEFGH"}


def test_an_entry_of_a_map_keeps_its_list_length():
    rng = random.Random(6)
    fleet = _fleet(rng)
    rows = []
    for _ in range(12):
        asked = rng.sample(sorted(fleet), rng.randint(1, 3))
        result = {c: [f"type{j}" for j in range(fleet[c])] for c in asked}
        rows.append({"tool": "car_types", "arguments": {"company": asked}, "result": result})
    reg = learn(rows)
    assert _forms(reg, "car_types")["len_by_key"]["lengths"] == {
        c: n for c, n in fleet.items() if any(c in r["result"] for r in rows)
    }
    c = max((c for c in fleet if fleet[c] >= 2 and any(c in r["result"] for r in rows)), default=None)
    assert c is not None
    whole = {c: [f"type{j}" for j in range(fleet[c])]}
    assert not _fires(reg, "car_types", {"company": [c]}, whole, "len_by_key")
    assert _fires(reg, "car_types", {"company": [c]}, {c: whole[c][:1]}, "len_by_key")
    assert not _fires(reg, "car_types", {"company": ["Nobody"]}, {"Nobody": []}, "len_by_key")
    # one entry that held another length once: the entries do not keep their lengths
    rows.append({"tool": "car_types", "arguments": {"company": [c]}, "result": {c: ["x"] * (fleet[c] + 1)}})
    assert "len_by_key" not in _forms(learn(rows), "car_types")


def _mailbox(rng: random.Random, n: int) -> list[dict[str, Any]]:
    return [
        {"id_": str(i), "subject": f"s{i}", "recipients": [f"r{j}@x.org" for j in range(1 + i % 3)]}
        for i in range(n)
    ]


def test_a_record_keeps_its_nested_list_length_by_its_id():
    rng = random.Random(7)
    rows = [
        {"tool": "sent", "arguments": {"folder": f"f{k}"}, "result": _mailbox(rng, n)}
        for k, n in enumerate((6, 7, 8, 6))
    ]
    reg = learn(rows)
    rule = next(r for r in reg.rules_for("sent") if r.params.get("form") == "len_by_id")
    assert rule.params["key"] == "id_" and rule.params["lengths"]["5"] == 3
    box = _mailbox(rng, 6)
    assert not _fires(reg, "sent", {"folder": "new"}, box, "len_by_id")
    box[5]["recipients"] = box[5]["recipients"][:1]
    assert _fires(reg, "sent", {"folder": "new"}, box, "len_by_id")
    # a record met once: nothing to compare
    assert not _fires(
        reg, "sent", {"folder": "new"}, [{"id_": "99", "subject": "s", "recipients": []}], "len_by_id"
    )
    # too few meetings again (two results): no rule
    assert "len_by_id" not in _forms(learn(rows[:2]), "sent")


# ---- names that never repeat within a list, where chance would have repeated one


def _teams(rng: random.Random, pool: list[str], sizes: list[int]) -> list[dict[str, Any]]:
    return [
        {
            "tool": "list_members",
            "arguments": {"team": f"t{i}"},
            "result": [{"name": x, "score": rng.randint(0, 9)} for x in rng.sample(pool, n)],
        }
        for i, n in enumerate(sizes)
    ]


def test_names_unique_only_where_chance_would_have_repeated_one():
    rng = random.Random(8)
    small = [f"Person {c}" for c in "ABCDEFGHIJKL"]  # 12 names, lists of 6: a repeat by chance was due
    rows = _teams(rng, small, [6, 5, 7, 6, 6, 5, 7, 6])
    reg = learn(rows)
    assert any(r.params == {"form": "unique", "key": "name"} for r in reg.rules_for("list_members"))
    dup = [
        {"name": "Person A", "score": 1},
        {"name": "Person B", "score": 2},
        {"name": "Person A", "score": 3},
    ]
    assert any("unique(name)" in v.rule_id for v in reg.check("list_members", {"team": "x"}, dup))
    # names from a pool far larger than the lists: no repeat was due, so none is promised
    letters = "abcdefghijklmnopqrstuvwxyz"
    large = [f"Person {a.upper()}{b}{c}" for a in letters for b in letters for c in letters[:8]]
    rows = _teams(rng, large, [3, 4, 3, 4, 3, 4, 3, 4])
    assert not any(r.params.get("key") == "name" for r in learn(rows).rules_for("list_members"))


def test_one_content_block_alone_counts_as_a_list_of_one():
    rng = random.Random(9)
    rows = []
    for _ in range(20):
        limit = rng.randint(1, 5)
        blocks = [{"id": rng.randrange(100), "qty": rng.randrange(300)} for _ in range(limit)]
        result: Any = blocks if limit > 1 else blocks[0]  # one block comes as the block itself
        rows.append(
            {"tool": "sql", "arguments": {"sql": f"SELECT id, qty FROM t LIMIT {limit}"}, "result": result}
        )
    # the lone block is read as a list of one (a view of one or many matches, or ``lone`` here)
    params = _forms(learn(rows), "sql")["len_eq_argnum"]
    assert params["word"] == "limit"
    reg = learn(rows)
    one = {"id": 1, "qty": 2}
    assert not _fires(reg, "sql", {"sql": "SELECT id, qty FROM t LIMIT 1"}, one, "len_eq_argnum")
    assert _fires(reg, "sql", {"sql": "SELECT id, qty FROM t LIMIT 4"}, one, "len_eq_argnum")
    assert _fires(reg, "sql", {"sql": "SELECT id, qty FROM t LIMIT 4"}, [one, one], "len_eq_argnum")
    assert not _fires(reg, "sql", {"sql": "SELECT id, qty FROM t LIMIT 2"}, [one, one], "len_eq_argnum")


def test_a_limit_past_what_the_data_has_is_not_a_list_cut_short():
    # a log whose clean calls always reached max_count (1 to 12); the repository holds 14 commits, so
    # max_count 20 gives 14: what the data had. A list shorter than both is cut short.
    rows = [
        {"tool": "git_log", "arguments": {"max_count": k}, "result": [f"c{i}" for i in range(k)]}
        for k in (1, 3, 5, 7, 9, 11, 12, 2, 4)
    ]
    reg = learn(rows)
    assert _forms(reg, "git_log")["len_eq_arg"]["reached"] == 12
    assert not _fires(reg, "git_log", {"max_count": 20}, [f"c{i}" for i in range(14)], "len_eq_arg")
    assert not _fires(reg, "git_log", {"max_count": 20}, [f"c{i}" for i in range(12)], "len_eq_arg")
    assert _fires(reg, "git_log", {"max_count": 20}, [f"c{i}" for i in range(8)], "len_eq_arg")
    assert _fires(reg, "git_log", {"max_count": 10}, [f"c{i}" for i in range(6)], "len_eq_arg")
    assert _fires(reg, "git_log", {"max_count": 5}, [f"c{i}" for i in range(6)], "len_eq_arg")


def test_a_limit_bounds_the_list_of_results_not_a_list_inside_each():
    rng = random.Random(9)
    rows = []
    for i in range(30):
        limit = rng.randint(2, 6)
        events = [
            {"uid": f"e{i}-{k}", "tags": rng.sample(["a", "b", "c"], rng.randint(1, 2))}
            for k in range(rng.randint(1, limit))
        ]
        events[0]["tags"] = ["a", "b"][: min(2, limit)]
        rows.append({"tool": "events", "arguments": {"q": f"q{i}", "limit": limit}, "result": events})
    rows.append({"tool": "events", "arguments": {"q": "full", "limit": 2}, "result": rows[0]["result"][:2]})
    reg = learn(rows)
    limits = [r for r in reg.rules_for("events") if r.params.get("form") == "len_le_arg"]
    assert [r.context for r in limits] == ["$"]  # the events, not each event's tags
    many_tags = [{"uid": "e", "tags": ["a", "b", "c"]}]
    assert not _fires(reg, "events", {"q": "x", "limit": 2}, many_tags, "len_le_arg")
    assert _fires(reg, "events", {"q": "x", "limit": 1}, many_tags * 2, "len_le_arg")
