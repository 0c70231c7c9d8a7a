"""A shape whose sign differs value to value (UTC offsets ``+09:00`` and ``-08:00``): one ``<sign>``
run, so a timestamp cut short fails the pattern its clean values shared."""

from __future__ import annotations

import random
import re

from outcome_monitor.checking.shapes import infer_shape


def _stamps(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        off = rng.randint(-11, 12)
        sign = "+" if off >= 0 else "-"
        out.append(
            f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:"
            f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}{sign}{abs(off):02d}:00"
        )
    return out


def test_offsets_of_both_signs_share_one_shape():
    shape = infer_shape(_stamps(0, 30))
    assert shape is not None and "<sign>" in shape["example"]
    match = re.compile(shape["pattern"]).fullmatch
    assert all(match(v) for v in _stamps(1, 50))
    cut = _stamps(2, 1)[0]
    for bad in (cut[:16], cut[:7], cut.replace("+", "*").replace("-", "*")):
        assert not match(bad)


def test_one_sign_throughout_stays_a_literal():
    shape = infer_shape([s for s in _stamps(3, 80) if "+" in s[19:]])
    assert shape is not None and "<sign>" not in shape["example"] and "+" in shape["example"]
