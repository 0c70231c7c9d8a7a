"""What the call decides, not the recording (wide vocabulary): a number the call computes, a check
the recording only ever saw pass, readings of one answer, a date taken for an identifier, records
listed again taken for new draws. Each pairs the clean case that fired before with a fault the rules
still catch."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn


def _ids(reg: Any, tool: str, args: dict[str, Any], result: Any) -> list[str]:
    return [v.rule_id for v in Monitor(reg).annotate(tool, args, result).violations]


def _forms(reg: Any, tool: str) -> list[tuple[str, str]]:
    return [(r.cls, r.fields[0]) for r in reg.rules_for(tool)]


def test_a_product_of_an_argument_takes_the_arguments_sign() -> None:
    rng = random.Random(3)
    rows = []
    for _ in range(30):
        value, factor = (
            round(rng.uniform(1, 500), 2),
            rng.choice((0.0254, 1000.0, 3.6, 0.001, 12.0, 0.3048, 2.2, 60.0, 1.609, 0.45)),
        )
        rows.append(
            {
                "tool": "convert",
                "arguments": {"value": value, "unit": "x"},
                "result": {"value": value * factor, "factor": factor},
            }
        )
    reg = learn(rows)
    assert ("positive", "value") not in _forms(reg, "convert")
    assert ("positive", "factor") in _forms(reg, "convert")  # no argument decides the factor
    # -40 degrees asked, -40 * 3.6 given: clean
    assert not _ids(reg, "convert", {"value": -40.0, "unit": "x"}, {"value": -144.0, "factor": 3.6})
    # a negated value the call did not ask for still breaks the product
    assert _ids(reg, "convert", {"value": 40.0, "unit": "x"}, {"value": -144.0, "factor": 3.6})


def test_the_change_between_two_like_quantities_has_either_sign() -> None:
    rng = random.Random(4)
    rows = []
    for i in range(20):
        a = rng.randrange(100, 400)
        b = a + rng.randrange(1, 300)
        rows.append(
            {
                "tool": "compare",
                "arguments": {"a": f"v{i}.csv", "b": f"v{i + 1}.csv"},
                "result": {"a": {"rows": a}, "b": {"rows": b}, "row_count_delta": b - a},
            }
        )
    reg = learn(rows)
    assert ("positive", "row_count_delta") not in _forms(reg, "compare")
    shrunk = {"a": {"rows": 400}, "b": {"rows": 300}, "row_count_delta": -100}
    assert not _ids(reg, "compare", {"a": "x.csv", "b": "y.csv"}, shrunk)
    wrong = {"a": {"rows": 400}, "b": {"rows": 300}, "row_count_delta": 100}
    assert _ids(reg, "compare", {"a": "x.csv", "b": "y.csv"}, wrong)


def _sums(rng: random.Random, n: int) -> list[dict[str, Any]]:
    rows = []
    for _ in range(n):
        a, b = rng.randrange(1, 500), rng.randrange(1, 500)
        op = rng.choice(("+", "*"))
        rows.append(
            {
                "tool": "calculate",
                "arguments": {"expression": f"{a} {op} {b}"},
                "result": {"result": a + b if op == "+" else a * b},
            }
        )
    return rows


def test_what_an_expression_gives_is_the_callers_arithmetic() -> None:
    reg = learn(_sums(random.Random(5), 40))
    assert not [f for f in _forms(reg, "calculate") if f[0] == "positive"]
    assert not _ids(reg, "calculate", {"expression": "3 - 108"}, {"result": -105})
    assert _ids(reg, "calculate", {"expression": "3 - 108"}, {"result": "-105"})  # the type still holds
    # arguments with hyphens (dates, codes) are no arithmetic: a price keeps its sign
    rng = random.Random(6)
    rows = [
        {
            "tool": "quote",
            "arguments": {
                "day": f"2026-0{rng.randrange(1, 9)}-1{rng.randrange(0, 9)}",
                "sku": f"SKU-{i:04d}",
            },
            "result": {"price": round(rng.uniform(5, 900), 2)},
        }
        for i in range(30)
    ]
    reg = learn(rows)
    assert _ids(reg, "quote", {"day": "2026-01-10", "sku": "SKU-0001"}, {"price": -12.5})


def test_a_check_the_recording_only_saw_pass_is_no_domain() -> None:
    rows = [
        {
            "tool": "luhn",
            "arguments": {"number": str(4000 + i)},
            "result": {"valid": True, "number": str(4000 + i)},
        }
        for i in range(20)
    ]
    reg = learn(rows)
    assert not [r for r in reg.rules_for("luhn") if r.cls == "domain" and r.fields == ("valid",)]
    assert not _ids(reg, "luhn", {"number": "4001"}, {"valid": False, "number": "4001"})
    assert _ids(reg, "luhn", {"number": "4001"}, {"valid": "false", "number": "4001"})  # a boolean still


def _previews(readings: list[float], per: int) -> list[dict[str, Any]]:
    """The readings read ``per`` rows an answer, each answer another part of the log."""
    return [
        {
            "tool": "preview",
            "arguments": {"n": per, "part": k},
            "result": {"rows": [{"temp_c": t} for t in readings[per * k : per * k + per]]},
        }
        for k in range(len(readings) // per)
    ]


def test_readings_of_few_answers_give_no_band() -> None:
    rng = random.Random(7)
    night = [round(19 + 4 * rng.random(), 2) for _ in range(60)]
    reg = learn(_previews(night, 12))  # five answers
    assert not [r for r in reg.rules_for("preview") if r.cls == "range"]
    # the same readings over 30 answers are a band: 19 to 23 degrees, a tenfold slip fires
    reg = learn(_previews(night, 2))
    assert any(r.cls == "range" for r in reg.rules_for("preview"))
    assert _ids(reg, "preview", {"n": 2, "part": 99}, {"rows": [{"temp_c": 210.5}]})


def _events(rng: random.Random, day: int) -> list[dict[str, Any]]:
    n = rng.randrange(2, 6)
    return [
        {
            "uid": f"ev-{day}-{k}@example.org",
            "start": f"2025-07-{day:02d}T{8 + 2 * k:02d}:00:00",
            "end": f"2025-07-{day:02d}T{9 + 2 * k:02d}:00:00",
            "attendees": [f"p{j}@example.org" for j in range(rng.randrange(0, 4))],
        }
        for k in range(n)
    ]


def test_a_time_is_no_identifier() -> None:
    rng = random.Random(8)
    rows = [
        {"tool": "events", "arguments": {"day": d}, "result": {"events": _events(rng, d)}}
        for d in range(1, 29)
    ]
    rows += rows[:10]  # asked again: the same events
    reg = learn(rows)
    keys = {
        r.params.get("key")
        for r in reg.rules_for("events")
        if r.params.get("form") in ("unique", "len_by_id")
    }
    assert "uid" in keys
    assert "start" not in keys and "end" not in keys
    # two meetings of one day at the same hour: clean
    same = list(rows[2]["result"]["events"])
    same[1] = {**same[1], "start": same[0]["start"], "end": same[0]["end"]}
    assert not _ids(reg, "events", {"day": 3}, {"events": same})
    twice = [same[0], same[0], *same[2:]]  # a duplicated event still fires (its uid repeats)
    assert _ids(reg, "events", {"day": 3}, {"events": twice})


def test_records_listed_again_are_not_new_draws() -> None:
    rng = random.Random(10)
    words = ["Fix", "Add", "Test", "Remove"], ["cache", "index", "report", "ledger", "profile"]
    history = [
        {
            "hash": f"{rng.getrandbits(160):040x}",
            "subject": f"{rng.choice(words[0])} {rng.choice(words[1])} {rng.choice(words[1])}",
        }
        for _ in range(30)
    ]
    history = [c for i, c in enumerate(history) if c["subject"] not in {d["subject"] for d in history[:i]}]
    rows = []
    for _ in range(30):  # windows of the one log, each listed many times
        start, n = rng.randrange(0, len(history) - 3), rng.randrange(3, 12)
        rows.append(
            {
                "tool": "log",
                "arguments": {"skip": start, "n": n},
                "result": {"commits": history[start : start + n]},
            }
        )
    reg = learn(rows)
    keys = {r.params.get("key") for r in reg.rules_for("log") if r.params.get("form") == "unique"}
    assert "subject" not in keys
    repeated = [history[0], {**history[1], "subject": history[0]["subject"]}]
    assert not [
        i for i in _ids(reg, "log", {"skip": 0, "n": 2}, {"commits": repeated}) if "unique(subject)" in i
    ]


def test_parts_of_one_kind_adding_up_keep_their_signs() -> None:
    rng = random.Random(11)
    rows = []
    for i in range(20):
        a, b = rng.randrange(1, 400), rng.randrange(1, 400)
        rows.append(
            {
                "tool": "merge",
                "arguments": {"a": f"v{i}.csv", "b": f"w{i}.csv"},
                "result": {"a": {"rows": a}, "b": {"rows": b}, "total": {"rows": a + b}},
            }
        )
    reg = learn(rows)
    assert any(r.cls == "relation" for r in reg.rules_for("merge"))
    assert {("positive", "a.rows"), ("positive", "b.rows")} <= set(_forms(reg, "merge"))


def _check(rng: random.Random, tool: str, bad: bool) -> dict[str, Any]:
    digits = "".join(str(rng.randrange(10)) for _ in range(11))
    return {
        "tool": tool,
        "arguments": {"value": digits},
        "result": {
            "valid": not bad,
            "formatted": None if bad else f"{digits[:3]}.{digits[3:8]}.{digits[8:10]}-{digits[10]}",
            "raw": digits,
            "error": {"code": "INVALID_CHECKSUM"} if bad else None,
        },
    }


def test_tools_of_one_shape_speak_for_each_other() -> None:
    rng = random.Random(12)
    rows = [_check(rng, "validate_cpf", i % 4 == 0) for i in range(20)]
    rows += [_check(rng, "validate_pis", False) for _ in range(12)]  # every number asked was valid
    reg = learn(rows)
    bad = _check(rng, "validate_pis", True)
    assert not _ids(reg, "validate_pis", bad["arguments"], bad["result"])
    wrong = {**bad["result"], "formatted": 12345}  # a type no tool of the shape held still fires
    assert _ids(reg, "validate_pis", bad["arguments"], wrong)


def _planets(rng: random.Random, day: int) -> dict[str, Any]:
    states = {
        p: {"longitude": round(rng.uniform(0, 360), 4), "daily_motion_deg": round(rng.uniform(0.2, 1.6), 5)}
        for p in ("mercury", "venus", "mars")
    }
    # Saturn turns retrograde on some days
    states["saturn"] = {
        "longitude": round(rng.uniform(0, 360), 4),
        "daily_motion_deg": round(rng.uniform(-0.08, 0.12), 5),
    }
    return {
        "day": f"2026-03-{day:02d}",
        "planetary_states": states,
        "moon_phase": round(rng.uniform(0.01, 1), 3),
    }


def test_records_of_one_shape_share_no_sign_one_broke() -> None:
    rng = random.Random(13)
    rows = [{"tool": "day", "arguments": {"day": d}, "result": _planets(rng, d)} for d in range(1, 29)]
    reg = learn(rows)
    signed = {r.fields[0] for r in reg.rules_for("day") if r.cls == "positive"}
    assert "planetary_states.mars.daily_motion_deg" not in signed
    assert "moon_phase" in signed  # no kin of its own: keeps its sign
    retro = _planets(random.Random(14), 3)
    retro["planetary_states"]["mars"]["daily_motion_deg"] = -0.126
    assert not _ids(reg, "day", {"day": 3}, retro)


def test_records_of_one_shape_share_their_types() -> None:
    rng = random.Random(15)
    rows = []
    for i in range(24):
        hourly = i % 3 == 0  # the hourly figures: only metro 17820 was ever asked for them
        metros = {
            code: {
                "numeric": round(rng.uniform(20, 60), 2)
                if hourly and code == "17820"
                else rng.randrange(40000, 120000)
            }
            for code in ("31080", "17820", "35620")
        }
        rows.append(
            {
                "tool": "compare",
                "arguments": {"measure": "hourly" if hourly else "annual", "i": i},
                "result": {"metros": metros},
            }
        )
    reg = learn(rows)
    hourly = {
        "metros": {"31080": {"numeric": 58.51}, "17820": {"numeric": 29.48}, "35620": {"numeric": 41.2}}
    }
    assert not _ids(reg, "compare", {"measure": "hourly", "i": 99}, hourly)
    assert _ids(
        reg,
        "compare",
        {"measure": "hourly", "i": 99},
        {"metros": {**hourly["metros"], "31080": {"numeric": "58.51"}}},
    )
