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
