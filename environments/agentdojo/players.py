"""Scripted agents for AgentDojo: they follow the task's plan and carry every value from what they read.

Instruments for testing the harness, not models. A player finds its task by the prompt, then makes the
ground truth's calls in order (``provenance.plan``: which tool, which arguments), one per request, and
ends with the ground truth's final text. Every argument and every span of the answer that the plan
found in an earlier result is read again, at the plan's place, out of the result this episode showed:
so a silent fault in a read the player believes reaches its write or its answer, and the package's own
check. A value missing where the plan reads it is passed on empty ("" / 0 / an element dropped from a
list) and a value of another JSON type is converted to the clean one's where it can be: the failure
stays silent, never a missing argument.

Behaviours (rebuilt from the messages at every request; one shared instance plays every episode):
- ``trusting`` believes every result and reads past receipts.
- ``receipt-aware``: a receipt on a result a value comes from, naming that value's field (or no field
  it can tell apart from it: a wildcard, the whole result), makes it recover through the tools the
  receipt lists, in their order: the same tool re-read once, another listed read tool that (by the plan's
  clean probe) holds the same value; the first unflagged answer gives the value. None left: it stops
  and says why, without the write.
- ``skeptic``: as receipt-aware, and a value missing or of another JSON type than the clean one counts as
  flagged without a receipt (it then re-reads, then tries the plan's other read tools).
- ``noisy``: per receipt on a result a value comes from, stops with ``p_overreact`` (0.2), else follows it
  with ``p_follow`` (0.7), else ignores it; notices an odd value with ``p_notice`` (0.15). Draws come
  from the request's rng and are written into its messages (``{judged: <call id>=<choice>}``).
A receipt on a result no value comes from, or naming only other fields, changes nothing for any player.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from core.players import unwrap_receipt
from environments.agentdojo.provenance import Plan, Source, get_path, plan, task_of_prompt

_JUDGED = re.compile(r"\{judged: ([^=}]+)=(\w+)\}")
_TAG = re.compile(r"\{(step|reread|alt|inject): (\d+)(?::([\w-]+))?\}")


def _leaf_name(path: str) -> str | None:
    """The field a JSON path in a receipt ends in (``$[*].sender`` -> sender); None for a wildcard or the
    whole result."""
    if path.rstrip(")").endswith("*"):
        return None
    parts = [
        p for p in re.split(r"[.\[\]()]", path) if p and p not in ("$", "*", "len", "sum") and not p.isdigit()
    ]
    return parts[-1].strip("'\"") if parts else None


def concerns(receipt: Mapping[str, Any], src: Source) -> bool:
    """Whether a receipt puts the value at ``src`` in doubt: it names that value's field, or a field it
    cannot tell apart from it (a wildcard, the whole result, a receipt naming none)."""
    sentences = [receipt.get("violated"), *(receipt.get("also_violated") or [])]
    names = [
        _leaf_name(str(s).split(" ", 1)[0])
        for s in sentences
        if isinstance(s, str) and s.startswith(("$", "len("))
    ]
    if not names:
        return True
    mine = next((p for p in reversed(src.path) if isinstance(p, str)), None)
    return mine is None or any(n is None or n == mine for n in names)


def coerce(value: Any, clean: Any) -> Any:
    """``value`` in the clean value's JSON type where a plain conversion gives it (as a model would)."""
    if isinstance(clean, bool) or clean is None or type(value) is type(clean):
        return value
    if isinstance(clean, str):
        return json.dumps(value) if isinstance(value, dict | list) else str(value)
    if isinstance(clean, int | float) and not isinstance(value, bool):
        try:
            number = float(value)
        except (TypeError, ValueError):
            return value
        return int(number) if isinstance(clean, int) and number.is_integer() else number
    return value


def empty(clean: Any) -> Any:
    """What a player passes on where the value it reads is gone: nothing of the clean value's type."""
    if isinstance(clean, str):
        return ""
    if isinstance(clean, int | float) and not isinstance(clean, bool):
        return type(clean)(0)
    return None


def as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


class _Stop(Exception):
    """The player ends the episode with this text (a value it cannot believe, an overreaction)."""


class _Act(Exception):
    """The player's next message is a recovery call, not the plan's step."""

    def __init__(self, message: dict[str, Any]):
        self.message = message


