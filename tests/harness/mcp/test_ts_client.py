"""The proxy driven by the official TypeScript MCP SDK's stock ``client.callTool`` (issue 45: receipts reach
stock clients by default), over real pipes in front of ``mcp-server-time`` (it declares an ``outputSchema``)
and the project's fault shim (``scripts/mcpbench/shim.py``, faults that break that schema).

The SDK is pinned in ``ts_client/package.json`` and ``package-lock.json`` and installed by ``make ts-client``
into ``.cache/ts-client``; ``ts_client/client.mjs`` runs a JSON plan of sessions and prints what each
``callTool`` resolved with or raised. The SDK caches each listed ``outputSchema`` and validates results
against it, so the proxy's default (tools listed without the schemas it checks itself) is what lets a
faulted result and its receipt through; ``--keep-output-schemas`` shows the client raising instead."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")  # the proxy and the shim run on the mcp extra

REPO = Path(__file__).resolve().parents[3]
CLIENT = Path(__file__).with_name("ts_client") / "client.mjs"
PINNED = Path(__file__).with_name("ts_client") / "package.json"
MODULES = REPO / ".cache" / "ts-client" / "node_modules"
sys.path.insert(0, str(REPO / "scripts"))

from check_package import GOAL, SCHEMA_FAULTS, SHIM  # noqa: E402
from mcpbench.catalogue import BY_NAME  # noqa: E402
from outcome_monitor.adapters.mcp_proxy import META_KEY, PREFIX  # noqa: E402

TIME = BY_NAME["time"]
NODE = shutil.which("node")
PY = sys.executable
pytestmark = pytest.mark.slow

if NODE is None:
    pytest.skip("node not found: run `make ts-client` (Debian's nodejs and npm)", allow_module_level=True)


def _calls(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` clean calls of the time server's own seeded workload."""
    rng = random.Random(seed)
    fixture = TIME.setup(REPO, rng, [str(TIME.binary)])
    return [
        {"name": name, "arguments": args} for name, args in (TIME.workload(rng, fixture) for _ in range(n))
    ]


def _upstream() -> list[str]:
    return TIME.setup(REPO, random.Random(0), [str(TIME.binary)]).command


def _proxy(*options: str, upstream: list[str]) -> list[str]:
    return [PY, "-m", "outcome_monitor", "proxy", *options, "--", *upstream]


def _shim(log: Path) -> list[str]:
    return [PY, str(SHIM), "--faults", SCHEMA_FAULTS, "--seed", "0", "--log", str(log), "--", *_upstream()]


