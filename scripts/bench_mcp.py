"""Benchmark: the outcome monitor proxy's added latency per MCP tool call over stdio (goal: at most 1 ms at
the median), beside a direct connection to the same server.

    python scripts/bench_mcp.py [--calls 300] [--data-dir ROOT]

One SDK client (``mcp.ClientSession`` over ``stdio_client``) calls ``get_order_details`` on ``--calls``
retail orders, one call at a time, through three connections: straight to ``python -m harness.mcp serve
--env taubench``; through ``python -m harness.monitor proxy`` forwarding only; and through the proxy
recording and checking every result against a registry learned from that recording. Then the same
three in front of a third-party server, ``mcp-server-time`` (``get_current_time`` over 16 time zones;
installed by ``make mcp-servers`` in .cache/mcp-servers), whose declared ``outputSchema`` the checking
proxy checks too. The first 20 calls of each connection warm up and are not counted. Prints medians and
the proxy's added median per call; asserts nothing about speed. Needs the ``mcp`` extra; each part
skips with one line when its server (the tau-bench data: $TAUBENCH_DATA or data/taubench; the
third-party venv) is absent.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WARMUP = 20


ROOT = Path(__file__).resolve().parents[1]
TIME_SERVER = ROOT / ".cache" / "mcp-servers" / "bin" / "mcp-server-time"
ZONES = (
    "Europe/Paris", "Asia/Tokyo", "America/New_York", "Europe/London", "Australia/Sydney", "Asia/Kolkata",
    "America/Sao_Paulo", "Africa/Cairo", "Europe/Berlin", "America/Los_Angeles", "Asia/Singapore",
    "Pacific/Auckland", "Europe/Madrid", "America/Chicago", "Asia/Dubai", "Europe/Moscow",
)  # fmt: skip


def _timed(command: list[str], env: dict[str, str], calls: list[tuple[str, dict]]) -> list[float]:
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def go() -> list[float]:
        params = StdioServerParameters(command=command[0], args=command[1:], env=env)
        took: list[float] = []
        async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            await session.list_tools()
            for name, arguments in calls:
                t0 = time.perf_counter()
                await session.call_tool(name, arguments)
                took.append(time.perf_counter() - t0)
        return took[WARMUP:]

    return anyio.run(go)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--data-dir", help="the tau-bench data root (default: $TAUBENCH_DATA or data/taubench)")
    args = ap.parse_args()
    try:
        import mcp  # noqa: F401
    except ImportError:
        print("bench_mcp: the MCP SDK is not installed (make mcp); skipped", file=sys.stderr)
        return 0
    from environments.taubench.data import DataError, resolve_dir

    env = dict(os.environ, **({"TAUBENCH_DATA": args.data_dir} if args.data_dir else {}))
    if args.data_dir:
        os.environ["TAUBENCH_DATA"] = args.data_dir
    py = sys.executable
    try:
        folder = resolve_dir()
        orders = sorted(json.loads((folder / "orders.json").read_text()))
    except (DataError, OSError) as exc:
        print(f"bench_mcp: tau-bench data unavailable ({exc}); world server skipped", file=sys.stderr)
    else:
        orders = (orders * (args.calls // len(orders) + 1))[: args.calls + WARMUP]
        calls = [("get_order_details", {"order_id": o}) for o in orders]
        _compare(
            "the world server, get_order_details",
            [py, "-m", "harness.mcp", "serve", "--env", "taubench"],
            env,
            calls,
        )
    if not TIME_SERVER.is_file():
        print(
            f"bench_mcp: {TIME_SERVER} not installed (make mcp-servers); mcp-server-time skipped",
            file=sys.stderr,
        )
        return 0
    zones = [ZONES[i % len(ZONES)] for i in range(args.calls + WARMUP)]
    calls = [("get_current_time", {"timezone": z}) for z in zones]
    _compare("mcp-server-time, get_current_time", [str(TIME_SERVER)], env, calls)
    return 0


def _compare(what: str, server: list[str], env: dict[str, str], calls: list[tuple[str, dict]]) -> None:
    py = sys.executable
    proxy = [py, "-m", "harness.monitor", "proxy"]
    with tempfile.TemporaryDirectory() as tmp:
        recording, registry = Path(tmp) / "traffic.jsonl", Path(tmp) / "registry.json"
        direct = _timed(server, env, calls)
        forward = _timed([*proxy, "--no-output-schemas", "--", *server], env, calls)
        _timed([*proxy, "--record", str(recording), "--", *server], env, calls)
        subprocess.run(
            [py, "-m", "harness.monitor", "learn", "--input", str(recording), "--out", str(registry)],
            check=True,
            capture_output=True,
            env=env,
        )
        checked = _timed([*proxy, "--registry", str(registry), "--", *server], env, calls)
    ms = {
        k: 1000 * statistics.median(v)
        for k, v in (("direct", direct), ("forward", forward), ("checked", checked))
    }
    n = len(direct)
    print(f"MCP over stdio, {what}, {n} calls per connection (median per call):")
    print(f"  direct to the server                   {ms['direct']:.3f} ms")
    print(
        f"  through the proxy, forwarding only     {ms['forward']:.3f} ms  (+{ms['forward'] - ms['direct']:.3f} ms)"
    )
    print(
        f"  through the proxy, checking a registry {ms['checked']:.3f} ms  (+{ms['checked'] - ms['direct']:.3f} ms)"
    )
    print("goal: the proxy adds at most 1 ms per call at the median")


if __name__ == "__main__":
    raise SystemExit(main())
