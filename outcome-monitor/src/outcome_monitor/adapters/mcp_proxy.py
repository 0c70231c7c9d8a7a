"""The outcome monitor in front of any MCP server (stdio): record clean traffic, check every result.

    outcome-monitor proxy [--record FILE] [--registry FILE] [--delivery immediate|deferred]
        [--timeout S] [--http HOST:PORT] [--no-output-schemas] [--keep-output-schemas]
        (-- COMMAND ARGS... | --upstream-url URL)

An MCP server on stdio (or streamable HTTP at ``http://HOST:PORT/mcp`` with ``--http``) that starts the
upstream MCP server ``COMMAND ARGS...`` (stdio, with this process's environment), or connects to one
over streamable HTTP (``--upstream-url``), and forwards tool listing and tool calls to it.

``--record FILE``: each call that returned without an error is appended as one JSON line
``{"tool", "arguments", "result", "status"}`` (``learn --input FILE`` reads it as it is; a file that
ends in a partial line gets a newline first); a result is its ``structuredContent``, else its text
block(s), each read as JSON, else as a Python literal, else kept as text (``text.parse_text``). Text sent
without ``isError`` that has the tool's own ``isError`` shape or a common error prefix is written with
``"status": "error"`` and the reason, so ``learn`` skips it.

Contracts: the registry's, and each listed tool's declared ``outputSchema`` (``derive.from_json_schema``;
``--no-output-schemas`` leaves them out). Upstream calls go through the SDK's ``send_request``, so no
client-side validation turns a result that breaks its schema into an error: it is forwarded raw, with a
receipt naming what broke. A tool whose schema the proxy checks is listed to the client without it, so
a client that validates results (the SDK's ``call_tool``) gets that result and receipt instead of
raising; ``--keep-output-schemas`` lists them as declared (``--drop-output-schemas``, the old opt-in, is
now the default). With ``--no-output-schemas`` they are listed as declared: nothing of the proxy's
depends on them then, and the client validates as it would without the proxy.

``--registry FILE``: each result is checked (``Monitor.annotate``, variant full). On a violation the
raw content stays unchanged and first; one more text block ``[outcome monitor] {receipt}`` follows it
and the structured receipt goes under the result's ``_meta`` key ``outcome_monitor``. With
``--delivery deferred`` the receipt rides on the next result the client receives. A result the monitor
cannot check passes through raw, one line on stderr, counted. No model call, no repair, no blocking.

Failures stay contained: an upstream that crashes, hangs past ``--timeout`` (default 30 s) or sends a
malformed result gives the client an MCP error for that call and one line on stderr; an upstream that
exited (noticed when its output closes) or hung is started again by the next request (a world server's
state then starts afresh). An upstream that cannot start (never answers ``initialize``, at start or on a
restart) stops the proxy: one line, exit 1. A registry that cannot be read stops it at start (one line,
exit 2). The closing stderr line counts every call answered, the receipts, and the calls answered with
an error. Needs the ``mcp`` extra (``make mcp``).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn, cast

from outcome_monitor.learning.status import result_error
from outcome_monitor.receipts.monitor import Monitor
from outcome_monitor.receipts.tools import ToolInfo
from outcome_monitor.registry import KIND, Registry
from outcome_monitor.text.parse import error_shape, parse_text

if TYPE_CHECKING:
    from outcome_monitor.receipts.receipt import Receipt

PREFIX = "[outcome monitor]"
META_KEY = "outcome_monitor"
DELIVERIES = ("immediate", "deferred")
INTERNAL_ERROR = -32603


def _say(message: str) -> None:
    sys.stderr.write(f"outcome monitor proxy: {message}\n")
    sys.stderr.flush()


def _die(message: str) -> NoReturn:
    _say(f"error: {message}")
    raise SystemExit(2)


def load_registry(path: str) -> Registry:
    """One registry file (a cross-fit file's folds belong to studies, not to a live proxy)."""
    try:
        obj = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        _die(f"cannot read the registry {path}: {exc.strerror or exc}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        _die(f"the registry {path} is not JSON: {exc}")
    if not isinstance(obj, dict):
        _die(f"the registry {path} is not a registry (a JSON object from `learn --out`)")
    if obj.get("kind") not in (None, KIND):
        # a cross-fit file's folds belong to studies, not to a live proxy
        _die(f"{path} is a {obj.get('kind')} file, not one registry (`outcome-monitor learn --out FILE`)")
    try:
        return Registry.from_json(obj)
    except Exception as exc:  # any malformed registry: one line
        _die(f"the registry {path} cannot be read: {type(exc).__name__}: {exc}")


def parse_result(result: Any) -> Any:
    """A CallToolResult's content as the monitor and the recording see it: its structured content,
    else each text block as JSON, else as a Python literal, else as text (``text.parse_text``)."""
    if result.structured_content is not None:
        return result.structured_content
    values = []
    for block in result.content:
        text = getattr(block, "text", None)
        if text is None:
            values.append(block.model_dump(by_alias=True, exclude_none=True, mode="json"))
            continue
        values.append(parse_text(text))
    return values[0] if len(values) == 1 else values


def _texts(result: Any) -> str:
    return "\n".join(t for b in result.content if isinstance(t := getattr(b, "text", None), str))


def tool_spec(tool: Any) -> ToolInfo:
    """An MCP tool as a catalog entry (recovery tools): annotated destructive or not read-only is a write."""
    ann = tool.annotations
    write = ann is not None and (ann.destructive_hint or ann.read_only_hint is False)
    category = "write" if write else "read"
    return ToolInfo(name=tool.name, category=category)


class Checker:
    """Recording and checking, independent of transport (the proxy's per-call work).

    The contracts checked are the learned registry's and, unless ``schemas`` is off, those the
    upstream's listed tools declare in their ``outputSchema`` (``derive.from_json_schema``): a
    result that breaks its own declared shape is what the monitor is for, so it is forwarded raw
    with a receipt, never turned into an error."""

    def __init__(
        self,
        registry: Registry | None = None,
        record: IO[str] | None = None,
        delivery: str = "immediate",
        schemas: bool = True,
        keep_schemas: bool | None = None,
    ):
        if delivery not in DELIVERIES:
            raise ValueError(f"--delivery must be one of {', '.join(DELIVERIES)}, got {delivery!r}")
        self.learned = registry
        self.schemas = schemas
        # how tools are listed to the client: None drops the outputSchema of each tool whose schema the
        # proxy checks (a client validating against it would raise on what the monitor is there to
        # flag), True lists every tool as declared, False drops every outputSchema
        self.keep_schemas = keep_schemas
        self.declared: dict[str, Any] = {}  # tool -> its outputSchema, as last listed
        self.catalog: dict[str, ToolInfo] = {}
        self.monitor = Monitor(registry) if registry is not None else None
        self.record = record
        self.delivery = delivery
        self.pending: list[tuple[str, Receipt]] = []
        self.error_shapes: dict[str, set[str]] = {}  # tool -> shapes of its isError texts
        # calls answered (counted by the server loop), receipts, calls answered with an error, results
        # passed through unchecked (the monitor could not read them)
        self.n_calls = self.n_receipts = self.n_errors = self.n_error_text = self.n_unchecked = 0

    def set_catalog(self, tools: Sequence[Any]) -> None:
        self.catalog = {t.name: tool_spec(t) for t in tools}
        if self.schemas:
            declared = {t.name: t.output_schema for t in tools if getattr(t, "output_schema", None)}
            if declared != self.declared:
                self.declared = declared
                self.monitor = self._monitor()
        if self.monitor is not None:
            self.monitor.catalog = dict(self.catalog)

    def for_client(self, tools: Sequence[Any]) -> list[Any]:
        """The upstream's tools as the proxy lists them to its client (see ``keep_schemas``)."""
        if self.keep_schemas:
            return list(tools)
        return [
            t.model_copy(update={"output_schema": None})
            if getattr(t, "output_schema", None) and (self.keep_schemas is False or t.name in self.declared)
            else t
            for t in tools
        ]

    def _monitor(self) -> Monitor | None:
        from outcome_monitor.learning.derive import registry_from_schemas

        declared = registry_from_schemas(self.declared) if self.declared else None
        if self.learned is not None and declared is not None:
            return Monitor(self.learned.merged(declared))
        chosen = self.learned if self.learned is not None else declared
        return Monitor(chosen) if chosen is not None else None

    def process(self, name: str, arguments: dict[str, Any], result: Any) -> Any:
        """``result`` (an upstream CallToolResult) as the client gets it."""
        if result.is_error:
            text = _texts(result)
            shape = error_shape(text)
            if shape:
                self.error_shapes.setdefault(name, set()).add(shape)
            if self.record is not None:
                # kept as an error row: learn reads the tool's own error shape from it
                self._write(
                    {
                        "tool": name,
                        "arguments": arguments,
                        "result": text,
                        "status": "error",
                        "error": "isError",
                    }
                )
            return self._deliver(result, [])
        if self.record is None and self.monitor is None:
            return result  # forwarding only
        value = parse_result(result)
        if self.record is not None:
            # the one status inference learn uses too (status.py): error text, error objects, wrapped errors
            why = result_error(value, self.error_shapes.get(name, ()))
            row = {"tool": name, "arguments": arguments, "result": value, "status": "ok"}
            if why is not None:  # an error the server sent without isError: not a clean row
                row["status"] = "error"
                row["error"] = f"a result without isError that is {why}"
                self.n_error_text += 1
            self._write(row)
        fresh: list[tuple[str, Receipt]] = []
        if self.monitor is not None:
            ann = self.monitor.annotate(name, arguments, value)
            if ann.note is not None:  # passed through raw: say so once per result
                self.n_unchecked += 1
                _say(f"{name}: {ann.note}")
            if ann.receipt is not None:
                self.n_receipts += 1
                fresh.append((name, ann.receipt))
        if self.delivery == "deferred":
            due, self.pending = self.pending, fresh
            return self._deliver(result, due, deferred=True)
        return self._deliver(result, fresh)

    def _write(self, row: dict[str, Any]) -> None:
        assert self.record is not None
        self.record.write(json.dumps(row, ensure_ascii=False, default=repr) + "\n")
        self.record.flush()

    def _deliver(self, result: Any, receipts: list[tuple[str, Receipt]], deferred: bool = False) -> Any:
        if self.delivery == "deferred" and result.is_error:
            receipts, self.pending = self.pending, []
            deferred = True
        if not receipts:
            return result
        import mcp_types as types

        blocks = []
        for tool, receipt in receipts:
            about = f" (about the previous {tool} result)" if deferred else ""
            blocks.append(
                types.TextContent(
                    text=f"{PREFIX}{about} {json.dumps(receipt, ensure_ascii=False, default=repr)}"
                )
            )
        meta = dict(result.meta or {})
        structured = [r for _, r in receipts] if deferred else receipts[0][1]
        meta[META_KEY] = structured
        return result.model_copy(update={"content": [*result.content, *blocks], "meta": meta})


class Upstream:
    """The upstream MCP server over stdio, (re)started on demand and owned by one task.

    Started at once; one that never answers ``initialize`` (a command that does not exist, exits or
    hangs) cannot start, and the proxy stops (``cannot_start``). One that exits later is noticed when
    its output closes, so the very next request starts it again."""

    def __init__(self, command: str | None, args: list[str], timeout: float, url: str | None = None):
        from mcp.client.stdio import StdioServerParameters

        self.url = url
        self.command = command
        self.params = (
            StdioServerParameters(command=command, args=args, env=dict(os.environ)) if command else None
        )
        self.timeout = timeout
        self.session: Any = None
        self.error: str | None = None
        self.fatal: str | None = None  # why the upstream cannot start (the proxy then stops)

    async def run(self, task_status: Any) -> None:
        import anyio

        self._wanted = anyio.Event()
        self._wanted.set()
        self._ready = anyio.Event()
        self._stop = anyio.Event()
        self.cannot_start = anyio.Event()
        task_status.started()
        while True:
            await self._wanted.wait()
            self._wanted = anyio.Event()  # a request during this connection asks for the next one
            self._up = False
            failure: Exception | None = None
            try:
                await self._connect()
            except Exception as exc:  # could not start, or the connection broke
                failure = exc
            self.session = None
            if not self._up:  # it never answered initialize: it cannot start, and the proxy stops
                self.fatal = self.error = _cannot_start(self.url or self.command or "", failure, self.timeout)
                self._ready.set()  # wake the requests waiting for it: they report the error
                self.cannot_start.set()
                return
            if failure is not None:
                self.error = _short(failure)
                _say(f"upstream stopped: {self.error}; it starts again on the next request")

    async def _connect(self) -> None:
        import anyio
        from mcp import ClientSession
        from mcp.client.stdio import StdioServerParameters, stdio_client
        from mcp.client.streamable_http import streamable_http_client

        transport = (
            streamable_http_client(self.url)
            if self.url
            else stdio_client(cast("StdioServerParameters", self.params))
        )
        async with transport as (read, write):
            watched = _Watched(read)
            async with ClientSession(watched, write) as session:
                with anyio.fail_after(self.timeout):
                    await session.initialize()
                self.session, self.error, self._up = session, None, True
                self._ready.set()
                async with anyio.create_task_group() as tg:  # until restart() or the upstream's exit

                    async def until(event: Any) -> None:
                        await event.wait()
                        tg.cancel_scope.cancel()

                    tg.start_soon(until, self._stop)
                    tg.start_soon(until, watched.ended)
                if watched.ended.is_set() and self.session is session:
                    self.session = None  # before any request can reach the closed session
                    _say("upstream exited; it starts again on the next request")

    async def get(self) -> Any:
        import anyio

        if self.session is None and self.fatal is None:
            if self._ready.is_set():
                self._ready = anyio.Event()
            self._wanted.set()
            await self._ready.wait()
        if self.session is None:
            raise _mcp_error(f"upstream unavailable: {self.error}")
        return self.session

    def restart(self) -> None:
        """Drop a session that hung or lost its connection: its task ends it, the next request starts
        a new one (a world server's session state starts afresh)."""
        import anyio

        if self.session is not None:
            self.session = None
            stop, self._stop = self._stop, anyio.Event()
            stop.set()


class _Watched:
    """The upstream's read stream, noting its end (the upstream exited or closed its output)."""

    def __init__(self, stream: Any):
        import anyio

        self.stream, self.ended = stream, anyio.Event()

    def __getattr__(self, name: str) -> Any:  # receive, aclose, last_context (read by the SDK)
        return getattr(self.stream, name)

    def __aiter__(self) -> _Watched:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.stream.__anext__()
        except (StopAsyncIteration, Exception):  # EOF, or the stream closed under the reader
            self.ended.set()
            raise

    async def __aenter__(self) -> _Watched:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stream.aclose()


def _cannot_start(upstream: str, failure: Exception | None, timeout: float) -> str:
    """Why the upstream never answered ``initialize``, in words."""
    while isinstance(failure, BaseExceptionGroup) and len(failure.exceptions) == 1:
        failure = cast("Exception", failure.exceptions[0])
    if isinstance(failure, FileNotFoundError):
        why = "no such command"
    elif isinstance(failure, PermissionError):
        why = "the command cannot be run (permission denied)"
    elif isinstance(failure, TimeoutError):
        why = f"no answer to initialize within {timeout:g} s"
    elif failure is not None and _lost(failure):
        why = "it exited (or closed its output) before answering initialize"
    else:
        why = _short(failure) if failure is not None else "it stopped before answering initialize"
    return f"the upstream cannot start: {upstream}: {why}"


def _lost(exc: BaseException) -> bool:
    """The connection to the upstream is gone (it exited or closed its pipes)."""
    from mcp.shared.exceptions import MCPError
    from mcp_types.jsonrpc import CONNECTION_CLOSED

    return isinstance(exc, MCPError) and exc.code == CONNECTION_CLOSED


def _short(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_short(e) for e in exc.exceptions)
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _mcp_error(message: str) -> Exception:
    from mcp.shared.exceptions import MCPError

    return MCPError(code=INTERNAL_ERROR, message=f"outcome monitor proxy: {message}")


class _PipeLines:
    """The proxy's stdin as lines read on the event loop (``anyio.AsyncFile``'s ``async for``)."""

    def __init__(self, reader: Any):
        self.reader = reader

    def __aiter__(self) -> _PipeLines:
        return self

    async def __anext__(self) -> str:
        line: bytes = await self.reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


class _PipeWriter:
    """The proxy's stdout written on the event loop (``anyio.AsyncFile``'s ``write`` and ``flush``)."""

    def __init__(self, writer: Any):
        self.writer = writer

    async def write(self, text: str) -> None:
        self.writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self.writer.drain()  # waits only while the pipe is full


MAX_LINE = 1 << 26  # one JSON-RPC message per line; results of many MB are legitimate


async def _stdio_pipes() -> tuple[Any, Any]:
    """stdin and stdout on the event loop when both are pipes or sockets (as an MCP client starts a
    server), else (None, None): the SDK's defaults. The SDK's default stdio server hands every line
    read and written to a worker thread, and on a busy machine each hand-off costs about a millisecond,
    which is most of what the proxy adds per call."""
    import asyncio
    import stat

    try:
        kinds = [os.fstat(fd).st_mode for fd in (0, 1)]
        loop = asyncio.get_running_loop()
    except (OSError, RuntimeError):
        return None, None
    if not all(stat.S_ISFIFO(m) or stat.S_ISSOCK(m) for m in kinds):
        return None, None
    # duplicates, so closing the transports never closes the process's own stdin and stdout
    reader = asyncio.StreamReader(limit=MAX_LINE)
    await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(os.dup(0), "rb", buffering=0)
    )
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(os.dup(1), "wb", buffering=0)
    )
    return _PipeLines(reader), _PipeWriter(asyncio.StreamWriter(transport, protocol, None, loop))


