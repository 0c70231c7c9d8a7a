"""Shared AppWorld fixtures: one bridge per session holding one seeded offline world, and the real
responses drawn from it (kept in memory only: recorded responses are licence-bound).

Everything here skips, with what to run, when ``make appworld-setup`` has not been done.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from environments.appworld import paths
from environments.appworld.bridge import Bridge
from environments.appworld.probe import probe_calls

SETUP_REASON = f"AppWorld setup missing: {paths.SETUP_HINT}"


@pytest.fixture(scope="session")
def aw_loop():
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


@pytest.fixture(scope="session")
def seeded(aw_loop):
    """``(bridge, apis, world)``: a live bridge with the world seeded from seed 0."""
    if not paths.is_set_up():
        pytest.skip(SETUP_REASON)

    async def start():
        bridge = await Bridge().start()
        apis = await bridge.request("apis")
        world = await bridge.request("seed", seed=0)
        return bridge, apis, world

    bridge, apis, world = aw_loop.run_until_complete(start())
    yield bridge, apis, world
    aw_loop.run_until_complete(bridge.close())


@pytest.fixture(scope="session")
def responses(seeded, aw_loop):
    """Every probe call's real response: ``{tool, app, api, args, status_code, content}``."""
    bridge, apis, world = seeded
    calls = probe_calls(apis, world, random.Random(0), variants=12)

    async def run():
        out = []
        for app, api, args in calls:
            reply = await bridge.request("call", app=app, api=api, args=args)
            out.append({"tool": f"{app}__{api}", "app": app, "api": api, "args": args, **reply})
        return out

    return aw_loop.run_until_complete(run())
