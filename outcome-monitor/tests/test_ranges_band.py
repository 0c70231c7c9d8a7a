"""Bands (wide vocabulary only): a number whose clean values sat in a band away from zero stays within
one band's width of it; a spread as wide as the values themselves gives no band."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn


def _rows(draw: Any, n: int = 40) -> list[dict[str, Any]]:
    rng = random.Random(11)
    return [{"tool": "resolve", "arguments": {"ref": f"r{i}"}, "result": {"x": draw(rng)}} for i in range(n)]


def _fired(reg: Any, x: float) -> bool:
    return Monitor(reg).annotate("resolve", {"ref": "r0"}, {"x": x}).fired


def test_a_score_in_a_band_fires_when_scaled_and_passes_within_a_width() -> None:
    rows = _rows(lambda r: round(r.uniform(0.8, 1.0), 3))
    reg = learn(rows)
    assert _fired(reg, 0.212)  # a mixed-up unit
    assert _fired(reg, 94.2)  # a percent
    assert not _fired(reg, 0.71)  # below every clean value, within the band's width
    assert not _fired(learn(rows, vocabulary="paper"), 0.212)


def test_a_multiplier_above_one_keeps_its_band() -> None:
    reg = learn(_rows(lambda r: round(r.uniform(1.0, 1.25), 4)))
    assert _fired(reg, 116.0)
    assert not _fired(reg, 1.3)


def test_a_spread_reaching_toward_zero_gives_no_band() -> None:
    reg = learn(_rows(lambda r: round(r.uniform(4.0, 900.0), 2)))
    assert not _fired(reg, 2500.0)  # a price may well exceed every clean one
