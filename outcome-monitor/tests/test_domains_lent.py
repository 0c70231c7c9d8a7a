"""Domains lent to namesakes, and larger vocabularies closed on evidence (wide vocabulary only): a tool
that saw ``availability`` three times takes the set of words its namesakes closed."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn

# fifteen words (more than the paper vocabulary's largest domain), of no one pattern
WORDS = [
    "available", "limited", "sold_out", "waitlist", "backorder", "preorder", "discontinued", "in_stock",
    "low_stock", "reserved", "on_hold", "unknown_eta", "allocated", "shipping_soon", "retired",
]  # fmt: skip


def _rows(rng: random.Random, lenders: int, per: int = 60) -> list[dict[str, Any]]:
    rows = []
    for t in range(lenders):
        # each tool's own nine words overlap the next tool's: one vocabulary, larger than any tool's
        own = [WORDS[(3 * t + k) % len(WORDS)] for k in range(9)]
        for i in range(per):
            rows.append(
                {
                    "tool": f"get_{t}",
                    "arguments": {"id": f"x{i}"},
                    "result": {"availability": rng.choice(own)},
                }
            )
    for i in range(3):  # too few for a domain of its own
        rows.append({"tool": "get_rare", "arguments": {"id": f"r{i}"}, "result": {"availability": WORDS[i]}})
    return rows


def _fired(reg: Any, tool: str, value: str) -> bool:
    return Monitor(reg).annotate(tool, {"id": "x0"}, {"availability": value}).fired


def test_a_rarely_seen_field_takes_its_namesakes_closed_set() -> None:
    rows = _rows(random.Random(3), lenders=4)
    reg = learn(rows)
    assert _fired(reg, "get_0", "zimitet")  # fifteen words, each seen often: a closed set
    assert not _fired(reg, "get_rare", WORDS[9])  # a word of the set the tool itself never returned
    assert _fired(reg, "get_rare", "zimitet")
    assert not _fired(learn(rows, vocabulary="paper"), "get_rare", "zimitet")


def test_two_lenders_lend_nothing() -> None:
    reg = learn(_rows(random.Random(3), lenders=2, per=90))
    assert _fired(reg, "get_0", "zimitet")  # the two hold the set...
    assert not _fired(reg, "get_rare", "zimitet")  # ...but two tools do not make it the name's
