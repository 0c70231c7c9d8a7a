"""Gaps between ordered dates that pile up against a cap (wide vocabulary, ``learning/gaps.py``): a
quote valid for at most 30 days keeps ``max_days``, so a stale as-of date weeks behind fires though
it is still before the expiry; a tail of durations, or a few quotes listed again and again, keep
the plain order."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from outcome_monitor import Monitor, Registry, learn

DAY0 = dt.date(2026, 1, 1)


def _day(n: int) -> str:
    return (DAY0 + dt.timedelta(days=n)).isoformat()


def _quotes(rng: random.Random, n: int, gap: Any) -> list[dict[str, Any]]:
    rows = []
    for i in range(n):
        start = rng.randrange(0, 300)
        rows.append(
            {
                "tool": "quote",
                "arguments": {"sku": f"SKU-{i:04d}"},
                "result": {
                    "sku": f"SKU-{i:04d}",
                    "quoted_on": _day(start),
                    "expires_on": _day(start + gap(rng)),
                },
            }
        )
    return rows


def _order(reg: Registry) -> list[Any]:
    return [r for r in reg.rules_for("quote") if r.cls == "date_order"]


def _ids(reg: Registry, result: dict[str, Any]) -> list[str]:
    return [v.rule_id for v in Monitor(reg).annotate("quote", {"sku": result["sku"]}, result).violations]


def test_a_cap_the_gaps_pile_up_against_is_kept() -> None:
    reg = learn(_quotes(random.Random(1), 200, lambda r: r.randint(1, 30)))
    (rule,) = _order(reg)
    assert rule.params == {"max_days": 30}
    assert "30 days" in rule.sentence()
    clean = {"sku": "SKU-9999", "quoted_on": _day(40), "expires_on": _day(70)}
    assert not _ids(reg, clean)
    stale = {**clean, "quoted_on": _day(20)}  # weeks behind, still before the expiry
    assert any("date_order" in i for i in _ids(reg, stale))
    # the plain order still holds too
    assert any("date_order" in i for i in _ids(reg, {**clean, "quoted_on": _day(80)}))
    # and the registry's file keeps it (the schema allows max_days)
    again = Registry.from_json(reg.to_json())
    assert [r.params for r in _order(again)] == [{"max_days": 30}]


def test_a_tail_of_gaps_keeps_the_plain_order() -> None:
    # durations with a long tail: the largest seen once or twice, the next one may be longer
    reg = learn(_quotes(random.Random(2), 200, lambda r: 1 + int(r.expovariate(1 / 8))))
    assert [r.params for r in _order(reg)] == [{}]


@pytest.mark.parametrize("copies", [1, 10])
def test_few_distinct_pairs_keep_the_plain_order(copies: int) -> None:
    # 30 quotes, however often listed, are 30 draws of a gap: too few to show a cap
    rows = _quotes(random.Random(3), 30, lambda r: r.randint(1, 5)) * copies
    assert [r.params for r in _order(learn(rows))] == [{}]


def test_the_paper_vocabulary_keeps_its_date_order() -> None:
    reg = learn(_quotes(random.Random(1), 200, lambda r: r.randint(1, 30)), vocabulary="paper")
    assert all(not r.params for r in reg.rules_for("quote") if r.cls == "date_order")
