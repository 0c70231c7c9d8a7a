"""Contract rules: the serialisable ``Rule``, the ``Violation`` it produces, its sentence, and its
compiled check (a flat closure over one context element's field values and the call arguments).

Rule classes: required, type, positive, domain, echo, date_order, relation. Knows nothing about
how rules are mined or where they are stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from outcome_monitor.checking.collection_rules import (
    collection_expected,
    collection_sentence,
    compile_collection,
    compile_range,
    range_expected,
    range_sentence,
)
from outcome_monitor.checking.paths import ARG, KEY, display_path, field_getter, parse_net
from outcome_monitor.checking.shapes import compile_shape, shape_expected, shape_sentence
from outcome_monitor.checking.values import (
    MISSING,
    date_key,
    days_over,
    is_number,
    same_value,
    supplied,
    type_ok,
)
from outcome_monitor.checking.words import (
    article,
    json_word,
    jsonable,
    listed,
    number_word,
    plain_name,
)
from outcome_monitor.learning.status import check_error_result
from outcome_monitor.text.parse import compile_text, text_expected, text_sentence

RULE_CLASSES = (
    "required",
    "type",
    "positive",
    "domain",
    "echo",
    "date_order",
    "relation",
    "text",
    # the wider vocabulary (``vocabulary``): a user's recording, or a study that asks for it
    "shape",
    "collection",
    "range",
)
# Receipt order: a broken shape explains everything after it, so it is reported first.
PRIORITY = {c: i for i, c in enumerate(RULE_CLASSES)}
# The params that name what a rule of these classes is about (an argument, a key of the rows, a
# reference table and its sub-collection), as opposed to what was learned about it: part of its id.
_SELECTED = frozenset({"collection", "relation"})
_SELECTORS = ("reference", "sub", "entry", "arg", "key")
# a compiled check: (one context element's field values, the call's arguments) -> None or (observed,)
Values = Mapping[str, Any]
Verdict = tuple[Any, ...] | None
Check = Callable[[Values, Values], Verdict]


@dataclass(frozen=True)
class Violation:
    rule_id: str
    rule_class: str
    path: str
    observed: Any
    expected: str
    sentence: str

    def to_json(self) -> dict[str, Any]:
        return {
            "rule_id": self.rule_id,
            "rule_class": self.rule_class,
            "path": self.path,
            "observed": jsonable(self.observed),
            "expected": self.expected,
            "sentence": self.sentence,
        }


@dataclass
class Rule:
    """One contract of one tool. ``fields`` are relative to ``context``; ``params`` by class:

    type: {"types": [...]}; positive: {"strict": bool}; domain: {"values": [...]};
    echo: {} (fields = [result field, arg.x]); date_order: {} (fields = [a, b], a <= b), or
    {"max_days": n} (a <= b and b no more than n days after a);
    relation: {"form": "eq"|"affine"|"product"|"add", "k", "c", "quanta": [...]} (a == f(b[, c]));
    {"form": "const", "c", "quanta": [qa]} (a == c, fields = [a]);
    {"form": "lookup", "reference", "target", "table", ["sub"]} (a == reference[k1][.sub[k2]].target,
    fields = [a, k1(, k2)]); {"form": "member", "reference", "sub", "table"} (every id of a among
    reference[k1].sub, fields = [a, k1]); k1 may be ``arg.x`` (``reference: "arg"``: the value clean
    calls with that argument returned, learning/domains.py). Both carry their table (outcome-monitor/src/outcome_monitor/learning/crossrecord.py).
    {"form": "contains"} (the entry an argument selects is there: fields = [keys(map) or
    each(list[*].k), arg.x]).

    text: {"form": "not_html"|"not_error"|"not_empty", "not": kind} (a text result is not that kind)
    or {"form": "line_...", "line": regex, "example": words} (some line of it matches); see text.py.

    Any class may carry ``params["guard"] = {"field": f, "values": [...]}``: the rule applies only
    to elements whose field ``f`` holds one of the values (a ledger nets to the items' total while
    an order is open and to 0 once cancelled).
    """

    tool: str
    cls: str
    context: str
    fields: tuple[str, ...]
    params: dict[str, Any] = field(default_factory=dict)
    support: dict[str, int] = field(default_factory=dict)
    source: str = "traces"

    @property
    def rule_id(self) -> str:
        """The rule's stable name: ``tool:class[:form[(selectors)]]:context:fields``.

        Made of what the rule is about, never of what was learned about it (a domain's values, a
        relation's constants, the support) nor of ``hash()`` or learning order: the same rule
        learned again, in another process or from rows in another order, has the same id. Where
        one field can carry several rules of one form (a list whose rows are unique by ``id`` and by
        ``ref``; a member rule into two sub-collections), the params that tell them apart follow
        the form (``unique(id)``), so no two rules of a registry share an id."""
        form = self.params.get("form", "")
        if form and self.cls in _SELECTED:
            picked = [str(self.params[k]) for k in _SELECTORS if k in self.params]
            if picked:
                form = f"{form}({','.join(picked)})"
        tail = f":{form}" if form else ""
        return f"{self.tool}:{self.cls}{tail}:{self.context}:{'|'.join(self.fields)}"

    @property
    def path(self) -> str:
        return display_path(self.context, self.fields[0])

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.rule_id,
            "tool": self.tool,
            "class": self.cls,
            "context": self.context,
            "fields": list(self.fields),
            "params": self.params,
            "support": self.support,
            "source": self.source,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Rule:
        return cls(
            tool=obj["tool"],
            cls=obj["class"],
            context=obj["context"],
            fields=tuple(obj["fields"]),
            params=dict(obj.get("params", {})),
            support=dict(obj.get("support", {})),
            source=obj.get("source", "traces"),
        )

    # ------------------------------------------------------------------------- words

    def name(self, i: int = 0, plain: bool = False) -> str:
        """How a sentence names field ``i``. ``plain``: derived fields and list elements in words
        (``the number of elements of items``, not ``len($.items)``), as ``explain`` prints them;
        receipts keep the path words, which the studies' scripted players read."""
        f = self.fields[i]
        if plain:
            words = plain_name(self.context, f)
            if words is not None:
                return words
        if f.startswith(ARG):
            return f"the argument {f[len(ARG) :]}"
        if f == KEY:
            where = self.context.removesuffix(".*")
            return f"the key of its entry in {'the result' if where == '$' else where.removeprefix('$.')}"
        net = parse_net(f)
        if net is not None:
            lst, key, by, plus, minus = net
            where = display_path(self.context, lst).removeprefix("$.")
            return (
                f"the {key}s of {where} with {by} {json_word(plus)} minus those with {by} {json_word(minus)}"
            )
        return (
            display_path(self.context, f).removeprefix("$.")
            if f
            else (
                "the result" if self.context == "$" else "each element of " + self.context.removeprefix("$.")
            )
        )

    def expected(self) -> str:
        p, c = self.params, self.cls
        if c == "required":
            return "present"
        if c == "type":
            fmt = f" matching {p['pattern']}" if p.get("pattern") else ""
            return " or ".join(p["types"]) + fmt
        if c == "positive":
            return "> 0" if p.get("strict", True) else ">= 0"
        if c == "domain":
            if p.get("reference"):
                return f"a key of {p['reference']}"
            return "one of " + listed(p["values"])
        if c == "echo":
            if p.get("part") == "date":
                return f"on the day of {self.fields[1]}"
            return f"== {display_path(self.context, KEY) if self.fields[1] == KEY else self.fields[1]}"
        if c == "date_order":
            later = display_path(self.context, self.fields[1])
            most = p.get("max_days")
            return f"<= {later}" if most is None else f"<= {later}, at most {most} days before it"
        if c == "text":
            return text_expected(p)
        if c == "collection":
            return collection_expected(p)
        if c == "shape":
            return shape_expected(p)
        if c == "range":
            return range_expected(p)
        return self._expected_relation() + self._when()

    def _when(self) -> str:
        g = self.params.get("guard")
        if not g:
            return ""
        field = display_path(self.context, g["field"]).removeprefix("$.")
        if len(g["values"]) == 1:
            return f" when {field} is {json_word(g['values'][0])}"
        return f" when {field} is one of {', '.join(json_word(v) for v in g['values'])}"

    def _expected_relation(self) -> str:
        p = self.params
        form = p["form"]
        if form == "const":
            return f"== {number_word(p['c'])}"
        if form in ("lookup", "member"):
            return ("== " if form == "lookup" else "among ") + self._referenced()
        if form == "contains":
            return f"holds {self.fields[1]}"
        b = display_path(self.context, self.fields[1])
        if form == "eq":
            return f"== {b}"
        if form == "add":
            return f"== {b} + {display_path(self.context, self.fields[2])}"
        if form == "affine":
            return f"== {number_word(p['k'])} * {b} + {number_word(p['c'])}"
        return f"== {b} * {display_path(self.context, self.fields[2])}"

    def sentence(self, plain: bool = False) -> str:
        """The rule in one sentence (a receipt's ``violated``); ``plain`` as ``name`` says."""
        a, p, c = self.name(0, plain), self.params, self.cls
        if c == "required":
            return f"{a} must be present"
        if c == "type":
            fmt = (
                f" shaped like {p['example']}"
                if p.get("example")
                else (f" matching {p['pattern']}" if p.get("pattern") else "")
            )
            return f"{a} must be {' or '.join(article(t) for t in p['types'])}{fmt}"
        if c == "positive":
            return f"{a} must be {'positive' if p.get('strict', True) else 'non-negative'}"
        if c == "domain":
            if p.get("reference"):
                return f"{a} must be a known {p['reference']} id"
            return f"{a} must be one of {listed(p['values'])}"
        if c == "echo":
            if self.fields[1] == KEY:
                return f"{a} must equal {self.name(1, plain)}"
            if p.get("part") == "date":
                return f"{a} must fall on the day {self.name(1, plain)} of the call names"
            return f"{a} must equal {self.name(1, plain)} of the call"
        if c == "date_order":
            if p.get("max_days") is not None:
                return (
                    f"{a} must not be later than {self.name(1, plain)}, nor more than "
                    f"{p['max_days']} days before it (as in every clean result)"
                )
            return f"{a} must not be later than {self.name(1, plain)}"
        if c == "text":
            return text_sentence(a, p)
        if c == "collection":
            return collection_sentence(a, p)
        if c == "shape":
            return shape_sentence(a, p)
        if c == "range":
            return range_sentence(a, p)
        return self._sentence_relation(a, plain) + self._when()

    def _referenced(self) -> str:
        """``products[product_id].variants[item_id].price``: where a lookup or member rule looks."""
        p, f = self.params, self.fields
        if f[1].startswith(ARG):  # keyed by an argument of the call (the wide vocabulary's)
            return f"the {p['target']} clean calls with the same {f[1]} returned"
        if f[1] == KEY:  # an entry of a map keyed by ids, looked up by its key
            return f"{p['reference']}[*].{p['entry']}[key].{p['target']}"
        where = f"{p['reference']}[{f[1]}]"
        if p["form"] == "member":
            return f"{where}.{p['sub']}"
        if p.get("sub"):
            where += f".{p['sub']}[{f[2]}]"
        return f"{where}.{p['target']}"

    def _sentence_relation(self, a: str, plain: bool = False) -> str:
        p = self.params
        form = p["form"]
        if form == "const":
            return f"{a} must equal {number_word(p['c'])}"
        if form == "lookup":
            if self.fields[1].startswith(ARG):
                return f"{a} must equal {self._referenced()}"
            if self.fields[1] == KEY:
                return f"{a} must equal {self._referenced()} (the database's entry of the same key)"
            return f"{a} must equal {self._referenced()} (the record its id points at)"
        if form == "member":
            return f"{a} must be one of the ids its owner holds in {self._referenced()}"
        if form == "contains":
            coll = self.fields[0]
            inner = display_path(self.context, coll[coll.index("(") + 1 : -1]).removeprefix("$.")
            if coll.startswith("keys("):
                return f"{inner} must hold an entry keyed by {self.name(1, plain)} of the call"
            return f"some {inner} must equal {self.name(1, plain)} of the call"
        if form == "eq":
            return f"{a} must equal {self.name(1, plain)}"
        if form == "affine":
            return f"{a} must equal {number_word(p['k'])} × {self.name(1, plain)} + {number_word(p['c'])}"
        if form == "add":
            return f"{a} must equal {self.name(1, plain)} + {self.name(2, plain)}"
        return f"{a} must equal {self.name(1, plain)} × {self.name(2, plain)}"

    # ------------------------------------------------------------------------- check

    def compile(self) -> Check:
        """A closure ``(values, arguments) -> None | (observed,)``; values maps field -> value."""
        check = _COMPILERS[self.cls](self)
        guard = self.params.get("guard")
        if not guard:
            return check
        gf, allowed = guard["field"], frozenset(guard["values"])

        def guarded(vals: Values, args: Values) -> Verdict:
            g = vals.get(gf, MISSING)
            # outside the guard (or a value we cannot hash) the rule says nothing
            if isinstance(g, (dict, list)) or g not in allowed:
                return None
            return check(vals, args)

        return guarded


def _getter(f: str) -> Callable[[Values, Values], Any]:
    if f.startswith(ARG):
        k = f[len(ARG) :]
        return lambda vals, args: args.get(k, MISSING)
    return lambda vals, args: vals.get(f, MISSING)


def _c_required(r: Rule) -> Check:
    f = r.fields[0]

    def check(vals: Values, args: Values) -> Verdict:
        return (MISSING,) if vals.get(f, MISSING) is MISSING else None

    return check


_PY_TYPES: dict[str, tuple[type, ...]] = {
    "null": (type(None),),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "string": (str,),
    "object": (dict,),
    "array": (list,),
}


def _c_type(r: Rule) -> Check:
    f, allowed = r.fields[0], frozenset(r.params["types"])
    pattern = r.params.get("pattern")
    if pattern is None:
        # exact Python types (bool is not an int here), resolved once
        py = frozenset(t for name in allowed for t in _PY_TYPES.get(name, ()))

        def check(vals: Values, args: Values) -> Verdict:
            v = vals.get(f, MISSING)
            if v is MISSING or type(v) in py:
                return None
            return None if type_ok(v, allowed) else (v,)

        return check
    match = re.compile(pattern).fullmatch  # compiled once, when the registry loads

    def check_format(vals: Values, args: Values) -> Verdict:
        v = vals.get(f, MISSING)
        if v is MISSING:
            return None
        if not type_ok(v, allowed):
            return (v,)
        return None if not isinstance(v, str) or match(v) else (v,)

    return check_format


def _c_positive(r: Rule) -> Check:
    f, strict = r.fields[0], r.params.get("strict", True)

    def check(vals: Values, args: Values) -> Verdict:
        v = vals.get(f, MISSING)
        if not is_number(v):
            return None
        return (v,) if (v <= 0 if strict else v < 0) else None

    return check


def _c_domain(r: Rule) -> Check:
    f, allowed = r.fields[0], frozenset(r.params["values"])
    nullable = r.params.get("nullable", True)

    def check(vals: Values, args: Values) -> Verdict:
        v = vals.get(f, MISSING)
        if v is MISSING:
            return None  # absence belongs to the required rule
        if v is None:
            return None if nullable else (v,)
        if isinstance(v, (dict, list)):
            return (v,)
        if v not in allowed and not supplied(v, args):
            return (v,)
        return None

    return check


def _c_echo(r: Rule) -> Check:
    f = r.fields[0]
    ga = _getter(r.fields[1])
    if r.params.get("part") == "date":
        return _c_echo_day(f, ga)

    def check(vals: Values, args: Values) -> Verdict:
        v = vals.get(f, MISSING)
        a = ga(vals, args)
        if v is MISSING or a is MISSING:
            return None
        if is_number(v) and is_number(a):
            return None if abs(v - a) <= 1e-9 * max(1.0, abs(a)) else (v,)
        return None if v == a else (v,)

    return check


def _c_echo_day(f: str, ga: Callable[[Values, Values], Any]) -> Check:
    """The day of a date or datetime equals a day the call asked for (the wide vocabulary's)."""

    def check(vals: Values, args: Values) -> Verdict:
        v, a = vals.get(f, MISSING), ga(vals, args)
        kv, ka = date_key(v), date_key(a)
        if kv is None or ka is None:
            return None
        return None if kv[:10] == ka[:10] else (v,)

    return check


def _c_date(r: Rule) -> Check:
    ga, gb = _getter(r.fields[0]), _getter(r.fields[1])

    most = r.params.get("max_days")

    def check(vals: Values, args: Values) -> Verdict:
        a, b = ga(vals, args), gb(vals, args)
        ka, kb = date_key(a), date_key(b)
        if ka is None or kb is None:
            return None
        if ka > kb:
            return (a,)
        return (a,) if most is not None and days_over(ka, kb, most) else None

    return check


def _c_relation(r: Rule) -> Check:
    p = r.params
    if p["form"] == "const":
        return _c_const(r)
    if p["form"] == "lookup":
        return _c_lookup(r)
    if p["form"] == "member":
        return _c_member(r)
    if p["form"] == "contains":
        return _c_contains(r)
    ga, gb = _getter(r.fields[0]), _getter(r.fields[1])
    qa, qb = p["quanta"][0], p["quanta"][1]
    form = p["form"]
    if form == "add":
        gc, qc = _getter(r.fields[2]), p["quanta"][2]
        tol_add = 0.5 * (qa + qb + qc)

        def check_add(vals: Values, args: Values) -> Verdict:
            a, b, c = ga(vals, args), gb(vals, args), gc(vals, args)
            if not (is_number(a) and is_number(b) and is_number(c)):
                return None
            return None if abs(a - (b + c)) <= tol_add + 1e-9 * max(1.0, abs(a)) else (a,)

        return check_add
    if form == "product":
        gc, qc = _getter(r.fields[2]), p["quanta"][2]

        def check_product(vals: Values, args: Values) -> Verdict:
            a, b, c = ga(vals, args), gb(vals, args), gc(vals, args)
            if not (is_number(a) and is_number(b) and is_number(c)):
                return None
            tol = 0.5 * (qa + abs(c) * qb + abs(b) * qc) + 1e-9 * max(1.0, abs(a))
            return None if abs(a - b * c) <= tol else (a,)

        return check_product
    k, c0 = (1.0, 0.0) if form == "eq" else (p["k"], p["c"])
    tol0 = 0.5 * (qa + abs(k) * qb)

    def check_affine(vals: Values, args: Values) -> Verdict:
        a, b = ga(vals, args), gb(vals, args)
        if not (is_number(a) and is_number(b)):
            return None
        return None if abs(a - (k * b + c0)) <= tol0 + 1e-9 * max(1.0, abs(a)) else (a,)

    return check_affine


def _c_const(r: Rule) -> Check:
    ga, c0 = _getter(r.fields[0]), r.params["c"]
    tol = 0.5 * r.params["quanta"][0]

    def check_const(vals: Values, args: Values) -> Verdict:
        a = ga(vals, args)
        if not is_number(a):
            return None
        return None if abs(a - c0) <= tol + 1e-9 * max(1.0, abs(a)) else (a,)

    return check_const


def _c_lookup(r: Rule) -> Check:
    f, k1 = r.fields[0], r.fields[1]
    k2 = r.fields[2] if len(r.fields) > 2 else None
    table = r.params["table"]
    gk = _getter(k1)  # a field of the element, or an argument of the call

    def check_lookup(vals: Values, args: Values) -> Verdict:
        a, key = vals.get(f, MISSING), gk(vals, args)
        if a is MISSING or isinstance(key, (dict, list)) or key is MISSING:
            return None
        want = table.get(str(key), MISSING)
        if k2 is not None and want is not MISSING:
            key2 = vals.get(k2, MISSING)
            want = (
                want.get(str(key2), MISSING)
                if not isinstance(key2, (dict, list)) and key2 is not MISSING
                else MISSING
            )
        if want is MISSING:
            return None  # an unknown id belongs to the reference rules
        return None if same_value(a, want) else (a,)

    return check_lookup


def _c_contains(r: Rule) -> Check:
    held_of, ga = field_getter(r.fields[0]), _getter(r.fields[1])

    def check_contains(vals: Values, args: Values) -> Verdict:
        x = ga(vals, args)
        if x is MISSING or x is None or isinstance(x, (dict, list)):
            return None
        held = vals.get(r.fields[0], MISSING)
        if held is MISSING:
            held = held_of(vals)
        if not isinstance(held, list):
            return None  # no collection: the required and type rules speak
        for h in held:
            if type(h) is type(x) and h == x:
                return None
        return (held,)

    return check_contains


def _c_member(r: Rule) -> Check:
    f, k1 = r.fields
    table = {k: frozenset(v) for k, v in r.params["table"].items()}

    def check_member(vals: Values, args: Values) -> Verdict:
        a, key = vals.get(f, MISSING), vals.get(k1, MISSING)
        if a is MISSING or key is MISSING or isinstance(key, (dict, list)):
            return None
        held = table.get(str(key))
        if held is None:
            return None  # an unknown owner belongs to the reference rules
        for x in a if isinstance(a, list) else (a,):
            if isinstance(x, (dict, list)) or str(x) not in held:
                return (x,)
        return None

    return check_member


def _c_text(r: Rule) -> Check:
    if r.params.get("form") == "error_result":
        return check_error_result
    return compile_text(r)


def _c_collection(r: Rule) -> Check:
    return compile_collection(r.fields[0], r.params)


def _c_range(r: Rule) -> Check:
    return compile_range(r.fields[0], r.params)


def _c_shape(r: Rule) -> Check:
    return compile_shape(r.fields[0], r.params)


_COMPILERS = {
    "required": _c_required,
    "type": _c_type,
    "positive": _c_positive,
    "domain": _c_domain,
    "echo": _c_echo,
    "date_order": _c_date,
    "relation": _c_relation,
    "text": _c_text,
    "collection": _c_collection,
    "shape": _c_shape,
    "range": _c_range,
}
