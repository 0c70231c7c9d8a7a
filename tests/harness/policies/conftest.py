"""Handcrafted ToolMaze-convention tools and message builders for the policy unit tests.

This folder is put on ``sys.path`` so its tests can import their helper modules (``_toolmaze_bound``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

QUERY = "Look up the item price, then Place the order.\nInputs: item=widget; quantity=2"


def _tool(name: str, desc: str, params: dict[str, tuple[str, str]]) -> dict:
    props = {p: {"type": t, "description": f"The {p}. [from: {src}]"} for p, (t, src) in params.items()}
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": desc,
            "parameters": {"type": "object", "properties": props, "required": list(params)},
        },
    }


PRICE = "Returns: item (string), price (number). Capability: shop.price"
TOOLS = [
    _tool(
        "get_price_a", f"Look up the item price. From store A. {PRICE}", {"item": ("string", "query.item")}
    ),
    _tool("get_price_b", f"Look up the item price. From store B. {PRICE}", {"sku": ("string", "query.item")}),
    _tool(
        "place_order",
        "Place the order. Buys it. Returns: confirmation_code (string). Capability: shop.order",
        {
            "item": ("string", "query.item"),
            "price": ("number", "price"),
            "quantity": ("integer", "query.quantity"),
        },
    ),
    {
        "type": "function",
        "function": {
            "name": "finish",
            "description": "End the episode.",
            "parameters": {
                "type": "object",
                "required": ["status", "answer", "reason"],
                "properties": {
                    "status": {"type": "string", "enum": ["done", "aborted"]},
                    "answer": {"type": "string"},
                    "reason": {"type": "string"},
                },
            },
        },
    },
]
CLEAN = {"item": "widget", "price": 12.5}
# a two-step chain providing the same sub-task, listed after the direct tools
CHAIN = [
    _tool(
        "resolve_item_ref",
        "Look up the item price, step 1 of 2: resolve the item. Returns: item_ref (string). "
        "Capability: shop.price.via_item_ref.1of2",
        {"item": ("string", "query.item")},
    ),
    _tool(
        "get_price_by_ref",
        "Look up the item price, step 2 of 2: price it. "
        + PRICE.replace("shop.price", "shop.price.via_item_ref.2of2"),
        {"item_ref": ("string", "item_ref")},
    ),
]


class Convo:
    """A message list built turn by turn: ``call`` then ``result``."""

    def __init__(self, tools: list[dict] | None = None) -> None:
        self.tools = tools or TOOLS
        self.messages: list[dict] = [{"role": "system", "content": "sys"}, {"role": "user", "content": QUERY}]
        self.n = 0

    clean = CLEAN
    query = QUERY

    @staticmethod
    def next_call(reply: dict) -> tuple[str, dict]:
        tc = reply["tool_calls"][0]["function"]
        args = tc["arguments"]
        return tc["name"], json.loads(args) if isinstance(args, str) else args

    def call(self, name: str, args: dict, content: str | None = None) -> Convo:
        self.n += 1
        self.messages.append(
            {
                "role": "assistant",
                "content": content,
                "tool_calls": [
                    {
                        "id": f"c{self.n}",
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args)},
                    }
                ],
            }
        )
        return self

    def result(self, content, receipt: dict | None = None, prefix: str = "") -> Convo:
        if receipt is not None:
            content = {"tool_result": content, "outcome_monitor": receipt}
        text = content if isinstance(content, str) else json.dumps(content)
        name = self.messages[-1]["tool_calls"][0]["function"]["name"]
        self.messages.append(
            {"role": "tool", "tool_call_id": f"c{self.n}", "name": name, "content": prefix + text}
        )
        return self


@pytest.fixture
def convo() -> Convo:
    return Convo()


@pytest.fixture
def chain_convo() -> Convo:
    return Convo(TOOLS[:3] + CHAIN + TOOLS[3:])
