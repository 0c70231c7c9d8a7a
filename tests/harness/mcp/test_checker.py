"""The proxy's per-call work without a transport: what is recorded, and where a receipt goes."""

from __future__ import annotations

import io
import json

import pytest

pytest.importorskip("mcp")
import mcp_types as types  # noqa: E402
from outcome_monitor.adapters.mcp_proxy import META_KEY, PREFIX, Checker, parse_result  # noqa: E402

from harness.monitor import learn  # noqa: E402


def _result(value, is_error: bool = False) -> types.CallToolResult:
    text = value if isinstance(value, str) else json.dumps(value)
    return types.CallToolResult(content=[types.TextContent(text=text)], is_error=is_error)


@pytest.fixture(scope="module")
def registry():
    rows = [
        {
            "tool": "price",
            "arguments": {"id": str(i)},
            "result": {"id": str(i), "price": 1.5 + i},
            "status": "ok",
        }
        for i in range(40)
    ]
    return learn(rows)


def test_results_parse_as_json_when_they_are_json():
    assert parse_result(_result({"a": [1, 2]})) == {"a": [1, 2]}
    assert parse_result(_result("plain words")) == "plain words"
    two = types.CallToolResult(content=[types.TextContent(text="1"), types.TextContent(text="x")])
    assert parse_result(two) == [1, "x"]
    structured = types.CallToolResult(content=[types.TextContent(text="{}")], structured_content={"s": 1})
    assert parse_result(structured) == {"s": 1}


def test_recording_marks_errors_so_learn_sets_them_aside():
    out = io.StringIO()
    checker = Checker(record=out)
    checker.process("price", {"id": "1"}, _result({"id": "1", "price": 2.5}))
    checker.process("price", {"id": "2"}, _result("Error: no such id", is_error=True))
    checker.process("price", {"id": "3"}, _result({"error": "no such id"}))
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert rows[0] == {
        "tool": "price",
        "arguments": {"id": "1"},
        "result": {"id": "1", "price": 2.5},
        "status": "ok",
    }
    # the flagged error is kept (learn reads the tool's own error shape from it), marked as one
    assert rows[1]["status"] == "error" and rows[1]["error"] == "isError"
    assert rows[2]["status"] == "error" and "only an error" in rows[2]["error"]
    assert learn(rows).meta["set_aside"]["flagged"] == {"price": 2}


def test_a_violation_appends_a_receipt_after_the_raw_content(registry):
    checker = Checker(registry)
    clean = _result({"id": "7", "price": 8.5})  # price = id + 1.5, as every learned row
    assert checker.process("price", {"id": "7"}, clean) is clean
    bad = _result({"id": "7", "price": -3.0})
    got = checker.process("price", {"id": "7"}, bad)
    assert got.content[0] == bad.content[0] and len(got.content) == 2
    assert got.content[1].text.startswith(PREFIX + " ")
    receipt = got.meta[META_KEY]
    assert "price" in receipt["violated"] and receipt["observed"] == -3.0
    assert json.loads(got.content[1].text.removeprefix(PREFIX + " ")) == receipt
    assert checker.n_receipts == 1


def test_deferred_delivery_rides_on_the_next_result(registry):
    checker = Checker(registry, delivery="deferred")
    bad = _result({"id": "7", "price": -3.0})
    assert checker.process("price", {"id": "7"}, bad) is bad
    nxt = _result({"id": "8", "price": 9.5})
    got = checker.process("price", {"id": "8"}, nxt)
    assert got.content[0] == nxt.content[0]
    assert "(about the previous price result)" in got.content[1].text
    assert [r["observed"] for r in got.meta[META_KEY]] == [-3.0]
    again = _result({"id": "9", "price": 10.5})
    assert checker.process("price", {"id": "9"}, again) is again  # delivered once
