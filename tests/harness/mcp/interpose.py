"""A tiny MCP server on stdio that sits between the proxy and a real upstream server and corrupts
results: faults injected outside the project's fault library (it imports only the MCP SDK).

    python tests/harness/mcp/interpose.py FAULT RATE SEED -- COMMAND ARGS...

FAULT is one of ``FAULTS``; each result is corrupted with probability RATE (a generator seeded by
SEED). The upstream is called through ``send_request``, so nothing here validates a result either.
"""

from __future__ import annotations

import json
import random
import re
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

PAGE_502 = (
    "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n"
    "<body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>\n"
)


def _structured(result: types.CallToolResult, value: Any) -> types.CallToolResult:
    """The result with ``value`` as its structured content and its text."""
    text = types.TextContent(text=json.dumps(value, indent=2))
    return result.model_copy(update={"structured_content": value, "content": [text]})


def _text(result: types.CallToolResult, text: str) -> types.CallToolResult:
    return result.model_copy(update={"structured_content": None, "content": [types.TextContent(text=text)]})


def drop_field(r: types.CallToolResult) -> types.CallToolResult:  # a required property missing
    value = dict(r.structured_content or {})
    key = "day_of_week" if "day_of_week" in value else "time_difference"
    value.pop(key, None)
    return _structured(r, value)


def bool_as_string(r: types.CallToolResult) -> types.CallToolResult:  # "false" for false
    value = json.loads(json.dumps(r.structured_content))
    for obj in [value, value.get("source"), value.get("target")]:
        if isinstance(obj, dict) and "is_dst" in obj:
            obj["is_dst"] = str(obj["is_dst"]).lower()
    return _structured(r, value)


def number_for_text(r: types.CallToolResult) -> types.CallToolResult:  # a string field sent as a number
    value = dict(r.structured_content or {})
    key = "datetime" if "datetime" in value else "time_difference"
    value[key] = 1765000000
    return _structured(r, value)


def empty_object(r: types.CallToolResult) -> types.CallToolResult:
    return _structured(r, {})


def html_page(r: types.CallToolResult) -> types.CallToolResult:  # a cached 502 page in place of the result
    return _text(r, PAGE_502)


def empty_text(r: types.CallToolResult) -> types.CallToolResult:
    return _text(r, "")


def error_text(r: types.CallToolResult) -> types.CallToolResult:  # an error without isError
    return _text(r, "fatal: unable to read tree (4b825dc642cb6eb9a060e54bf8d69288fbee4904)")


def ids_redacted(r: types.CallToolResult) -> types.CallToolResult:  # ids gone from the lines that carry them
    texts = "\n".join(getattr(b, "text", "") for b in r.content)
    return _text(r, re.sub(r"\b[0-9a-f]{40}\b", "unknown", texts))


FAULTS = {
    f.__name__: f
    for f in (
        drop_field,
        bool_as_string,
        number_for_text,
        empty_object,
        html_page,
        empty_text,
        error_text,
        ids_redacted,
    )
}


async def main(fault: str, rate: float, seed: int, command: list[str]) -> None:
    corrupt = FAULTS[fault] if fault != "none" else None
    rng = random.Random(seed)
    params = StdioServerParameters(command=command[0], args=command[1:])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as upstream:
        await upstream.initialize()

        async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            return await upstream.list_tools(params=params)

        async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
            request = types.CallToolRequest(
                params=types.CallToolRequestParams(name=params.name, arguments=params.arguments)
            )
            result = await upstream.send_request(request, types.CallToolResult)
            if corrupt is not None and not result.is_error and rng.random() < rate:
                result = corrupt(result)
            return result

        server = Server("interposer", on_list_tools=list_tools, on_call_tool=call_tool)
        async with stdio_server() as (r, w):
            await server.run(r, w, server.create_initialization_options())


if __name__ == "__main__":
    fault, rate, seed, dash, *cmd = sys.argv[1:]
    if fault != "none" and fault not in FAULTS or dash != "--" or not cmd:
        sys.exit(f"usage: interpose.py {{none,{','.join(FAULTS)}}} RATE SEED -- COMMAND ARGS...")
    anyio.run(main, fault, float(rate), int(seed), cmd)
