"""The monitor in front of an MCP server, end to end over real pipes with the SDK's own client:
record through the proxy in front of ``python -m environments.taubench mcp-serve``, learn from the recording,
then check 60 held-out order lookups through the proxy in front of a clean and a faulted server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")
import anyio  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
from tests.datapaths import TAUBENCH as SHARED  # noqa: E402
from tests.datapaths import require_retail  # noqa: E402

PY = sys.executable


@pytest.fixture(scope="module")
def data_root() -> Path:
    require_retail()
    return SHARED


def _env(data_root: Path) -> dict[str, str]:
    return dict(os.environ, TAUBENCH_DATA=str(data_root))


def _world(*extra: str) -> list[str]:
    return [PY, "-m", "environments.taubench", "mcp-serve", *extra]  # becomes python -m harness.mcp serve


def _proxy(*options: str, upstream: list[str]) -> list[str]:
    return [PY, "-m", "harness.monitor", "proxy", *options, "--", *upstream]


def _session(command: list[str], env: dict[str, str], calls: list[tuple[str, dict]]) -> list:
    """Each call's CallToolResult (or the MCPError raised for it), in order, over one session."""

    async def go() -> list:
        params = StdioServerParameters(command=command[0], args=command[1:], env=env)
        out: list = []
        async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            await session.list_tools()
            for name, args in calls:
                try:
                    out.append(await session.call_tool(name, args))
                except MCPError as exc:
                    out.append(exc)
        return out

    return anyio.run(go)


def _orders(data_root: Path) -> tuple[list[str], list[str], list[str], list[str]]:
    orders = json.loads((data_root / "retail" / "orders.json").read_text())
    products = json.loads((data_root / "retail" / "products.json").read_text())
    ids = sorted(orders)
    users = sorted({o["user_id"] for o in orders.values()})
    return ids[:300], ids[-60:], users[:30], sorted(products)[:20]


def _texts(result) -> list[str]:
    return [b.text for b in result.content]


@pytest.mark.slow
def test_record_learn_and_receipts_through_the_proxy(data_root, tmp_path):
    env = _env(data_root)
    train, held_out, users, products = _orders(data_root)
    recording = tmp_path / "traffic.jsonl"
    calls = (
        [("get_order_details", {"order_id": o}) for o in train]
        + [("get_user_details", {"user_id": u}) for u in users]
        + [("get_product_details", {"product_id": p}) for p in products]
        + [("get_order_details", {"order_id": "#W0000000"})]  # an error: recorded as one, never learned
    )
    direct = _session(_world(), env, calls)
    recorded = _session(_proxy("--record", str(recording), upstream=_world()), env, calls)
    assert [_texts(r) for r in recorded] == [_texts(r) for r in direct]  # forwarded unchanged
    assert recorded[-1].is_error
    rows = [json.loads(line) for line in recording.read_text().splitlines()]
    assert len(rows) == len(calls) >= 200
    assert [r["status"] for r in rows].count("error") == 1 and rows[-1]["status"] == "error"
    assert rows[0] == {
        "tool": "get_order_details",
        "arguments": {"order_id": train[0]},
        "result": json.loads(direct[0].content[0].text),
        "status": "ok",
    }

    registry = tmp_path / "registry.json"
    learned = subprocess.run(
        [PY, "-m", "harness.monitor", "learn", "--input", str(recording), "--out", str(registry)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert learned.returncode == 0, learned.stderr
    assert "get_order_details" in json.loads(registry.read_text())["tools"]

    lookups = [("get_order_details", {"order_id": o}) for o in held_out]
    raw_clean = _session(_world(), env, lookups)
    raw_faulted = _session(_world("--fault", "taubench_status", "--seed", "1"), env, lookups)
    checked = _proxy("--registry", str(registry), upstream=_world())
    clean = _session(checked, env, lookups)
    faulted = _session(
        _proxy("--registry", str(registry), upstream=_world("--fault", "taubench_status", "--seed", "1")),
        env,
        lookups,
    )
    assert all(
        json.loads(r.content[0].text)["status"] not in ("pending", "delivered") for r in raw_faulted[:1]
    )
    n_clean = sum(len(r.content) > 1 for r in clean)
    n_faulted = sum(len(r.content) > 1 for r in faulted)
    assert n_clean <= 1, [r.content[1].text for r in clean if len(r.content) > 1]
    assert n_faulted >= 30
    for proxied, raw in zip(faulted, raw_faulted, strict=True):
        assert proxied.content[0].text == raw.content[0].text  # the raw result, unchanged and first
        if len(proxied.content) > 1:
            assert len(proxied.content) == 2
            assert proxied.content[1].text.startswith("[outcome monitor] ")
            receipt = proxied.meta["outcome_monitor"]
            assert json.loads(proxied.content[1].text.removeprefix("[outcome monitor] ")) == receipt
            assert "status" in receipt["violated"] and receipt["observed"] not in ("pending", "delivered")
        else:
            assert not (proxied.meta or {}).get("outcome_monitor")
    for proxied, raw in zip(clean, raw_clean, strict=True):
        assert proxied.content[0].text == raw.content[0].text

    # deferred delivery: the violating result passes unchanged, its receipt rides on the next result
    deferred = _session(
        _proxy(
            "--registry",
            str(registry),
            "--delivery",
            "deferred",
            upstream=_world("--fault", "taubench_status", "--seed", "1"),
        ),
        env,
        lookups[:2],
    )
    assert _texts(deferred[0]) == _texts(raw_faulted[0])
    assert deferred[1].content[0].text == raw_faulted[1].content[0].text
    assert "about the previous get_order_details result" in deferred[1].content[1].text


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_streamable_http_both_ways(data_root, tmp_path):
    """A proxy serving streamable HTTP in front of the stdio world, and a stdio proxy whose upstream is
    that URL: the SDK's client sees the world's results unchanged and the recording has them."""
    import socket
    import time

    env = _env(data_root)
    port = _free_port()
    served = subprocess.Popen(
        _proxy("--http", f"127.0.0.1:{port}", upstream=_world()),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(600):  # until it listens (or has exited)
            if served.poll() is not None:
                break
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        assert served.poll() is None, served.stderr.read().decode()
        orders = _orders(data_root)[1][:3]
        calls = [("get_order_details", {"order_id": o}) for o in orders]
        recording = tmp_path / "http.jsonl"
        through = _session(
            [
                PY,
                "-m",
                "harness.monitor",
                "proxy",
                "--record",
                str(recording),
                "--upstream-url",
                f"http://127.0.0.1:{port}/mcp",
            ],
            env,
            calls,
        )
        direct = _session(_world(), env, calls)
        assert [_texts(r) for r in through] == [_texts(r) for r in direct]
        rows = [json.loads(line) for line in recording.read_text().splitlines()]
        assert [r["arguments"]["order_id"] for r in rows] == orders
    finally:
        served.terminate()
        served.wait()
        served.stderr.close()
