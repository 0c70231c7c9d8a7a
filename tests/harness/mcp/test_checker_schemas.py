"""The proxy's per-call work with declared outputSchemas and text results (no transport)."""

from __future__ import annotations

import io
import json

import pytest

pytest.importorskip("mcp")
import mcp_types as types  # noqa: E402
from outcome_monitor.adapters.mcp_proxy import META_KEY, PREFIX, Checker  # noqa: E402
from outcome_monitor.registry import learn  # noqa: E402

SCHEMA = {
    "type": "object",
    "properties": {"timezone": {"type": "string"}, "is_dst": {"type": "boolean"}},
    "required": ["timezone", "is_dst"],
}


def _tool(name: str, schema: dict | None) -> types.Tool:
    return types.Tool(name=name, input_schema={"type": "object"}, output_schema=schema)


def _structured(value) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=json.dumps(value))], structured_content=value)


def _text(text: str, is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=text)], is_error=is_error)


def test_declared_output_schema_is_a_contract_source_without_a_registry():
    checker = Checker()
    assert checker.monitor is None
    checker.set_catalog([_tool("now", SCHEMA), _tool("plain", None)])
    ok = _structured({"timezone": "UTC", "is_dst": False})
    assert checker.process("now", {}, ok) is ok
    bad = _structured({"timezone": "UTC"})
    got = checker.process("now", {}, bad)
    assert got.structured_content == {"timezone": "UTC"} and got.content[0] == bad.content[0]
    assert got.content[-1].text.startswith(PREFIX) and "is_dst" in got.meta[META_KEY]["violated"]
    page = _text("<html><body>502 Bad Gateway</body></html>")  # no structured content at all
    assert "must be an object" in checker.process("now", {}, page).meta[META_KEY]["violated"]
    assert checker.n_receipts == 2


def test_schema_contracts_join_the_learned_ones_and_can_be_turned_off():
    rows = [
        {"tool": "now", "arguments": {"z": str(i)}, "result": {"timezone": f"Z{i}", "is_dst": True}, "status": "ok"}
        for i in range(10)
    ]  # fmt: skip
    checker = Checker(learn(rows))
    checker.set_catalog([_tool("now", SCHEMA)])
    ids = {r.rule_id for r in checker.monitor.registry.rules_for("now")}
    assert "now:type:$:is_dst" in ids and "now:required:$:timezone" in ids
    got = checker.process("now", {"z": "1"}, _structured({"timezone": "Z1", "is_dst": "false"}))
    assert got.meta[META_KEY]["violated"].startswith("is_dst must be a boolean")
    off = Checker(schemas=False)
    off.set_catalog([_tool("now", SCHEMA)])
    assert off.monitor is None


def test_error_text_without_is_error_is_not_recorded_as_clean():
    out = io.StringIO()
    checker = Checker(record=out)
    checker.process("q", {"sql": "x"}, _text("Error executing tool q: no such table: x", is_error=True))
    checker.process("q", {"sql": "y"}, _text("Error executing tool q: no such column: y"))  # its own shape
    checker.process("q", {"sql": "z"}, _text("Traceback (most recent call last):\n  ..."))  # a common prefix
    checker.process("q", {"sql": "w"}, _text("[{'id': 1}]"))
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    # the flagged one is kept as an error row (its shape), then the two sent without isError
    assert [r["status"] for r in rows] == ["error", "error", "error", "ok"]
    assert rows[0]["error"] == "isError"
    assert "own error shape" in rows[1]["error"] and "common error prefix" in rows[2]["error"]
    assert rows[3]["result"] == [{"id": 1}]
    assert checker.n_error_text == 2


def test_tools_are_listed_without_the_output_schemas_the_proxy_checks_unless_kept():
    """A client that validates results against a listed outputSchema (the SDK's call_tool) would raise
    on the very results the monitor is there to flag: by default the proxy lists a tool without the
    schema it checks itself; --keep-output-schemas lists them as declared; with --no-output-schemas
    nothing of the proxy's depends on them, so they are listed as declared (unless dropped)."""
    tools = [_tool("now", SCHEMA), _tool("plain", None)]
    for checker, kept in (
        (Checker(), False),
        (Checker(keep_schemas=True), True),
        (Checker(schemas=False), True),
        (Checker(schemas=False, keep_schemas=False), False),
    ):
        checker.set_catalog(tools)
        listed = checker.for_client(tools)
        assert [t.name for t in listed] == ["now", "plain"]
        assert (listed[0].output_schema == SCHEMA) is kept and listed[1].output_schema is None
        assert listed[0].input_schema == tools[0].input_schema
    assert tools[0].output_schema == SCHEMA  # the upstream's own listing is untouched
    # checking is the same whichever way the tools are listed
    kept = Checker(keep_schemas=True)
    kept.set_catalog(tools)
    assert "is_dst" in kept.process("now", {}, _structured({"timezone": "UTC"})).meta[META_KEY]["violated"]


class _Broken:
    def check(self, tool, arguments, result):
        raise RecursionError("maximum recursion depth exceeded")


def test_a_result_the_monitor_cannot_check_passes_raw_and_is_counted(capsys):
    from outcome_monitor.receipts.monitor import Monitor

    checker = Checker()
    checker.monitor = Monitor(_Broken())  # type: ignore[arg-type]
    result = _structured({"timezone": "UTC"})
    assert checker.process("now", {}, result) is result  # raw, no receipt block, no _meta
    assert checker.n_unchecked == 1 and checker.n_receipts == 0
    assert "now: not checked: RecursionError" in capsys.readouterr().err
