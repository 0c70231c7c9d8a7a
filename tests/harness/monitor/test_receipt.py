"""Receipts: the raw result is kept, the receipt has the paper's shape in each variant, and
recovery tools come only from the exposed public interface."""

from __future__ import annotations

import pytest

from core.protocol import ToolCall, ToolResult
from harness.monitor import Monitor, learn, wrap_tool
from harness.monitor import synthetic as syn
from harness.monitor.receipt import annotate_stream
from harness.monitor.recovery import leaf_names, recovery_tools

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


def test_interposer_sets_meta_and_keeps_status():
    class Ctx:
        exposed_tools = EXPOSED
        labels: dict = {}
        call_index = 4

    mon = Monitor(REG, CAT)
    out = mon(ToolCall("get_quote", {"ticker": "T001"}), ToolResult(BAD, meta={"perturbed": True}), Ctx())
    assert out.content["tool_result"] is BAD and out.meta["n_admissible"] == 3 and out.meta["perturbed"]
    # the one receipt shape (harness.stream.Receipt), the same object the agent reads
    assert out.meta["violations"][0]["rule_class"] == "positive"
    assert out.meta["receipt"] == out.content["outcome_monitor"] and out.meta["receipt"]["violated"]
    assert Ctx.labels["receipts_fired"] == [{"call_index": 4, "tool": "get_quote"}]
    err = ToolResult({"error": "503"}, status="error")
    assert mon(ToolCall("get_quote", {"ticker": "T001"}), err, Ctx()).content == {"error": "503"}


def test_wrap_tool_and_stream():
    def get_quote(ticker: str) -> dict:
        return {**BAD, "ticker": ticker}

    wrapped = wrap_tool(get_quote, Monitor(REG, CAT), exposed_tools=EXPOSED)
    assert "outcome_monitor" in wrapped("T001") and wrapped(ticker="T001")["tool_result"]["price"] == -79.0
    rows = [{"tool": "get_quote", "arguments": {"ticker": "T001"}, "result": r} for r in (GOOD, BAD)]
    out = list(annotate_stream(Monitor(REG, CAT), rows, EXPOSED))
    assert [bool(o["violations"]) for o in out] == [False, True] and out[1]["receipt"]["recovery_tools"]
