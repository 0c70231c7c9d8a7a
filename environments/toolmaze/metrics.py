"""ToolMaze's metrics from judged outcomes: TSR, PRR (hit-conditioned) and RC (recovery cost).

TSR = #pass / #runs; PRR = #(hit and pass) / #hit; RC_r = 0 without a hit, 1 for a hit that
fails, else 1 - C_oracle / max(C_act, C_oracle); RC = mean_r RC_r. Reads only ``Outcome.details``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from core.protocol import Outcome


def _tc(o: Outcome) -> dict:
    return o.details.get("trace_check", {})


def tsr(outcomes: Iterable[Outcome]) -> float:
    runs = list(outcomes)
    return sum(o.success for o in runs) / len(runs) if runs else math.nan


def prr(outcomes: Iterable[Outcome]) -> float:
    """NaN when no run was hit."""
    hit = [o for o in outcomes if _tc(o).get("hit")]
    return sum(o.success for o in hit) / len(hit) if hit else math.nan


def rc_run(o: Outcome) -> float:
    tc = _tc(o)
    if not tc.get("hit"):
        return 0.0
    if not o.success:
        return 1.0
    c_act, c_oracle = int(tc.get("c_act", 0)), int(tc.get("c_oracle", 0))
    denom = max(c_act, c_oracle)
    return 0.0 if denom == 0 else 1.0 - c_oracle / denom


def rc(outcomes: Iterable[Outcome]) -> float:
    runs = list(outcomes)
    return sum(rc_run(o) for o in runs) / len(runs) if runs else math.nan
