"""Generic mode: a stock policy playing a world that offers no conventions, from its tool schemas alone.

Each request it rebuilds, from the messages only:

- the values it knows (``Values``), in this order: what the user wrote (JSON objects, ``key=value``
  pairs, e-mail addresses for e-mail parameters, an id written after its parameter's stem, as in
  "order #W123" for ``order_id``), then the fields of every trusted result by name, nested ones
  too; a list field's elements also stand for the id parameter its singular names (``orders`` ->
  ``order_id``), and a bare value returned by a tool named for what it returns
  (``find_user_id_by_email``) is that parameter's value;
- every call made and what the policy's judge made of its result (the same judge as with a
  world's conventions: explicit errors, receipts, the skeptic's checks, noisy's draws).

Then the next call, in this order: the recovery tool a receipt made the policy switch to; one retry
of the latest call judged bad; the first read tool (in list order) with an argument set it can
fill and has not called (required parameters only: from known values by name, enum parameters
from the values the user named, else the enum's first). Each (tool, arguments) is called once,
unless it failed. It never calls a write or a tool of unknown effect (``_schema.effect``: it cannot
tell from a schema whether a change is wanted, allowed or already made). When nothing is left, or
after ``MAX_CALLS``, it ends: the terminal tool if the schemas show one, else a text answer (a world
with a user then answers, and the episode ends by the user or the round cap).

Stateless and deterministic: no draw but the judge's, everything rebuilt per request.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.players import Param, ToolInfo
from harness.agents.policies._history import History, Receipt, Step
from harness.agents.policies._judge import MAX_ATTEMPTS, Decisions, Judge
from harness.agents.policies._schema import ANSWER_PARAMS, READ_VERBS, coerce, read_schemas, words

MAX_CALLS = 20  # tool calls in one episode before generic mode ends anyway
MAX_CALLS_PER_TOOL = 6  # distinct argument sets of one tool
MAX_CANDIDATES = 8  # values tried for one parameter

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# key=value, the value running to ; , a line end or the next key=
_PAIR = re.compile(r"\b([A-Za-z_]\w*)\s*=\s*(.+?)\s*(?=[;,\n]|\s+[A-Za-z_]\w*\s*=|$)")
_LINKS = frozenset("by for from of with in using".split())
DONE_WORDS = ("done", "success", "succeeded", "completed", "complete", "ok", "finished")
ABORT_WORDS = ("aborted", "abort", "failed", "fail", "failure", "error", "incomplete")
_NO = object()  # a value that does not fit a parameter


def _vkey(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _id_aliases(key: str) -> list[str]:
    """The id parameters a list field's elements stand for: ``orders`` -> ``order_id``."""
    one = singular(key.lower())
    return [one] if one.endswith("id") else [f"{one}_id"]


def _is_id(name: str) -> bool:
    parts = words(name)
    return len(parts) > 1 and parts[-1] == "id"


def returned_name(tool: str) -> str:
    """What a tool's name says it returns: ``find_user_id_by_email`` -> ``user_id`` ("" when unclear)."""
    parts = words(tool)
    verb = next((i for i, w in enumerate(parts) if w in READ_VERBS), None)
    if verb is None:
        return ""
    rest = list(itertools.takewhile(lambda w: w not in _LINKS, parts[verb + 1 :]))
    return "_".join(rest)


@dataclass
class Values:
    """Known values by name, in the order first seen (the user's words first)."""

    by_name: dict[str, list[Any]] = field(default_factory=dict)

    def add(self, name: str, value: Any) -> None:
        seen = self.by_name.setdefault(name, [])
        if all(_vkey(v) != _vkey(value) for v in seen):
            seen.append(value)

    def add_tree(self, obj: Any) -> None:
        """Every named value in a JSON value: dict fields at any depth; a list field's elements also
        under the id its singular names."""
        if isinstance(obj, list):
            for item in obj:
                self.add_tree(item)
            return
        if not isinstance(obj, Mapping):
            return
        for key, value in obj.items():
            key = str(key)
            if _scalar(value) or isinstance(value, (dict, list)):
                self.add(key, value)
            if isinstance(value, list):
                for item in value:
                    if _scalar(item):
                        for alias in _id_aliases(key):
                            self.add(alias, item)
            if isinstance(value, (dict, list)):
                self.add_tree(value)

    def add_text(self, text: str, params: Sequence[Param]) -> None:
        """What a user wrote: JSON objects, key=value pairs, e-mails and ids named by their stem."""
        for obj in _json_objects(text):
            self.add_tree(obj)
        for key, value in _PAIR.findall(text):
            self.add(key, value.removesuffix("."))
        for p in params:
            if "email" in words(p.name):
                for email in _EMAIL.findall(text):
                    self.add(p.name, email.rstrip("."))
            if _is_id(p.name):
                for token in _mentioned_ids(text, p.name):
                    self.add(p.name, token)

    def add_result(self, tool: str, raw: Any) -> None:
        if isinstance(raw, (Mapping, list)) and not (isinstance(raw, list) and all(_scalar(x) for x in raw)):
            self.add_tree(raw)
            return
        name = returned_name(tool)
        if name:
            self.add_tree({name: raw})

    def known(self) -> set[str]:
        return {_vkey(v) for vs in self.by_name.values() for v in vs}


