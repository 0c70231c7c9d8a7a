"""``same_answer`` and ``len_by_args`` judged on marshal bytes where a call and its answer were met
before (answers.SameAnswers): the same verdicts as the canonical JSON and digest alone, as
the rules were first written (``_digest_fires``, ``_length_fires`` below), on repeated, reordered,
retyped and unrecorded calls, through the generated check and the exact path, before and after a
registry's save; keys and digests keep their text, so registries saved before read the same."""

from __future__ import annotations

import copy
import datetime
import decimal
import enum
import hashlib
import json
import math
from typing import Any

from outcome_monitor import Registry, learn
from outcome_monitor.checking.answers import SameAnswers, answer_digest, call_key, canonical
from outcome_monitor.checking.values import MISSING


def _old_text(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def _digest_fires(answers: dict[str, str], args: dict[str, Any], v: Any) -> bool:
    want = answers.get(_old_text(args))
    return (
        want is not None
        and v is not MISSING
        and hashlib.sha256(_old_text(v).encode()).hexdigest()[:16] != want
    )


def _length_fires(lengths: dict[str, int], args: dict[str, Any], v: Any) -> bool:
    n = lengths.get(_old_text(args))
    return isinstance(v, list) and n is not None and len(v) != n


class _Str(str):
    pass


class _Int(enum.IntEnum):
    TWO = 2


def _answer(q: str, n: int) -> dict[str, Any]:
    return {"query": q, "items": [{"name": f"{q}-{i}", "price": 1.5 * i} for i in range(n)], "count": n}


QUERIES = [("red", 2), ("blue", 3), ("green", 1), ("cyan", 4), ("gold", 2)]


def _registry() -> Registry:
    rows = [
        {"tool": "find", "arguments": {"q": q, "limit": 10}, "result": _answer(q, n)}
        for q, n in QUERIES
        for _ in range(3)
    ]
    reg = learn(rows)
    assert {"same_answer", "len_by_args"} <= {r.params.get("form") for r in reg.rules_for("find")}
    return reg


def _calls() -> list[tuple[dict[str, Any], Any]]:
    red = _answer("red", 2)
    reordered = dict(reversed(list(copy.deepcopy(red).items())))
    calls: list[tuple[dict[str, Any], Any]] = [
        ({"q": "red", "limit": 10}, red),
        ({"q": "red", "limit": 10}, red),  # again: found by its bytes
        ({"q": "red", "limit": 10}, copy.deepcopy(red)),
        ({"limit": 10, "q": "red"}, reordered),  # another key order: the same key and digest
        ({"q": _Str("red"), "limit": 10}, red),  # a str subclass: the same key, marshal declines
        ({"q": "red", "limit": 10.0}, red),  # 10.0 is another call: never recorded
        ({"q": "red", "limit": True}, red),
        ({"q": "red"}, red),
        ({}, red),
    ]
    for change in (2.0, True, decimal.Decimal(2), -0.0, "2", None, datetime.date(2026, 1, 2), 3, _Int.TWO):
        calls.append(({"q": "red", "limit": 10}, {**red, "count": change}))  # retyped or changed
        calls.append(({"q": "red", "limit": 10}, red))  # and the recorded answer after it
    for zero in (-0.0, 0, False, 0.0):  # the first price is 0.0: equal in Python, not in JSON
        priced = copy.deepcopy(red)
        priced["items"][0]["price"] = zero
        calls += [({"q": "red", "limit": 10}, priced), ({"q": "red", "limit": 10}, red)]
    as_tuple = {**red, "items": tuple(red["items"])}  # the same JSON, another Python type
    named = copy.deepcopy(red)
    named["items"][1]["name"] = _Str(named["items"][1]["name"])
    calls += [({"q": "red", "limit": 10}, as_tuple), ({"q": "red", "limit": 10}, named)]
    cut = {**red, "items": red["items"][:1]}
    calls += [({"q": "red", "limit": 10}, cut), ({"q": "red", "limit": 10}, red)]
    calls += [({"q": q, "limit": 10}, _answer(q, n)) for q, n in QUERIES]
    calls += [
        ({"q": "blue", "limit": 10}, _answer("cyan", 4)),
        ({"q": "teal", "limit": 10}, _answer("teal", 2)),
    ]
    return calls


def _fired(reg: Registry, args: dict[str, Any], result: Any) -> tuple[bool, bool]:
    ids = [v.rule_id for v in reg.check("find", args, result)]
    return any(":same_answer" in i for i in ids), any(":len_by_args" in i for i in ids)


def test_verdicts_are_the_digests_on_every_pass():
    reg = _registry()
    rules = {r.params.get("form"): r for r in reg.rules_for("find")}
    answers, lengths = rules["same_answer"].params["answers"], rules["len_by_args"].params["lengths"]
    saved = Registry.from_json(json.loads(json.dumps(reg.to_json())))
    exact_answer, exact_length = rules["same_answer"].compile(), rules["len_by_args"].compile()
    fires = 0
    for _ in range(3):  # the first pass fills the memos, the others read them
        for args, result in _calls():
            want = (_digest_fires(answers, args, result), _length_fires(lengths, args, result.get("items")))
            fires += want[0]
            assert _fired(reg, args, result) == want, (args, result)
            assert _fired(saved, args, result) == want, (args, result)
            # the rules' own closures, as the exact path runs them
            vals = {"": result, "items": result.get("items", MISSING)}
            assert (exact_answer(vals, args) is not None, exact_length(vals, args) is not None) == want
    # eight changes of the count (an IntEnum 2 writes 2: none), three of a price, the cut, another answer
    assert fires == 3 * 13
    # the generated check's memo was read: its calls are remembered
    cells = [c.cell_contents for c in reg._plans["find"][2].__closure__ or ()]
    assert any(isinstance(getattr(c, "__self__", None), SameAnswers) and c.__self__.seen for c in cells)


def test_a_memo_holds_recorded_calls_and_stays_bounded():
    answers = {call_key({"q": q}): answer_digest(_answer(q, n)) for q, n in QUERIES}
    same = SameAnswers(answers)
    assert not same.matched({"q": "red"}, _answer("red", 2))
    assert not same.differs({"q": "red"}, _answer("red", 2))
    assert same.matched({"q": "red"}, _answer("red", 2))  # found by its bytes now
    assert not same.matched({"q": "red"}, _answer("red", 3))  # another answer: digested
    assert same.differs({"q": "red"}, _answer("red", 3))
    assert not same.matched({"q": _Str("red")}, _answer("red", 2))  # not marshal's: digested
    for i in range(1000):  # calls never recorded: remembered as such, within the bound
        assert not same.differs({"q": f"new-{i}"}, _answer("x", 1))
        assert len(same.seen) <= same.limit
    assert not same.differs({"q": "red"}, MISSING)


def test_keys_and_digests_keep_their_text():
    # registries saved before hold these: the text of a key and of a digest may not move
    assert call_key({"q": "é", "limit": 10, "when": datetime.date(2026, 1, 2)}) == (
        '{"limit":10,"q":"é","when":"2026-01-02"}'
    )
    assert answer_digest({"items": [1, 2.5, None, True], "name": "ü"}) == "04d5de185aa0e5ec"
    odd = [
        "x",
        "é\u2028",
        _Str("s"),
        -0.0,
        math.nan,
        math.inf,
        10**30,
        (1, 2),
        {2: "b", 1: "a"},
        {None: 1},
        {"d": datetime.datetime(2026, 1, 1, 9, 9)},
        decimal.Decimal("1.50"),
        {"n": _Int.TWO},
        {"b": [{"z": None, "y": "ü"}], "a": 1},
    ]
    for v in odd:
        assert canonical(v) == _old_text(v)