def _client(*sessions: tuple[list[str], list[dict[str, Any]]]) -> dict[str, Any]:
    """The TypeScript client's output for these sessions (one node process, sessions in order)."""
    plan = {"sessions": [{"command": command, "calls": calls} for command, calls in sessions]}
    done = subprocess.run(
        [NODE, str(CLIENT), str(MODULES)],
        input=json.dumps(plan),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def _receipt(result: dict[str, Any]) -> dict[str, Any] | None:
    """The receipt as the Python tests read it: a second text block ``[outcome monitor] {...}`` whose JSON
    is the result's ``_meta`` ``outcome_monitor``; None when the result carries neither."""
    blocks, meta = result["content"], (result.get("_meta") or {}).get(META_KEY)
    if len(blocks) == 1 and meta is None:
        return None
    assert len(blocks) == 2 and blocks[1]["text"].startswith(f"{PREFIX} "), blocks
    assert json.loads(blocks[1]["text"].removeprefix(f"{PREFIX} ")) == meta
    return meta


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _run(work: Path) -> dict[str, Any]:
    """Record 40 clean calls through the proxy with the TypeScript client, learn, then three sessions of
    the TypeScript client in front of ``proxy --registry``: held-out clean calls, and the same faulted calls
    with the default listing and with ``--keep-output-schemas``."""
    if not MODULES.joinpath("@modelcontextprotocol", "sdk").is_dir():
        pytest.fail(f"{MODULES.relative_to(REPO)} has no @modelcontextprotocol/sdk: run `make ts-client`")
    if not TIME.binary.is_file():
        pytest.skip(f"{TIME.binary.relative_to(REPO)} is missing: run `make mcp-servers`")
    recording, registry = work / "calls.jsonl", work / "registry.json"
    recorded = _client((_proxy("--record", str(recording), upstream=_upstream()), _calls(40, 0)))
    rows = [json.loads(line) for line in recording.read_text().splitlines()]
    assert [r["status"] for r in rows] == ["ok"] * 40  # every call the TypeScript client made, recorded clean
    learned = subprocess.run(
        [PY, "-m", "outcome_monitor", "learn", "--input", str(recording), "--out", str(registry)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert learned.returncode == 0, learned.stderr
    faulted = _calls(30, 2)
    logs = {"default": work / "faults-default.jsonl", "kept": work / "faults-kept.jsonl"}
    checked = _client(
        (_proxy("--registry", str(registry), upstream=_upstream()), _calls(20, 1)),
        (_proxy("--registry", str(registry), upstream=_shim(logs["default"])), faulted),
        (
            _proxy("--registry", str(registry), "--keep-output-schemas", upstream=_shim(logs["kept"])),
            faulted,
        ),
    )
    clean, default, kept = checked["sessions"]
    read = {k: [json.loads(line) for line in p.read_text().splitlines()] for k, p in logs.items()}
    return {
        "sdk": checked["sdk"],
        "recorded": recorded["sessions"][0],
        "clean": clean,
        "default": default,
        "kept": kept,
        "faults": read,
    }


def _the_client_is_the_pinned_sdk(runs: dict[str, Any]) -> None:
    pinned = json.loads(PINNED.read_text())["dependencies"]["@modelcontextprotocol/sdk"]
    assert runs["sdk"] == pinned


def _tools_listed_without_the_checked_schemas_and_clean_calls_get_no_receipt(runs: dict[str, Any]) -> None:
    for name in ("recorded", "clean", "default"):
        listed = runs[name]["tools"]
        assert {t["name"] for t in listed} == {"get_current_time", "convert_time"}
        assert not any(t["outputSchema"] for t in listed), (name, listed)
    for name in ("recorded", "clean"):
        results = runs[name]["results"]
        assert all("result" in r and not r["result"].get("isError") for r in results), results[:2]
    receipts = [_receipt(r["result"]) for r in runs["clean"]["results"]]
    assert receipts.count(None) == len(receipts) == 20, [r for r in receipts if r][:2]


def _faulted_calls_resolve_with_the_raw_result_first_and_a_receipt(runs: dict[str, Any]) -> None:
    results, log = runs["default"]["results"], runs["faults"]["default"]
    assert len(results) == len(log) == 30
    raised = [r["raised"] for r in results if "raised" in r]
    assert not raised, raised[:2]
    hit = [(r["result"], f) for r, f in zip(results, log, strict=True) if f["fault"]]
    assert len(hit) >= 20  # the shim faults (nearly) every result: the share below is of enough calls
    flagged = 0
    for result, fault in hit:
        assert _sha(result["content"][0]["text"]) == fault["first"]  # the raw result, unchanged and first
        receipt = _receipt(result)
        flagged += receipt is not None and bool(receipt.get("violated"))
    assert flagged >= GOAL * len(hit), f"{flagged} of {len(hit)} faulted calls got a receipt"


def _with_kept_output_schemas_the_client_raises_on_the_faults(runs: dict[str, Any]) -> None:
    """The difference the default makes: listed with their outputSchema, the same faulted results make the
    SDK's callTool throw (it validates structuredContent, and requires it where a schema is declared)."""
    listed = runs["kept"]["tools"]
    assert all(t["outputSchema"] for t in listed), listed
    results, log = runs["kept"]["results"], runs["faults"]["kept"]
    assert [f["fault"] for f in log] == [f["fault"] for f in runs["faults"]["default"]]  # the same faults
    raised = [(r, f) for r, f in zip(results, log, strict=True) if "raised" in r]
    assert all(f["fault"] for _, f in raised), "a clean result raised"
    for r, _ in raised:
        assert r["raised"].startswith("McpError") and (
            "output schema" in r["raised"] or "structured content" in r["raised"]
        ), r["raised"]
    hit = [f for f in log if f["fault"]]
    assert len(raised) >= GOAL * len(hit), f"{len(raised)} of {len(hit)} faulted calls raised"


def test_the_stock_typescript_client_gets_receipts_by_default(tmp_path):
    # one test, so pytest-xdist never runs the sessions twice (a module fixture runs once per worker)
    runs = _run(tmp_path)
    _the_client_is_the_pinned_sdk(runs)
    _tools_listed_without_the_checked_schemas_and_clean_calls_get_no_receipt(runs)
    _faulted_calls_resolve_with_the_raw_result_first_and_a_receipt(runs)
    _with_kept_output_schemas_the_client_raises_on_the_faults(runs)