async def _call(session: Any, name: str, arguments: dict[str, Any]) -> Any:
    """tools/call through the SDK's public ``send_request``, not ``call_tool``: ``call_tool``
    validates structured content against the tool's ``outputSchema`` and raises on a mismatch, which
    would hide from the monitor (and the agent) exactly the results it is there to flag."""
    import mcp_types as types

    request = types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=arguments))
    return await session.send_request(request, types.CallToolResult)


async def run_proxy(upstream: Upstream, checker: Checker, http: tuple[str, int] | None = None) -> None:
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        session = await upstream.get()
        try:
            with anyio.fail_after(upstream.timeout):
                listed: types.ListToolsResult = await session.list_tools(params=params)
        except Exception as exc:
            if isinstance(exc, TimeoutError) or _lost(exc):
                upstream.restart()
            _say(f"tools/list failed upstream: {_short(exc)}")
            raise _mcp_error(f"tools/list failed upstream: {_short(exc)}") from None
        checker.set_catalog(listed.tools)
        return listed.model_copy(update={"tools": checker.for_client(listed.tools)})

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        checker.n_calls += 1
        try:
            session = await upstream.get()
        except Exception:
            checker.n_errors += 1
            raise
        if not checker.catalog and (checker.monitor is not None or checker.schemas):
            try:
                with anyio.fail_after(upstream.timeout):
                    checker.set_catalog((await session.list_tools()).tools)
            except Exception:
                pass  # recovery tools then fall back to a retry of the same tool
        arguments = dict(params.arguments or {})
        try:
            with anyio.fail_after(upstream.timeout):
                result = await _call(session, params.name, arguments)
        except TimeoutError:
            checker.n_errors += 1
            upstream.restart()
            _say(f"{params.name}: no answer from upstream within {upstream.timeout:g} s; upstream restarted")
            raise _mcp_error(
                f"{params.name}: no answer from upstream within {upstream.timeout:g} s"
            ) from None
        except Exception as exc:
            checker.n_errors += 1
            if _lost(exc):
                upstream.restart()
            _say(f"{params.name}: upstream failed: {_short(exc)}")
            raise _mcp_error(f"{params.name}: upstream failed: {_short(exc)}") from None
        if not isinstance(result, types.CallToolResult):
            checker.n_errors += 1
            _say(f"{params.name}: upstream sent no tool result ({type(result).__name__})")
            raise _mcp_error(f"{params.name}: upstream sent no tool result")
        try:
            checked: types.CallToolResult = checker.process(params.name, arguments, result)
            return checked
        except Exception as exc:  # a result the monitor cannot read: the raw result, and say so
            checker.n_unchecked += 1
            _say(f"{params.name}: not checked: {_short(exc)}")
            return result

    async def stop_if_upstream_cannot_start() -> None:
        await upstream.cannot_start.wait()
        await anyio.sleep(0.2)  # the requests that waited for it are answered with its error first
        tg.cancel_scope.cancel()

    server = Server("outcome-monitor-proxy", on_list_tools=list_tools, on_call_tool=call_tool)
    async with anyio.create_task_group() as tg:
        await tg.start(upstream.run)
        tg.start_soon(stop_if_upstream_cannot_start)
        if http is None:
            pipes = await _stdio_pipes()
            async with stdio_server(*pipes) as (read, write):
                await server.run(read, write, server.create_initialization_options())
        else:
            import uvicorn

            host, port = http
            app = server.streamable_http_app(host=host)
            config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
            _say(f"serving streamable HTTP at http://{host}:{port}/mcp")
            await uvicorn.Server(config).serve()
        tg.cancel_scope.cancel()


