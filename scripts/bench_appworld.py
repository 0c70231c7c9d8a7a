"""Speed of the AppWorld bridge and its schema contracts (prints figures; no assertions).

    python scripts/bench_appworld.py [--calls 300] [--json]

Reports: the bridge round trip of one API call (``spotify__show_song`` on a seeded offline world,
JSON lines over a pipe, real app code) as a median in ms (goal under 5 ms), beside a bare ``ping``;
with the part spent in AppWorld's own request path inside the bridge; and the time to build schema contracts for all 457 APIs (fetch the success schemas from a fresh
bridge, then ``registry_from_schemas``; goal under 5 s). Needs ``make appworld-setup``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from environments.appworld import paths  # noqa: E402
from environments.appworld.bridge import Bridge  # noqa: E402
from environments.appworld.env import AppWorldEnv  # noqa: E402
from harness.monitor import registry_from_schemas  # noqa: E402


async def round_trips(n: int) -> dict[str, float]:
    bridge = await Bridge().start()
    try:
        t0 = time.perf_counter()
        world = await bridge.request("seed", seed=0)
        seed_s = time.perf_counter() - t0
        song = world["ids"]["spotify"]["Song"][0]
        ping, call, app_ms = [], [], []
        for _ in range(n):
            t = time.perf_counter()
            await bridge.request("ping")
            ping.append(time.perf_counter() - t)
            t = time.perf_counter()
            reply = await bridge.request("call", app="spotify", api="show_song", args={"song_id": song})
            call.append(time.perf_counter() - t)
            app_ms.append(reply["server_ms"])
        assert reply["status_code"] == 200, reply
        return {"seed_world_s": seed_s, "ping_median_ms": 1e3 * statistics.median(ping),
                "call_median_ms": 1e3 * statistics.median(call), "call_p90_ms": 1e3 * sorted(call)[int(0.9 * n)],
                "app_code_median_ms": statistics.median(app_ms)}
    finally:
        await bridge.close()


def contracts() -> dict[str, float]:
    t0 = time.perf_counter()
    schemas = AppWorldEnv().success_schemas()
    t1 = time.perf_counter()
    reg = registry_from_schemas(schemas)
    t2 = time.perf_counter()
    return {"n_apis": len(schemas), "n_rules": reg.n_rules, "fetch_schemas_s": t1 - t0,
            "build_registry_s": t2 - t1, "contracts_total_s": t2 - t0}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not paths.is_set_up():
        print(f"error: AppWorld is not set up: {paths.SETUP_HINT}", file=sys.stderr)
        return 2
    out = {**contracts(), **asyncio.run(round_trips(args.calls))}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"schema contracts for {out['n_apis']} APIs: {out['n_rules']} rules in {out['contracts_total_s']:.2f} s "
          f"(fetch {out['fetch_schemas_s']:.2f} s + build {out['build_registry_s']:.2f} s; goal < 5 s)")
    print(f"bridge round trip, one API call: median {out['call_median_ms']:.2f} ms, p90 {out['call_p90_ms']:.2f} ms "
          f"(goal < 5 ms); bare ping {out['ping_median_ms']:.2f} ms; over {args.calls} calls")
    print(f"  of which AppWorld's own request path (test client, FastAPI, SQLite) in the bridge: median "
          f"{out['app_code_median_ms']:.2f} ms")
    print(f"seeding one offline world: {out['seed_world_s']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
