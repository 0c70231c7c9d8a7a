"""A field tools of one place echo, each through its own argument (wide vocabulary only): a message's
recipient is the channel or the user asked for; a name swapped for another fires."""

from __future__ import annotations

from typing import Any

from outcome_monitor import Monitor, learn


def _fired(reg: Any, tool: str, args: dict[str, Any], result: Any) -> bool:
    return Monitor(reg).annotate(tool, args, result).fired


def _messages(to: str, senders: list[str]) -> list[dict[str, Any]]:
    return [{"sender": s, "recipient": to, "body": f"hi from {s}"} for s in senders]


CHANNELS = {"general": ["Charlie", "Bob", "Eve"], "random": ["Alice"], "private": ["Charlie"]}
INBOXES = {"Bob": ["Alice", "Charlie", "Eve"], "Alice": ["Bob"]}


def _rows() -> list[dict[str, Any]]:
    rows = [
        {"tool": "read_channel_messages", "arguments": {"channel": c}, "result": _messages(c, s)}
        for c, s in CHANNELS.items()
    ]
    return rows + [
        {"tool": "read_inbox", "arguments": {"user": u}, "result": _messages(u, s)}
        for u, s in INBOXES.items()
    ]


def test_a_recipient_swapped_for_another_name_fires_for_both_tools():
    reg = learn(_rows())
    assert not _fired(reg, "read_channel_messages", {"channel": "random"}, _messages("random", ["Bob"]))
    assert _fired(reg, "read_channel_messages", {"channel": "random"}, _messages("random_legacy", ["Bob"]))
    assert _fired(reg, "read_inbox", {"user": "Alice"}, _messages("Eve", ["Bob"]))
    assert not _fired(
        learn(_rows(), vocabulary="paper"), "read_inbox", {"user": "Alice"}, _messages("Eve", ["Bob"])
    )


def test_one_tool_alone_keeps_an_echos_support():
    rows = [r for r in _rows() if r["tool"] == "read_channel_messages"]
    assert not _fired(
        learn(rows), "read_channel_messages", {"channel": "random"}, _messages("other", ["Bob"])
    )


def test_a_tool_whose_field_at_the_place_never_echoes_keeps_the_place_unpooled():
    search = [
        {"tool": "search_messages", "arguments": {"query": q}, "result": _messages(to, ["Dan"])}
        for q, to in (("lunch", "general"), ("mug", "random"))
    ]
    reg = learn(_rows() + search)
    assert not _fired(
        reg, "read_channel_messages", {"channel": "random"}, _messages("random_legacy", ["Bob"])
    )


def test_an_argument_of_another_type_is_never_compared():
    counted = [
        {"tool": "recent_messages", "arguments": {"n": n}, "result": _messages(to, ["Dan"])}
        for n, to in ((5, "general"), (9, "random"))
    ]
    reg = learn(_rows() + counted)
    assert _fired(reg, "read_channel_messages", {"channel": "random"}, _messages("random_legacy", ["Bob"]))
