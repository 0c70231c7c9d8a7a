"""The AppWorld environment (protocol v2) over the bridge: tool catalog, tasks, episodes.

Tools are AppWorld's 457 public APIs, named ``<app>__<api>`` (the openapi operationId); a GET is a
read, any other method a write, ``supervisor__complete_task`` the terminal tool. Tasks exist only
when the user's data download does (``$APPWORLD_ROOT/data/tasks``); without it ``tasks()`` says
what to run. Imports nothing from ``appworld``, ``harness`` or ``analysis``.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
from collections.abc import Mapping
from typing import Any

from core.protocol import (
    Outcome,
    Task,
    ToolCall,
    ToolResult,
    ToolSpec,
    UserModel,
    UserTurn,
    WorldUnavailable,
    unknown_tool_error,
    validate_arguments,
    validation_error,
)
from environments.appworld import paths
from environments.appworld.bridge import DEFAULT_TIMEOUT, Bridge, BridgeError, BridgePool

NAME = "appworld"
TERMINAL_TOOL = "supervisor__complete_task"
SPLITS = ("train", "dev", "test_normal", "test_challenge")


class AppWorldDataMissing(WorldUnavailable):
    """The benchmark tasks need the user's own data download."""


def fetch_sync(op: str, timeout: float = DEFAULT_TIMEOUT, **fields: Any) -> Any:
    """One request to a short-lived bridge, for synchronous callers (the catalog, task lists).

    Its own process group, killed on timeout; raises :class:`BridgeError` like the async client.
    """
    if not paths.is_set_up():
        raise BridgeError(f"AppWorld is not set up: {paths.SETUP_HINT}")
    paths.root().mkdir(parents=True, exist_ok=True)
    lines = json.dumps({"id": 1, "op": op, **fields}) + "\n" + json.dumps({"id": 2, "op": "exit"}) + "\n"
    proc = subprocess.Popen(
        [str(paths.PYTHON), str(paths.SERVER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=str(paths.root()),
        env=paths.bridge_env(),
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(lines.encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            import os
            import signal

            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise BridgeError(
            f"AppWorld bridge timed out after {timeout:.0f} s on {op!r}; it was killed"
        ) from None
    first = out.decode().splitlines()[0] if out else ""
    if not first:
        tail = err.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
        raise BridgeError(f"AppWorld bridge exited (code {proc.returncode}) during {op!r}: {tail[0]}")
    reply = json.loads(first)
    if not reply.get("ok"):
        raise BridgeError(f"AppWorld bridge refused {op!r}: {reply.get('error')}")
    return reply["result"]


def _category(row: Mapping[str, Any]) -> str:
    if row["name"] == TERMINAL_TOOL:
        return "terminal"
    return "read" if row["method"] == "get" else "write"


class AppWorldEnv:
    """AppWorld behind a pool of bridges. ``pool_size`` bridges (one world each) run at once."""

    name = NAME
    needs_user = False

    def __init__(
        self, pool_size: int = 2, timeout: float = DEFAULT_TIMEOUT, experiment: str = "outcome-monitors"
    ):
        self.pool_size = pool_size
        self.timeout = timeout
        self.experiment = experiment
        self._apis: list[dict[str, Any]] | None = None
        self._specs: dict[str, ToolSpec] | None = None
        self._tasks: dict[str, Task] | None = None
        self._pool: BridgePool | None = None

    # ------------------------------------------------------------------ catalog

    def apis(self) -> list[dict[str, Any]]:
        """Every public API as the bridge lists it (name, app, method, parameters, responses)."""
        if self._apis is None:
            self._apis = fetch_sync("apis", timeout=self.timeout)
        return self._apis

    def tool_specs(self) -> dict[str, ToolSpec]:
        if self._specs is None:
            self._specs = {
                r["name"]: ToolSpec(
                    name=r["name"],
                    description=r["description"],
                    parameters=r["parameters"],
                    category=_category(r),
                    domain=r["app"],
                    kind=r["method"],
                    output_schema=r["responses"].get("200"),
                )
                for r in self.apis()
            }
        return self._specs

    def success_schemas(self) -> dict[str, dict[str, Any]]:
        """``{api name: JSON Schema of its 200 response}`` for every API that declares one."""
        return {r["name"]: r["responses"]["200"] for r in self.apis() if r["responses"].get("200")}

    # ------------------------------------------------------------------ tasks

    def tasks(self, split: str = "all") -> list[Task]:
        if not paths.has_task_data():
            raise AppWorldDataMissing(paths.data_hint())
        if self._tasks is None:
            self._tasks = {}
            by_split = fetch_sync("task_ids", timeout=self.timeout, splits=list(SPLITS))
            for sp in SPLITS:
                for tid in by_split.get(sp) or []:  # None: a split the download lacks
                    self._tasks.setdefault(
                        tid,
                        Task(
                            task_id=tid,
                            group_id=tid.rsplit("_", 1)[0],
                            query="",
                            env=NAME,
                            split=sp,
                            terminal_tool=TERMINAL_TOOL,
                            strata={"split": sp},
                        ),
                    )
        return [t for t in self._tasks.values() if split in ("all", t.split)]

    def task(self, task_id: str) -> Task:
        for t in self.tasks("all"):
            if t.task_id == task_id:
                return t
        raise KeyError(f"unknown AppWorld task {task_id!r}")

    # ------------------------------------------------------------------ episodes

    def pool(self) -> BridgePool:
        if self._pool is None:
            self._pool = BridgePool(self.pool_size, self.timeout)
        return self._pool

    def episode(self, task_id: str, seed: int = 0, user: UserModel | None = None) -> AppWorldEpisode:
        return AppWorldEpisode(self, self.task(task_id), seed)

    async def aclose(self) -> None:
        """Stop this process's bridges; the next episode starts a new pool."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()


class AppWorldEpisode:
    """One task in one bridge's world. ``open`` takes a bridge from the pool; ``close`` gives it back."""

    def __init__(self, env: AppWorldEnv, task: Task, seed: int = 0):
        self.env = env
        self.task = task
        self.seed = seed
        self.bridge: Bridge | None = None
        self.info: dict[str, Any] = {}
        self.final_text: str | None = None

    def tools(self) -> list[ToolSpec]:
        specs = self.env.tool_specs()
        apps = set(self.info.get("allowed_apps") or []) | {"supervisor", "api_docs"}
        return [s for s in specs.values() if not self.info or s.domain in apps]

    async def open(self) -> str:
        self.bridge = await self.env.pool().acquire()
        try:
            # concurrent episodes of one task must not share AppWorld's output folder: one per bridge
            experiment = f"{self.env.experiment}-{self.bridge.pid}"
            self.info = await self.bridge.request("start", task_id=self.task.task_id, experiment=experiment)
        except BaseException:
            await self.close()
            raise
        sup = self.info.get("supervisor") or {}
        who = " ".join(str(sup.get(k, "")) for k in ("first_name", "last_name")).strip()
        contact = ", ".join(str(sup[k]) for k in ("email", "phone_number") if sup.get(k))
        return (
            f"I am {who} ({contact}). Today is {self.info.get('datetime')}. {self.info.get('instruction', '')}\n"
            f"When done, call {TERMINAL_TOOL} (with the answer, if the task asks a question)."
        )

    async def call(self, call: ToolCall) -> ToolResult:
        specs = self.env.tool_specs()
        spec = specs.get(call.name)
        if spec is None:
            return unknown_tool_error(call.name, list(specs))
        errors = validate_arguments(spec, call.arguments)
        if errors:
            return validation_error(call.name, errors)
        if self.bridge is None:
            raise BridgeError("episode is not open: await open() first")
        app, _, api = call.name.partition("__")
        reply = await self.bridge.request("call", app=app, api=api, args=dict(call.arguments))
        ok = reply["status_code"] == 200
        return ToolResult(
            content=reply["content"],
            status="ok" if ok else "error",
            terminal=ok and call.name == TERMINAL_TOOL,
            meta={"status_code": reply["status_code"], "server_ms": reply.get("server_ms")},
        )

    async def say(self, text: str) -> UserTurn:
        self.final_text = text
        return UserTurn(None, done=True)

    async def score(self) -> Outcome:
        if self.bridge is None:
            raise BridgeError("episode is not open: nothing to score")
        report = await self.bridge.request("evaluate")
        passes, failures = len(report.get("passes") or []), len(report.get("failures") or [])
        total = passes + failures
        return Outcome(
            success=bool(report.get("success")),
            score=passes / total if total else 0.0,
            details={"appworld": report, "final_text": self.final_text},
        )

    async def close(self) -> None:
        bridge, self.bridge = self.bridge, None
        if bridge is None:
            return
        if bridge.alive:
            with contextlib.suppress(BridgeError):
                await bridge.request("close_world", timeout=30)
        await self.env.pool().release(bridge)