def _host_port(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        _die(f"--http wants HOST:PORT (e.g. 127.0.0.1:8765), got {text!r}")
    return host, int(port)


def main(args: Any) -> int:
    if args.command and args.upstream_url:
        _die("give the upstream once: --upstream-url URL or -- COMMAND ARGS..., not both")
    if not args.command and not args.upstream_url:
        _die("no upstream: outcome-monitor proxy [options] -- COMMAND ARGS... (or --upstream-url URL)")
    if args.upstream_url and not args.upstream_url.startswith(("http://", "https://")):
        _die(f"--upstream-url must start with http:// or https://, got {args.upstream_url!r}")
    http = _host_port(args.http) if args.http else None
    if args.timeout <= 0:
        _die(f"--timeout must be positive, got {args.timeout}")
    try:
        import anyio
        import mcp  # noqa: F401
    except ImportError:
        _die(
            'the MCP SDK is not installed: pip install "outcome-monitor[mcp]" (in this repository: make mcp)'
        )
    keep, drop = getattr(args, "keep_output_schemas", False), getattr(args, "drop_output_schemas", False)
    if keep and drop:
        _die("--keep-output-schemas and --drop-output-schemas ask for opposite listings: give one")
    registry = load_registry(args.registry) if args.registry else None
    record = _open_recording(args.record) if args.record else None
    schemas = not getattr(args, "no_output_schemas", False)
    checker = Checker(registry, record, args.delivery, schemas, True if keep else (False if drop else None))
    command = args.command[0] if args.command else None
    upstream = Upstream(command, list(args.command[1:]), args.timeout, args.upstream_url)
    try:
        anyio.run(run_proxy, upstream, checker, http)
    except KeyboardInterrupt:
        pass
    finally:
        if record is not None:
            record.close()
    counts = (
        f"{checker.n_calls} calls, {checker.n_receipts} receipts, {checker.n_errors} answered with an error"
        + (f", {checker.n_unchecked} results not checked" if checker.n_unchecked else "")
        + (f", {checker.n_error_text} error texts not recorded as clean" if checker.n_error_text else "")
    )
    if upstream.fatal is not None:  # one line: why, and what the client got before the proxy stopped
        _say(f"error: {upstream.fatal}; stopped after {counts}")
        return 1
    _say(counts)
    return 0


def _open_recording(path: str) -> IO[str]:
    """``path`` opened for appending rows; one that ends in a partial line (a writer killed mid-row)
    gets a newline first, so the next row is never glued onto it (``learn`` then names that line)."""
    try:
        record = open(path, "a", encoding="utf-8")  # noqa: SIM115 - open for the proxy's life
        with open(path, "rb") as old:
            size = old.seek(0, os.SEEK_END)
            partial = size > 0 and old.seek(size - 1) >= 0 and old.read(1) != b"\n"
    except OSError as exc:
        _die(f"cannot open the recording {path}: {exc.strerror or exc}")
    if partial:
        record.write("\n")
        record.flush()
        _say(f"the recording {path} ends in a partial line (kept as it is); new rows start on the next line")
    return record
