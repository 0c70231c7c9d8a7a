"""Speed of the AppWorld bridge and its schema contracts (prints figures; no assertions).

    python scripts/bench_appworld.py [--calls 300] [--frozen-time 2023-05-18T12:00:00] [--json]

Reports the bridge round trip of one API call on a seeded offline world (JSON lines over a pipe,
real app code; goal: median under 5 ms), for a read (``spotify.show_song``) and a write
(``like_song`` / ``unlike_song``), on the bridge's fast road and, side by side in the same run and
world, on AppWorld's own request path (its TestClient): median, p90, the time inside the bridge
(the request path alone) and the fast / AppWorld ratios; then every read API of the world once (a
probe each: its real mix of successes and errors) on the fast road. Also a bare ``ping``, and the time to build
schema contracts for all 457 APIs (fetch the success schemas from a fresh bridge, then
``registry_from_schemas``; goal under 5 s). Needs ``make appworld-setup``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from outcome_monitor.learning.derive import registry_from_schemas  # noqa: E402

from environments.appworld import paths  # noqa: E402
from environments.appworld.bridge import Bridge  # noqa: E402
from environments.appworld.env import AppWorldEnv  # noqa: E402
from environments.appworld.probe import probe_calls  # noqa: E402

ROADS = ("fast", "appworld")


def _median_p90(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return statistics.median(xs), xs[min(len(xs) - 1, int(0.9 * len(xs)))]


async def round_trips(n: int, frozen_time: str | None) -> dict[str, Any]:
    """``n`` rounds; each sends, on both roads in alternating order, one read (``show_song``) and one
    write pair (``like_song`` then ``unlike_song``, both 200), and a bare ``ping``."""
    bridge = await Bridge().start()
    try:
        t0 = time.perf_counter()
        world = await bridge.request("seed", seed=0, frozen_time=frozen_time)
        seed_s = time.perf_counter() - t0
        song = world["ids"]["spotify"]["Song"][0]
        token = world["tokens"]["spotify"]
        kinds = {
            "read": [("show_song", {"song_id": song})],
            "write": [
                ("like_song", {"song_id": song, "access_token": token}),
                ("unlike_song", {"song_id": song, "access_token": token}),
            ],
        }
        rt: dict[tuple[str, str], list[float]] = {(k, r): [] for k in kinds for r in ROADS}
        srv: dict[tuple[str, str], list[float]] = {(k, r): [] for k in kinds for r in ROADS}
        ping: list[float] = []
        # the seeded user may like the song already: start from "not liked" so every write is a 200
        await bridge.request(
            "call", app="spotify", api="unlike_song", args=kinds["write"][1][1], road="appworld"
        )
        for i in range(n):
            for road in ROADS if i % 2 else ROADS[::-1]:  # neither road always goes first
                for kind, calls in kinds.items():
                    for api, args in calls:
                        t = time.perf_counter()
                        reply = await bridge.request("call", app="spotify", api=api, args=args, road=road)
                        rt[kind, road].append(1e3 * (time.perf_counter() - t))
                        srv[kind, road].append(reply["server_ms"])
                        if reply["status_code"] != 200 or reply["served_by"] != road:
                            raise RuntimeError(f"unexpected reply to {api} on {road}: {reply}")
            t = time.perf_counter()
            await bridge.request("ping")
            ping.append(1e3 * (time.perf_counter() - t))
        # every read API of the world, a probe each (its real mix of 200s and 4xx), on the fast road
        apis = await bridge.request("apis")
        mixed: list[float] = []
        codes: dict[int, int] = {}
        for app, api, args in probe_calls(apis, world, random.Random(0), variants=1):
            t = time.perf_counter()
            reply = await bridge.request("call", app=app, api=api, args=args)
            mixed.append(1e3 * (time.perf_counter() - t))
            codes[reply["status_code"]] = codes.get(reply["status_code"], 0) + 1
        out: dict[str, Any] = {
            "seed_world_s": seed_s,
            "frozen_time": frozen_time,
            "rounds": n,
            "ping_median_ms": statistics.median(ping),
            "every_read_n": len(mixed),
            "every_read_codes": dict(sorted(codes.items())),
        }
        out["every_read_median_ms"], out["every_read_p90_ms"] = _median_p90(mixed)
        for (kind, road), xs in rt.items():
            med, p90 = _median_p90(xs)
            out[f"{kind}_{road}_median_ms"] = med
            out[f"{kind}_{road}_p90_ms"] = p90
            out[f"{kind}_{road}_server_median_ms"] = statistics.median(srv[kind, road])
        for kind in kinds:
            out[f"{kind}_ratio"] = out[f"{kind}_fast_median_ms"] / out[f"{kind}_appworld_median_ms"]
            out[f"{kind}_server_ratio"] = (
                out[f"{kind}_fast_server_median_ms"] / out[f"{kind}_appworld_server_median_ms"]
            )
        return out
    finally:
        await bridge.close()


def contracts() -> dict[str, float]:
    t0 = time.perf_counter()
    schemas = AppWorldEnv().success_schemas()
    t1 = time.perf_counter()
    reg = registry_from_schemas(schemas)
    t2 = time.perf_counter()
    return {
        "n_apis": len(schemas),
        "n_rules": reg.n_rules,
        "fetch_schemas_s": t1 - t0,
        "build_registry_s": t2 - t1,
        "contracts_total_s": t2 - t0,
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--calls", type=int, default=300, help="rounds (each: one read and one write pair per road)"
    )
    ap.add_argument(
        "--frozen-time",
        default=None,
        metavar="ISO",
        help="freeze the world's clock at this time, as a task world does (e.g. 2023-05-18T12:00:00)",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.calls < 1:
        print("error: --calls must be at least 1", file=sys.stderr)
        return 2
    if not paths.is_set_up():
        print(f"error: AppWorld is not set up: {paths.SETUP_HINT}", file=sys.stderr)
        return 2
    out = {**contracts(), **asyncio.run(round_trips(args.calls, args.frozen_time))}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(
        f"schema contracts for {out['n_apis']} APIs: {out['n_rules']} rules in {out['contracts_total_s']:.2f} s "
        f"(fetch {out['fetch_schemas_s']:.2f} s + build {out['build_registry_s']:.2f} s; goal < 5 s)"
    )
    clock = f"clock frozen at {args.frozen_time}" if args.frozen_time else "clock running"
    print(
        f"bridge round trip of one API call, {args.calls} rounds side by side, seeded world ({clock}); goal < 5 ms:"
    )
    for kind, what in (("read", "spotify.show_song"), ("write", "spotify.like_song / unlike_song")):
        for road in ROADS:
            label = "fast road" if road == "fast" else "AppWorld's own path"
            print(
                f"  {kind:5} {label:20} median {out[f'{kind}_{road}_median_ms']:.2f} ms, "
                f"p90 {out[f'{kind}_{road}_p90_ms']:.2f} ms; in the bridge (request path) "
                f"{out[f'{kind}_{road}_server_median_ms']:.2f} ms"
            )
        print(
            f"  {kind:5} fast / AppWorld: round trip x{out[f'{kind}_ratio']:.2f}, "
            f"request path x{out[f'{kind}_server_ratio']:.2f}   ({what})"
        )
    print(
        f"  every read API once ({out['every_read_n']} calls, status codes {out['every_read_codes']}), fast road: "
        f"median {out['every_read_median_ms']:.2f} ms, p90 {out['every_read_p90_ms']:.2f} ms"
    )
    print(f"bare ping round trip: median {out['ping_median_ms']:.2f} ms")
    print(f"seeding one offline world: {out['seed_world_s']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
