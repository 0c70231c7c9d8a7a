"""A short string a categorical argument always determined, as a lookup keyed by the argument (wide
vocabulary only): ``wc(mode="w")`` answers ``type: "words"``."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn

MODES = {"w": "words", "c": "characters", "l": "lines"}


def _fired(reg: Any, args: dict[str, Any], result: Any) -> bool:
    return Monitor(reg).annotate("wc", args, result).fired


def _rows(rng: random.Random, n: int = 16) -> list[dict[str, Any]]:
    rows = []
    for i in range(n):
        mode = "wcl"[i % 3]
        args = {"file_name": f"f{i}.txt", "mode": mode}
        rows.append(
            {"tool": "wc", "arguments": args, "result": {"count": rng.randint(1, 900), "type": MODES[mode]}}
        )
    return rows


def _lookups(reg: Any) -> list[Any]:
    return [r for r in reg.rules.get("wc", []) if r.cls == "relation" and r.params.get("form") == "lookup"]


def test_the_type_a_mode_always_answered_fires_when_it_changes():
    reg = learn(_rows(random.Random(0)))
    assert not _fired(reg, {"file_name": "new.txt", "mode": "c"}, {"count": 12, "type": "characters"})
    assert _fired(reg, {"file_name": "new.txt", "mode": "c"}, {"count": 12, "type": "characters_legacy"})
    assert _fired(reg, {"file_name": "new.txt", "mode": "c"}, {"count": 12, "type": "words"})
    # a mode no clean call asked: the lookup says nothing
    assert not any(r.compile()({"type": "bytes"}, {"mode": "b"}) for r in _lookups(reg))
    assert not _fired(
        learn(_rows(random.Random(0)), vocabulary="paper"), {"mode": "c"}, {"count": 1, "type": "words"}
    )


def test_the_rule_says_where_its_value_comes_from():
    (rule,) = _lookups(learn(_rows(random.Random(1))))
    assert rule.fields == ("type", "arg.mode")
    assert "clean calls with the same arg.mode" in rule.sentence()


def test_each_mode_asked_once_is_no_lookup():
    assert not _lookups(learn(_rows(random.Random(2), n=3)))


def test_an_identifier_argument_keys_no_lookup():
    rows = []
    for i in range(24):
        order = f"W{1000 + i % 4}"
        rows.append(
            {"tool": "wc", "arguments": {"order_id": order}, "result": {"status": f"s{i % 4}", "n": i}}
        )
    assert not _lookups(learn(rows))


def test_a_result_that_ignores_the_argument_keys_no_lookup():
    rng = random.Random(4)
    rows = [
        {
            "tool": "wc",
            "arguments": {"mode": "wcl"[i % 3], "i": str(i)},
            "result": {"type": rng.choice(["a", "b"]), "n": i},
        }
        for i in range(30)
    ]
    assert not _lookups(learn(rows))


def test_the_generated_check_agrees_with_the_lookups_closure():
    reg = learn(_rows(random.Random(5)))
    rules = _lookups(reg)
    assert rules
    ids = {r.rule_id for r in rules}
    for mode in ("w", "c", "l", "x"):
        for t in ("words", "characters", "lines", "other", 3, None):
            args, result = {"file_name": "a", "mode": mode}, {"count": 1, "type": t}
            want = {r.rule_id for r in rules if r.compile()(result, args) is not None}
            got = {v.rule_id for v in reg.check("wc", args, result) if v.rule_id in ids}
            assert got == want, (mode, t)


def test_a_date_that_repeated_per_argument_keys_no_lookup():
    days = {"basic": "2026-03-30", "gold": "2026-01-10", "silver": "2026-01-21"}
    rows = [
        {"tool": "wc", "arguments": {"tier": t}, "result": {"computed_on": d, "n": i}}
        for i, (t, d) in enumerate(list(days.items()) * 4)
    ]
    assert not _lookups(learn(rows))
