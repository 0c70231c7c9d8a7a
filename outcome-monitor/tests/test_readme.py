"""The package README's example runs as written: ``clean_rows`` and ``result`` are built here from
the fixtures, the README's own Python block does the rest. It fires on each kind of faulted result and
on none of the held-out clean ones (results the registry never saw, of the same tool and id)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import fixtures
import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
CLEAN_ROWS = fixtures.order_rows([f"A{i}" for i in range(2, 202)], seed=0)
HELD_OUT = fixtures.order_rows(["A1"] * 60, seed=1)  # the README's call, on results never learned from


def readme_block() -> str:
    (code,) = re.findall(r"^```python\n(.*?)^```$", README.read_text(encoding="utf-8"), re.S | re.M)
    return code


def run_readme(result: Any) -> tuple[Any, str]:
    """The README's block with ``clean_rows`` and ``result`` given: its verdict and what it printed."""
    namespace: dict[str, Any] = {"clean_rows": CLEAN_ROWS, "result": result}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(readme_block(), str(README), "exec"), namespace)  # noqa: S102 (our own README)
    return namespace["verdict"], out.getvalue()


def test_the_readme_has_its_example():
    code = readme_block()
    assert "from outcome_monitor import Monitor, learn" in code
    assert 'monitor.annotate("get_order", {"order_id": "A1"}, result)' in code


def _clean() -> dict[str, Any]:
    return dict(HELD_OUT[0]["result"])


# a silent fault of each kind the monitor should catch, and the rule class that names it
FAULTS = {
    "negative total": (lambda r: {**r, "total": -r["total"]}, "positive"),
    "unknown status": (lambda r: {**r, "status": "void_pending"}, "domain"),
    "total off its quantity": (lambda r: {**r, "total": round(r["total"] * 2 + 1, 2)}, "relation"),
    "field dropped": (lambda r: {k: v for k, v in r.items() if k != "status"}, "required"),
    "another order": (lambda r: {**r, "order_id": "B7"}, "echo"),
    "ships before created": (lambda r: {**r, "created": "2025-03-28", "ships": "2025-03-01"}, "date_order"),
    "an error page": (lambda r: "<html><title>502 Bad Gateway</title></html>", "type"),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_the_readme_example_fires_on_a_faulted_result(fault):
    corrupt, rule_class = FAULTS[fault]
    faulted = corrupt(_clean())
    verdict, printed = run_readme(faulted)
    assert verdict.fired and verdict.receipt is not None
    assert verdict.content == {"tool_result": faulted, "outcome_monitor": verdict.receipt}  # raw first
    assert rule_class in {v.rule_class for v in verdict.violations}, verdict.violations
    assert "outcome_monitor" in printed and verdict.receipt["recovery_tools"] == ["get_order"]


def test_the_readme_example_is_silent_on_held_out_clean_results():
    assert len(HELD_OUT) == 60 and all(row["arguments"] == {"order_id": "A1"} for row in HELD_OUT)
    train = {fixtures.stable_int(row["result"]) for row in CLEAN_ROWS}
    assert not any(fixtures.stable_int(row["result"]) in train for row in HELD_OUT)  # truly unseen
    fired = []
    for row in HELD_OUT:
        verdict, printed = run_readme(row["result"])
        if verdict.fired:
            fired.append((row["result"], verdict.receipt))
        else:
            assert verdict.content is row["result"] and printed.strip() == repr(row["result"])
    assert fired == []
