"""The fault shim: an MCP server on stdio between the monitor's proxy and a real server.

    python scripts/mcpbench/shim.py --faults KIND[,KIND...] --seed N [--log FILE] [--present blocks]
        [--outer-only] -- COMMAND ARGS...

It starts ``COMMAND`` (stdio), forwards tool listing and calls, and changes each result that is not an
error with one fault of ``mcpbench.faults`` (``--faults none``: forwards unchanged). Call k prefers the
k-th kind of a seeded rotation; where that kind cannot apply to this result, the next kind (seeded order)
that can is used, and where none can the result passes unchanged. ``--log`` gets one JSON line per call:
the tool, the fault applied (or null), the number of content blocks and the sha256 of the first block's
text as sent, so the benchmark can tell which calls were faulted and that the proxy kept the raw result
first. The monitor never sees the log.

On several blocks a fault changes the list of blocks, or the text of one text block or embedded text
resource. A result that holds another form (structured content wrapping one text, ``{"content": "<text>"}``; a text
of header lines before a JSON body) is faulted in its outer form first and, where a kind finds nothing to
change there, inside; a changed structured result's text block shows what the server's block showed (all
of it, one key's JSON, or one key's string), and where the server gave one text block per item of a list
(mcp-server-tree-sitter's lists), the changed list is shown the same way, one block per item. ``--outer-only`` is the shim as it was up to 2026-12-06 (the
outer form only, a changed structured result's block its whole JSON), for comparing with figures measured
before.

``--present blocks`` is a presentation, not a fault, and the report says so wherever it is used: the
structured content is dropped (and each tool's ``outputSchema``), so the client and the proxy see only
the server's several content blocks.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import anyio  # noqa: E402
import mcp_types as types  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp.server.lowlevel import Server  # noqa: E402
from mcp.server.stdio import stdio_server  # noqa: E402

from mcpbench.faults import (  # noqa: E402
    FAULTS,
    Context,
    Payload,
    read_framed,
    read_text,
    render,
    render_like,
    same,
)

WHOLE = ("error_text", "error_page")  # faults that replace the whole result, whatever its form
BLOCK_LIST = ("drop_field", "truncated_list")  # on several blocks: the list of blocks itself
Rewrap = Callable[[Payload], Payload]


def payload_of(result: types.CallToolResult) -> Payload | None:
    if result.structured_content is not None:
        return Payload("structured", result.structured_content)
    texts = [b for b in result.content if isinstance(b, types.TextContent)]
    if len(result.content) == 1 and texts:
        return read_text(texts[0].text)
    if len(result.content) > 1:
        return Payload("blocks", list(result.content))
    return None


def view_of(result: types.CallToolResult) -> tuple[str, Any] | None:
    """What the server's one text block shows of its structured content: all of it as JSON (``whole``), the
    JSON of one of its keys (``json``, key) or one key's string as it is (``text``, key); or, where the
    server gave one text block per item of one key's list, that list (``items``, key); None otherwise."""
    sc = result.structured_content
    if sc is not None and len(result.content) != 1:
        return _items_view(result)
    if sc is None or len(result.content) != 1 or not isinstance(result.content[0], types.TextContent):
        return None
    text = result.content[0].text
    try:
        shown: Any = json.loads(text)
    except ValueError:
        shown = ...  # no JSON: equal to no value of the content
    if shown == sc:
        return "whole", None
    for key, v in sc.items():
        if isinstance(v, str) and v == text:
            return "text", key
        if isinstance(v, dict | list) and shown == v:
            return "json", key
    return _items_view(result)


def _shows(text: str, item: Any) -> bool:
    """A block's text is this item: the string itself, or the item's JSON."""
    if isinstance(item, str):
        return text == item
    try:
        return bool(json.loads(text) == item)
    except ValueError:
        return False


def _items_view(result: types.CallToolResult) -> tuple[str, Any] | None:
    sc = result.structured_content
    if not isinstance(sc, dict) or not result.content:
        return None
    blocks = result.content
    for key, v in sc.items():
        if isinstance(v, list) and len(v) == len(blocks):
            texts = [b.text if isinstance(b, types.TextContent) else None for b in blocks]
            if all(t is not None and _shows(t, item) for t, item in zip(texts, v, strict=True)):
                return "items", key
    return None


