"""Where each value of a ground truth comes from: the plan the world's scripted players follow.

A task's ground truth is replayed once on a clean episode (seed 0). For every argument of every call,
and for the spans of the ground truth's final text (``GROUND_TRUTH_OUTPUT``), the value is looked up
in the results of the calls before it, most recent first, by value: a whole leaf equal to it (an id,
an e-mail address, an amount) or a span of a text leaf (a code in an e-mail body, an address in a
hotel's entry). A value the user's prompt states is the user's, not a read's. The plan keeps, for each
such value, the step and the path (and the offset in a text leaf) where it was found, never the value
as the source of truth: a player reads it again, at that place, out of what its own episode returned.

Beside each read step the plan keeps the other read tools of the suite that a player could call with
the same arguments (or none) and that hold the same value, with its path there: the ways a receipt's
``recovery_tools`` can lead back to the value. They are probed on a copy of the clean state after the
step (some reads change the state: ``get_unread_emails`` marks e-mails read).

``flows``: some value read reaches a write's argument or the answer (directly or through later reads'
arguments). A task without it cannot let a silent read fault change its grade through the player;
``agentdojo-faults`` leaves those tasks out and names them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from environments.agentdojo import package

Path = tuple[Any, ...]
_ID_KEY = re.compile(r"(^|_)id_?$")
_WORD = re.compile(r"\d+\.(?=[A-Za-z])|\S+")  # "2.https://..." is a list number, then a link
_TRIM = ",;.:!?()'\""
ANCHOR = 24  # characters of left context kept to find a span again


@dataclass(frozen=True)
class Source:
    """A value taken from the result of plan step ``step`` at ``path``: the whole leaf (``start`` None)
    or the span of ``len(text)`` characters at ``start`` of the leaf's text."""

    step: int
    path: Path
    start: int | None
    clean: Any  # the value in the clean replay (its JSON type is what a player passes on)
    anchor: str = ""  # a span's clean left context: found again where other text was inserted before it

    @property
    def key(self) -> tuple[Path, int | None]:
        return self.path, self.start

    def read(self, result: Any) -> tuple[bool, Any]:
        """(found, value) out of ``result`` at this place; a leaf that is gone is not found."""
        found, leaf = get_path(result, self.path)
        if not found:
            return False, None
        if self.start is None:
            return True, leaf
        text = leaf if isinstance(leaf, str) else json.dumps(leaf)
        at = self.start
        if self.anchor and text[max(0, at - len(self.anchor)) : at] != self.anchor and self.anchor in text:
            at = text.index(self.anchor) + len(self.anchor)
        return True, text[at : at + len(str(self.clean))]


@dataclass(frozen=True)
class Alternate:
    """Another read tool holding a source step's values: its arguments and, per value, where."""

    tool: str
    arguments: dict[str, Any]
    places: dict[tuple[Path, int | None], tuple[Path, int | None]]  # source key -> (path, start) here


@dataclass(frozen=True)
class Step:
    tool: str
    arguments: dict[str, Any]  # the ground truth's own values
    category: str  # read | write
    # argument -> its Source, or for a list argument one Source (or None: literal) per element
    sources: dict[str, Source | tuple[Source | None, ...]]


@dataclass(frozen=True)
class Plan:
    task_id: str
    steps: tuple[Step, ...]
    answer: tuple[str | Source, ...]  # the final text: literal pieces and values read
    alternates: dict[int, tuple[Alternate, ...]] = field(default_factory=dict)
    flows: bool = False  # some value read reaches a write or the answer

    def used_sources(self) -> list[Source]:
        out = [s for part in self.answer if isinstance(part, Source) for s in (part,)]
        for st in self.steps:
            for src in st.sources.values():
                out += [s for s in (src if isinstance(src, tuple) else (src,)) if s is not None]
        return out


# --------------------------------------------------------------------------------------------- paths


def leaves(obj: Any, at: Path = ()) -> list[tuple[Path, Any]]:
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in leaves(v, (*at, k))]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in leaves(v, (*at, i))]
    return [(at, obj)]


def get_path(obj: Any, path: Path) -> tuple[bool, Any]:
    for part in path:
        if isinstance(obj, dict) and part in obj:
            obj = obj[part]
        elif isinstance(obj, list) and isinstance(part, int) and 0 <= part < len(obj):
            obj = obj[part]
        else:
            return False, None
    return True, obj


def _id_like(path: Path) -> bool:
    return bool(path) and isinstance(path[-1], str) and bool(_ID_KEY.search(path[-1]))


