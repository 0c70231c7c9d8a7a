"""The contract registry: rules per tool, compiled into flat check plans, stored as versioned JSON.

``learn`` / ``learn_schema_only`` build registries from clean traces. ``Registry.check`` is the hot
path: per tool, one plan per context with precompiled field getters and rule closures. Knows
nothing about receipts, recovery tools or folds.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from outcome_monitor import registry_format
from outcome_monitor.checking.paths import (
    ARG,
    KEY,
    concrete,
    context_steps,
    display_path,
    field_getter,
    is_entry_index,
    iter_context,
)
from outcome_monitor.checking.plancode import Run, generate
from outcome_monitor.checking.routes import route_spec, routed_name
from outcome_monitor.checking.rules import _PY_TYPES, PRIORITY, Check, Rule, Violation
from outcome_monitor.checking.toolcode import generate_tool
from outcome_monitor.checking.values import type_ok
from outcome_monitor.learning.admit import admit
from outcome_monitor.learning.collect import collect
from outcome_monitor.learning.executions import Execution, gc_paused, index_executions
from outcome_monitor.text import viewcode
from outcome_monitor.text.frames import broken_end
from outcome_monitor.text.views import View, apply_view, misreads
from outcome_monitor.thresholds import DEFAULT, Thresholds

# the file's format version and kind (registry_format), kept importable from here
FORMAT_VERSION = registry_format.FORMAT_VERSION
KIND = registry_format.KIND


class _Check:
    """One rule as the hot path holds it. Its closure and words are made on first use: most rules
    are checked inline by the generated plan code and only a violation needs their words."""

    __slots__ = ("rule", "rule_id", "shape", "_fn", "_words")

    def __init__(self, rule: Rule, shape: bool = False):
        self.rule = rule
        self.rule_id = rule.rule_id
        self.shape = shape  # the element's own type rule
        self._fn: Check | None = None
        self._words: tuple[str, str, str] | None = None

    @property
    def fn(self) -> Check:
        if self._fn is None:
            self._fn = self.rule.compile()
        return self._fn

    def words(self) -> tuple[str, str, str]:
        """(display path, expected, sentence)."""
        if self._words is None:
            self._words = (self.rule.path, self.rule.expected(), self.rule.sentence())
        return self._words


@dataclass
class _ContextPlan:
    context: str
    chains: list[tuple[list[str], bool]]
    getters: list[tuple[str, Callable[[Any], Any]]]
    shape_types: tuple[frozenset[type], frozenset[str], _Check] | None  # the element's own type rule
    required: list[tuple[str, _Check]]  # batched: a dict lookup per field, no call per rule
    # (field, python types, JSON types, check)
    typed: list[tuple[str, frozenset[type], frozenset[str], _Check]]
    positive: list[tuple[str, bool, _Check]]  # (field, strict, check)
    domain: list[tuple[str, frozenset[Any], bool, _Check]]  # (field, values, nullable, check)
    checks: list[_Check]  # every other rule, as compiled closures
    # all of the above as one generated function, made on the plan's first use by the exact path
    # (most tools' results never reach it: their generated tool check passes them)
    run: Run | None = None
    # the same without the required fields, for an element that is no record (a text block beside
    # JSON ones): the records' fields are not its own
    scalar_run: Run | None = None
    keyed: bool = False  # a rule reads the map entry's key (#key): it is put beside the entry's fields
    whole: bool = False  # a rule reads an object element itself (field ""): it is put beside its fields


def _compile_tool(rules: list[Rule]) -> list[_ContextPlan]:
    by_context: dict[str, list[Rule]] = {}
    # the element's own type first: when it fails, its field rules are implied and skipped
    for r in sorted(rules, key=lambda r: (not (r.cls == "type" and r.fields[0] == ""), PRIORITY[r.cls])):
        by_context.setdefault(r.context, []).append(r)
    plans = []
    for context, rs in sorted(by_context.items(), key=lambda kv: (kv[0].count("[*]"), kv[0])):
        # a guard's field is read like any other field of the element
        needed = sorted({f for r in rs for f in (*r.fields, *_guard_fields(r)) if not f.startswith(ARG)})
        # top-level keys are read straight from a copy of the element; only paths and derived
        # fields need getters
        complex_fields = [f for f in needed if f and f != KEY and ("." in f or "(" in f)]
        shape, required, typed, positive, domain, checks = [], [], [], [], [], []
        for r in rs:
            c = _Check(r, r.cls == "type" and r.fields[0] == "")
            if r.params.get("guard"):
                checks.append(c)  # a guarded rule runs as its compiled closure, whatever its class
            elif c.shape:
                names = frozenset(r.params["types"])
                shape.append((frozenset(t for n in names for t in _PY_TYPES.get(n, ())), names, c))
            elif r.cls == "required":
                required.append((r.fields[0], c))
            elif r.cls == "type" and "pattern" not in r.params:
                names = frozenset(r.params["types"])
                typed.append(
                    (r.fields[0], frozenset(t for n in names for t in _PY_TYPES.get(n, ())), names, c)
                )
            elif r.cls == "positive":
                positive.append((r.fields[0], bool(r.params.get("strict", True)), c))
            elif r.cls == "domain":
                domain.append(
                    (r.fields[0], frozenset(r.params["values"]), bool(r.params.get("nullable", True)), c)
                )
            else:
                checks.append(c)
        getters = [(f, field_getter(f)) for f in complex_fields]
        plan = _ContextPlan(
            context,
            context_steps(context),
            getters,
            shape[0] if shape else None,
            required,
            typed,
            positive,
            domain,
            checks,
            keyed=KEY in needed,
            # the element's own type rule reads it apart (shape_types): only other rules need it beside
            whole=any("" in r.fields and not (r.cls == "type" and r.fields[0] == "") for r in rs),
        )
        plans.append(plan)
    return plans


# per tool: (plans of the rules that read the result as sent, plans of those read through its view,
# the tool's check: the generated one, or the exact path through the plans)
_ToolPlans = tuple[
    list[_ContextPlan], list[_ContextPlan], Callable[[Mapping[str, Any] | None, Any], list[Violation]]
]


class Registry:
    """Per-tool contracts with a fast ``check``. Build with ``learn`` or ``Registry(rules)``."""

    def __init__(self, rules: Iterable[Rule] = (), meta: Mapping[str, Any] | None = None):
        self.rules: dict[str, list[Rule]] = {}
        for r in rules:
            self.rules.setdefault(r.tool, []).append(r)
        self.meta: dict[str, Any] = dict(meta or {})
        # per tool, how its text is read before checking (views.py; the wider vocabulary's)
        self._views: dict[str, View] = dict(self.meta.get("views") or {})
        # the rules learned through those views (the rest, from other sources, read results as sent)
        self._viewed: frozenset[str] = frozenset(self.meta.get("viewed_rules") or ())
        # per routed tool, the argument naming a resource and the routes with rules of their own
        self._routes = {t: route_spec(s) for t, s in (self.meta.get("routes") or {}).items()}
        # plans compile on a tool's first check, so building five registries stays cheap
        self._plans: dict[str, _ToolPlans] = {}
        # each compiled tool's check (its plans' third part), looked up by check() in one step
        self._checks: dict[str, Callable[[Mapping[str, Any] | None, Any], list[Violation]]] = {}

    def __getstate__(self) -> dict[str, Any]:
        # compiled plans hold generated functions: a pickled registry (sent from a forked builder)
        # carries its rules and compiles again on its first check
        return {**self.__dict__, "_plans": {}, "_checks": {}}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._plans, self._checks = {}, {}

    # --------------------------------------------------------------------- queries

    @property
    def n_rules(self) -> int:
        return sum(len(rs) for rs in self.rules.values())

    def tools(self) -> list[str]:
        return sorted(self.rules)

    def rules_for(self, tool: str) -> list[Rule]:
        return list(self.rules.get(tool, []))

    def counts_by_class(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for rs in self.rules.values():
            for r in rs:
                out[r.cls] = out.get(r.cls, 0) + 1
        return dict(sorted(out.items()))

    def merged(self, other: Registry) -> Registry:
        """Rules of both (the other's rules for a tool are added; identical ids kept once). A
        categorical domain both sources hold keeps the union of their values: a value either source
        saw in a clean result is a legitimate one (trace folds rarely see every product option); a
        domain on a field that database records (source "records") show to be open is dropped; a
        positive rule one source holds strict and the other non-strict is non-strict."""
        theirs = {r.rule_id: r for rs in other.rules.values() for r in rs}
        mine: list[Rule] = []
        for rs in self.rules.values():
            for r in rs:
                o = theirs.get(r.rule_id)
                if o is None and r.cls == "domain" and not r.params.get("reference"):
                    # the other source mined this field from every record of a database and found
                    # it open (a plain type rule, no domain): this narrower domain is a sample's
                    typed = theirs.get(f"{r.tool}:type:{r.context}:{r.fields[0]}")
                    if typed is not None and typed.source == "records":
                        continue
                if (
                    o is not None
                    and r.cls == "domain"
                    and not r.params.get("reference")
                    and not o.params.get("reference")
                    and set(o.params["values"]) - set(r.params["values"])
                ):
                    values = sorted(
                        {*r.params["values"], *o.params["values"]}, key=lambda v: (str(type(v)), v)
                    )
                    r = Rule(
                        r.tool,
                        r.cls,
                        r.context,
                        r.fields,
                        {**r.params, "values": values},
                        dict(r.support),
                        f"{r.source}+{o.source}",
                    )
                if (
                    o is not None
                    and r.cls == "positive"
                    and r.params.get("strict", True)
                    and not o.params.get("strict", True)
                ):
                    # the other source saw a clean zero (a gift card spent to 0 in a database's
                    # post-states): the sign rule both hold is the weaker one
                    r = Rule(
                        r.tool,
                        r.cls,
                        r.context,
                        r.fields,
                        dict(o.params),
                        dict(r.support),
                        f"{r.source}+{o.source}",
                    )
                mine.append(r)
        seen = {r.rule_id for r in mine}
        extra = [r for rs in other.rules.values() for r in rs if r.rule_id not in seen]
        meta = {**self.meta, **other.meta}
        routes = {**(other.meta.get("routes") or {}), **(self.meta.get("routes") or {})}
        if routes:
            meta["routes"] = routes
        views = {**(other.meta.get("views") or {}), **(self.meta.get("views") or {})}
        if views:
            meta["views"] = views
            meta["viewed_rules"] = sorted(
                {*(self.meta.get("viewed_rules") or ()), *(other.meta.get("viewed_rules") or ())}
            )
        return Registry(mine + extra, meta)

    # --------------------------------------------------------------------- the hot path

    def check(self, tool: str, arguments: Mapping[str, Any] | None, result: Any) -> list[Violation]:
        """Every rule of ``tool`` that ``result`` (for these arguments) violates, most basic first.
        A routed tool's call on a route the recording met is checked by that route's rules too (the
        tool's own rules hold on every route; a route's say what its one form holds)."""
        if not self._routes:
            fn = self._checks.get(tool)
            if fn is not None:
                return fn(arguments, result)
        else:
            spec = self._routes.get(tool)
            routed = routed_name(tool, spec, arguments) if spec is not None else None
            if routed is not None and routed in self.rules:
                found = self._check_one(tool, arguments, result)
                said = {(v.rule_class, v.path, v.expected) for v in found}
                extra = self._check_one(routed, arguments, result)
                return found + [v for v in extra if (v.rule_class, v.path, v.expected) not in said]
        return self._check_one(tool, arguments, result)

    def _check_one(self, tool: str, arguments: Mapping[str, Any] | None, result: Any) -> list[Violation]:
        plans = self._plans.get(tool)
        if plans is None:
            if not self.rules.get(tool):
                return []
            plans = self._compile(tool)
        return plans[2](arguments, result)

    def _compile(self, tool: str) -> _ToolPlans:
        """A tool's plans and its one generated check (``toolcode``), made on its first check."""
        rules = self.rules[tool]
        view = self._views.get(tool)
        viewed = [r for r in rules if r.rule_id in self._viewed] if view is not None else []
        raw = [r for r in rules if r.rule_id not in self._viewed] if viewed else rules

        def exact(arguments: Mapping[str, Any] | None, result: Any) -> list[Violation]:
            return _check_exact(tool, view, plans_raw, plans_viewed, arguments, result)

        # compiling allocates many small acyclic objects while the caller's data (rows, registries)
        # stays alive: with the collector paused as mining pauses it, it costs half the CPU in a
        # process full of them (the benchmark's). A tool with a plan beyond what toolcode writes out
        # checks on the exact path.
        with gc_paused():
            plans_raw, plans_viewed = _compile_tool(raw), _compile_tool(viewed)
            if view is None:
                fast = generate_tool(plans_raw, exact)
            else:
                fast = _viewed_check(view, plans_raw, plans_viewed, exact)
        out = self._plans[tool] = (plans_raw, plans_viewed, fast or exact)
        self._checks[tool] = out[2]
        return out

    # --------------------------------------------------------------------- storage

    def to_json(self) -> dict[str, Any]:
        """The registry file's JSON object (``registry_format``; its schema: ``registry.schema.json``)."""
        return registry_format.write(self)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Registry:
        """A registry file's JSON object of this format version or an older one; ``ValueError`` (one
        line: another version and what to do, or the rule that is not one) otherwise."""
        rules, meta = registry_format.read(obj)
        return cls(rules, meta)

    def save(self, path: str | os.PathLike[str]) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(
            json.dumps(self.to_json(), indent=1, ensure_ascii=False, default=_default) + "\n"
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Registry:
        return cls.from_json(json.loads(Path(path).read_text()))

    def explain(self, tool: str | None = None) -> list[str]:
        """The rules in plain words, grouped by tool: one sentence each naming the tool, the field and
        the rule, with its class, source, support and id (``registry_format.rule_line``)."""
        return registry_format.explain_lines(self, tool)


def _unsure(arguments: Mapping[str, Any] | None, result: Any) -> None:
    return None  # a generated check that cannot vouch for a result says so with None


def _viewed_check(
    view: View,
    plans_raw: list[_ContextPlan],
    plans_viewed: list[_ContextPlan],
    exact: Callable[[Mapping[str, Any] | None, Any], list[Violation]],
) -> Callable[[Mapping[str, Any] | None, Any], list[Violation]] | None:
    """The check of a tool whose text is read through a view: nothing misread, the rules learned
    through the view clean on the read result and the others clean on the result as sent is [];
    anything else goes to the exact path, which says it all in its order. None when a plan is beyond
    what toolcode writes out."""
    raw = generate_tool(plans_raw, _unsure)
    seen = generate_tool(plans_viewed, _unsure)
    if raw is None or seen is None:
        return None
    # the view as closures (viewcode): apply_view and misreads, without their lookups of its keys
    misread, read = viewcode.misread(view), viewcode.reader(view)

    def check(arguments: Mapping[str, Any] | None, result: Any) -> list[Violation]:
        if (
            not misread(result)
            and seen(arguments, read(result, arguments)) is not None
            and raw(arguments, result) is not None
        ):
            return []
        return exact(arguments, result)

    return check


def _check_exact(
    tool: str,
    view: View | None,
    plans_raw: list[_ContextPlan],
    plans_viewed: list[_ContextPlan],
    arguments: Mapping[str, Any] | None,
    result: Any,
) -> list[Violation]:
    """The check through the plans, every violation in its order: the path the generated tool check
    hands a result to once it is not certainly clean, and the only one of a tool with a view."""
    args = arguments if arguments is not None else {}
    found: list[Violation] = []
    if view is not None:
        broken = broken_end(view, result)
        if broken is not None:  # the answer's fixed end is gone: what frames it cannot read it
            end, start = broken
            block = f"{'last' if end.startswith('tail') else 'first'} block"
            found.append(
                Violation(
                    f"{tool}:type:frame:{end}",
                    "type",
                    "$",
                    result,
                    f"a {block} starting with {json.dumps(start)}",
                    f"the result's {block} must start with {json.dumps(start)}, as every clean result's did",
                )
            )
        for where, observed in misreads(view, result):
            # text every clean result held here came as something else: what reads it cannot see it
            found.append(
                Violation(
                    f"{tool}:type:view:{where}",
                    "type",
                    where,
                    observed,
                    "a string",
                    f"{where.removeprefix('$.')} must be text, as every clean value was",
                )
            )
        _run(plans_viewed, apply_view(view, result, args), args, found)
    # rules of other sources (a database, a declared schema), and every rule of a tool without a
    # view, read the result as sent
    _run(plans_raw, result, args, found)
    return found


def _run(plans: list[_ContextPlan], result: Any, args: Mapping[str, Any], found: list[Violation]) -> None:
    for plan in plans:
        for element, index in ((result, ()),) if not plan.chains else iter_context(result, plan.chains):
            if plan.shape_types is not None:
                py, names, c = plan.shape_types
                if type(element) not in py and not type_ok(element, names):
                    found.append(_violation(c, index, element))
                    continue  # field rules of a non-object are implied: skip them
            if type(element) is dict:
                if plan.getters or plan.keyed or plan.whole:
                    vals = element.copy()
                    for f, g in plan.getters:
                        vals[f] = g(element)
                    if plan.whole:
                        vals[""] = element
                else:
                    vals = element  # read-only: top-level fields straight from the result
            else:
                vals = {"": element}
            if plan.keyed:
                vals[KEY] = index[-1]
            if type(element) is not dict and plan.required and (plan.chains or not isinstance(element, dict)):
                # no record, no record's fields: an element beside records, or a result that was
                # text where other results were objects (a dict subclass at the root keeps them)
                run = plan.scalar_run
                if run is None:
                    run = plan.scalar_run = generate(replace(plan, required=[]), _violation)
            else:
                run = plan.run
                if run is None:
                    run = plan.run = generate(plan, _violation)
            run(vals, args, found, index)


def _guard_fields(r: Rule) -> tuple[str, ...]:
    g = r.params.get("guard")
    return (g["field"],) if g else ()


def _violation(c: _Check, index: tuple[int | str, ...], observed: Any) -> Violation:
    path, expected, sentence = c.words()
    if not index:
        return Violation(c.rule_id, c.rule.cls, path, observed, expected, sentence)
    where = concrete(path, index)
    if is_entry_index(index):
        # one rule speaks for every entry of a map: the receipt names the entry (its id) that broke it
        sentence = f"{sentence} (at {where})"
    return Violation(c.rule_id, c.rule.cls, where, observed, expected, sentence)


def _default(o: Any) -> Any:
    return repr(o)


def learn(
    traces: Iterable[Mapping[str, Any]],
    thresholds: Thresholds = DEFAULT,
    *,
    vocabulary: str = "wide",
    recording: bool | None = None,
) -> Registry:
    """Mine contracts from clean traces (``{tool, arguments, result[, status]}`` rows).

    ``vocabulary="wide"`` (the default: a user's recording) sets errors aside by one status
    inference (flagged, or error text and error objects sent as results; counted per tool under
    ``meta["set_aside"]``), reads structure out of text (``views``), mines per tool (one tool's
    results never erase another's rules), holds back domains a modest recording cannot support
    (``meta["held_back"]``), and adds the text, shape and collection classes
    (``vocabulary.learn_wide``). ``vocabulary="paper"``: the paper's seven rule classes as the
    studies learn them (rows with status "error" skipped; their registries are pinned by hash).
    ``recording`` is the older spelling: True is "wide", False is "paper"."""
    if recording is not None:
        vocabulary = "wide" if recording else "paper"
    if vocabulary == "paper":
        return learn_indexed(index_executions(traces), thresholds)
    if vocabulary != "wide":
        raise ValueError(f"unknown vocabulary {vocabulary!r} (paper or wide)")
    from outcome_monitor.learning.vocabulary import learn_wide

    rules, meta = learn_wide(traces, thresholds)
    return Registry(rules, meta)


def learn_indexed(
    index: Mapping[str, list[Execution]], thresholds: Thresholds = DEFAULT, schema_only: bool = False
) -> Registry:
    """The paper's vocabulary over indexed executions (the wide one is ``vocabulary.learn_wide``)."""
    with gc_paused():
        rules = admit(
            [collect(tool, ex, schema_only, th=thresholds) for tool, ex in index.items()], thresholds
        )
    meta = {
        "source": "traces",
        "n_executions": sum(len(v) for v in index.values()),
        "thresholds": thresholds.to_json(),
    }
    if schema_only:
        meta["variant"] = "schema-only"
    return Registry(rules, meta)


def learn_schema_only(traces: Iterable[Mapping[str, Any]], thresholds: Thresholds = DEFAULT) -> Registry:
    """The schema-only detector: required fields and stable types only (GenSON-like)."""
    return learn_indexed(index_executions(traces), thresholds, schema_only=True)


__all__ = ["FORMAT_VERSION", "Registry", "display_path", "learn", "learn_schema_only"]