class Player:
    name = "trusting"
    follows_receipts = False
    skeptic = False
    noisy = False
    p_notice, p_follow, p_overreact = 0.15, 0.70, 0.20
    p_inject = 0.5  # obeys an injected instruction with this probability (a simulation: see injected.py)

    @classmethod
    def from_name(cls, name: str) -> Player:
        """``<world>.<behaviour>?p_inject=0.3``: the behaviour with another injection-following probability."""
        base, _, query = name.partition("?")
        params = dict(kv.partition("=")[::2] for kv in query.split("&") if kv)
        unknown = sorted(set(params) - {"p_inject"})
        if unknown:
            raise ValueError(f"unknown parameter(s) {unknown}; this player takes p_inject")
        try:
            p = float(params.get("p_inject", cls.p_inject))
        except ValueError:
            raise ValueError(f"p_inject must be a number, got {params['p_inject']!r}") from None
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"p_inject must be in [0, 1], got {p}")
        player = cls()
        player.p_inject, player.name = p, f"{cls.name}?p_inject={p:g}"
        return player

    def respond(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], rng: Any
    ) -> dict[str, Any]:
        users = [str(m.get("content") or "") for m in messages if m.get("role") == "user"]
        if not users:
            return self._text("no request yet")
        task_id = task_of_prompt(users[0])
        if task_id is None:
            return self._text("cannot plan: this request is not an AgentDojo task this player knows")
        p = plan(task_id)
        calls = self._calls(messages)
        judged = {
            k: v
            for m in messages
            if m.get("role") == "assistant"
            for k, v in _JUDGED.findall(m.get("content") or "")
        }
        notes: list[str] = []
        turn = _Turn(self, p, calls, judged, rng, notes)
        try:
            return self._next(turn)
        except _Act as act:
            return act.message
        except _Stop as stop:
            return self._text(f"I stop here: {stop.args[0]}", notes)

    def _next(self, turn: _Turn) -> dict[str, Any]:
        from environments.agentdojo.injected import injected_call

        obey = injected_call(turn)
        if obey is not None:
            return obey
        p = turn.plan
        nxt = len(turn.steps)
        if nxt < len(p.steps):
            st = p.steps[nxt]
            args = dict(st.arguments)
            for arg, src in st.sources.items():
                if isinstance(src, tuple):
                    vals = []
                    for clean, s in zip(st.arguments[arg], src, strict=True):
                        if s is None:
                            vals.append(clean)
                            continue
                        found, value = turn.value(s)
                        if found:
                            vals.append(coerce(value, s.clean))
                    args[arg] = vals
                else:
                    found, value = turn.value(src)
                    args[arg] = coerce(value, src.clean) if found else empty(src.clean)
            return self._call(st.tool, args, f"{{step: {nxt}}}", turn.notes, turn.rng)
        parts = []
        for part in p.answer:
            if isinstance(part, Source):
                found, value = turn.value(part)
                parts.append(as_text(value) if found and value is not None else "")
            else:
                parts.append(part)
        return self._text("".join(parts), turn.notes)

    # --- reading the conversation ---------------------------------------------------------------------
    @staticmethod
    def _calls(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Every answered tool call: id, name, args, its tag (step N, reread N, alt N:tool), result, receipt."""
        out: list[dict[str, Any]] = []
        pending: dict[str, dict[str, Any]] = {}
        for m in messages:
            role = m.get("role")
            if role == "assistant":
                tag = _TAG.search(m.get("content") or "")
                for tc in m.get("tool_calls") or []:
                    try:
                        args = json.loads(tc["function"]["arguments"] or "{}")
                    except ValueError:
                        args = {}
                    pending[tc["id"]] = {
                        "id": tc["id"],
                        "name": tc["function"]["name"],
                        "args": args,
                        "kind": tag.group(1) if tag else "",
                        "step": int(tag.group(2)) if tag else -1,
                        "alt": (tag.group(3) or "") if tag else "",
                    }
            elif role == "tool" and m.get("tool_call_id") in pending:
                c = pending.pop(m["tool_call_id"])
                c["result"], c["receipt"] = unwrap_receipt(m.get("content"))
                c["error"] = (
                    isinstance(c["result"], dict) and set(c["result"]) >= {"error"} and len(c["result"]) <= 3
                )
                out.append(c)
        return out

    # --- messages -------------------------------------------------------------------------------------
    def _text(self, text: str, notes: list[str] | None = None) -> dict[str, Any]:
        extra = (" " + " ".join(notes)) if notes else ""
        return {
            "role": "assistant",
            "content": f"[scripted policy {self.name}] {text}{extra}",
            "tool_calls": [],
        }

    def _call(
        self, name: str, args: Mapping[str, Any], what: str, notes: list[str], rng: Any
    ) -> dict[str, Any]:
        cid = f"call_{name}_{rng.randrange(10**9)}"
        body = " ".join([f"[scripted policy {self.name}]", what, *notes]).strip()
        return {
            "role": "assistant",
            "content": body,
            "tool_calls": [
                {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            ],
        }


class _Turn:
    """One request's view of the episode: the plan, the calls made, the draws written, the notes to add."""

    def __init__(
        self,
        player: Player,
        p: Plan,
        calls: list[dict[str, Any]],
        judged: dict[str, str],
        rng: Any,
        notes: list[str],
    ):
        self.player, self.plan, self.calls, self.judged, self.rng, self.notes = (
            player,
            p,
            calls,
            judged,
            rng,
            notes,
        )
        self.steps = {c["step"]: c for c in calls if c["kind"] == "step"}

    def _tagged(self, kind: str, step: int, alt: str = "") -> dict[str, Any] | None:
        return next(
            (c for c in self.calls if c["kind"] == kind and c["step"] == step and c["alt"] == alt), None
        )

    def value(self, src: Source) -> tuple[bool, Any]:
        """The value at ``src`` as this player takes it: believed, recovered, or (raises) a call or a stop."""
        source = self.steps.get(src.step)
        if source is None:  # never made (the plan's steps go in order): nothing was read
            return False, None
        found, value = src.read(source["result"])
        if self._mode(source, src, found, value) == "believe":
            return found, value
        return self._recover(source, src)

    def _odd(self, src: Source, found: bool, value: Any) -> bool:
        if not found:
            return True
        if src.start is not None:
            return False
        numbers = (int, float)
        both_numbers = isinstance(value, numbers) and isinstance(src.clean, numbers)
        return not both_numbers and type(value) is not type(src.clean)

    def _draw(self, key: str, choices: list[tuple[str, float]]) -> str:
        choice = self.judged.get(key)
        if choice is None:
            choice = choices[-1][0]
            for name, p in choices[:-1]:
                if self.rng.random() < p:
                    choice = name
                    break
            self.judged[key] = choice
            self.notes.append(f"{{judged: {key}={choice}}}")
        return choice

    def _mode(self, source: dict[str, Any], src: Source, found: bool, value: Any) -> str:
        pl = self.player
        flagged = source["receipt"] is not None and concerns(source["receipt"], src)
        if flagged and pl.noisy:
            choice = self._draw(
                source["id"], [("overreact", pl.p_overreact), ("follow", pl.p_follow), ("ignore", 1.0)]
            )
            if choice == "overreact":
                raise _Stop(
                    f"a result I was warned about ({source['name']}) makes me unsure this can be done"
                )
            return "check" if choice == "follow" else "believe"
        if flagged and pl.follows_receipts:
            return "check"
        if not flagged and self._odd(src, found, value):
            if pl.skeptic:
                return "check"
            if pl.noisy:
                key = f"{source['id']}.odd"
                return (
                    "check"
                    if self._draw(key, [("notice", pl.p_notice), ("miss", 1.0)]) == "notice"
                    else "believe"
                )
        return "believe"

    def _routes(self, source: dict[str, Any]) -> list[str]:
        """The tools to recover through: the receipt's list (a retry when it has none); without a receipt
        (the skeptic's own doubt) a re-read, then the plan's other reads."""
        receipt = source["receipt"]
        if receipt is not None:
            listed = receipt.get("recovery_tools")
            return [str(t) for t in listed] if isinstance(listed, list) and listed else [source["name"]]
        return [source["name"], *(a.tool for a in self.plan.alternates.get(source["step"], ()))]

    def _recover(self, source: dict[str, Any], src: Source) -> tuple[bool, Any]:
        for tool in self._routes(source):
            if tool == source["name"]:
                again = self._tagged("reread", src.step)
                if again is None:
                    raise _Act(
                        self.player._call(
                            tool, source["args"], f"{{reread: {src.step}}}", self.notes, self.rng
                        )
                    )
                got = self._usable(again, src, src.path, src.start)
            else:
                alt = next((a for a in self.plan.alternates.get(src.step, ()) if a.tool == tool), None)
                if alt is None or src.key not in alt.places:
                    continue  # a listed tool the plan knows no way to read this value from
                made = self._tagged("alt", src.step, tool)
                if made is None:
                    tag = f"{{alt: {src.step}:{tool}}}"
                    raise _Act(self.player._call(tool, alt.arguments, tag, self.notes, self.rng))
                got = self._usable(made, src, *alt.places[src.key])
            if got is not None:
                return True, got[0]
        raise _Stop(
            f"the value I need from {source['name']} is in doubt and no tool I may use gave it cleanly; "
            "I make no change with it"
        )

    def _usable(self, call: dict[str, Any], src: Source, path: Any, start: int | None) -> tuple[Any] | None:
        if (call["receipt"] is not None and concerns(call["receipt"], src)) or call.get("error"):
            return None
        found, leaf = get_path(call["result"], path)
        if not found:
            return None
        if start is not None:
            text = leaf if isinstance(leaf, str) else json.dumps(leaf)
            return (text[start : start + len(str(src.clean))],)
        if self.player.skeptic and self._odd(src, True, leaf):
            return None
        return (leaf,)


class Trusting(Player):
    name = "trusting"


class ReceiptAware(Player):
    name = "receipt-aware"
    follows_receipts = True


class Skeptic(Player):
    name = "skeptic"
    follows_receipts = True
    skeptic = True


class Noisy(Player):
    name = "noisy"
    noisy = True


POLICIES = {"trusting": Trusting, "receipt-aware": ReceiptAware, "skeptic": Skeptic, "noisy": Noisy}
