"""The monitor as a library: importing it leaves the caller's process alone, its surface is small,
a receipt has one shape, and any Python tool function (sync or async) can be wrapped."""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import fixtures as syn
import outcome_monitor as om
from outcome_monitor import Monitor, Receipt, learn, wrap_async_tool, wrap_tool
from outcome_monitor.receipts.receipt import receipt_text

REG = learn(syn.traces(n_workflows=30, calls_per_workflow=6))
CAT = syn.catalog()
EXPOSED = ["get_quote", "get_quote_alt", "get_price_history"]
GOOD = {"ticker": "T001", "price": 12.5, "currency": "USD", "as_of": "2025-01-01", "volume": 10}
BAD = {**GOOD, "price": -79.0}

FRESH = textwrap.dedent(
    """
    import json, os, sys
    before = dict(os.environ)
    import outcome_monitor
    from outcome_monitor import Monitor, learn
    changed = sorted(k for k in set(before) | set(os.environ) if before.get(k) != os.environ.get(k))
    heavy = sorted(m for m in ("litellm", "hydra", "omegaconf", "pandas", "inspect_ai", "mcp") if m in sys.modules)
    project = sorted(m for m in ("core", "harness", "environments", "analysis") if m in sys.modules)
    print(json.dumps({"changed": changed, "heavy": heavy, "project": project}))
    """
)


def test_importing_the_monitor_changes_no_environment_and_stays_light():
    # a fresh interpreter with none of the harness's offline variables set, as a user's process would be
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LITELLM_", "HF_HUB_"))}
    res = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out == {"changed": [], "heavy": [], "project": []}


def test_the_public_surface_is_small_and_the_internals_stay_in_their_modules():
    public = [
        "Annotation",
        "Monitor",
        "Receipt",
        "Registry",
        "Thresholds",
        "Violation",
        "from_json_schema",
        "learn",
        "wrap_tool",
        "wrap_async_tool",
    ]
    assert sorted(om.__all__) == sorted([*public, "__version__"])
    assert all(getattr(om, name) is not None for name in om.__all__)
    assert isinstance(om.__version__, str) and om.__version__[0].isdigit()
    from outcome_monitor.learning.derive import bind_records, from_records  # noqa: F401
    from outcome_monitor.receipts.monitor import VARIANTS, annotate_stream  # noqa: F401
    from outcome_monitor.registry import FORMAT_VERSION, learn_schema_only  # noqa: F401

    for internal in ("VARIANTS", "FORMAT_VERSION", "bind_records", "RULE_CLASSES", "annotate_stream"):
        assert not hasattr(om, internal), internal


def test_one_receipt_shape():
    ann = Monitor(REG, CAT).annotate("get_quote", {"ticker": "T001"}, BAD, EXPOSED)
    receipt: Receipt = ann.receipt
    assert ann.content == {"tool_result": BAD, "outcome_monitor": receipt}
    assert set(receipt) == {"violated", "observed", "recovery_tools"} and receipt["observed"] == -79.0
    assert json.loads(ann.receipt_text()) == receipt and ann.receipt_text() == receipt_text(receipt)
    clean = Monitor(REG, CAT).annotate("get_quote", {"ticker": "T001"}, GOOD, EXPOSED)
    assert clean.content is GOOD and clean.receipt is None  # nothing added when nothing fired


def test_wrap_tool_keeps_signature_and_checks_every_call():
    def get_quote(ticker: str, **options: str) -> dict:
        """Quote a ticker."""
        return {**(BAD if options.get("bad") else GOOD), "ticker": ticker}

    wrapped = wrap_tool(get_quote, Monitor(REG, CAT))
    assert wrapped.__name__ == "get_quote" and wrapped.__doc__ == "Quote a ticker."
    signature = inspect.signature
    assert signature(wrapped) == signature(get_quote) and "options" in signature(wrapped).parameters
    assert wrapped("T001") == {**GOOD, "ticker": "T001"}
    flagged = wrapped("T001", bad="yes")
    assert flagged["tool_result"]["price"] == -79.0 and flagged["outcome_monitor"]["violated"]
    renamed = wrap_tool(lambda t: BAD, Monitor(REG, CAT), name="get_quote")
    assert "outcome_monitor" in renamed("T001")


def test_wrap_async_tool():
    async def get_quote(ticker: str) -> dict:
        await asyncio.sleep(0)
        return {**BAD, "ticker": ticker}

    wrapped = wrap_async_tool(get_quote, Monitor(REG, CAT))
    out = asyncio.run(wrapped(ticker="T001"))
    assert out["tool_result"]["ticker"] == "T001" and "price" in out["outcome_monitor"]["violated"]


def test_the_librarys_tests_import_nothing_of_the_project():
    """They run in a venv holding only the wheel and pytest: no import of the harness's packages."""
    project = re.compile(r"^\s*(from|import)\s+(harness|core|environments|analysis|tests)\b", re.M)
    here = Path(__file__).resolve().parent
    files = sorted(here.glob("*.py"))
    assert len(files) > 10
    offenders = [f.name for f in files if project.search(f.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_inspect_wrapper_without_its_extra_names_the_pip_line():
    # a fresh interpreter where inspect_ai cannot be imported, as in a venv without the extra
    code = (
        "import sys; sys.modules['inspect_ai'] = None; sys.modules['inspect_ai.tool'] = None\n"
        "from outcome_monitor.adapters.inspect_tool import monitored\n"
        "try:\n    monitored(object(), record=print)\n"
        "except ImportError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == 'monitored() needs inspect_ai: pip install "outcome-monitor[inspect]"'
