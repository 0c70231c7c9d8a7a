"""Scripted agents for BFCL multi-turn: they plan from each turn's ground truth and take values from what
they read.

Instruments for testing the harness, not models. A player finds its task (``identify``), then makes the
current turn's ground-truth calls in order, one per request, and ends the turn with text. The plan says
which tool and which argument; it never supplies a value that came from an earlier result: such an
argument (``provenance``: the value sits in an earlier clean result at some path, possibly written as
text, rounded or as one component of a file path, and not in the user's words) is read from the result
*this episode* showed, at that path. What a player cannot find there it passes on as it has it: a value
of another type as it is, a missing field as the empty value of the parameter's type (``""``, ``0``,
``[]``), never a dropped argument. So a silent fault that reaches an argument reaches the grade silently.

A turn whose plan is empty is ended with text: on a miss_param task the player asks the user for the
argument the next turn supplies; on a miss_func task it says the function it needs is not offered.

Behaviours (each rebuilt from the messages at every request; one shared instance plays every episode):
- ``trusting`` believes every result and reads past receipts.
- ``receipt-aware``: a receipt that names the field a later argument comes from (or names no field) is
  acted on through the world's tools: a re-read of the same call, then each other tool the receipt lists
  whose result carries the value; the first result without such a receipt is used. None: the player
  tells the user it has no value it trusts and ends the turn (it never takes the plan's value).
- ``skeptic``: as receipt-aware, and a needed field that is missing, or whose value does not fit the
  parameter's type, is checked the same way without a receipt (a re-read).
- ``noisy``: per receipt on a needed field, stops the turn with ``p_overreact`` (0.2), else follows it
  with ``p_follow`` (0.7), else ignores it; notices an odd value with ``p_notice`` (0.15). Draws come from
  the request's rng and are written into its messages (``{judged: <call id>=<choice>}``).
A receipt on a result no later argument comes from changes nothing for any player.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from core.players import unwrap_receipt
from environments.bfcl import checker, identify
from environments.bfcl.calls import parse
from environments.bfcl.data import Entry
from environments.bfcl.provenance import Source, apply, get, leaves, provenance, simulated

_JUDGED = re.compile(r"\{judged: ([^=}]+)=(\w+)\}")
_SIDE = re.compile(r"\{recover: ([^ }]+) (\d+)\}")
_PROBE = "{probe}"
_EMPTY: dict[str, Any] = {
    "string": "",
    "integer": 0,
    "number": 0.0,
    "array": [],
    "object": {},
    "boolean": False,
}


def _norm(word: str) -> str:
    return word.replace("_", "").lower()


def _segments(subject: str) -> list[str]:
    """The field names a rule's subject walks: ``$.invoice.transaction_id`` -> [invoice, transaction_id];
    ``len($.items)`` -> [items]; list indices and wildcards dropped."""
    inner = subject.strip()
    for fn in ("len(", "sum("):
        if inner.startswith(fn) and inner.endswith(")"):
            inner = inner[len(fn) : -1]
    parts = re.split(r"[.\[\]]", inner.removeprefix("$"))
    return [_norm(p) for p in parts if p and p != "*" and not p.isdigit()]


def concerns(receipt: Mapping[str, Any], result: Any, path: tuple) -> bool:
    """Whether a receipt is about the value at ``path``: a violated rule's subject (the words before
    "must") is the path's field in any spelling (``travelCost`` is ``travel_cost``) or one of its
    containers. A receipt that names no rule (a bare warning) concerns every value of the result."""
    texts: list[str] = []
    for key in ("violated", "also_violated"):
        v = receipt.get(key)
        texts += [v] if isinstance(v, str) else [str(x) for x in v] if isinstance(v, list) else []
    subjects = [_segments(t.split(" must ", 1)[0] if " must " in t else t.split(" ", 1)[0]) for t in texts]
    subjects = [sub for sub in subjects if sub]
    if not subjects:
        return True
    keys = [_norm(str(p)) for p in path if isinstance(p, str)]
    return any(
        (keys and sub[-1] == keys[-1]) or sub == keys[: len(sub)] or keys == sub[: len(keys)]
        for sub in subjects
    )


def _fits(value: Any, schema: Mapping[str, Any]) -> bool:
    want = schema.get("type")
    if want is None:
        return True
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return {
        "string": isinstance(value, str),
        "integer": number and float(value).is_integer(),
        "number": number,
        "boolean": isinstance(value, bool),
        "array": isinstance(value, list),
        "object": isinstance(value, dict),
    }.get(str(want), True)


def empty(schema: Mapping[str, Any]) -> Any:
    """What a player that found nothing passes: the empty value of the parameter's type."""
    return _EMPTY.get(str(schema.get("type")), "")


