"""Scripted agents for BFCL multi-turn: they follow each turn's ground truth and carry values from results.

Instruments for testing the harness, not models. A player finds its task by the user's turns (the
world's base and long_context tasks; where two match, the one whose clean results match the results seen
so far, after one probing read where their plans part before anything seen differs), then makes the current turn's ground-truth calls in order, one per request,
and ends the turn with text. An argument the ground truth took from an earlier result (its value is
in that result's clean copy at some field and nowhere in the user's words) is read from the result the
player was shown, at that field: so a corrupted result the player believes reaches its next call, and
the checker's replay sees it. A value not believed is taken as the ground truth states it (the player
"asks", as a user would answer), after one re-read when its tool is a read.

Behaviours (each rebuilt from the messages at every request; one shared instance plays every episode):
- ``trusting`` believes every result and reads past receipts.
- ``receipt-aware``: a receipt on a result a later argument comes from makes it re-read once (a read
  tool); still flagged (or a write's result): not believed.
- ``skeptic``: as receipt-aware, and a value of another JSON type than the clean one, or a missing
  field, counts as flagged without a receipt.
- ``noisy``: per receipt on a result a later argument comes from, abandons the turn with ``p_overreact``
  (0.2), else follows it with ``p_follow`` (0.7), else ignores it; notices an odd value with ``p_notice``
  (0.15). A receipt on a result no argument comes from changes nothing for any player. Draws come from
  the request's rng and are written into its messages (``{judged: <call id>=<choice>}``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from environments.bfcl import checker
from environments.bfcl.calls import parse
from environments.bfcl.data import WORLD_CATEGORIES, Entry, entries

_JUDGED = re.compile(r"\{judged: ([^=}]+)=(\w+)\}")
_REREAD = re.compile(r"\{reread: ([^}]+)\}")
_PROBE = "{probe}"
Path = tuple[Any, ...]


def unwrap(content: Any) -> tuple[Any, dict | None]:
    """(result, receipt or None): a receipt wraps the raw result as ``{tool_result, outcome_monitor}``."""
    try:
        obj = json.loads(content) if isinstance(content, str) else content
    except (TypeError, ValueError):
        return content, None
    if isinstance(obj, dict) and "outcome_monitor" in obj and "tool_result" in obj:
        inner = obj["tool_result"]
        if isinstance(inner, str):
            try:
                inner = json.loads(inner)
            except ValueError:
                pass
        return inner, obj["outcome_monitor"] if isinstance(obj["outcome_monitor"], dict) else {}
    return obj, None


def _leaves(obj: Any, at: Path = ()) -> list[tuple[Path, Any]]:
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in _leaves(v, (*at, k))]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in _leaves(v, (*at, i))]
    return [(at, obj)]


def _get(obj: Any, path: Path) -> tuple[bool, Any]:
    for part in path:
        if isinstance(obj, dict) and part in obj:
            obj = obj[part]
        elif isinstance(obj, list) and isinstance(part, int) and 0 <= part < len(obj):
            obj = obj[part]
        else:
            return False, None
    return True, obj


def _carriable(value: Any) -> bool:
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, str):
        return len(value) >= 3
    return isinstance(value, (int, float)) and abs(value) >= 10 or isinstance(value, float)


@cache
def _index() -> dict[str, tuple[Entry, ...]]:
    out: dict[str, list[Entry]] = {}
    for cat in WORLD_CATEGORIES:
        for e in entries(cat):
            out.setdefault(e.turns[0], []).append(e)
    return {k: tuple(v) for k, v in out.items()}


def provenance(entry_id: str) -> dict[tuple[int, int], dict[str, tuple[tuple[int, int], Path, Any]]]:
    """For each ground-truth call (turn, position): the arguments taken from an earlier clean result,
    as ``{arg: ((turn, position) of the source call, path in its result, clean value)}``."""
    return _replayed(entry_id)[0]


def clean_results(entry_id: str) -> dict[tuple[int, int], str]:
    """Each ground-truth call's clean result, as the executor's string."""
    return _replayed(entry_id)[1]


@cache
def _replayed(entry_id: str) -> tuple[dict, dict]:
    entry = next(e for es in _index().values() for e in es if e.id == entry_id)
    name = checker.unique_name("provenance")
    seen: list[tuple[tuple[int, int], Any]] = []
    out: dict[tuple[int, int], dict[str, tuple[tuple[int, int], Path, Any]]] = {}
    raws: dict[tuple[int, int], str] = {}
    try:
        for k, turn in enumerate(entry.ground_truth):
            said = "\n".join(entry.turns[: k + 1])
            for i, text in enumerate(turn):
                call = parse(text)
                for arg, value in call.arguments.items():
                    if not _carriable(value) or str(value) in said:
                        continue
                    for src, result in reversed(seen):
                        hit = next(
                            (p for p, v in _leaves(result) if v == value and type(v) is type(value)), None
                        )
                        if hit is not None:
                            out.setdefault((k, i), {})[arg] = (src, hit, value)
                            break
                (raw,), _ = checker.execute(entry, name, [text])
                raws[(k, i)] = raw
                content, is_error = checker.parse_result(raw)
                if not is_error and isinstance(content, (dict, list)):
                    seen.append(((k, i), content))
    finally:
        checker.release(name)
    return out, raws


@cache
def _simulated(entry_id: str, steps: tuple[tuple[int, int], ...], probe: str) -> str:
    """The result of ``probe`` after the ground-truth calls at ``steps``, on fresh instances of the task."""
    entry = next(e for es in _index().values() for e in es if e.id == entry_id)
    name = checker.unique_name("probe")
    try:
        texts = [entry.ground_truth[k][i] for k, i in steps]
        results, _ = checker.execute(entry, name, [*texts, probe])
        return results[-1]
    finally:
        checker.release(name)


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
        candidates = [e for e in _index().get(users[0], ()) if list(e.turns[: turn + 1]) == users]
        if not candidates or turn >= len(candidates[0].ground_truth):
            return self._text("cannot plan: this conversation is not a BFCL task this player knows")
        calls = self._calls(messages)
        judged = {
            k: v
            for m in messages
            if m.get("role") == "assistant"
            for k, v in _JUDGED.findall(m.get("content") or "")
        }
        entry = self._choose(candidates, turn, calls)
        probe = self._probe(candidates, entry, turn, calls, tools)
        if probe is not None:
            return self._call(probe, {}, "", [_PROBE], rng)
        steps = [c for c in calls if not c["reread"]]
        by_step = {(c["turn"], c["pos"]): c for c in steps}
        done = [c for c in steps if c["turn"] == turn]
        if any(
            v == "overreact" and any(c["id"] == k and c["turn"] == turn for c in calls)
            for k, v in judged.items()
        ):
            return self._text(
                "I stop here: a result I was warned about makes me unsure this request can be done"
            )
        if len(done) >= len(entry.ground_truth[turn]):
            return self._text("done with this request")
        pos = len(done)
        planned = parse(entry.ground_truth[turn][pos])
        args = dict(planned.arguments)
        notes: list[str] = []
        for arg, (src, path, clean) in provenance(entry.id).get((turn, pos), {}).items():
            source = by_step.get(src)
            if source is None:
                continue  # the source call was never made: the value is the ground truth's as stated
            verdict = self._judge(source, path, clean, calls, judged, rng, notes)
            if verdict == "overreact":
                return self._text(
                    "I stop here: a result I was warned about makes me unsure this request can be done", notes
                )
            if isinstance(verdict, dict):  # a re-read to make first
                return verdict
            if verdict == "believe":
                found, value = _get(source["result"], path)
                if found:
                    args[arg] = value
                else:
                    args.pop(arg, None)
        return self._call(planned.name, args, f"step {turn}.{pos}", notes, rng)

    # --- judging the source of a carried value --------------------------------------------------------
    def _judge(
        self,
        source: dict,
        path: Path,
        clean: Any,
        calls: list[dict],
        judged: dict[str, str],
        rng: Any,
        notes: list[str],
    ) -> Any:
        flagged = source["receipt"] is not None
        found, value = _get(source["result"], path)
        odd = not found or type(value) is not type(clean)
        mode = "believe"
        if flagged and self.noisy:
            choice = judged.get(source["id"])
            if choice is None:
                draw = rng.random()
                choice = (
                    "overreact"
                    if draw < self.p_overreact
                    else "follow"
                    if rng.random() < self.p_follow
                    else "ignore"
                )
                judged[source["id"]] = choice
                notes.append(f"{{judged: {source['id']}={choice}}}")
            if choice == "overreact":
                return "overreact"
            mode = "check" if choice == "follow" else "believe"
        elif flagged and self.follows_receipts:
            mode = "check"
        if not flagged and odd:
            if self.skeptic:
                mode = "check"
            elif self.noisy:
                key = f"{source['id']}.odd"
                choice = judged.get(key)
                if choice is None:
                    choice = "notice" if rng.random() < self.p_notice else "miss"
                    judged[key] = choice
                    notes.append(f"{{judged: {key}={choice}}}")
                mode = "check" if choice == "notice" else "believe"
        if mode == "believe":
            return "believe"
        reread = next((c for c in calls if c["reread"] == source["id"]), None)
        if reread is None and self._is_read(source["name"]):
            return self._call(
                source["name"], source["args"], "", [*notes, f"{{reread: {source['id']}}}"], rng
            )
        if reread is not None and reread["receipt"] is None:
            found2, value2 = _get(reread["result"], path)
            if found2 and (not self.skeptic or type(value2) is type(clean)):
                source["result"] = reread["result"]
                return "believe"
        notes.append(
            f"(not believed: {source['name']} {'.'.join(map(str, path))}; taking the value as asked)"
        )
        return "literal"

    @staticmethod
    def _is_read(name: str) -> bool:
        from environments.bfcl.tools import catalog

        spec = catalog().get(name)
        return spec is not None and spec.category == "read"

    # --- reading the conversation ---------------------------------------------------------------------
    @staticmethod
    def _calls(messages: list[dict]) -> list[dict]:
        """Every answered tool call: id, name, args, the user turn it belongs to, its position among the
        turn's planned steps (re-reads have none), result and receipt."""
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
                reread = _REREAD.search(content)
                probe = _PROBE in content
                for tc in m.get("tool_calls") or []:
                    try:
                        args = json.loads(tc["function"]["arguments"] or "{}")
                    except ValueError:
                        args = {}
                    side = reread.group(1) if reread else ("probe" if probe else "")
                    c = {
                        "id": tc["id"],
                        "name": tc["function"]["name"],
                        "args": args,
                        "turn": turn,
                        "pos": None if side else pos,
                        "reread": side,  # a re-read or a probe: not a step of the plan
                        "before": tuple(done),  # the plan's steps made before this call
                    }
                    if not side:
                        done.append((turn, pos))
                        pos += 1
                    pending[tc["id"]] = c
            elif role == "tool" and m.get("tool_call_id") in pending:
                c = pending.pop(m["tool_call_id"])
                c["result"], c["receipt"] = unwrap(m.get("content"))
                out.append(c)
        return out

    @staticmethod
    def _choose(candidates: list[Entry], turn: int, calls: list[dict]) -> Entry:
        """The candidate whose clean results match the results seen so far at the most steps (base and
        long_context share questions; long context's results carry the package's long extensions)."""
        if len(candidates) == 1:
            return candidates[0]

        return max(candidates, key=lambda e: Player._score(e, calls))  # max keeps the first (base) on a tie

    @staticmethod
    def _score(e: Entry, calls: list[dict]) -> int:
        """Steps whose result is this candidate's clean result, and probes whose result it predicts."""
        clean = clean_results(e.id)

        def shown(c: dict) -> str:
            return c["result"] if isinstance(c["result"], str) else json.dumps(c["result"])

        steps = sum(
            1
            for c in calls
            if not c["reread"] and (c["turn"], c["pos"]) in clean and clean[(c["turn"], c["pos"])] == shown(c)
        )
        probes = sum(
            1
            for c in calls
            if c["reread"] == "probe" and _simulated(e.id, c["before"], f"{c['name']}()") == shown(c)
        )
        return steps + probes

    @staticmethod
    def _probe(
        candidates: list[Entry], chosen: Entry, turn: int, calls: list[dict], tools: list[dict]
    ) -> str | None:
        """A read the player makes to tell tied candidates apart where their plans part (base and
        long_context share questions and often their first calls): the first of the task's read tools with
        no required parameter whose result differs between them here, unless one was made here already."""
        if len(candidates) < 2:
            return None
        best = Player._score(chosen, calls)
        tied = [e for e in candidates if Player._score(e, calls) == best]
        steps = tuple((c["turn"], c["pos"]) for c in calls if not c["reread"])
        pos = sum(1 for c in calls if not c["reread"] and c["turn"] == turn)

        def nxt(e: Entry) -> str | None:
            gt = e.ground_truth[turn] if turn < len(e.ground_truth) else ()
            return gt[pos] if pos < len(gt) else None

        if len(tied) < 2 or len({nxt(e) for e in tied}) < 2:
            return None
        if any(c["reread"] == "probe" and c["before"] == steps for c in calls):
            return None  # probed here already and still tied: nothing tells them apart
        from environments.bfcl.tools import catalog

        cat = catalog()
        for schema in tools:
            fn = schema.get("function", schema)
            name = str(fn.get("name", ""))
            spec = cat.get(name)
            if spec is None or spec.category != "read" or (fn.get("parameters") or {}).get("required"):
                continue
            if len({_simulated(e.id, steps, f"{name}()") for e in tied}) > 1:
                return name
        return None

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
