"""The bridge's lifecycle across the process boundary: errors are BridgeErrors, never hangs, never
orphans (a killed, timed-out, closed or abandoned bridge leaves no process behind)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from environments.appworld import paths
from environments.appworld.bridge import Bridge, BridgeError, BridgePool

pytestmark = pytest.mark.skipif(not paths.is_set_up(), reason=f"AppWorld setup missing: {paths.SETUP_HINT}")


def _gone(pid: int) -> bool:
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_ping_and_clean_close():
    async def run():
        bridge = await Bridge().start()
        pid = bridge.pid
        assert bridge.info["appworld"] == paths.APPWORLD_VERSION
        assert bridge.info["cache"] == str(paths.CACHE)  # every AppWorld cache under .appworld/
        await bridge.close()
        await bridge.close()  # twice is safe
        return pid

    assert _gone(asyncio.run(run()))


def test_killed_mid_episode_raises_and_leaves_no_process():
    async def run():
        bridge = await Bridge().start()
        pid = bridge.pid
        pending = asyncio.create_task(bridge.request("sleep", seconds=60))
        await asyncio.sleep(0.2)  # the request is in flight when the bridge dies
        os.kill(pid, 9)
        with pytest.raises(BridgeError, match="exited"):
            await pending
        assert not bridge.alive
        with pytest.raises(BridgeError, match="not running"):
            await bridge.request("ping")
        return pid

    assert _gone(asyncio.run(run()))


def test_timeout_kills_the_bridge():
    async def run():
        bridge = await Bridge().start()
        with pytest.raises(BridgeError, match="timed out"):
            await bridge.request("sleep", timeout=0.3, seconds=30)
        return bridge.pid

    assert _gone(asyncio.run(run()))


def test_refused_request_keeps_the_bridge():
    async def run():
        bridge = await Bridge().start()
        try:
            with pytest.raises(BridgeError, match="unknown op"):
                await bridge.request("no_such_op")
            with pytest.raises(BridgeError, match="no world"):
                await bridge.request("call", app="spotify", api="show_song", args={"song_id": 1})
            assert (await bridge.request("ping"))["pid"] == bridge.pid
        finally:
            await bridge.close()

    asyncio.run(run())


def test_missing_setup_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(paths, "STAMP", tmp_path / "no-stamp")

    async def run():
        with pytest.raises(BridgeError, match="make appworld-setup"):
            await Bridge().start()

    asyncio.run(run())


def test_abandoned_bridge_dies_with_its_parent(tmp_path):
    code = (
        "import asyncio\n"
        "from environments.appworld.bridge import Bridge\n"
        "async def main():\n"
        "    b = await Bridge().start()\n"
        "    print(b.pid, flush=True)\n"
        "asyncio.run(main())\n"  # exits without close(): atexit must reap the group
    )
    repo = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=repo, timeout=120)
    assert done.returncode == 0, done.stderr
    assert _gone(int(done.stdout.split()[0]))


def test_pool_caps_concurrency_and_reuses_bridges():
    async def run():
        pool = BridgePool(size=1)
        try:
            first = await pool.acquire()
            waiting = asyncio.create_task(pool.acquire())
            for _ in range(20):
                await asyncio.sleep(0)
            assert not waiting.done()  # one world per process, one process allowed
            await pool.release(first)
            second = await waiting
            assert second is first and second.alive
            os.kill(second.pid, 9)
            await second.proc.wait()
            await pool.release(second)
            third = await pool.acquire()  # a dead bridge is replaced, not handed out
            assert third is not second and third.alive
            await pool.release(third)
            return [first.pid, third.pid]
        finally:
            await pool.close()

    assert all(_gone(pid) for pid in asyncio.run(run()))


def test_concurrent_requests_on_two_bridges():
    async def run():
        a, b = await asyncio.gather(Bridge().start(), Bridge().start())
        try:
            pa, pb = await asyncio.gather(a.request("ping"), b.request("ping"))
            assert pa["pid"] != pb["pid"]
        finally:
            await asyncio.gather(a.close(), b.close())

    asyncio.run(run())


def test_episode_bridge_killed_mid_open_is_an_env_error_and_frees_the_slot():
    from core.protocol import Task
    from environments.appworld.env import AppWorldEnv, AppWorldEpisode

    async def run():
        env = AppWorldEnv(pool_size=1)
        ep = AppWorldEpisode(env, Task("offline_1", "offline", "", "appworld"))
        opening = asyncio.create_task(ep.open())
        while ep.bridge is None or ep.bridge.pid is None:
            await asyncio.sleep(0.02)
        pid = ep.bridge.pid
        await asyncio.sleep(0.2)  # 'start' is in flight (it imports appworld: seconds)
        os.kill(pid, 9)
        with pytest.raises(BridgeError, match="exited"):
            await opening
        assert ep.bridge is None  # the episode closed itself
        again = await env.pool().acquire()  # the slot came back; a fresh bridge replaces the dead one
        assert again.pid != pid and again.alive
        await env.pool().release(again)
        await env.aclose()
        return pid, again.pid

    assert all(_gone(pid) for pid in asyncio.run(run()))


def test_cancelled_request_retires_the_bridge():
    async def run():
        bridge = await Bridge().start()
        pending = asyncio.create_task(bridge.request("sleep", seconds=30))
        await asyncio.sleep(0.1)
        pending.cancel()
        with pytest.raises(asyncio.CancelledError):
            await pending
        await bridge.proc.wait()  # killed: its late reply can never be read as another request's
        await bridge.close()
        return bridge.pid

    assert _gone(asyncio.run(run()))