def carried_from_reads(entry_id: str) -> list[tuple[tuple[int, int], str]]:
    """The ground-truth steps and arguments whose value comes from an earlier *read* result: where an
    observation fault (which spares writes) can flow into a call, and so into the grade."""
    from environments.bfcl.provenance import entry_of
    from environments.bfcl.tools import catalog

    gt, cat = entry_of(entry_id).ground_truth, catalog()
    return [
        (step, arg)
        for step, args in sorted(provenance(entry_id).items())
        for arg, src in args.items()
        if cat[parse(gt[src.step[0]][src.step[1]]).name].category == "read"
    ]


class Player:
    name = "trusting"
    follows_receipts = False
    skeptic = False
    noisy = False
    p_notice, p_follow, p_overreact = 0.15, 0.70, 0.20

    def respond(self, messages: list[dict], tools: list[dict], rng: Any) -> dict:
        users = [str(m.get("content") or "") for m in messages if m.get("role") == "user"]
        if not users:
            return self._text("no request yet")
        turn = len(users) - 1
        offered = {str((t.get("function") or t).get("name", "")) for t in tools}
        cands = identify.candidates(users, offered)
        if not cands:
            return self._text("cannot plan: this conversation is not a BFCL task this player knows")
        calls = self._calls(messages)
        judged = {
            k: v
            for m in messages
            if m.get("role") == "assistant"
            for k, v in _JUDGED.findall(m.get("content") or "")
        }
        entry = identify.choose(cands, calls)
        probe = identify.probe(cands, entry, turn, calls, tools)
        if probe is not None:
            return self._call(probe, {}, "", [_PROBE], rng)
        steps = [c for c in calls if not c["side"]]
        by_step = {(c["turn"], c["pos"]): c for c in steps}
        done = [c for c in steps if c["turn"] == turn]
        if any(
            v == "overreact" and any(c["id"] == k and c["turn"] == turn for c in calls)
            for k, v in judged.items()
        ):
            return self._text(
                "I stop here: a result I was warned about makes me unsure this request can be done"
            )
        plan = entry.ground_truth[turn]
        if len(done) >= len(plan):
            return self._text(self._turn_end(entry, turn, offered) if not plan else "done with this request")
        pos = len(done)
        planned = parse(plan[pos])
        params = self._params(tools, planned.name)
        args = dict(planned.arguments)
        notes: list[str] = []
        for arg, src in provenance(entry.id).get((turn, pos), {}).items():
            schema = params.get(arg, {})
            source = by_step.get(src.step)
            if source is None:  # the source step was never made (its turn was abandoned): nothing read
                args[arg] = empty(schema)
                continue
            verdict = self._judge(entry, source, src, schema, calls, steps, judged, rng, notes)
            if isinstance(verdict, dict):  # a recovery call to make first
                return verdict
            if verdict is None:
                why = f"{source['name']} {'.'.join(map(str, src.path))}"
                return self._text(f"I stop here: I could not get a value I trust for {arg} ({why})", notes)
            result, path = verdict
            found, value = get(result, path)
            args[arg] = apply(src.how, value) if found else empty(schema)
        return self._call(planned.name, args, f"step {turn}.{pos}", notes, rng)

    # --- a turn the plan makes no call in -------------------------------------------------------------
    @staticmethod
    def _turn_end(entry: Entry, turn: int, offered: set[str]) -> str:
        """miss_param: ask for what the next turn supplies; miss_func: name the function not offered."""
        if turn + 1 >= len(entry.ground_truth):
            return "done with this request"
        nxt = [parse(c) for c in entry.ground_truth[turn + 1]]
        missing = sorted(
            {c.name for c in nxt if c.name not in offered and c.name in entry.missed.get(turn + 1, ())}
        )
        if missing:
            return f"I cannot do this with the functions I have: it needs {', '.join(missing)}"
        before = "\n".join(entry.turns[: turn + 1])
        told = [
            (c.name, arg, str(v))
            for c in nxt
            for arg, v in c.arguments.items()
            if str(v) in entry.turns[turn + 1]
        ]
        asks = [
            t for t in told if t[2] not in before
        ] or told  # what only the next turn says, else what it says
        if asks:
            return f"I need more to do this: which {asks[0][1]} should I use for {asks[0][0]}?"
        if not entry.ground_truth[turn] and entry.category == "miss_param":
            return "I need more to do this: what exactly should I use?"
        return "done with this request"

    # --- judging the source of a carried value --------------------------------------------------------
    def _judge(
        self,
        entry: Entry,
        source: dict,
        src: Source,
        schema: Mapping[str, Any],
        calls: list[dict],
        steps: list[dict],
        judged: dict[str, str],
        rng: Any,
        notes: list[str],
    ) -> Any:
        """(result, path) to read the value from; a recovery call (a message) to make first; or None when
        no result the player trusts carries it."""
        receipt = source["receipt"]
        flagged = receipt is not None and concerns(receipt, source["result"], src.path)
        odd = self._odd(source["result"], src, schema)
        mode = "believe"
        if flagged and self.noisy:
            choice = self._draw(judged, source["id"], rng, notes, receipt=True)
            if choice == "overreact":
                return None
            mode = "check" if choice == "follow" else "believe"
        elif flagged and self.follows_receipts:
            mode = "check"
        if not flagged and odd:
            if self.skeptic:
                mode = "check"
            elif self.noisy:
                mode = (
                    "check"
                    if self._draw(judged, f"{source['id']}.odd", rng, notes) == "notice"
                    else "believe"
                )
        if mode == "believe":
            return source["result"], src.path
        routes = self._routes(entry, source, src, steps, flagged)
        for i, (tool, args, path) in enumerate(routes):
            made = next((c for c in calls if c["side"] == f"{source['id']} {i}"), None)
            if made is None:
                return self._call(tool, args, "", [*notes, f"{{recover: {source['id']} {i}}}"], rng)
            again = made["receipt"] is not None and concerns(made["receipt"], made["result"], path)
            if not again and not (self.skeptic and self._odd(made["result"], src, schema, path)):
                return made["result"], path
        return None

    def _draw(
        self, judged: dict[str, str], key: str, rng: Any, notes: list[str], receipt: bool = False
    ) -> str:
        choice = judged.get(key)
        if choice is None:
            if receipt:
                draw = rng.random()
                choice = (
                    "overreact"
                    if draw < self.p_overreact
                    else "follow"
                    if rng.random() < self.p_follow
                    else "ignore"
                )
            else:
                choice = "notice" if rng.random() < self.p_notice else "miss"
            judged[key] = choice
            notes.append(f"{{judged: {key}={choice}}}")
        return choice

    @staticmethod
    def _odd(result: Any, src: Source, schema: Mapping[str, Any], path: tuple | None = None) -> bool:
        found, value = get(result, src.path if path is None else path)
        return not found or not _fits(apply(src.how, value), schema)

    def _routes(
        self, entry: Entry, source: dict, src: Source, steps: list[dict], flagged: bool
    ) -> list[tuple[str, dict, tuple]]:
        """Where the value can be read again: the same call (a read), then each other read the receipt
        lists whose result, on a clean replay of the steps made so far, carries the value (the plan says
        which tool and where; the value is read from this episode's result)."""
        routes: list[tuple[str, dict, tuple]] = []
        if self._is_read(source["name"]):
            routes.append((source["name"], source["args"], src.path))
        listed = (source["receipt"] or {}).get("recovery_tools") if flagged else None
        made = tuple((c["turn"], c["pos"]) for c in steps)
        for tool in listed if isinstance(listed, list) else []:
            if tool == source["name"] or not self._is_read(str(tool)):
                continue
            args = self._fill(str(tool), source["args"])
            text = None if args is None else checker.call_string(str(tool), args)
            if text is None:
                continue
            content, is_error = checker.parse_result(simulated(entry.id, made, text))
            path = next((p for p, leaf in leaves(content) if apply(src.how, leaf) == src.clean), None)
            if not is_error and path is not None:
                routes.append((str(tool), args or {}, path))
        return routes

    @staticmethod
    def _fill(tool: str, known: Mapping[str, Any]) -> dict | None:
        """A listed tool's arguments from the source call's (by name); None when a required one is unknown."""
        from environments.bfcl.tools import catalog

        spec = catalog().get(tool)
        if spec is None:
            return None
        props = spec.parameters.get("properties", {}) or {}
        if any(r not in known for r in spec.parameters.get("required", [])):
            return None
        return {k: v for k, v in known.items() if k in props}

    @staticmethod
    def _is_read(name: str) -> bool:
        from environments.bfcl.tools import catalog

        spec = catalog().get(name)
        return spec is not None and spec.category == "read"

    @staticmethod
    def _params(tools: list[dict], name: str) -> dict[str, Any]:
        for t in tools:
            fn = t.get("function", t)
            if fn.get("name") == name:
                return dict((fn.get("parameters") or {}).get("properties") or {})
        return {}

    # --- reading the conversation ---------------------------------------------------------------------
    @staticmethod
    def _calls(messages: list[dict]) -> list[dict]:
        """Every answered tool call: id, name, args, the user turn it belongs to, its position among the
        turn's planned steps (recoveries and probes have none: ``side`` says which), result and receipt."""
        out: list[dict] = []
        pending: dict[str, dict] = {}
        done: list[tuple[int, int]] = []
        turn, pos = -1, 0
        for m in messages:
            role = m.get("role")
            if role == "user":
                turn, pos = turn + 1, 0
            elif role == "assistant":
                content = m.get("content") or ""
                side_m = _SIDE.search(content)
                side = (
                    f"{side_m.group(1)} {side_m.group(2)}"
                    if side_m
                    else ("probe" if _PROBE in content else "")
                )
                for tc in m.get("tool_calls") or []:
                    try:
                        args = json.loads(tc["function"]["arguments"] or "{}")
                    except ValueError:
                        args = {}
                    c = {
                        "id": tc["id"],
                        "name": tc["function"]["name"],
                        "args": args,
                        "turn": turn,
                        "pos": None if side else pos,
                        "side": side,  # a recovery read or a probe: not a step of the plan
                        "before": tuple(done),  # the plan's steps made before this call
                    }
                    if not side:
                        done.append((turn, pos))
                        pos += 1
                    pending[tc["id"]] = c
            elif role == "tool" and m.get("tool_call_id") in pending:
                c = pending.pop(m["tool_call_id"])
                c["result"], c["receipt"] = unwrap_receipt(m.get("content"))
                out.append(c)
        return out

    # --- messages -------------------------------------------------------------------------------------
    def _text(self, text: str, notes: list[str] | None = None) -> dict:
        extra = (" " + " ".join(notes)) if notes else ""
        return {
            "role": "assistant",
            "content": f"[scripted policy {self.name}] {text}{extra}",
            "tool_calls": [],
        }

    def _call(self, name: str, args: Mapping[str, Any], what: str, notes: list[str], rng: Any) -> dict:
        cid = f"call_{name}_{rng.randrange(10**9)}"
        body = " ".join([f"[scripted policy {self.name}]", what, *notes]).strip()
        return {
            "role": "assistant",
            "content": body,
            "tool_calls": [
                {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            ],
        }


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
