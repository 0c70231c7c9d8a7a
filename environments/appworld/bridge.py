"""The main side of the AppWorld bridge: an async client for one bridge process, and a small pool.

A bridge is ``.appworld/venv/bin/python environments/appworld/server/main.py``, speaking JSON lines
over stdin/stdout, started with ``asyncio.create_subprocess_exec`` in its own process group. A
missing setup, a crashed bridge or a timeout raise :class:`BridgeError` (the harness records it as
an ``env_error``) and the process group is killed: no hung call, no orphan. Live bridges are also
killed at interpreter exit. Imports nothing from ``appworld`` (the main venv never does).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import signal
from typing import Any

from core.protocol import WorldUnavailable
from environments.appworld import paths

DEFAULT_TIMEOUT = 120.0  # seconds for one request (seeding a world takes ~10 s, a task world more)
_LIVE: set[int] = set()  # process group ids of running bridges, killed at exit


class BridgeError(WorldUnavailable):
    """The AppWorld bridge is missing, crashed, timed out or refused a request."""


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
    _LIVE.discard(pgid)


@atexit.register
def _kill_all() -> None:
    for pgid in list(_LIVE):
        _kill_group(pgid)


class Bridge:
    """One bridge process. ``await start()``, ``await request(op, **fields)``, ``await close()``."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, log_path: str | os.PathLike | None = None):
        self.timeout = timeout
        self.proc: asyncio.subprocess.Process | None = None
        self._next_id = 0
        self._lock = asyncio.Lock()
        self._log_path = log_path
        self._log: Any = None
        self.info: dict[str, Any] = {}

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def start(self) -> Bridge:
        if self.alive:
            return self
        if not paths.is_set_up():
            raise BridgeError(f"AppWorld is not set up: {paths.SETUP_HINT}")
        paths.CACHE.mkdir(parents=True, exist_ok=True)
        root = paths.root()
        root.mkdir(parents=True, exist_ok=True)
        log = self._log_path or paths.CACHE / "outcome-monitors" / "bridge.log"
        os.makedirs(os.path.dirname(log), exist_ok=True)
        self._log = open(log, "ab")  # noqa: SIM115 (closed in close())
        try:
            self.proc = await asyncio.create_subprocess_exec(
                str(paths.PYTHON),
                str(paths.SERVER),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=self._log,
                cwd=str(root),
                env=paths.bridge_env(),
                start_new_session=True,
                limit=64 * 2**20,
            )
        except OSError as exc:
            self._log.close()
            raise BridgeError(f"cannot start the AppWorld bridge ({exc}); {paths.SETUP_HINT}") from None
        _LIVE.add(self.proc.pid)
        self.info = await self.request("ping")
        return self

    async def request(self, op: str, timeout: float | None = None, **fields: Any) -> Any:
        """Send one request and wait for its reply; every failure is a :class:`BridgeError`."""
        if not self.alive or self.proc is None or self.proc.stdin is None or self.proc.stdout is None:
            raise BridgeError(f"AppWorld bridge is not running (op {op!r})")
        async with self._lock:
            self._next_id += 1
            rid = self._next_id
            line = json.dumps({"id": rid, "op": op, **fields}) + "\n"
            try:
                self.proc.stdin.write(line.encode())
                await self.proc.stdin.drain()
                raw = await asyncio.wait_for(self.proc.stdout.readline(), timeout or self.timeout)
            except TimeoutError:
                await self.kill()
                raise BridgeError(
                    f"AppWorld bridge timed out after {timeout or self.timeout:.0f} s on {op!r}; "
                    "it was killed"
                ) from None
            except (ConnectionError, BrokenPipeError) as exc:
                await self.kill()
                raise BridgeError(f"AppWorld bridge pipe broke on {op!r} ({exc})") from None
            except asyncio.CancelledError:
                # the reply would arrive out of turn: this bridge can no longer be trusted
                _kill_group(self.proc.pid)
                raise
            if not raw:
                code = await self.kill()
                raise BridgeError(
                    f"AppWorld bridge exited (code {code}) during {op!r}; "
                    f"see {paths.CACHE / 'outcome-monitors' / 'bridge.log'}"
                )
            try:
                reply = json.loads(raw)
            except ValueError:
                await self.kill()
                raise BridgeError(f"AppWorld bridge wrote a non-JSON line on {op!r}: {raw[:120]!r}") from None
            if reply.get("id") != rid:
                await self.kill()
                raise BridgeError(f"AppWorld bridge answered request {reply.get('id')} to request {rid}")
            if not reply.get("ok"):
                raise BridgeError(f"AppWorld bridge refused {op!r}: {reply.get('error')}")
            return reply.get("result")

    async def kill(self) -> int | None:
        """Kill the whole process group now; returns the exit code."""
        if self.proc is None:
            return None
        _kill_group(self.proc.pid)
        with contextlib.suppress(ProcessLookupError):
            await self.proc.wait()
        self._close_log()
        return self.proc.returncode

    async def close(self) -> None:
        """Ask the server to exit, then make sure the group is gone. Safe to call twice."""
        if self.alive and self.proc is not None:
            with contextlib.suppress(BridgeError, Exception):
                await self.request("exit", timeout=5)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.proc.wait(), 5)
        await self.kill()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None


class BridgePool:
    """At most ``size`` bridges at once; an episode takes one for its world and gives it back.

    One world per process (AppWorld mocks time process-wide): a bridge serves one episode at a
    time. A returned bridge that is still healthy is reused (the next world replaces the last).
    """

    def __init__(self, size: int = 2, timeout: float = DEFAULT_TIMEOUT):
        self.size = max(1, size)
        self.timeout = timeout
        self._idle: list[Bridge] = []
        self._all: set[Bridge] = set()
        self._slots = asyncio.Semaphore(self.size)

    async def acquire(self) -> Bridge:
        await self._slots.acquire()
        try:
            while self._idle:
                bridge = self._idle.pop()
                if bridge.alive:
                    try:
                        await bridge.request("ping", timeout=10)  # health check before reuse
                        return bridge
                    except BridgeError:
                        await bridge.kill()
                self._all.discard(bridge)
            bridge = Bridge(self.timeout)
            self._all.add(bridge)
            return await bridge.start()
        except BaseException:
            self._slots.release()
            raise

    async def release(self, bridge: Bridge) -> None:
        if bridge.alive:
            self._idle.append(bridge)
        else:
            self._all.discard(bridge)
        self._slots.release()

    async def close(self) -> None:
        for bridge in list(self._all):
            await bridge.close()
        self._all.clear()
        self._idle.clear()
