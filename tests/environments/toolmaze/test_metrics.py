"""TSR, PRR and RC formulas on hand-made outcomes."""

import math

from core.protocol import Outcome
from environments.toolmaze.metrics import prr, rc, rc_run, tsr


def _o(success, hit, c_act=0, c_oracle=0):
    return Outcome(
        success, float(success), {"trace_check": {"hit": hit, "c_act": c_act, "c_oracle": c_oracle}}
    )


def test_formulas():
    runs = [_o(True, False), _o(True, True, 4, 2), _o(False, True, 9, 2), _o(True, True, 2, 2)]
    assert tsr(runs) == 3 / 4
    assert prr(runs) == 2 / 3
    assert [rc_run(r) for r in runs] == [0.0, 1 - 2 / 4, 1.0, 0.0]
    assert rc(runs) == (0.5 + 1.0) / 4
    assert rc_run(_o(True, True, 0, 0)) == 0.0  # an immediate correct abort
    assert rc_run(_o(True, True, 1, 3)) == 0.0  # cheaper than the oracle bound never goes negative
    assert math.isnan(prr([_o(True, False)])) and math.isnan(tsr([]))
