"""One generated function per tool: the whole check of a result, context iteration and field reads
included, written out as straight-line Python (as fastjsonschema writes out a schema).

The function answers the common case, a result that breaks no rule, with an empty list, reading each
field once into a local. At the first sign of a violation, or at anything it does not decide itself
(a number within a rule's tolerance, a value the arguments supplied, a dict subclass), it hands the
call to the exact path (``exact(arguments, result)``: the registry's plans, ``plancode``), which
finds every violation in its order with its observed value. So this code only has to be sound: it
may send a clean result to the exact path, never pass a violating one.

A field's string rules (a shape, a token, no placeholder, text kinds) are one test of its value: a
memo per field maps each string seen (up to 16K characters) to whether it passes all of them, so a
repeated value costs a dict lookup instead of their regexes (a new one, a miss and the rules' own
functions; the memo is cleared at ``_Memo.MAX`` entries or its budget of long strings' characters).
A share's range, the result-is-an-error rule, a list's elements (each string's verdict memoized the
same way) and a list's length by a record's id are written out too; other rules (the other
collection forms, guarded rules, text endings and lines) call their closures.

Field names appear in the source as ``repr`` literals only; every other constant (a domain's values,
a relation's tolerance, a rule's closure) is a cell of the closure that makes the function, so the
tools of cross-fit folds and arms that share rules share compiled code, and all of them share one
globals dict (the interpreter's caches of global lookups hold across tools). Knows nothing about
mining, receipts or storage.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any

from outcome_monitor.checking.answers import SameAnswers
from outcome_monitor.checking.collection_rules import element_test
from outcome_monitor.checking.paths import ARG, KEY
from outcome_monitor.checking.shapes import placeholder_kind, token_fits
from outcome_monitor.checking.values import _DATE_KEYS, MISSING, cached_date_key, days_over, is_number
from outcome_monitor.learning.status import never_error_object, result_error
from outcome_monitor.text.balance import balanced
from outcome_monitor.text.parse import text_kinds
from outcome_monitor.text.wordsets import words_test

# a tool's compiled check: (arguments, result) -> its violations (a new list)
ToolCheck = Callable[[Mapping[str, Any] | None, Any], list[Any]]

# a plan with more rules of one class than this (a database's id-keyed fields: thousands) keeps the
# exact path: straight-line code for it would cost more to compile than it saves
MAX_INLINE = 24
# a type the generated code names with ``is`` (one pointer comparison) instead of a set lookup
_TYPE_NAMES: dict[type, str] = {
    str: "str",
    int: "int",
    float: "float",
    bool: "bool",
    dict: "dict",
    list: "list",
    type(None): "NoneT",
}
_NUMBER = frozenset({int, float})
_STR = frozenset({str})
_LIST = frozenset({list})
_DICT = frozenset({dict})
# values that are certainly not numbers: a relation over one of them says nothing
_NOT_NUMBER = frozenset({str, bool, type(None), dict, list, type(MISSING)})


class _Unsupported(Exception):
    """A plan this module does not write out: the tool keeps the exact path."""


# a memo's lookup hashes a string once (str caches its hash). Strings up to _MEMO_CHARS count only
# against a memo's entries; longer ones (a file's content, an email's body: their text kinds and
# placeholders cost tens of microseconds) also against a budget of characters, and past
# _LONG_CHARS they are judged each time (a memo of them would hold whole documents)
_MEMO_CHARS = 512
_LONG_CHARS = 16_384


class _Memo(dict[str, Any]):
    """A verdict on a string (``fn(s)``), memoized per rule: a field repeats its values, and a
    dict lookup costs less than the regexes behind a verdict. Bounded: cleared when full (``MAX``
    entries, or ``LONG_BUDGET`` characters of strings longer than ``_MEMO_CHARS``)."""

    MAX = 1 << 10  # per field with string rules: a registry's memos hold at most this many each
    LONG_BUDGET = 1 << 18  # characters of long strings a memo holds at most

    def __init__(self, fn: Callable[[str], Any]):
        super().__init__()
        self.fn = fn
        self.long = 0  # characters of the long strings held

    def clear(self) -> None:
        super().clear()
        self.long = 0

    def __missing__(self, s: str) -> Any:
        n = len(s)
        if n > _LONG_CHARS:
            return self.fn(s)
        if len(self) >= self.MAX or (n > _MEMO_CHARS and self.long + n > self.LONG_BUDGET):
            dict.clear(self)  # the C method: no call of clear() below
            self.long = 0
        if n > _MEMO_CHARS:
            self.long += n
        v = self[s] = self.fn(s)
        return v


def _string_test(r: Any) -> Callable[[str], bool] | None:
    """Whether a string passes ``r``, for a rule that judges a string by itself and passes any other
    value (shapes.compile_shape's forms, text.parse's check_kind), else None."""
    p = r.params
    if r.cls == "text" and _text_kind_rule(p):
        return _no_text_kind(frozenset({p["not"]}))
    if r.cls == "text" and p.get("form") == "words":
        return words_test(p)
    if r.cls == "text" and p.get("form") == "balanced":
        return balanced
    if r.cls != "shape":
        return None
    if p.get("form") == "shape":
        match = re.compile(p["pattern"]).fullmatch
        return lambda s: match(s) is not None
    if p.get("form") == "token":
        return lambda s: token_fits(p, s)
    if p.get("form") == "no_placeholder":
        kinds = frozenset(p["kinds"]) if "kinds" in p else None
        return lambda s: (k := placeholder_kind(s)) is None or (kinds is not None and k not in kinds)
    return None


def _no_text_kind(kinds: frozenset[str]) -> Callable[[str], bool]:
    """A string of none of ``kinds`` (text.parse.text_kinds: the field's text rules, one reading)."""
    return lambda s: kinds.isdisjoint(text_kinds(s))


def _all_of(tests: list[Callable[[str], bool]]) -> Callable[[str], bool]:
    if len(tests) == 1:
        return tests[0]

    def passes(s: str) -> bool:
        for t in tests:
            if not t(s):
                return False
        return True

    return passes


def _text_error(s: str) -> str | None:
    return result_error(s)


# what every generated check reads as a global: one dict for all of them, so the interpreter's
# caches of global lookups stay valid from one tool's check to the next
_GLOBALS: dict[str, Any] = {
    "M": MISSING,
    "EMPTY": {},
    "NUM": _NUMBER,
    "NONNUM": _NOT_NUMBER,
    "UNH": frozenset({dict, list}),
    "DK": _DATE_KEYS,
    "DOVER": days_over,
    "dkey": cached_date_key,
    "fin": math.isfinite,
    "is_number": is_number,
    "NoneT": type(None),
    "_abs": abs,
    "_max": max,
    "RERR": result_error,
    "ERRM": _Memo(_text_error),
}
_MAKERS: dict[str, Callable[..., ToolCheck]] = {}
_LOCK = threading.Lock()


def generate_tool(
    plans: list[Any], exact: Callable[[Mapping[str, Any] | None, Any], Any]
) -> ToolCheck | None:
    """The check of one tool whose rules read the result as sent (``plans``: the registry's
    ``_ContextPlan`` list), or None when some plan is beyond what it writes out. What it cannot vouch
    for, it returns as ``exact(arguments, result)`` returns it."""
    w = _Writer({"EXACT": exact})
    try:
        for p, plan in enumerate(plans):
            w.plan(p, plan)
    except _Unsupported:
        return None
    # a tool's constants are the cells of a closure, not globals: tools whose rules differ only in
    # their constants (the cross-fit folds' tools) share one compiled function
    names = ", ".join(w.ns)
    head = [f"def make({names}):", "  def check(arguments, result):"]
    if w.uses_args:
        head.append("    args = arguments if arguments is not None else {}")
    src = "\n".join([*head, *w.lines, "    return []", "  return check"]) + "\n"
    make = _MAKERS.get(src)
    if make is None:
        code = compile(src, "<monitor tool check>", "exec")
        with _LOCK:
            exec(code, _GLOBALS)  # noqa: S102 - generated from repr literals only
            make = _MAKERS[src] = _GLOBALS.pop("make")
    return make(**w.ns)


class _Writer:
    """Writes the generated function's body, one context plan after another."""

    def __init__(self, ns: dict[str, Any]):
        self.ns = ns
        self.lines: list[str] = []
        self.uses_args = False

    def bind(self, prefix: str, value: Any) -> str:
        name = f"{prefix}{len(self.ns)}"
        self.ns[name] = value
        return name

    def emit(self, pad: str, line: str) -> None:
        self.lines.append(pad + line)

    def fail(self, pad: str, cond: str) -> None:
        """``cond`` true: this code cannot vouch for the result, the exact path decides."""
        self.emit(pad, f"if {cond}: return EXACT(arguments, result)")

    # ------------------------------------------------------------------ one context

    def plan(self, p: int, plan: Any) -> None:
        if max(len(plan.required), len(plan.typed), len(plan.positive), len(plan.domain)) > MAX_INLINE:
            raise _Unsupported
        if plan.keyed and not plan.chains:
            raise _Unsupported  # a key read at the root: the exact path says what that does
        pad, el, key = self.iterate(plan.chains, p)
        if plan.shape_types is not None:
            self.fail(pad, f"not ({_type_test(el, plan.shape_types[0], self)})")
        self.element(pad, p, plan, el, key)

    def iterate(self, chains: list[tuple[list[str], bool]], p: int) -> tuple[str, str, str]:
        """Loops over the elements of a context, as ``paths.iter_context`` walks them (isinstance,
        a missing step: no element). Returns (indent, element variable, key variable)."""
        pad, src, key = "    ", "result", ""
        for level, (keys, entries) in enumerate(chains):
            x = f"x{p}_{level}"
            self.emit(pad, f"{x} = {src}")
            for k in keys:
                self.emit(pad, f"{x} = {x}.get({k!r}, M) if isinstance({x}, dict) else M")
            el, key = f"e{p}_{level}", f"k{p}_{level}"
            if entries:
                self.emit(pad, f"if isinstance({x}, dict):")
                self.emit(pad, f"    for {key}, {el} in {x}.items():")
            else:
                self.emit(pad, f"if isinstance({x}, list):")
                self.emit(pad, f"    for {key}, {el} in enumerate({x}):")
            pad, src = pad + "        ", el
        return pad, src, key

    def element(self, pad: str, p: int, plan: Any, el: str, key: str) -> None:
        getters = dict(plan.getters)
        d = f"d{p}"
        # a non-object element has no fields but itself (registry._run: {"": element})
        if plan.shape_types is not None and plan.shape_types[0] == frozenset({dict}):
            self.emit(pad, f"{d} = {el}")
        else:
            self.emit(pad, f"{d} = {el} if type({el}) is dict else EMPTY")
        local: dict[str, str] = {}
        # what the code above a line has established of a field's value: its exact type
        known: dict[str, frozenset[type]] = {}

        def fresh(f: str) -> str:
            v = local[f] = f"v{p}_{len(local)}"
            return v

        def read(f: str) -> str:
            if f in local:
                return local[f]
            if f.startswith(ARG):
                self.uses_args = True
                expr = f"args.get({f[len(ARG) :]!r}, M)"
            elif f == "":
                expr = el if plan.whole else f"({el} if {d} is EMPTY else {d}.get('', M))"
            elif f == KEY:
                expr = key
            elif f in getters:
                return self.derived(pad, f, getters[f], d, read, fresh, known)
            else:
                expr = f"{d}.get({f!r}, M)"
            v = fresh(f)
            self.emit(pad, f"{v} = {expr}")
            return v

        # required top-level fields: plain subscripts, a missing one is a KeyError
        simple = [f for f, _ in plan.required if f and f != KEY and f not in getters]
        if simple:
            self.emit(pad, "try:")
            for f in simple:
                self.emit(pad, f"    {fresh(f)} = {d}[{f!r}]")
            self.emit(pad, "except KeyError:")
            self.emit(pad, "    return EXACT(arguments, result)")
        present = set(simple)
        for f, _ in plan.required:
            if f not in simple:
                self.fail(pad, f"{read(f)} is M")
                present.add(f)
        for f, py, _, _ in plan.typed:
            v = read(f)
            ok = _type_test(v, py, self)
            if f in present:
                self.fail(pad, f"not ({ok})")
                known[f] = py
            else:
                self.fail(pad, f"{v} is not M and not ({ok})")
        for f, strict, _ in plan.positive:
            v = read(f)
            test = f"not {v} {'>' if strict else '>='} 0"
            self.fail(pad, test if known.get(f, {str}) <= _NUMBER else f"type({v}) in NUM and {test}")
        for f, values, nullable, _ in plan.domain:
            v, dv = read(f), self.bind("D", values)
            other = (
                f"{v} is None or {v} is M or type({v}) not in UNH and {v} in {dv}"
                if nullable
                else f"{v} is M or {v} is not None and type({v}) not in UNH and {v} in {dv}"
            )
            self.fail(pad, f"not ({v} in {dv} if type({v}) is str else ({other}))")
        vals = None
        # a field's string rules (shapes, placeholders, tokens, text kinds): one memoized verdict
        strings: dict[str, list[Callable[[str], bool]]] = {}
        text: dict[str, set[str]] = {}  # a field's text kinds: one text_kinds call for all of them
        written: set[int] = set()
        for c in plan.checks:
            r = c.rule
            if r.params.get("guard"):
                continue
            if r.cls == "text" and _text_kind_rule(r.params):
                text.setdefault(r.fields[0], set()).add(r.params["not"])
                strings.setdefault(r.fields[0], [])
                written.add(id(c))
                continue
            passes = _string_test(r)
            if passes is not None:
                strings.setdefault(r.fields[0], []).append(passes)
                written.add(id(c))
        for f, kinds in text.items():
            strings[f].append(_no_text_kind(frozenset(kinds)))
        for f, tests in strings.items():
            v = read(f)
            m = self.bind("S", _Memo(_all_of(tests)))
            self.fail(pad, f"not {m}[{v}]" if known.get(f) == _STR else f"type({v}) is str and not {m}[{v}]")
        for c in plan.checks:
            r = c.rule
            if id(c) in written:
                continue  # written out above
            inline = not r.params.get("guard") and (
                (r.cls == "echo" and not r.params.get("part"))
                or r.cls == "date_order"
                or (r.cls == "relation" and r.params["form"] in ("eq", "affine", "add", "product"))
                or (r.cls == "text" and r.params.get("form") == "error_result" and plan.whole)
                or (r.cls == "range" and r.params.get("form", "unit") in ("unit", "band"))
                or (r.cls == "collection" and r.params.get("form") == "same_answer")
                or (r.cls == "collection" and _inline_collection(r.params))
            )
            if not inline:
                if vals is None:
                    self.uses_args = True
                    vals = f"vals{p}"
                    self.emit(pad, f"{vals} = {self.bind('VALS', _vals_maker(plan))}({el}, {key or 'None'})")
                self.fail(pad, f"{self.bind('F', c.fn)}({vals}, args) is not None")
            elif r.cls == "echo":
                f0, f1 = r.fields[0], r.fields[1]
                v, a = read(f0), read(f1)
                # equal values pass under either of rules._c_echo's branches; the rest go exact
                absent = [f"{x} is not M" for f, x in ((f0, v), (f1, a)) if f not in present]
                self.fail(pad, " and ".join([*absent, f"not {v} == {a}"]))
            elif r.cls == "range":
                # collection_rules.compile_range: an exact int or float out of bounds (or NaN) goes
                # exact, a non-number passes, anything else (a float subclass) goes exact
                v = read(r.fields[0])
                lo, hi = self.bind("L", float(r.params["min"])), self.bind("H", float(r.params["max"]))
                self.emit(pad, f"if type({v}) in NUM:")
                self.fail(pad + "    ", f"not {lo} <= {v} <= {hi}")
                self.emit(pad, f"elif type({v}) not in NONNUM: return EXACT(arguments, result)")
            elif r.cls == "text" and r.params.get("form") == "error_result":
                # status.check_error_result on the element itself (a plan with a rule on "" reads it
                # whole: its vals[""] is the element): any reason to call it an error goes exact.
                # Past the required fields' subscripts the element is a dict holding them: keys that
                # no error object has make it clean without a test
                if never_error_object(simple):
                    continue
                v = read("")
                self.fail(pad, f"(ERRM[{v}] if type({v}) is str else RERR({v})) is not None")
            elif r.cls == "collection" and r.params["form"] != "same_answer":
                self.collection(pad, r, read)
            elif r.cls == "collection":
                # same_answer: the digest of a recorded call's answer, looked up by the call's key;
                # a call met before, answered by the same bytes, passes on its marshal bytes instead
                # (answers.SameAnswers: a fraction of the canonical JSON and sha256)
                self.uses_args = True
                same, v = SameAnswers(r.params["answers"]), read(r.fields[0])
                matched, differs = self.bind("SAM", same.matched), self.bind("SAD", same.differs)
                self.fail(pad, f"not {matched}(args, {v}) and {differs}(args, {v})")
            elif r.cls == "date_order":
                a, b = read(r.fields[0]), read(r.fields[1])
                self.date_order(
                    pad,
                    a,
                    b,
                    known.get(r.fields[0]) == _STR,
                    known.get(r.fields[1]) == _STR,
                    r.params.get("max_days"),
                )
            else:
                ops = [read(f) for f in r.fields]
                numeric = all(known.get(f, {str}) <= _NUMBER for f in r.fields)
                self.relation(pad, r, ops, numeric)

    def collection(self, pad: str, r: Any, read: Callable[[str], str]) -> None:
        """collection_rules.compile_collection's ``elements`` (each string element's verdict memoized,
        as a field's string rules are) and ``len_by_id``, written out; what they can't vouch for
        (a str or int subclass, a non-string element where only strings were) goes exact."""
        p, v = r.params, read(r.fields[0])
        if p["form"] == "elements":
            test, y = self.bind("EL", _Memo(element_test(p))), f"y{len(self.lines)}"
            self.emit(pad, f"if isinstance({v}, list):")
            self.emit(pad, f"    for {y} in {v}:")
            self.emit(pad, f"        if type({y}) is str:")
            self.fail(pad + "            ", f"not {test}[{y}]")
            if p.get("strings"):
                self.emit(pad, "        else: return EXACT(arguments, result)")
            return
        rid, by, n = read(str(p["key"])), self.bind("BY", dict(p["lengths"])), f"n{len(self.lines)}"
        self.emit(pad, f"if isinstance({v}, list):")
        self.emit(pad, f"    if type({rid}) is str: {n} = {by}.get({rid})")
        self.emit(pad, f"    elif type({rid}) is int: {n} = {by}.get(str({rid}))")
        exotic = f"isinstance({rid}, (str, int)) and not isinstance({rid}, bool)"
        self.emit(pad, f"    elif {exotic}: return EXACT(arguments, result)")
        self.emit(pad, f"    else: {n} = None")
        self.fail(pad + "    ", f"{n} is not None and len({v}) != {n}")

    def derived(
        self,
        pad: str,
        f: str,
        getter: Any,
        d: str,
        read: Callable[[str], str],
        fresh: Callable[[str], str],
        known: dict[str, frozenset[type]],
    ) -> str:
        """A derived field (``len(items)``, ``sum(items[*].amount)``, a path ``a.b``) read into a
        local: len and sum written out as ``paths.field_getter`` computes them, others by its getter."""
        inner, _, col = f[4:-1].partition("[*].")
        keys = inner.split(".")
        plain = all(k and k != KEY and "(" not in k and ")" not in k for k in keys)
        if plain and f.startswith("len(") and f.endswith(")") and not col:
            x = self.chain(pad, keys, read, known)
            v = fresh(f)
            if known.get(keys[0]) == _LIST and len(keys) == 1:
                self.emit(pad, f"{v} = len({x})")
                known[f] = frozenset({int})
            else:
                self.emit(pad, f"{v} = len({x}) if isinstance({x}, (list, dict)) else M")
            return v
        if plain and f.startswith("sum(") and f.endswith(")") and col:
            x = self.chain(pad, keys, read, known)
            v = fresh(f)
            self.emit(pad, f"{v} = M")
            self.emit(pad, f"if isinstance({x}, list) and {x}:")
            self.emit(pad, f"    {v} = 0")
            self.emit(pad, f"    for e in {x}:")
            self.emit(pad, f"        y = e.get({col!r}) if isinstance(e, dict) else None")
            self.emit(pad, "        if (type(y) is float or type(y) is int) and fin(y) or is_number(y):")
            self.emit(pad, f"            {v} += y")
            self.emit(pad, "        else:")
            self.emit(pad, f"            {v} = M")
            self.emit(pad, "            break")
            return v
        path = f.split(".")
        if "(" not in f and len(path) > 1 and all(k and k != KEY for k in path):
            # a path a.b (paths.field_getter: its _chain_getter), key after key on the element
            x = self.chain(pad, path, read, known)
            v = fresh(f)
            self.emit(pad, f"{v} = {x}")
            return v
        v = fresh(f)
        self.emit(pad, f"{v} = {self.bind('G', getter)}({d})")
        return v

    def chain(
        self, pad: str, keys: list[str], read: Callable[[str], str], known: dict[str, frozenset[type]]
    ) -> str:
        """``paths._chain_getter`` on the element: its first key is the element's field (a dict by a
        type test above: no isinstance); the steps after a missing key are skipped (M is no dict)."""
        x = read(keys[0])
        if len(keys) == 1:
            return x
        c = f"c{len(self.lines)}"
        first = f"{x}.get({keys[1]!r}, M)"
        self.emit(
            pad,
            f"{c} = {first}"
            if known.get(keys[0]) == _DICT
            else f"{c} = {first} if isinstance({x}, dict) else M",
        )
        for k in keys[2:]:
            self.emit(pad, f"if {c} is not M:")
            pad += "    "
            self.emit(pad, f"{c} = {c}.get({k!r}, M) if isinstance({c}, dict) else M")
        return c

    def date_order(self, pad: str, a: str, b: str, a_str: bool, b_str: bool, most: int | None = None) -> None:
        # values.cached_date_key, written out: a later first date goes exact
        self.emit(pad, f"ka = DK[{a}]" if a_str else f"ka = DK[{a}] if type({a}) is str else dkey({a})")
        self.emit(pad, "if ka is not None:")
        self.emit(
            pad, f"    kb = DK[{b}]" if b_str else f"    kb = DK[{b}] if type({b}) is str else dkey({b})"
        )
        late = "ka > kb" if most is None else f"(ka > kb or DOVER(ka, kb, {int(most)}))"
        self.fail(pad + "    ", f"kb is not None and {late}")

    def relation(self, pad: str, r: Any, ops: list[str], numeric: bool) -> None:
        # rules._c_relation's difference, operand for operand, first against a constant no wider
        # than its tolerance (the terms it drops are >= 0, float rounding keeps the order), then
        # against the tolerance itself; exact ints and floats are tested here, a non-number passes,
        # anything else (a float subclass) goes exact
        p = r.params
        q = p["quanta"]
        a = ops[0]
        if p["form"] == "add":
            tol = 0.5 * (q[0] + q[1] + q[2])
            t = self.bind("T", tol)
            diff = f"{a} - ({ops[1]} + {ops[2]})"
            full = f"{t} + 1e-9 * _max(1.0, _abs({a}))"
        elif p["form"] == "product":
            # the terms of b and c are >= 0 when their quanta are (a hand-made registry's may not be)
            tol = 0.5 * q[0] if q[1] >= 0 and q[2] >= 0 else -2.0
            qa, qb, qc = (self.bind("Q", x) for x in q[:3])
            b, c = ops[1], ops[2]
            diff = f"{a} - {b} * {c}"
            full = f"0.5 * ({qa} + _abs({c}) * {qb} + _abs({b}) * {qc}) + 1e-9 * _max(1.0, _abs({a}))"
        else:
            k, c0 = (1.0, 0.0) if p["form"] == "eq" else (p["k"], p["c"])
            kn, cn = self.bind("K", k), self.bind("B", c0)
            tol = 0.5 * (q[0] + abs(k) * q[1])
            t = self.bind("T", tol)
            diff = f"{a} - ({kn} * {ops[1]} + {cn})"
            full = f"{t} + 1e-9 * _max(1.0, _abs({a}))"
        n = self.bind("N", tol + 1e-9)
        inner = pad
        if not numeric:
            inner = pad + "    "
            self.emit(pad, "if " + " and ".join(f"type({x}) in NUM" for x in ops) + ":")
        self.emit(inner, f"x = {diff}")
        self.fail(inner, f"not -{n} <= x <= {n} and not _abs(x) <= {full}")
        if not numeric:
            exotic = " and ".join(f"type({x}) not in NONNUM" for x in ops)
            self.emit(pad, f"elif {exotic}: return EXACT(arguments, result)")


def _text_kind_rule(p: dict[str, Any]) -> bool:
    """A ``text`` rule that is text.parse's ``check_kind`` (rules._c_text, parse.compile_text: the
    forms before it are the error result, an ending, a named argument and a line shape)."""
    return p.get("form") not in ("error_result", "ends", "names_arg") and "line" not in p and "not" in p


def _inline_collection(p: dict[str, Any]) -> bool:
    """A ``collection`` form ``collection`` writes out: ``elements`` but distinct ones, and
    ``len_by_id`` on a key read as the rule's closure reads it (a field of the element itself)."""
    if p.get("form") == "elements":
        return not p.get("distinct")
    key = str(p.get("key"))
    return p.get("form") == "len_by_id" and key != KEY and not key.startswith(ARG)


def _type_test(v: str, py: frozenset[type], w: _Writer) -> str:
    if 0 < len(py) <= 3 and all(t in _TYPE_NAMES for t in py):
        return " or ".join(
            f"{v} is None" if t is type(None) else f"type({v}) is {_TYPE_NAMES[t]}"
            for t in sorted(py, key=lambda t: _TYPE_NAMES[t])
        )
    return f"type({v}) in {w.bind('P', py)}"


def _vals_maker(plan: Any) -> Callable[[Any, Any], dict[str, Any]]:
    """The field values a rule's own closure reads, built as ``registry._run`` builds them."""
    getters, keyed, whole = list(plan.getters), plan.keyed, plan.whole

    def vals_of(element: Any, key: Any) -> dict[str, Any]:
        if type(element) is dict:
            if getters or keyed or whole:
                vals = element.copy()
                for f, g in getters:
                    vals[f] = g(element)
                if whole:
                    vals[""] = element
            else:
                vals = element
        else:
            vals = {"": element}
        if keyed:
            vals[KEY] = key
        return vals

    return vals_of