def _same(value: Any, leaf: Any, path: Path) -> bool:
    """A whole leaf that is this value, and distinctive enough not to be a coincidence."""
    if isinstance(value, bool) or isinstance(leaf, bool) or value is None:
        return False
    if isinstance(value, str):
        return isinstance(leaf, str) and leaf == value and (len(value) >= 3 or _id_like(path))
    if isinstance(value, int | float) and isinstance(leaf, int | float):
        if _id_like(path):  # a small id only as an id: an amount of 4.0 is not the record with id 4
            return leaf == value and type(leaf) is type(value)
        return leaf == value and (abs(value) >= 10 or float(value) != int(value))
    return False


def find(value: Any, results: list[tuple[int, Any]], said: str) -> Source | None:
    """Where ``value`` was read: the first result (in the order given) holding it whole, else as a span
    of a text. ``ordered`` puts reads first, most recent first, then writes (a write mostly echoes)."""
    if isinstance(value, bool) or value is None or stated(str(value), said):
        return None
    for step, result in results:
        for path, leaf in leaves(result):
            if _same(value, leaf, path):
                return Source(step, path, None, value)
    text = value if isinstance(value, str) else None
    if isinstance(value, int | float) and (abs(value) >= 10 or float(value) != int(value)):
        text = str(value)
    if text is None or len(text) < 4:
        return None
    for step, result in results:
        for path, leaf in leaves(result):
            if isinstance(leaf, str) and text in leaf:
                at = leaf.index(text)
                return Source(step, path, at, value, leaf[max(0, at - ANCHOR) : at])
    return None


def stated(text: str, said: str) -> bool:
    """The user's prompt states ``text`` as a word of its own (an id "5" is not in "2024-05-20")."""
    return re.search(rf"(?<![\w.-]){re.escape(text)}(?![\w-])", said) is not None


def _distinctive(span: str) -> bool:
    return len(span) >= 3 and (any(c.isdigit() or c.isupper() for c in span) or len(span) >= 5)


def answer_parts(output: str, results: list[tuple[int, Any]], said: str) -> tuple[str | Source, ...]:
    """The final text as literal pieces and read values: the longest runs of words found in a result."""
    words = list(_WORD.finditer(output))
    parts: list[str | Source] = []
    pos, i = 0, 0
    while i < len(words):
        hit = None
        for j in range(len(words), i, -1):
            a, b = words[i].start(), words[j - 1].end()
            while a < b and output[a] in _TRIM:
                a += 1
            while b > a and output[b - 1] in _TRIM:
                b -= 1
            span = output[a:b]
            if not _distinctive(span) or stated(span, said):
                continue
            src = find(span, results, said)
            if src is not None:
                hit = (a, b, j, src)
                break
        if hit is None:
            i += 1
            continue
        a, b, j, src = hit
        parts += [output[pos:a], src]
        pos, i = b, j
    parts.append(output[pos:])
    return tuple(p for p in parts if p != "")


# --------------------------------------------------------------------------------------------- plans


def ordered(results: list[tuple[int, Any]], categories: dict[int, str]) -> list[tuple[int, Any]]:
    """Reads' results most recent first, then writes' most recent first."""
    back = list(reversed(results))
    return [r for r in back if categories[r[0]] == "read"] + [r for r in back if categories[r[0]] != "read"]


def _flows(steps: list[Step], answer: tuple[str | Source, ...]) -> bool:
    """Some read value reaches a write's argument or the answer, directly or through later reads."""
    reaching: set[int] = set()  # steps whose result reaches the outcome

    def srcs(st: Step) -> list[Source]:
        return [s for v in st.sources.values() for s in (v if isinstance(v, tuple) else (v,)) if s]

    reaching |= {s.step for s in answer if isinstance(s, Source)}
    for i in range(len(steps) - 1, -1, -1):
        if steps[i].category == "write" or i in reaching:
            reaching |= {s.step for s in srcs(steps[i])}
    return any(steps[s.step].category == "read" for s in _all(steps, answer) if s.step in reaching)


def _all(steps: list[Step], answer: tuple[str | Source, ...]) -> list[Source]:
    return Plan("", tuple(steps), answer).used_sources()


def record_of(result: Any, path: Path) -> dict[str, Any] | None:
    """The innermost object on ``path`` in ``result`` (the record a value belongs to), or None."""
    found, obj = None, result
    for part in path:
        if isinstance(obj, dict):
            found = obj
        ok, obj = get_path(obj, (part,))
        if not ok:
            break
    return found


