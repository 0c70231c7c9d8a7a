"""Any discovered world's tools over MCP stdio, on one fresh episode (database) kept for the session.

    python -m harness.mcp serve --env WORLD [--domain D] [--option KEY=VALUE] [--task ID]
                                [--fault NAME --seed N --rate P]

The world is found by name (``core.worlds.get_plugin``), never imported. Every tool of the world is
listed with its JSON Schema; a call runs on the session's episode and its content comes back as one
text block (JSON text for structured content); a world's own error (``status: error``) is an MCP tool
result with ``isError``. With ``--fault NAME`` (a ``conf/fault/NAME.yaml`` of any world, as the studies
name them) each result the fault can touch is corrupted with probability ``--rate`` (default 1), drawn
per call from ``--seed``; the injector is the studies' own (``harness.faults.inject.FaultInjector``),
so a permanent fault keeps hitting the field it chose. What was corrupted goes to stderr, never to the
client. Bad input stops the server at start with one line on stderr (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from types import SimpleNamespace
from typing import Any, NoReturn

from core.protocol import ToolCall, ToolResult
from core.seeding import rng

SESSION_STEPS = 10**9  # a session is not an episode: no step budget


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def _die(message: str) -> NoReturn:
    sys.stderr.write(f"harness.mcp serve: error: {message}\n")
    raise SystemExit(2)


class WorldSession:
    """One episode of a world, its tools, and an optional fault on its results."""

    def __init__(
        self,
        env_name: str,
        options: dict[str, Any],
        task_id: str | None = None,
        fault: str | None = None,
        seed: int = 0,
        rate: float = 1.0,
    ):
        from core.worlds import UnknownEnvironmentError, get_plugin

        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"--rate must be within [0, 1], got {rate}")
        try:
            plugin = get_plugin(env_name)
        except UnknownEnvironmentError as exc:
            raise ValueError(exc.args[0] if exc.args else str(exc)) from None
        try:
            env = plugin.make(max_steps=SESSION_STEPS, **options)
        except TypeError:  # a world without a step budget
            env = plugin.make(**options)
        tasks = env.tasks()
        if not tasks:
            raise ValueError(f"world {env_name!r} has no task to open an episode on")
        self.task = env.task(task_id) if task_id else tasks[0]
        self.episode = env.episode(self.task.task_id, seed=seed)
        self.specs = {s.name: s for s in self.episode.tools()}
        self.seed = int(seed)
        self.rate = float(rate)
        self.injector = _injector(fault, seed) if fault else None
        self.calls = 0
        self.per_tool: Counter[str] = Counter()
        self.labels: dict[str, Any] = {}

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        if name not in self.specs:
            return ToolResult(f"Error: unknown tool {name!r}", status="error")
        call = ToolCall(name, dict(arguments))
        result = await self.episode.call(call)
        if self.injector is not None and rng(self.seed, "mcp-serve-rate", self.calls).random() < self.rate:
            ctx = SimpleNamespace(
                episode=self.episode,
                task=self.task,
                seed=self.seed,
                call_index=self.calls,
                calls_per_tool=dict(self.per_tool),
                labels=self.labels,
            )
            result = self.injector(call, result, ctx)
            fault = result.meta.get("injected_fault")
            if fault:
                sys.stderr.write(
                    f"harness.mcp serve: call {self.calls} {name}: {fault['name']} at {fault['path']}: "
                    f"{json.dumps(fault['original'], default=repr)} -> {json.dumps(fault['corrupted'], default=repr)}\n"
                )
        self.calls += 1
        self.per_tool[name] += 1
        return result


def _injector(name: str, seed: int) -> Any:
    import yaml

    from core.worlds import config_file
    from harness.faults.inject import FaultInjector

    path = config_file("fault", name)
    if path is None:
        raise ValueError(f"unknown fault {name!r}: no conf/fault/{name}.yaml in any world")
    return FaultInjector(yaml.safe_load(path.read_text()), seed=seed)


def text_of(result: ToolResult) -> str:
    return (
        result.content if isinstance(result.content, str) else json.dumps(result.content, ensure_ascii=False)
    )


async def serve(session: WorldSession) -> None:
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    tools = [
        types.Tool(name=s.name, description=s.description, input_schema=_plain(s.parameters))
        for s in session.specs.values()
    ]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        result = await session.call(params.name, params.arguments or {})
        return types.CallToolResult(
            content=[types.TextContent(text=text_of(result))], is_error=result.status == "error"
        )

    server = Server("outcome-monitors-world", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def _plain(obj: Any) -> Any:
    if isinstance(obj, dict) or hasattr(obj, "items"):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    return obj


def main(argv: list[str] | None = None) -> int:
    ap = _Parser(prog="python -m harness.mcp", description="a world's tools over MCP stdio")
    sub = ap.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    sp = sub.add_parser("serve", help="serve a discovered world's tools over MCP stdio")
    sp.add_argument("--env", required=True, help="a discovered world (python -m environments list)")
    sp.add_argument("--domain", help="the world's option 'domain' (tau-bench: retail or airline)")
    sp.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="another world option")
    sp.add_argument("--task", help="the task whose episode opens the session (default: the first)")
    sp.add_argument(
        "--fault", help="a fault config name as the studies use it (conf/fault/NAME.yaml of a world)"
    )
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--rate", type=float, default=1.0, help="probability a touchable result is corrupted")
    args = ap.parse_args(argv)
    options: dict[str, Any] = {}
    for kv in args.option:
        key, eq, value = kv.partition("=")
        if not eq:
            _die(f"--option {kv!r}: expected KEY=VALUE")
        options[key] = value
    if args.domain:
        options["domain"] = args.domain
    if args.rate != 1.0 and not args.fault:
        _die("--rate needs --fault")
    try:
        import mcp  # noqa: F401
    except ImportError:
        _die("the MCP SDK is not installed: run `make mcp` (the 'mcp' extra)")
    try:
        session = WorldSession(args.env, options, args.task, args.fault, args.seed, args.rate)
    except (ValueError, KeyError, TypeError, OSError) as exc:
        _die(str(exc.args[0]) if exc.args else repr(exc))
    except Exception as exc:  # a world that cannot start (its data missing): one line
        _die(f"{type(exc).__name__}: {exc}")
    import anyio

    try:
        anyio.run(serve, session)
    except KeyboardInterrupt:
        return 0
    return 0
