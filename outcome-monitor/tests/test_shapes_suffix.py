"""Patterns pooled by a field name's last word (wide vocabulary only): ``courier_uid``, ``deal_uid`` and
``room_uid`` drawn by one id generator lend their pattern to a field seen too few times for its own."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn


def _uid(rng: random.Random, prefix: str = "UID-", digits: str = "0123456789abcdef") -> str:
    return prefix + "".join(rng.choice(digits) for _ in range(10))


def _rows(rng: random.Random, names: list[str], per: int, digits: dict[str, str] | None = None) -> list[Any]:
    rows = []
    for name in names:
        for i in range(per):
            value = _uid(rng, "UID-", (digits or {}).get(name, "0123456789abcdef"))
            rows.append(
                {"tool": f"lookup_{name}", "arguments": {"key": f"k{i}"}, "result": {f"{name}_uid": value}}
            )
    return rows


def _fired(reg: Any, tool: str, result: Any) -> bool:
    return Monitor(reg).annotate(tool, {"key": "k0"}, result).fired


def test_a_field_seen_few_times_takes_the_pattern_its_namesakes_share() -> None:
    rng = random.Random(7)
    rows = _rows(rng, ["courier", "room", "bond", "deal"], per=6)  # 6 each: too few for a pattern alone
    reg = learn(rows)
    clean = {"deal_uid": _uid(rng)}
    assert not _fired(reg, "lookup_deal", clean)
    cyrillic = {"deal_uid": clean["deal_uid"][:6] + "\u0441" + clean["deal_uid"][7:]}
    assert _fired(reg, "lookup_deal", cyrillic)
    assert _fired(reg, "lookup_deal", {"deal_uid": "2-Sep"})
    paper = learn(rows, vocabulary="paper")
    assert not _fired(paper, "lookup_deal", cyrillic)


def test_namesakes_of_different_kinds_lend_no_pattern() -> None:
    rng = random.Random(7)
    # one of the four draws its ids in upper case: left out, the others' pattern does not fit it, so
    # no pattern is lent (pooled blindly, one pattern of either case would be)
    rows = _rows(rng, ["courier", "room", "bond", "deal"], per=6, digits={"bond": "0123456789ABCDEF"})
    reg = learn(rows)
    value = _uid(rng)
    assert not _fired(reg, "lookup_deal", {"deal_uid": value[:6] + "\u0441" + value[7:]})


def test_two_namesakes_are_not_enough() -> None:
    rng = random.Random(7)
    reg = learn(_rows(rng, ["courier", "deal"], per=6))
    assert not _fired(reg, "lookup_deal", {"deal_uid": "UID-12345"})


CODES = ["HTL-ROM-05", "HTL-TYO-33", "HTL-PAR-12", "HTL-NYC-07"]


def _code_rows(per_tool: int) -> list[dict[str, Any]]:
    return [
        {
            "tool": f"get_hotel_{t}",
            "arguments": {"ref": f"r{t}{i}"},
            "result": {"hotel_code": CODES[(t + i) % 4]},
        }
        for t in range(3)
        for i in range(per_tool)
    ]


def test_a_field_seen_few_times_takes_its_namesakes_machine_token() -> None:
    # three tools, each with too few rows of its own for a token (fewer than seven), and too few
    # distinct codes over all of them for a pattern (four): the token needs only what a tool's own does
    reg = learn(_code_rows(per_tool=4))
    assert _fired(reg, "get_hotel_0", {"hotel_code": "Grand Plaza"})
    assert not _fired(reg, "get_hotel_0", {"hotel_code": "HTL-LIS-41"})
    assert not _fired(
        learn(_code_rows(per_tool=4), vocabulary="paper"), "get_hotel_0", {"hotel_code": "Grand Plaza"}
    )


def test_too_few_namesake_rows_lend_no_token() -> None:
    reg = learn(_code_rows(per_tool=2))  # six rows in all: below the seven a token needs
    assert not _fired(reg, "get_hotel_0", {"hotel_code": "Grand Plaza"})


def _record_rows(prefixes: list[str], mixed_tool: bool = False) -> list[dict[str, Any]]:
    rng = random.Random(9)
    rows = []
    for t, prefix in enumerate(prefixes):
        for i in range(6):
            p = prefixes[i % len(prefixes)] if mixed_tool and t == len(prefixes) - 1 else prefix
            value = p + "".join(rng.choice("0123456789ABCDEF") for _ in range(8))
            rows.append({"tool": f"get_{t}", "arguments": {"ref": f"r{i}"}, "result": {"record_id": value}})
    return rows


def test_a_pooled_pattern_keeps_the_tools_own_prefix() -> None:
    rows = _record_rows(["SHP-", "FIN-", "OFC-", "TRV-"])
    reg = learn(rows)
    assert not _fired(reg, "get_0", {"record_id": "SHP-25B70759"})
    assert _fired(reg, "get_0", {"record_id": "SHT-25D70729"})  # a mutated prefix
    assert _fired(reg, "get_0", {"record_id": "FIN-25B70759"})  # another entity's id
    assert not _fired(learn(rows, vocabulary="paper"), "get_0", {"record_id": "SHT-25D70729"})


def test_a_prefix_is_not_the_tools_where_tools_mix_them() -> None:
    # one tool of four copies ids of every kind: too few keep one prefix for a prefix to be a tool's
    reg = learn(_record_rows(["SHP-", "FIN-", "OFC-", "TRV-"], mixed_tool=True))
    assert not _fired(reg, "get_0", {"record_id": "FIN-25B70759"})
    assert _fired(reg, "get_0", {"record_id": "shp-25B70759"})  # the pooled pattern itself still holds


def test_base64_blobs_get_no_pattern() -> None:
    import base64

    text = "Resource {}: This is a base64 blob created at 7:1{}"
    blobs = [base64.b64encode(text.format(i, i % 10).encode()).decode() for i in range(10, 60)]
    reg = learn(
        [{"tool": "get_ref", "arguments": {"id": i}, "result": {"blob": b}} for i, b in enumerate(blobs)]
    )
    later = base64.b64encode(text.format(7, 7).encode()).decode()
    assert not Monitor(reg).annotate("get_ref", {"id": 0}, {"blob": later}).fired


def test_a_timestamp_with_an_offset_has_a_fixed_length_pattern_from_ten_values() -> None:
    # the offset's sign is a character class [+\-], no open repeat: 12 distinct clock readings give
    # the pattern, and one cut short fires (mcp-server-time's get_current_time)
    r = random.Random("timestamps")
    readings = [
        f"2026-12-{r.randint(1, 28):02d}T{r.randrange(24):02d}:{r.randrange(60):02d}:{r.randrange(60):02d}"
        + r.choice(["+09:00", "-08:00", "+01:00"])
        for _ in range(14)
    ]
    rows = [
        {"tool": "now", "arguments": {"zone": f"Z{i}"}, "result": {"datetime": readings[i % 14]}}
        for i in range(28)
    ]
    assert 10 <= len({row["result"]["datetime"] for row in rows}) < 20
    reg = learn(rows)
    shapes = [
        v
        for v in reg.check("now", {"zone": "Z1"}, {"datetime": "2026-12-06T18:36"})
        if v.rule_class == "shape"
    ]
    assert shapes, reg.rules["now"]
    assert reg.check("now", {"zone": "Z1"}, {"datetime": "2026-11-30T07:05:59-08:00"}) == []