def _item_blocks(original: types.CallToolResult, was: list[Any], items: list[Any]) -> list[types.TextContent]:
    """A changed list shown as the server showed the original: one text block per item, a string as it is,
    anything else as JSON in the layout of the server's first block that held JSON."""
    layout = next(((getattr(b, "text", ""), w) for b, w in zip(original.content, was, strict=False)
                   if not isinstance(w, str)), None)  # fmt: skip
    out = []
    for item in items:
        if isinstance(item, str):
            text = item
        elif layout is not None:
            text = render_like(layout[0], Payload("json_text", layout[1]), Payload("json_text", item))
        else:
            text = json.dumps(item, indent=2)
        out.append(types.TextContent(text=text))
    return out


def result_of(original: types.CallToolResult, p: Payload, views: bool = True) -> types.CallToolResult:
    if p.form == "blocks":
        return original.model_copy(update={"structured_content": None, "content": list(p.value)})
    structured = p.value if p.form == "structured" else None
    text = render(p)
    view = view_of(original) if structured is not None and views else None
    if view is not None and isinstance(structured, dict) and (view[0] == "whole" or view[1] in structured):
        # the block shows what the server's block showed, of the changed content, in the server's layout
        kind, key = view
        sc: Any = original.structured_content
        shown, was = (structured, sc) if kind == "whole" else (structured[key], sc[key])
        if kind == "items" and isinstance(shown, list):
            blocks = _item_blocks(original, was, shown)
            return original.model_copy(update={"structured_content": structured, "content": blocks})
        server_text = original.content[0].text  # type: ignore[union-attr]
        if kind == "text" and isinstance(shown, str):
            text = shown
        elif kind in ("whole", "json"):
            text = render_like(server_text, Payload("json_text", was), Payload("json_text", shown))
    block = types.TextContent(text=text)
    return original.model_copy(update={"structured_content": structured, "content": [block]})


def inside(p: Payload) -> tuple[Payload, Rewrap] | None:
    """The form a payload holds inside, and how a changed inner payload goes back: the text that structured
    content wraps (``{"content": "<text>"}``), or the JSON body after a text's header lines."""
    if p.form == "structured" and isinstance(p.value, dict) and len(p.value) == 1:
        ((key, text),) = p.value.items()
        if isinstance(text, str):
            inner = read_text(text)
            return inner, lambda q: Payload("structured", {key: render_like(text, inner, q)})
    if p.form == "text":
        framed = read_framed(p.value)
        if framed is not None:
            head, body, tail = framed
            original = p.value[len(head) : len(p.value) - len(tail)]
            return body, lambda q: Payload("text", head + render_like(original, body, q) + tail)
    return None


