"""The monitor inside the harness: ``harness.monitor`` re-exports the library's surface and adds none
of its experiment-only names, importing it leaves the caller's process alone, and the runs' stream
interposer makes the same receipt as ``annotate`` (the library's own tests are in
outcome-monitor/tests)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import harness.monitor as hm
from core.protocol import ToolCall, ToolResult
from harness.monitor import Monitor, Receipt, learn
from harness.monitor import synthetic as syn
from harness.stream import MonitorInterposer, receipt_text

REG = learn(syn.traces(n_workflows=30, calls_per_workflow=6))
CAT = syn.catalog()
EXPOSED = ["get_quote", "get_quote_alt", "get_price_history", "place_order", "get_weather"]
GOOD = {"ticker": "T001", "price": 12.5, "currency": "USD", "as_of": "2025-01-01", "volume": 10}
BAD = {**GOOD, "price": -79.0}

FRESH = textwrap.dedent(
    """
    import json, os, sys
    before = dict(os.environ)
    import harness.monitor
    changed = sorted(k for k in set(before) | set(os.environ) if before.get(k) != os.environ.get(k))
    heavy = sorted(m for m in ("litellm", "hydra", "omegaconf", "pandas", "inspect_ai", "mcp") if m in sys.modules)
    print(json.dumps({"changed": changed, "heavy": heavy}))
    """
)


def test_importing_the_monitor_changes_no_environment_and_stays_light():
    # a fresh interpreter with none of the offline variables set, as a user's process would be
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith(("LITELLM_", "HF_HUB_"))}
    res = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out == {"changed": [], "heavy": []}


def test_the_public_surface_is_small_and_the_internals_stay_in_their_modules():
    assert sorted(hm.__all__) == sorted(
        [
            "Annotation",
            "Monitor",
            "Receipt",
            "Registry",
            "Thresholds",
            "Violation",
            "from_json_schema",
            "learn",
        ]
        + ["wrap_tool", "wrap_async_tool"]
    )
    assert all(hasattr(hm, name) for name in hm.__all__)
    from outcome_monitor.learning.derive import bind_records, from_records  # noqa: F401
    from outcome_monitor.receipts.monitor import VARIANTS, annotate_stream  # noqa: F401
    from outcome_monitor.registry import FORMAT_VERSION, learn_schema_only  # noqa: F401

    from harness.monitor.crossfit import build_crossfit, fold_of  # noqa: F401

    for internal in (
        "build_crossfit",
        "fold_of",
        "VARIANTS",
        "FORMAT_VERSION",
        "bind_records",
        "RULE_CLASSES",
    ):
        assert not hasattr(hm, internal), internal


class Ctx:
    def __init__(self) -> None:
        self.exposed_tools = ["get_quote", "get_quote_alt", "get_price_history"]
        self.labels: dict = {}
        self.call_index = 2


def test_one_receipt_shape_from_every_maker():
    mon = Monitor(REG, CAT)
    call = ToolCall("get_quote", {"ticker": "T001"})
    via_stream = MonitorInterposer(lambda ctx: mon)(call, ToolResult(BAD), (b := Ctx()))
    ann = mon.annotate("get_quote", {"ticker": "T001"}, BAD, Ctx().exposed_tools)
    receipt: Receipt = ann.receipt
    assert via_stream.content == ann.content
    assert via_stream.meta["receipt"] == receipt == ann.content["outcome_monitor"]
    assert set(receipt) == {"violated", "observed", "recovery_tools"} and receipt["observed"] == -79.0
    assert b.labels == {"receipts_fired": [{"call_index": 2, "tool": "get_quote"}]}
    assert json.loads(ann.receipt_text()) == receipt and ann.receipt_text() == receipt_text(receipt)
    clean = MonitorInterposer(lambda ctx: mon)(call, ToolResult(GOOD, meta={"x": 1}), Ctx())
    assert clean.content is GOOD and clean.meta == {"x": 1}  # nothing added when nothing fired


def test_interposer_sets_meta_and_keeps_status():
    class Ctx:
        exposed_tools = EXPOSED
        labels: dict = {}
        call_index = 4

    mon = MonitorInterposer(lambda ctx: Monitor(REG, CAT))
    out = mon(ToolCall("get_quote", {"ticker": "T001"}), ToolResult(BAD, meta={"perturbed": True}), Ctx())
    assert out.content["tool_result"] is BAD and out.meta["n_admissible"] == 3 and out.meta["perturbed"]
    # the one receipt shape (harness.stream.Receipt), the same object the agent reads
    assert out.meta["violations"][0]["rule_class"] == "positive"
    assert out.meta["receipt"] == out.content["outcome_monitor"] and out.meta["receipt"]["violated"]
    assert Ctx.labels["receipts_fired"] == [{"call_index": 4, "tool": "get_quote"}]
    err = ToolResult({"error": "503"}, status="error")
    assert mon(ToolCall("get_quote", {"ticker": "T001"}), err, Ctx()).content == {"error": "503"}