def _same_record(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    """Two records that are the same thing: equal on every field both have, at least two of them (an
    event's id "24" is not the file with id "24")."""
    if a is None or b is None:
        return a is None and b is None
    common = set(a) & set(b)
    return len(common) >= 2 and all(a[k] == b[k] for k in common)


def _place(src: Source, clean: Any, result: Any) -> tuple[Path, int | None] | None:
    """Where ``src``'s clean value sits in another tool's clean result (the same way: whole or a span),
    in the same record as in ``clean`` (the source step's clean result)."""
    mine = record_of(clean, src.path)
    for path, leaf in leaves(result):
        if src.start is None and _same(src.clean, leaf, path) and type(leaf) is type(src.clean):
            hit: tuple[Path, int | None] = (path, None)
        elif src.start is not None and isinstance(leaf, str) and str(src.clean) in leaf:
            hit = (path, leaf.index(str(src.clean)))
        else:
            continue
        if _same_record(mine, record_of(result, path)):
            return hit
    return None


@cache
def plan(task_id: str, version: str = package.BENCHMARK_VERSION) -> Plan:
    """The task's plan from a clean replay of its ground truth (seed 0)."""
    from environments.agentdojo.env import split_id
    from environments.agentdojo.replay import ground_truth_calls

    suite, _ = split_id(task_id)
    world = _world(suite, version)
    ep = world.sync_episode(task_id, 0)
    said = ep.task.query
    results: list[tuple[int, Any]] = []
    categories: dict[int, str] = {}
    steps: list[Step] = []
    after: list[Any] = []  # a copy of the state after each step, for the alternates' probes
    for i, call in enumerate(ground_truth_calls(world, task_id)):
        sources: dict[str, Source | tuple[Source | None, ...]] = {}
        seen = ordered(results, categories)
        for arg, value in call.arguments.items():
            if isinstance(value, list):
                each = tuple(find(v, seen, said) for v in value)
                if any(each):
                    sources[arg] = each
            else:
                src = find(value, seen, said)
                if src is not None:
                    sources[arg] = src
        spec = ep.specs[call.name]
        categories[i] = spec.category
        steps.append(Step(call.name, dict(call.arguments), spec.category, sources))
        result = ep.call(call)
        after.append(ep.environment.model_copy(deep=True) if spec.category == "read" else None)
        if result.status == "ok":
            results.append((i, result.content))
    answer = answer_parts(str(ep.user_task.GROUND_TRUTH_OUTPUT or ""), ordered(results, categories), said)
    alternates = _alternates(world, task_id, steps, answer, after, dict(results))
    return Plan(task_id, tuple(steps), answer, alternates, _flows(steps, answer))


def _alternates(
    world: Any,
    task_id: str,
    steps: list[Step],
    answer: tuple[str | Source, ...],
    after: list[Any],
    clean: dict[int, Any],
) -> dict[int, tuple[Alternate, ...]]:
    from core.protocol import ToolCall

    used: dict[int, list[Source]] = {}
    for s in _all(steps, answer):
        used.setdefault(s.step, []).append(s)
    out: dict[int, tuple[Alternate, ...]] = {}
    for j, wanted in sorted(used.items()):
        st = steps[j]
        if st.category != "read" or after[j] is None:
            continue
        found = []
        for spec in world.suite_specs(world.suites[0]).values():
            props = spec.parameters.get("properties") or {}
            required = set(spec.parameters.get("required") or ())
            if spec.name == st.tool or spec.category != "read" or not required <= set(st.arguments):
                continue
            args = {k: v for k, v in st.arguments.items() if k in props}
            probe = world.sync_episode(task_id, 0)
            probe.environment = after[j].model_copy(deep=True)
            result = probe.call(ToolCall(spec.name, args))
            if result.status != "ok":
                continue
            places = {s.key: p for s in wanted if (p := _place(s, clean[j], result.content)) is not None}
            if places:
                found.append(Alternate(spec.name, args, places))
        out[j] = tuple(found)
    return out


@cache
def _world(suite: str, version: str) -> Any:
    from environments.agentdojo.env import AgentDojoWorld

    return AgentDojoWorld(suite=suite, version=version)


@cache
def task_of_prompt(prompt: str, version: str = package.BENCHMARK_VERSION) -> str | None:
    """The task id whose prompt this is (prompts are unique across the four suites), or None."""
    return _prompts(version).get(prompt)


@cache
def _prompts(version: str) -> dict[str, str]:
    out = {}
    for s in package.SUITES:
        for uid, ut in package.suite(s, version).user_tasks.items():
            out[ut.PROMPT] = f"{s}.{uid}"
    return out


def no_flow_tasks(task_ids: list[str], version: str = package.BENCHMARK_VERSION) -> list[str]:
    """The tasks whose plan carries no value read into a write or the answer."""
    return [t for t in task_ids if not plan(t, version).flows]
