"""One MCP client session over stdio (the official SDK's client), calls made one at a time."""

from __future__ import annotations

import os
import sys
from typing import IO, Any

Call = tuple[str, dict[str, Any]]


def session(command: list[str], calls: list[Call], errlog: IO[str] | None = None) -> list[Any]:
    """Each call's ``CallToolResult``, through ``send_request`` (the client validates nothing, so a result
    that breaks its declared schema reaches us raw, as it would reach a model)."""
    import anyio
    import mcp_types as types
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def go() -> list[Any]:
        params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
        out: list[Any] = []
        async with stdio_client(params, errlog or sys.stderr) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            await s.list_tools()
            for name, arguments in calls:
                request = types.CallToolRequest(
                    params=types.CallToolRequestParams(name=name, arguments=arguments)
                )
                out.append(await s.send_request(request, types.CallToolResult))
        return out

    try:
        return anyio.run(go)
    except Exception as exc:  # one line naming the innermost cause, never the task group's traceback
        raise RuntimeError(f"MCP session with {' '.join(command[-3:])!r} failed: {_innermost(exc)}") from exc


def _innermost(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}"