def _json_objects(text: str) -> Iterator[Any]:
    decoder, i = json.JSONDecoder(), text.find("{")
    while i >= 0:
        try:
            obj, end = decoder.raw_decode(text, i)
        except ValueError:
            i = text.find("{", i + 1)
            continue
        yield obj
        i = text.find("{", end)


def _mentioned_ids(text: str, param: str) -> list[str]:
    """Tokens with a digit written right after the parameter's stem ("order #W123" for order_id)."""
    stem = words(param)[:-1]
    if not stem:
        return []
    pattern = (
        r"\b"
        + r"[\s_-]*".join(map(re.escape, stem))
        + r"s?\b[^\w#]{0,3}(?:(?:id|number|no)\b[^\w#]{0,3})?(?:is\s+)?(#?[A-Za-z0-9][\w-]*)"
    )
    return [t for t in re.findall(pattern, text, re.I) if any(c.isdigit() for c in t)]


def fit(value: Any, param: Param) -> Any:
    """``value`` as the parameter's JSON type, or ``_NO`` when it cannot be one (or is not in its enum)."""
    t = param.type
    out: Any = _NO
    if isinstance(value, bool):
        out = value if t in ("boolean", "") else _NO
    elif t == "string":
        out = value if isinstance(value, str) else str(value) if _scalar(value) else _NO
    elif t == "integer":
        if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
            out = int(value)
        elif isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
            out = int(value.strip())
    elif t == "number":
        if isinstance(value, (int, float)):
            out = value
        elif isinstance(value, str) and re.fullmatch(r"-?\d+(\.\d+)?", value.strip()):
            out = coerce(value.strip(), "number")
    elif t == "boolean":
        out = {"true": True, "false": False}.get(str(value).strip().lower(), _NO)
    elif t == "array":
        out = value if isinstance(value, list) else _NO
    elif t == "object":
        out = value if isinstance(value, dict) else _NO
    else:
        out = value
    if out is not _NO and param.enum and out not in param.enum:
        return _NO
    return out


@dataclass
class GenericState:
    """What generic mode knows after replaying the history up to some step."""

    tools: dict[str, ToolInfo]
    values: Values
    user_text: str
    done: set[str] = field(default_factory=set)  # (tool, arguments) keys whose result was trusted
    failures: Counter[str] = field(default_factory=Counter)  # (tool, arguments) key -> bad results
    tried: dict[str, set[str]] = field(default_factory=dict)  # tool -> argument keys called
    calls: int = 0
    avoid: set[str] = field(default_factory=set)  # tools the policy switched away from
    prefer: str | None = None  # the recovery tool to call next
    retry: Step | None = None  # the latest call, when it was judged bad
    distrusted: set[str] = field(default_factory=set)  # values only bad results gave
    trusted: list[Step] = field(default_factory=list)
    last_failure: str = ""
    abandon: str | None = None

    def candidates(self, param: Param) -> list[Any]:
        out: list[Any] = []
        for value in self.values.by_name.get(param.name, []):
            fitted = fit(value, param)
            if fitted is not _NO and all(_vkey(fitted) != _vkey(o) for o in out):
                out.append(fitted)
        if not out and param.enum:
            low = self.user_text.lower()
            named = [e for e in param.enum if re.search(rf"\b{re.escape(str(e).lower())}\b", low)]
            out = named or [param.enum[0]]
        return out[:MAX_CANDIDATES]

    def arg_sets(self, tool: ToolInfo) -> Iterator[dict[str, Any]]:
        """Argument sets for ``tool`` from known values (required parameters only), not yet used up."""
        required = [p for p in tool.params if p.required]
        lists = [self.candidates(p) for p in required]
        if any(not c for c in lists):
            return
        for combo in itertools.product(*lists):
            args = dict(zip((p.name for p in required), combo, strict=True))
            key = call_key(tool.name, args)
            if key not in self.done and self.failures[key] < MAX_ATTEMPTS:
                yield args

    def callable(self, tool: ToolInfo) -> bool:
        return not (tool.is_action or tool.is_terminal or tool.name in self.avoid)

    def open_call(self, tool: ToolInfo) -> dict[str, Any] | None:
        if not self.callable(tool) or len(self.tried.get(tool.name, ())) >= MAX_CALLS_PER_TOOL:
            return None
        return next(self.arg_sets(tool), None)

    def usable_recovery(self, step: Step, receipt: Receipt) -> str | None:
        """The first listed recovery tool (not the flagged one) that is a read it can call now."""
        for name in receipt.recovery_tools or ():
            tool = self.tools.get(name)
            if name != step.tool and tool is not None and self.open_call(tool) is not None:
                return name
        return None

    def tainted(self, step: Step) -> bool:
        """The call consumed a value that only a result judged bad gave."""
        known = self.values.known()
        return any(
            _scalar(v) and _vkey(v) in self.distrusted and _vkey(v) not in known for v in step.args.values()
        )


