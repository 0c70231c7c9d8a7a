"""Straight-line check code for one context plan: the batched rule classes of a plan become one
generated Python function, so checking a context element is one call instead of a loop per class.

The generated function appends violations to ``found`` in exactly the order of the plan's lists
(required, typed, positive, domain, then the other checks); constants are the cells of the closure
that makes it, field names are inserted as ``repr`` literals only. It is the exact path: a tool's
generated check (``toolcode``) hands it every result it cannot vouch for. Knows nothing about
mining, receipts or storage.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

from outcome_monitor.checking.paths import ARG
from outcome_monitor.checking.values import MISSING, cached_date_key, days_over, is_number, supplied, type_ok

_NUMBER = (int, float)
_UNHASHABLE = (dict, list)
# generated source holds only field names and slot numbers (constants are closure cells), so the
# cross-fit folds and arms that share rules share code: compile each distinct source once
_MAKERS: dict[tuple[str, str], Callable[..., Run]] = {}
# a class with more rules than this in one context (a database's id-keyed fields: thousands) runs
# as one loop over a table instead of straight-line code: compiling the latter costs more than
# it ever saves
LOOP_AT = 24
# a plan's generated check: run(vals, args, found, index) appends its violations to found
Run = Callable[[dict[str, Any], Any, list[Any], tuple[Any, ...]], None]


# what every generated plan reads as a global: one dict for all of them, so the interpreter's caches
# of global lookups stay valid from one plan to the next (a plan's own constants are closure cells)
_GLOBALS: dict[str, Any] = {
    "M": MISSING,
    "type_ok": type_ok,
    "is_number": is_number,
    "NUM": _NUMBER,
    "UNH": _UNHASHABLE,
    "SUP": supplied,
    "fin": math.isfinite,
    "NN": frozenset({str, bool, type(None), dict, list, type(MISSING)}),
    "dkey": cached_date_key,
    "days_over": days_over,
    "_abs": abs,
    "_max": max,
}
_LOCK = threading.Lock()


def _isnum(x: str) -> str:
    """``values.is_number(x)`` written out: finite for an exact int or float, False for the types
    that are never numbers (bool among them), the function itself for anything else."""
    return f"(fin({x}) if type({x}) in NUM else type({x}) not in NN and is_number({x}))"


def generate(plan: Any, violation: Callable[..., Any]) -> Run:
    """``run(vals, args, found, index)`` for ``plan`` (a registry ``_ContextPlan``)."""
    ns: dict[str, Any] = {"V": violation}  # the plan's constants, bound as the cells of a closure
    body: list[str] = []
    emit = body.append
    simple_required = all("." not in f and "(" not in f for f, _ in plan.required)
    if plan.required:
        # every required field present is the common case: one subset test (top-level keys only)
        pad = "    "
        if simple_required:
            ns["REQ"] = frozenset(f for f, _ in plan.required)
            emit("    if not REQ <= vals.keys():")
            pad = "        "
        for i, (f, c) in enumerate(plan.required):
            ns[f"Cr{i}"] = c
            emit(f"{pad}if get({f!r}, M) is M: found.append(V(Cr{i}, index, M))")

    def typed(i: int, item: tuple[Any, ...]) -> list[str]:
        f, py, names, c = item
        ns[f"Pt{i}"], ns[f"Nt{i}"], ns[f"Ct{i}"] = py, names, c
        return [
            f"    v = get({f!r}, M)",
            f"    if v is not M and type(v) not in Pt{i} and not type_ok(v, Nt{i}): found.append(V(Ct{i}, index, v))",
        ]

    def positive(i: int, item: tuple[Any, ...]) -> list[str]:
        f, strict, c = item
        ns[f"Cp{i}"] = c
        return [
            f"    v = get({f!r})",
            f"    if type(v) in NUM and ({'v <= 0' if strict else 'v < 0'}) and is_number(v): found.append(V(Cp{i}, index, v))",
        ]

    def domain(i: int, item: tuple[Any, ...]) -> list[str]:
        f, values, nullable, c = item
        ns[f"Dd{i}"], ns[f"Cd{i}"] = values, c
        bad = (
            f"v is not None and (type(v) in UNH or v not in Dd{i} and not SUP(v, args))"
            if nullable
            else f"(v is None or type(v) in UNH or v not in Dd{i} and not SUP(v, args))"
        )
        return [f"    v = get({f!r}, M)", f"    if v is not M and {bad}: found.append(V(Cd{i}, index, v))"]

    _batched(
        emit,
        ns,
        "TT",
        plan.typed,
        typed,
        [
            "    for f, py, nm, c in TT:",
            "        v = get(f, M)",
            "        if v is not M and type(v) not in py and not type_ok(v, nm): found.append(V(c, index, v))",
        ],
    )
    _batched(
        emit,
        ns,
        "PP",
        plan.positive,
        positive,
        [
            "    for f, strict, c in PP:",
            "        v = get(f)",
            "        if type(v) in NUM and ((v <= 0) if strict else (v < 0)) and is_number(v): found.append(V(c, index, v))",
        ],
    )
    _batched(
        emit,
        ns,
        "DD",
        plan.domain,
        domain,
        [
            "    for f, dv, nullable, c in DD:",
            "        v = get(f, M)",
            "        if v is M: continue",
            "        if v is None:",
            "            if not nullable: found.append(V(c, index, v))",
            "        elif type(v) in UNH or v not in dv and not SUP(v, args): found.append(V(c, index, v))",
        ],
    )
    for i, c in enumerate(plan.checks):
        ns[f"Cx{i}"] = c
        r = c.rule
        if (
            r.params.get("guard")
            or (r.cls == "relation" and r.params["form"] in ("const", "lookup", "member", "contains"))
            or (r.cls == "echo" and r.params.get("part"))
        ):
            # guarded, constant and cross-record rules run their compiled closure (rules.Rule.compile)
            ns[f"Fx{i}"] = c.fn
            emit(f"    h = Fx{i}(vals, args)")
            emit(f"    if h is not None: found.append(V(Cx{i}, index, h[0]))")
        elif r.cls == "echo":
            _emit_echo(emit, i, r.fields)
        elif r.cls == "date_order":
            _emit_date(emit, i, r.fields, r.params.get("max_days"))
        elif r.cls == "relation":
            _emit_relation(emit, ns, i, r)
        else:
            ns[f"Fx{i}"] = c.fn
            emit(f"    h = Fx{i}(vals, args)")
            emit(f"    if h is not None: found.append(V(Cx{i}, index, h[0]))")
    lines = ["def run(vals, args, found, index):", "    get = vals.get", *(body or ["    pass"])]
    src = f"def make({', '.join(ns)}):\n" + "".join(f"  {line}\n" for line in lines) + "  return run\n"
    make = _MAKERS.get((plan.context, src))
    if make is None:
        code = compile(src, f"<monitor plan {plan.context}>", "exec")
        with _LOCK:
            exec(code, _GLOBALS)  # noqa: S102 - generated from repr literals only
            make = _MAKERS[plan.context, src] = _GLOBALS.pop("make")
    run: Run = make(**ns)
    return run


def _batched(
    emit: Callable[[str], None],
    ns: dict[str, Any],
    table: str,
    items: list[Any],
    straight: Callable[[int, tuple[Any, ...]], list[str]],
    loop: list[str],
) -> None:
    """One rule class of a plan: a loop over ``ns[table]`` when long, else straight-line code per rule."""
    if len(items) > LOOP_AT:
        ns[table] = tuple(items)
        for line in loop:
            emit(line)
        return
    for i, item in enumerate(items):
        for line in straight(i, item):
            emit(line)


def _read(f: str) -> str:
    return f"args.get({f[len(ARG) :]!r}, M)" if f.startswith(ARG) else f"get({f!r}, M)"


def _emit_echo(emit: Callable[[str], None], i: int, fields: tuple[str, ...]) -> None:
    # same decisions as rules._c_echo: numbers within 1e-9 relative, anything else by ==
    emit(f"    v = get({fields[0]!r}, M)")
    emit(f"    a = {_read(fields[1])}")
    emit("    if v is not M and a is not M:")
    emit(f"        if {_isnum('v')} and {_isnum('a')}:")
    emit(f"            if not _abs(v - a) <= 1e-9 * _max(1.0, _abs(a)): found.append(V(Cx{i}, index, v))")
    emit(f"        elif not v == a: found.append(V(Cx{i}, index, v))")


def _emit_date(emit: Callable[[str], None], i: int, fields: tuple[str, ...], most: int | None = None) -> None:
    # same decisions as rules._c_date: both sides ISO dates and a's key after b's (or b too far after a)
    emit(f"    a = {_read(fields[0])}")
    emit("    ka = dkey(a)")
    emit("    if ka is not None:")
    emit(f"        kb = dkey({_read(fields[1])})")
    late = "ka > kb" if most is None else f"(ka > kb or days_over(ka, kb, {int(most)}))"
    emit(f"        if kb is not None and {late}: found.append(V(Cx{i}, index, a))")


def _emit_relation(emit: Callable[[str], None], ns: dict[str, Any], i: int, r: Any) -> None:
    # same arithmetic as rules._c_relation, operand for operand (so float rounding is identical)
    p, f = r.params, r.fields
    qa, qb = p["quanta"][0], p["quanta"][1]
    form = p["form"]
    emit(f"    a = {_read(f[0])}")
    emit(f"    b = {_read(f[1])}")
    if form in ("add", "product"):
        emit(f"    c = {_read(f[2])}")
        emit(f"    if {_isnum('a')} and {_isnum('b')} and {_isnum('c')}:")
        if form == "add":
            ns[f"T{i}"] = 0.5 * (qa + qb + p["quanta"][2])
            emit(
                f"        if not _abs(a - (b + c)) <= T{i} + 1e-9 * _max(1.0, _abs(a)): found.append(V(Cx{i}, index, a))"
            )
        else:
            ns[f"Qa{i}"], ns[f"Qb{i}"], ns[f"Qc{i}"] = qa, qb, p["quanta"][2]
            emit(
                f"        tol = 0.5 * (Qa{i} + _abs(c) * Qb{i} + _abs(b) * Qc{i}) + 1e-9 * _max(1.0, _abs(a))"
            )
            emit(f"        if not _abs(a - b * c) <= tol: found.append(V(Cx{i}, index, a))")
        return
    k, c0 = (1.0, 0.0) if form == "eq" else (p["k"], p["c"])
    ns[f"K{i}"], ns[f"B{i}"], ns[f"T{i}"] = k, c0, 0.5 * (qa + abs(k) * qb)
    emit(f"    if {_isnum('a')} and {_isnum('b')}:")
    emit(
        f"        if not _abs(a - (K{i} * b + B{i})) <= T{i} + 1e-9 * _max(1.0, _abs(a)): found.append(V(Cx{i}, index, a))"
    )
