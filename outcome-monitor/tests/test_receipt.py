"""Receipts: the raw result is kept, the receipt has the paper's shape in each variant, and
recovery tools come only from the exposed public interface."""

from __future__ import annotations

import fixtures as syn
import pytest
from outcome_monitor import Monitor, learn, wrap_tool
from outcome_monitor.receipts.monitor import annotate_stream
from outcome_monitor.receipts.recovery import leaf_names, recovery_tools

REG = learn(syn.traces(n_workflows=30, calls_per_workflow=6))
CAT = syn.catalog()
EXPOSED = ["get_quote", "get_quote_alt", "get_price_history", "place_order", "get_weather"]
GOOD = {"ticker": "T001", "price": 12.5, "currency": "USD", "as_of": "2025-01-01", "volume": 10}
BAD = {**GOOD, "price": -79.0}


def test_clean_results_pass_through_untouched():
    ann = Monitor(REG, CAT).annotate("get_quote", {"ticker": "T001"}, GOOD, EXPOSED)
    assert ann.content is GOOD and ann.receipt is None and not ann.fired and ann.n_admissible == 0


def test_full_receipt_keeps_the_raw_result_and_lists_recovery_tools():
    mon = Monitor(REG, CAT)
    ann = mon.annotate("get_quote", {"ticker": "T001"}, BAD, EXPOSED)
    assert ann.content["tool_result"] is BAD
    om = ann.content["outcome_monitor"]
    assert om["violated"] == "price must be positive" and om["observed"] == -79.0
    # retry, the declared substitute, then a read tool that carries ``price``; never the Action tool
    assert om["recovery_tools"] == ["get_quote", "get_quote_alt", "get_price_history"] == ann.recovery_tools
    assert ann.n_admissible == 3


def test_variants_strip_tools_or_detail():
    stripped = Monitor(REG, CAT, "stripped").annotate("get_quote", {"ticker": "T001"}, BAD, EXPOSED)
    assert "recovery_tools" not in stripped.receipt and stripped.receipt["violated"]
    assert stripped.n_admissible == 3  # still recorded for the event
    generic = Monitor(REG, CAT, "generic").annotate("get_quote", {"ticker": "T001"}, BAD, EXPOSED)
    assert set(generic.receipt) == {"warning", "recovery_tools"}
    assert "price" not in generic.receipt["warning"] and "-79" not in str(generic.receipt)
    with pytest.raises(ValueError):
        Monitor(REG, CAT, "loud")


def test_recovery_tools_respect_the_exposed_interface():
    tools = recovery_tools("get_quote", ["$.price"], CAT, ["get_quote", "get_price_history"])
    assert tools == ["get_quote", "get_price_history"]
    assert recovery_tools("get_quote", ["$.price"], CAT, ["get_weather"]) == []
    assert leaf_names("$.items[2].amount") == {"amount"} and leaf_names("len($.items)") == {"items"}


def test_a_receipt_on_a_write_never_offers_the_write_again():
    tools = recovery_tools("place_order", ["$.price"], CAT, EXPOSED)
    assert "place_order" not in tools and tools == ["get_quote", "get_quote_alt", "get_price_history"]


def test_wrap_tool_and_stream():
    def get_quote(ticker: str) -> dict:
        return {**BAD, "ticker": ticker}

    wrapped = wrap_tool(get_quote, Monitor(REG, CAT), exposed_tools=EXPOSED)
    assert "outcome_monitor" in wrapped("T001") and wrapped(ticker="T001")["tool_result"]["price"] == -79.0
    rows = [{"tool": "get_quote", "arguments": {"ticker": "T001"}, "result": r} for r in (GOOD, BAD)]
    out = list(annotate_stream(Monitor(REG, CAT), rows, EXPOSED))
    assert [bool(o["violations"]) for o in out] == [False, True] and out[1]["receipt"]["recovery_tools"]


def _nested(depth: int) -> list:
    value: list = [1.0]
    for _ in range(depth):
        value = [value]
    return value


class _Broken:
    """A registry whose check raises, as any checking bug would."""

    def check(self, tool, arguments, result):
        raise ValueError("a rule that cannot read this result")


def test_a_result_it_cannot_check_passes_through_raw_with_a_note_and_is_counted():
    mon = Monitor(_Broken(), CAT)  # type: ignore[arg-type]
    ann = mon.annotate("get_quote", {"ticker": "T001"}, BAD, EXPOSED)
    assert ann.content is BAD and ann.receipt is None and not ann.fired and ann.violations == []
    assert ann.note == "not checked: ValueError: a rule that cannot read this result"
    assert mon.n_unchecked == 1
    wrapped = wrap_tool(lambda ticker: BAD, mon, name="get_quote", exposed_tools=EXPOSED)
    assert wrapped("T001") is BAD and mon.n_unchecked == 2
    rows = [{"tool": "get_quote", "arguments": {"ticker": "T001"}, "result": BAD}]
    (out,) = annotate_stream(mon, rows, EXPOSED)
    assert out["note"].startswith("not checked: ValueError") and out["content"] is BAD
    assert mon.annotate("get_quote", {}, BAD, EXPOSED, status="error").note is None  # not checked at all
    assert mon.n_unchecked == 3


@pytest.mark.parametrize("where", ["bare", "in_a_field"])
def test_a_result_nested_100000_deep_never_raises_out_of_annotate_or_a_wrapped_tool(where):
    """Past Python's recursion limit for any recursive walk: it is either checked or passed through
    raw with a note (and counted), never an exception; results after it are checked as before."""
    deep = _nested(100_000)
    result = deep if where == "bare" else {**GOOD, "volume": deep}
    mon = Monitor(REG, CAT)
    ann = mon.annotate("get_quote", {"ticker": "T001"}, result, EXPOSED)
    if ann.note is not None:
        assert ann.note.startswith("not checked: ") and ann.content is result and ann.receipt is None
    assert mon.n_unchecked == (ann.note is not None)
    wrapped = wrap_tool(lambda ticker: result, mon, name="get_quote", exposed_tools=EXPOSED)
    out = wrapped("T001")
    assert out is result or out["tool_result"] is result
    rows = [{"tool": "get_quote", "arguments": {"ticker": "T001"}, "result": r} for r in (result, BAD, GOOD)]
    got = list(annotate_stream(mon, rows, EXPOSED))
    assert [bool(o["violations"]) for o in got[1:]] == [True, False]
