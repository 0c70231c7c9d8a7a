"""The bridge server loop: one JSON request per stdin line, one JSON reply per stdout line.

Runs INSIDE the AppWorld venv as ``python main.py`` (started by ``environments/appworld/bridge.py``).
Request ``{"id": n, "op": ..., ...}``; reply ``{"id": n, "ok": true, "result": ...}`` or
``{"id": n, "ok": false, "error": "..."}``. One world at a time (AppWorld mocks time process-wide).

Ops: ping, apis, seed, start, call, completed, evaluate, task_ids, close_world, sleep, exit.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
import warnings
from typing import Any


def _clock() -> float:
    # a frozen world patches time.perf_counter (freezegun); the raw monotonic clock keeps running
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def _protocol_stream():
    """The real stdout for replies; everything the package prints goes to stderr instead."""
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


class Server:
    def __init__(self) -> None:
        self.world: Any = None
        self._apis: list[dict[str, Any]] | None = None
        self._info: dict[str, Any] | None = None

    def apis(self) -> list[dict[str, Any]]:
        if self._apis is None:
            from docs import api_table, load_docs

            self._apis = api_table(load_docs())
        return self._apis

    def _close_world(self) -> None:
        if self.world is not None:
            world, self.world = self.world, None
            world.close()

    def handle(self, req: dict[str, Any]) -> Any:
        op = req.get("op")
        if op == "ping":  # cheap: importing appworld itself takes seconds
            if self._info is None:  # reading package metadata costs ~1 ms: once per process
                from importlib.metadata import version

                self._info = {
                    "pid": os.getpid(),
                    "appworld": version("appworld"),
                    "cache": os.environ.get("APPWORLD_CACHE"),
                    "root": os.environ.get("APPWORLD_ROOT"),
                }
            return self._info
        if op == "apis":
            return self.apis()
        if op == "seed":
            from worlds import SeededWorld

            self._close_world()
            self.world = SeededWorld(
                int(req.get("seed", 0)), int(req.get("n_objects", 4)), req.get("frozen_time")
            )
            return self.world.describe()
        if op == "start":
            from worlds import TaskWorld

            self._close_world()
            self.world = TaskWorld(str(req["task_id"]), str(req.get("experiment", "outcome-monitors")))
            return self.world.describe()
        if op == "call":
            if self.world is None:
                raise RuntimeError("no world: send 'seed' or 'start' first")
            road = str(req.get("road", "fast"))
            t0 = _clock()
            status, content = self.world.call(
                str(req["app"]), str(req["api"]), dict(req.get("args") or {}), road
            )
            ms = round(1e3 * (_clock() - t0), 3)
            # "served_by": the road that answered (the fast one hands unusual requests to AppWorld's)
            served = self.world.fast.last_road if road == "fast" else road
            return {"status_code": status, "content": content, "server_ms": ms, "served_by": served}
        if op == "completed":
            return bool(
                self.world is not None and hasattr(self.world, "completed") and self.world.completed()
            )
        if op == "evaluate":
            if not hasattr(self.world, "evaluate"):
                raise RuntimeError("no task world to evaluate: send 'start' first")
            return self.world.evaluate()
        if op == "task_ids":  # {split: [task ids] or None when the download lacks that split}
            from appworld.task import load_task_ids

            out: dict[str, Any] = {}
            for split in req.get("splits") or ["train"]:
                try:
                    out[split] = load_task_ids(str(split))
                except Exception:  # noqa: BLE001 (a split file the download does not have)
                    out[split] = None
            return out
        if op == "close_world":
            self._close_world()
            return True
        if op == "sleep":  # for tests of the client's timeout
            time.sleep(float(req.get("seconds", 1)))
            return True
        raise ValueError(f"unknown op {op!r}")


def main() -> int:
    warnings.filterwarnings("ignore")
    out = _protocol_stream()
    server = Server()
    for line in sys.stdin:
        if not line.strip():
            continue
        rid = None
        try:
            req = json.loads(line)
            rid = req.get("id")
            if req.get("op") == "exit":
                out.write(json.dumps({"id": rid, "ok": True, "result": True}) + "\n")
                out.flush()
                sys.stderr.flush()
                os._exit(0)  # the world is in memory: nothing to save, and the package's teardown is slow
            reply = {"id": rid, "ok": True, "result": server.handle(req)}
        except Exception as exc:  # noqa: BLE001 (every failure goes back as a reply, never kills the loop)
            traceback.print_exc(file=sys.stderr)
            reply = {"id": rid, "ok": False, "error": f"{type(exc).__name__}: {exc}"[:2000]}
        out.write(json.dumps(reply, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