def apply_inside(kind: str, p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    """A fault that found nothing to change in the outer form, on the form inside it (and inside that)."""
    nested = inside(p) if kind not in WHOLE else None
    if nested is None:
        return None
    inner, rewrap = nested
    got = apply(kind, inner, rng, ctx) or apply_inside(kind, inner, rng, ctx)
    return None if got is None else rewrap(got)


def _embedded_text(block: Any) -> str | None:
    """The text of an embedded text resource (``{"type": "resource", "resource": {"uri", "text"}}``)."""
    if isinstance(block, types.EmbeddedResource) and isinstance(block.resource, types.TextResourceContents):
        return block.resource.text
    return None


def _with_text(block: Any, text: str) -> Any:
    if isinstance(block, types.TextContent):
        return block.model_copy(update={"text": text})
    return block.model_copy(update={"resource": block.resource.model_copy(update={"text": text})})


def apply(kind: str, p: Payload, rng: random.Random, ctx: Context) -> Payload | None:
    fault = FAULTS[kind]
    if p.form != "blocks" or kind in WHOLE or kind in BLOCK_LIST:
        got = fault(p, rng, ctx)
        return None if got is None or same(got, p) else got
    # another fault on several blocks: inside one text block or embedded text resource (seeded), the others
    # unchanged (the text blocks listed first: a result without embedded resources draws as before)
    texts = [i for i, b in enumerate(p.value) if isinstance(b, types.TextContent)]
    texts += [i for i, b in enumerate(p.value) if _embedded_text(b) is not None]
    for i in rng.sample(texts, len(texts)):
        block = p.value[i]
        inner = read_text(block.text if isinstance(block, types.TextContent) else _embedded_text(block))
        got = fault(inner, rng, ctx)
        if got is not None and not same(got, inner):
            blocks = list(p.value)
            blocks[i] = _with_text(block, render(got))
            return Payload("blocks", blocks)
    return None


class Shim:
    def __init__(
        self, kinds: list[str], seed: int, log: Path | None, present: str | None, outer_only: bool = False
    ) -> None:
        self.kinds, self.rng, self.log, self.present = kinds, random.Random(seed), log, present
        self.outer_only = outer_only
        # the inner forms draw from their own stream: results with no inner form see the same faults as before
        self.inner_rng = random.Random(f"{seed}:inside")
        self.rotation: list[str] = []
        self.seen: dict[tuple[str, str], list[Any]] = {}

    def next_kinds(self) -> list[str]:
        """The kinds to try for the next result: the rotation's next one first, then the rest, seeded."""
        if not self.rotation:
            self.rotation = self.rng.sample(self.kinds, len(self.kinds))
        first = self.rotation.pop()
        rest = [k for k in self.kinds if k != first]
        return [first, *self.rng.sample(rest, len(rest))]

    def change(
        self, name: str, arguments: dict[str, Any], result: types.CallToolResult
    ) -> types.CallToolResult:
        if self.present == "blocks":
            result = result.model_copy(update={"structured_content": None})
        applied = None
        p = payload_of(result)
        if self.kinds and not result.is_error and p is not None:
            ctx = Context(name, arguments, self.seen)
            for kind in self.next_kinds():
                got = apply(kind, p, self.rng, ctx)
                if got is None and not self.outer_only:
                    got = apply_inside(kind, p, self.inner_rng, ctx)
                if got is not None:
                    result, applied = result_of(result, got, views=not self.outer_only), kind
                    break
        for k, v in arguments.items():
            self.seen.setdefault((name, k), []).append(v)
        if self.log is not None:
            first = result.content[0] if result.content else None
            text = first.text if isinstance(first, types.TextContent) else ""
            line = {
                "tool": name,
                "fault": applied,
                "error": bool(result.is_error),
                "blocks": len(result.content),
                "first": hashlib.sha256(text.encode()).hexdigest(),
            }
            with self.log.open("a") as f:
                f.write(json.dumps(line) + "\n")
        return result


async def serve(shim: Shim, command: list[str]) -> None:
    params = StdioServerParameters(command=command[0], args=command[1:])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as upstream:
        await upstream.initialize()

        async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            listed = await upstream.list_tools(params=params)
            if shim.present == "blocks":
                tools = [t.model_copy(update={"output_schema": None}) for t in listed.tools]
                listed = listed.model_copy(update={"tools": tools})
            return listed

        async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
            request = types.CallToolRequest(
                params=types.CallToolRequestParams(name=params.name, arguments=params.arguments)
            )
            # send_request, not call_tool: the SDK's client would validate the result against its schema
            result = await upstream.send_request(request, types.CallToolResult)
            return shim.change(params.name, dict(params.arguments or {}), result)

        server = Server("mcpbench-shim", on_list_tools=list_tools, on_call_tool=call_tool)
        async with stdio_server() as (r, w):
            await server.run(r, w, server.create_initialization_options())


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        print("shim: usage: shim.py --faults KINDS --seed N [--log FILE] -- COMMAND ARGS...", file=sys.stderr)
        return 2
    cut = argv.index("--")
    ap = argparse.ArgumentParser(prog="shim.py")
    ap.add_argument("--faults", required=True, help=f"none, or a comma list of: {', '.join(FAULTS)}")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--log", type=Path)
    ap.add_argument("--present", choices=("blocks",))
    ap.add_argument(
        "--outer-only", action="store_true", help="the shim up to 2026-12-06: no fault inside a form"
    )
    a = ap.parse_args(argv[:cut])
    kinds = [] if a.faults == "none" else a.faults.split(",")
    unknown = [k for k in kinds if k not in FAULTS]
    if unknown:
        print(
            f"shim: unknown fault kind(s) {', '.join(unknown)}; known: {', '.join(FAULTS)}", file=sys.stderr
        )
        return 2
    anyio.run(serve, Shim(kinds, a.seed, a.log, a.present, a.outer_only), argv[cut + 1 :])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