def call_key(tool: str, args: Mapping[str, Any]) -> str:
    return _vkey([tool, args])


def replay(
    judge: Judge, history: History, tools: Sequence[Mapping[str, Any]], decisions: Decisions
) -> GenericState:
    infos = read_schemas(tools)
    params = [p for t in infos if not t.is_terminal for p in t.params]
    values = Values()
    for text in history.user_texts:
        values.add_text(text, params)
    state = GenericState({t.name: t for t in infos}, values, "\n".join(history.user_texts))
    for step in history.steps:
        tool = state.tools.get(step.tool)
        if tool is None or tool.is_terminal:
            continue
        key = call_key(step.tool, step.args)
        state.calls += 1
        state.tried.setdefault(step.tool, set()).add(key)
        state.retry = None
        if state.tainted(step):  # it consumed a value the policy no longer trusts
            continue
        verdict = judge(step, tool, state, decisions)
        if verdict.abandon:
            state.abandon = verdict.abandon
            break
        if verdict.bad:
            state.failures[key] += 1
            state.last_failure = f"{step.tool}: {verdict.why}"
            if isinstance(step.raw, (Mapping, list)):
                bad = Values()
                bad.add_tree(step.raw)
                state.distrusted |= bad.known() - state.values.known()
            if verdict.switch_to:
                state.avoid.add(step.tool)
                state.prefer = verdict.switch_to
            else:
                state.retry = step
            continue
        state.done.add(key)
        state.trusted.append(step)
        state.values.add_result(step.tool, step.raw)
        if state.prefer == step.tool:
            state.prefer = None
    return state


def plan(
    name: str, judge: Judge, history: History, tools: Sequence[Mapping[str, Any]], decisions: Decisions
) -> tuple[tuple[str, dict[str, Any]] | None, str]:
    """The next call (or None: answer in text) and the message text, in generic mode."""
    state = replay(judge, history, tools, decisions)
    if state.abandon:
        return _end(name, state, "aborted", f"Task aborted: {state.abandon}", state.abandon)
    if state.calls < MAX_CALLS:
        if state.prefer is not None and state.prefer in state.tools:
            args = state.open_call(state.tools[state.prefer])
            if args is not None:
                return (state.prefer, args), f"calling {state.prefer}: a recovery tool the receipt lists"
        retry = state.retry
        if retry is not None and state.failures[call_key(retry.tool, retry.args)] < MAX_ATTEMPTS:
            return (retry.tool, dict(retry.args)), f"calling {retry.tool} again ({state.last_failure})"
        for tool in state.tools.values():
            args = state.open_call(tool)
            if args is not None:
                return (tool.name, args), f"calling {tool.name}"
    if state.trusted:
        reads = Counter(s.tool for s in state.trusted)
        made = ", ".join(f"{t} x{n}" if n > 1 else t for t, n in reads.items())
        last = json.dumps(state.trusted[-1].raw, ensure_ascii=False, default=str)
        last = last if len(last) <= 200 else last[:197] + "..."
        text = (
            f"done: I read {sum(reads.values())} result(s) ({made}); the last: {last}. "
            "I cannot make changes: the tool schemas alone do not tell me which change is wanted."
        )
        return _end(name, state, "done", text, "nothing left to read")
    why = state.last_failure or "no read tool can be called with the values at hand"
    return _end(name, state, "aborted", f"Task aborted: {why}", why)


def _end(
    name: str, state: GenericState, status: str, text: str, reason: str
) -> tuple[tuple[str, dict[str, Any]] | None, str]:
    answer = f"[scripted policy {name}] {text}"
    terminal = next((t for t in state.tools.values() if t.is_terminal), None)
    if terminal is None:
        return None, answer
    return (terminal.name, terminal_args(terminal, status, answer, reason)), answer


def terminal_args(tool: ToolInfo, status: str, answer: str, reason: str) -> dict[str, Any]:
    """The terminal tool's arguments: status in the schema's own words, the answer, the reason."""
    args: dict[str, Any] = {}
    for p in tool.params:
        if p.name == "status":
            args[p.name] = _status(p, status)
        elif p.name == "reason":
            args[p.name] = reason
        elif p.type == "boolean" and p.required:
            args[p.name] = status == "done"
        elif p.name in ANSWER_PARAMS or (p.required and p.type == "string"):
            args[p.name] = answer
    return args


def _status(param: Param, status: str) -> Any:
    if not param.enum:
        return status
    wanted = DONE_WORDS if status == "done" else ABORT_WORDS
    by_word = {str(e).lower(): e for e in param.enum}
    return next((by_word[w] for w in wanted if w in by_word), param.enum[0 if status == "done" else -1])
