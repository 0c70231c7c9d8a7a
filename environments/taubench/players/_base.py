"""What every scripted tau-bench agent shares: reading a request, its calls and results, receipts, noisy draws.

A player keeps no state between requests or episodes: one shared instance answers every episode
(the harness registers one per name), so each request rebuilds everything from its messages in a
:class:`Turn` (the user's latest ``REQUEST {...}`` line, the calls and results since, the noisy
draws already made, the statuses the conversation's own writes reported). The behaviour is the
player's configuration: ``follows_receipts``, ``checks_status``, ``noisy`` and its probabilities.

Behaviours on a read result:
- ``trusting`` believes every result and reads past receipts.
- ``receipt-aware``: a receipt (tool content ``{"tool_result", "outcome_monitor"}``) makes it re-read
  once with the first listed recovery tool; a result still flagged is not believed (``flagged``).
- ``skeptic``: as receipt-aware, and a value outside the names it knows (each domain says which:
  retail's four order statuses, airline's three cabins and six flight statuses, plus what the
  conversation's own writes reported) is re-read once without a receipt, then not believed.
- ``noisy``: per receipt, overreacts (gives up) with ``p_overreact``, else follows with ``p_follow``,
  else ignores; notices an implausible value with ``p_notice``. Draws come from the request's rng
  and are written into its messages (``{judged: <call id>=<choice>}``) so later turns replay them.
Knows nothing about the harness, the database or the ground truth.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

from core.players import unwrap_receipt

_JUDGED = re.compile(r"\{judged: ([^=}]+)=(\w+)\}")

Odd = Callable[[str, Any, frozenset[str]], bool]  # (tool, result, names seen in writes) -> implausible?


def text(content: str) -> dict:
    return {"role": "assistant", "content": content, "tool_calls": []}


def latest_request(messages: list[dict]) -> tuple[int | None, dict | None]:
    """(index, spec) of the user's latest ``REQUEST {...}`` line."""
    at, req = None, None
    for i, m in enumerate(messages):
        if m.get("role") == "user" and "REQUEST " in (m.get("content") or ""):
            try:
                at, req = i, json.loads((m["content"] or "").split("REQUEST ", 1)[1])
            except ValueError:
                pass
    return at, req


def parse_calls(messages: list[dict]) -> list[dict]:
    """Every answered tool call: {id, name, args, at (message index), result, receipt}."""
    out: list[dict] = []
    pending: dict[str, dict] = {}
    for i, m in enumerate(messages):
        if m.get("role") == "assistant":
            for tc in m.get("tool_calls") or []:
                try:
                    args = json.loads(tc["function"]["arguments"] or "{}")
                except ValueError:
                    args = {}
                pending[tc["id"]] = {"id": tc["id"], "name": tc["function"]["name"], "args": args, "at": i}
        elif m.get("role") == "tool" and m.get("tool_call_id") in pending:
            c = pending.pop(m["tool_call_id"])
            c["result"], c["receipt"] = unwrap_receipt(m.get("content"))
            out.append(c)
    return out


class Player:
    """A behaviour's configuration; ``respond`` builds a :class:`Turn` and hands it to the domain's plan."""

    name = "trusting"
    follows_receipts = False
    checks_status = False
    p_notice = p_follow = p_overreact = 1.0
    noisy = False


class Turn:
    """One request of one episode: everything a player knows, rebuilt from the messages."""

    def __init__(
        self,
        player: Player,
        messages: list[dict],
        rng: random.Random,
        odd: Odd,
        write_tools: frozenset[str],
        status_field: str,
    ):
        self.player = player
        self.messages = messages
        self.rng = rng
        self.odd = odd
        self.req_at, self.req = latest_request(messages)
        self.calls = parse_calls(messages)
        self.judged = {
            k: v
            for m in messages
            if m.get("role") == "assistant"
            for k, v in _JUDGED.findall(m.get("content") or "")
        }
        self.seg = [c for c in self.calls if self.req_at is not None and c["at"] > self.req_at]
        # the names this conversation's own writes reported (e.g. "pending (item modified)"): known from now on
        self.seen = frozenset(
            str(c["result"][status_field])
            for c in self.calls
            if c["name"] in write_tools and isinstance(c["result"], dict) and status_field in c["result"]
        )

    def call(self, name: str, args: dict, note: str = "") -> dict:
        cid = f"call_{name}_{self.rng.randrange(10**9)}"
        return {
            "role": "assistant",
            "content": note or None,
            "tool_calls": [
                {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            ],
        }

    def asked(self, phrase: str) -> bool:
        """Did this player already say ``phrase`` since the request?"""
        return any(
            m.get("role") == "assistant" and phrase in (m.get("content") or "")
            for m in self.messages[self.req_at or 0 :]
        )

    def react(self, cid: str, kind: str) -> tuple[str, str]:
        """What this player does about a receipt (kind 'receipt') or an implausible value ('odd')."""
        p = self.player
        if not p.noisy:
            if kind == "receipt":
                return ("follow" if p.follows_receipts else "ignore"), ""
            return ("follow" if p.checks_status else "ignore"), ""
        if cid in self.judged:
            return self.judged[cid], ""
        r = self.rng
        if kind == "odd":
            choice = "follow" if r.random() < p.p_notice else "ignore"
        elif r.random() < p.p_overreact:
            choice = "abandon"
        else:
            choice = "follow" if r.random() < p.p_follow else "ignore"
        return choice, f"{{judged: {cid}={choice}}} "

    def read(self, name: str, args: dict) -> Any:
        """(view, ''|'flagged'|'abandon', note) for a read, or a tool call still to make."""
        seg = self.seg
        recovery = tuple(
            t for c in seg if c["receipt"] for t in (c["receipt"].get("recovery_tools") or [])[:1]
        )
        done = [c for c in seg if c["args"] == args and c["name"] in (name, *recovery)]
        if not done:
            return self.call(name, args)
        first, last = done[0], done[-1]
        trouble = None
        if first["receipt"] and first["receipt"].get("violated", True):
            trouble = "receipt"
        elif self.odd(name, first["result"], self.seen):
            trouble = "odd"
        if trouble is None:
            return last["result"], "", ""
        choice, note = self.react(first["id"], trouble)
        if choice == "ignore":
            return last["result"], "", note
        if choice == "abandon":
            return last["result"], "abandon", note
        if len(done) == 1:
            tool = name
            if trouble == "receipt":
                tool = (first["receipt"].get("recovery_tools") or [name])[0]
            return self.call(tool, args, note)
        still = (last["receipt"] and last["receipt"].get("violated", True)) or (
            trouble == "odd" and self.odd(name, last["result"], self.seen)
        )
        return last["result"], ("flagged" if still else ""), note
