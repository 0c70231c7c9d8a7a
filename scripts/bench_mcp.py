"""Benchmark: the outcome monitor proxy's added latency per MCP tool call over stdio (goal: at most 1 ms at
the median), beside a direct connection to the same server.

    python scripts/bench_mcp.py [--calls 300] [--data-dir ROOT]

One SDK client (``mcp.ClientSession`` over ``stdio_client``) calls ``get_order_details`` on ``--calls``
retail orders, one call at a time, through three connections: straight to ``python -m harness.mcp serve
--env taubench``; through ``python -m harness.monitor proxy`` forwarding only; and through the proxy
recording and checking every result against a registry learned from that recording. The first 20 calls
of each connection warm up and are not counted. Prints medians and the proxy's added median per call;
asserts nothing about speed. Needs the ``mcp`` extra and the tau-bench data ($TAUBENCH_DATA or
data/taubench).
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


def _timed(command: list[str], env: dict[str, str], orders: list[str]) -> list[float]:
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def go() -> list[float]:
        params = StdioServerParameters(command=command[0], args=command[1:], env=env)
        took: list[float] = []
        async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            await session.list_tools()
            for order in orders:
                t0 = time.perf_counter()
                await session.call_tool("get_order_details", {"order_id": order})
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
    try:
        folder = resolve_dir()
        orders = sorted(json.loads((folder / "orders.json").read_text()))
    except (DataError, OSError) as exc:
        print(f"bench_mcp: tau-bench data unavailable ({exc}); skipped", file=sys.stderr)
        return 0
    orders = (orders * (args.calls // len(orders) + 1))[: args.calls + WARMUP]
    py = sys.executable
    world = [py, "-m", "harness.mcp", "serve", "--env", "taubench"]
    with tempfile.TemporaryDirectory() as tmp:
        recording, registry = Path(tmp) / "traffic.jsonl", Path(tmp) / "registry.json"
        direct = _timed(world, env, orders)
        forward = _timed([py, "-m", "harness.monitor", "proxy", "--", *world], env, orders)
        _timed([py, "-m", "harness.monitor", "proxy", "--record", str(recording), "--", *world], env, orders)
        subprocess.run(
            [py, "-m", "harness.monitor", "learn", "--input", str(recording), "--out", str(registry)],
            check=True,
            capture_output=True,
            env=env,
        )
        checked = _timed(
            [py, "-m", "harness.monitor", "proxy", "--registry", str(registry), "--", *world], env, orders
        )
    ms = {
        k: 1000 * statistics.median(v)
        for k, v in (("direct", direct), ("forward", forward), ("checked", checked))
    }
    n = len(direct)
    print(f"MCP over stdio, get_order_details, {n} calls per connection (median per call):")
    print(f"  direct to the world server             {ms['direct']:.3f} ms")
    print(
        f"  through the proxy, forwarding only     {ms['forward']:.3f} ms  (+{ms['forward'] - ms['direct']:.3f} ms)"
    )
    print(
        f"  through the proxy, checking a registry {ms['checked']:.3f} ms  (+{ms['checked'] - ms['direct']:.3f} ms)"
    )
    print("goal: the proxy adds at most 1 ms per call at the median")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
