"""Phase 2 (``admit``): candidates pooled by template across tools (Daikon's comparability by
name), a template admitted only if no tool falsifies it and the pooled evidence meets its class's
threshold; categorical domains pooled by leaf name and shared values; then implied rules removed
per tool (``_suppress``)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from outcome_monitor.checking.paths import ARG, display_path
from outcome_monitor.checking.routes import SEP, base_tool
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import id_named
from outcome_monitor.learning.candidates import DOMAIN_CANDIDATE, Candidate, Collected, Key, TemplateKey
from outcome_monitor.learning.routes import route_kind
from outcome_monitor.thresholds import DEFAULT, Thresholds

_SUPPORT_KEYS = ("n", "distinct", "points")


def _merge(evs: list[dict[str, Any]]) -> dict[str, Any]:
    """Pooled evidence: counts added (left to right, as a running total would), ``min_b`` and
    ``max_a`` extremes. Candidates of one template come from one place in ``collect`` and carry
    the same keys, so each key is folded over the list at once."""
    out: dict[str, Any] = {}
    for k in evs[0]:
        vals = [ev[k] for ev in evs]  # a KeyError here means collect broke that invariant
        out[k] = min(vals) if k == "min_b" else max(vals) if k == "max_a" else sum(vals)
    return out


def _admissible(c: str, params: Mapping[str, Any], ev: dict[str, Any], th: Thresholds) -> bool:
    chance = math.log(1 - th.confidence)
    if c in ("required", "type"):
        return bool(ev["n"] >= th.min_presence)
    if c == "positive":
        return bool(ev["n"] >= th.min_presence if "n" in ev else ev["distinct"] >= th.min_distinct_sign)
    if c == "echo" or (c == "relation" and params["form"] in ("eq", "const", "contains")):
        return bool(ev["n"] >= th.min_pair_samples and ev["distinct"] >= th.min_distinct_eq)
    if c == "relation" and params["form"] == "affine":
        return bool(
            ev["n"] >= th.min_pair_samples
            and ev["distinct"] >= th.min_distinct_affine
            and ev["logp"] < chance
        )
    if c == "relation":
        return bool(
            ev["n"] >= th.min_pair_samples
            and ev["points"] >= th.min_distinct_product
            and ev["logp"] < chance
            and ev["bd"] >= th.min_distinct_affine
            and ev["cd"] >= th.min_distinct_affine
        )
    if c == "date_order":
        # AGORA: fields whose observed ranges do not overlap are unrelated, not ordered
        return bool(
            ev["n"] >= th.min_pair_samples
            and ev["distinct"] >= th.min_distinct_dates
            and ev["strict"] > 0
            and ev["min_b"] <= ev["max_a"]
        )
    return False


def admit(
    collected: Iterable[Collected],
    th: Thresholds = DEFAULT,
    held_back: list[dict[str, Any]] | None = None,
    per_tool: bool = False,
) -> list[Rule]:
    """Pool candidates by template across tools, keep the admissible ones, remove implied rules.
    ``held_back``, when given (``registry.learn`` from a recording), turns on the trace sample's
    support bound on domains (``unseen_half``, see ``_pool_domains``) and receives each domain it
    kept out. Without it (the studies' cross-fit folds, pinned by golden hashes) the bound is off.

    ``per_tool`` (the wider vocabulary): a tool's clean results falsify its own templates only, and
    evidence pools among the tools that hold a template. Pooled the paper's way, a sibling tool
    whose results legitimately hold an empty list (or one error row learned as clean) erases the
    rule of every tool that shares the field's name."""
    by_key: dict[Key, list[Candidate]] = {}
    falsified: set[Key] = set()
    collected = list(collected)
    holders: dict[TemplateKey, set[int]] = {}
    own_falsified: dict[str, set[Key]] = {}
    for i, col in enumerate(collected):
        falsified |= col.falsified
        for cand in col.candidates:
            key = cand.key
            by_key.setdefault(key, []).append(cand)
            if isinstance(key, TemplateKey) and key.form in ("product", "add"):
                holders.setdefault(key, set()).add(i)
            if per_tool and cand.tool not in own_falsified:
                own_falsified[cand.tool] = col.falsified
    contradicted: set[Key] = set()
    if per_tool:
        anywhere, falsified = falsified, set()
        # a route's results are some of its tool's: the tool and its other routes (other modes, other
        # resources) holding other forms contradict none of the route's fields and types (its
        # relations and signs they do: a relation of two zeros on a route is no less a coincidence)
        family = [base_tool(col.tool) for col in collected]
        routed = any(SEP in col.tool for col in collected)
        # a route's sibling of its own kind (another .bib file beside ml.bib) holds the same form: what
        # it broke (a missing key's sentence, a zero) the route may answer too, as if it were its own
        broken_on: dict[Key, set[tuple[str, str]]] = {}
        # and the types it took there are the route's too: a route's type rule narrower than the
        # types of its kind is left to its tool's
        kind_types: dict[tuple[str, str | None, str, tuple[str, ...]], set[str]] = {}
        # a route's fitted relation (k and c in its key) that its tool, holding both fields on every
        # row, does not hold: another route's rows break it (one file's row count in pct == k * count)
        tool_cols = {col.tool: col for col in collected}
        held_by: dict[str, set[Key]] = {}
        if routed:  # none of the three without a route
            for col in collected:
                kind = route_kind(col.tool)
                if kind is not None:
                    for k in col.falsified:
                        broken_on.setdefault(k, set()).add((base_tool(col.tool), kind))
            for key, group in by_key.items():
                for c in group:
                    held_by.setdefault(c.tool, set()).add(key)
                    if isinstance(key, TemplateKey) and key.cls == "type":
                        where = (base_tool(c.tool), route_kind(c.tool), key.context, key.fields)
                        kind_types.setdefault(where, set()).update(c.params["types"])
        for key in list(by_key):
            if _arithmetic_on_ids(key) or _fitted_constant(key):
                del by_key[key]
                continue
            if isinstance(key, TemplateKey) and key.form in _ARITHMETIC:
                by_key[key] = [
                    c
                    for c in by_key[key]
                    if not _fit_on_route_only(key, c, tool_cols, held_by)
                    and not c.ev.get("copies")  # a product copying an operand: the echo's
                    and not c.ev.get("spread")  # an affine fit where a is no function of b
                ]
                if not by_key[key]:
                    del by_key[key]
                    continue
            if key.cls != DOMAIN_CANDIDATE:
                kinds = broken_on.get(key, ())
                kept_group = [
                    c
                    for c in by_key[key]
                    if key not in own_falsified.get(c.tool, ())
                    and (base_tool(c.tool), route_kind(c.tool)) not in kinds
                    and not _narrower_than_kind(key, c, kind_types)
                ]
                if (
                    key.cls in _BETWEEN_FIELDS
                    and key in anywhere
                    and _kin_falsified(key, kept_group, collected, family)
                ):
                    # a relation the same tool's results on another route break held on this route's
                    # resource by coincidence (two zeros, one file's row count): not made up by support
                    del by_key[key]
                    continue
                if key in anywhere and not (
                    routed
                    and key.cls in _FORM_CLASSES
                    and kept_group
                    and _kin_only(key, kept_group, collected, family)
                ):
                    contradicted.add(key)
                if kept_group:
                    by_key[key] = kept_group
                else:
                    del by_key[key]
    elif holders:
        having: dict[tuple[str, str], set[int]] = {}  # (context, dense field) -> tools' indices
        for i, col in enumerate(collected):
            for context, fields in col.dense.items():
                for f in fields:
                    having.setdefault((context, f), set()).add(i)
        for held, who in holders.items():
            sets = [having.get((held.context, f), set()) for f in held.fields]
            if set.intersection(*sets) - who:
                falsified.add(held)
    domains = _pool_domains(by_key, th, held_back, wide=per_tool)  # by id(candidate)
    kept: dict[str, list[Rule]] = {}
    for key in _typed_apart(by_key, falsified) if per_tool else ():
        # tools whose field of one name took other types (a ``value`` string here, a number or any
        # JSON there): the name fixes no type, and each tool's type stands on its own support
        by_key.update({key._replace(extra=(*key.extra, c.tool)): [c] for c in by_key.pop(key)})
    for key, group in by_key.items():
        if key.cls == DOMAIN_CANDIDATE or key in falsified:
            continue
        ev = group[0].ev if len(group) == 1 else _merge([c.ev for c in group])
        # a sibling tool's clean results contradict it: the property is not the field's by name,
        # so the tools that hold it keep it only on evidence of their own CONTRADICTED_SUPPORT times as strong
        if not _admissible(group[0].cls, group[0].params, ev, _stricter(th) if key in contradicted else th):
            continue
        tools = 1 if len(group) == 1 else len({c.tool for c in group})
        # a template's candidates carry the same evidence keys (see _merge), in this order
        keys = [k for k in _SUPPORT_KEYS if k in group[0].ev]
        pooled_n = ev.get("n", ev.get("distinct", 0))
        selection = group[0].cls == "relation" and group[0].params.get("form") == "contains"
        for cand in group:
            cev = cand.ev
            if selection and tools > 1 and not _admissible(cand.cls, cand.params, cev, th):
                continue  # what an argument selects is each tool's own semantics: not pooled
            support = {k: cev[k] for k in keys}
            if tools > 1:
                support["pooled_n"] = pooled_n
                support["pooled_tools"] = tools
            kept.setdefault(cand.tool, []).append(
                Rule(cand.tool, cand.cls, cand.context, cand.fields, cand.params, support)
            )
    for cand in (c for k, g in by_key.items() if k.cls == DOMAIN_CANDIDATE for c in g):
        values = domains.get(id(cand))
        if (
            held_back is not None
            and values is not None
            and len(values) == 2
            and all(type(v) is bool for v in values)
        ):
            # both booleans seen: the contract is the type, which the suppressed type rule states
            # (a domain of False, True only restates it, and hides the type rule's words)
            continue
        if values is not None:
            params = {"values": values, "nullable": cand.params["nullable"]}
            support = {"n": cand.ev["n"], "distinct": len(values)}
            kept.setdefault(cand.tool, []).append(
                Rule(cand.tool, "domain", cand.context, cand.fields, params, support)
            )
    out: list[Rule] = []
    for tool in sorted(kept):
        out.extend(_suppress(kept[tool]))
    return out


def _typed_apart(by_key: dict[Key, list[Candidate]], falsified: set[Key]) -> list[TemplateKey]:
    """Pooled type templates of a (context, field) that other tools hold with other types."""
    types: dict[tuple[str, tuple[str, ...]], int] = {}
    for key in by_key:
        if isinstance(key, TemplateKey) and key.cls == "type":
            types[key.context, key.fields] = types.get((key.context, key.fields), 0) + 1
    return [
        key
        for key, group in by_key.items()
        if isinstance(key, TemplateKey)
        and key.cls == "type"
        and len(group) > 1
        and key not in falsified
        and types[key.context, key.fields] > 1
    ]


CONTRADICTED_SUPPORT = 3
_FORM_CLASSES = frozenset({"required", "type"})  # what a route's own form says, apart from its tool's


_BETWEEN_FIELDS = frozenset({"relation", "date_order"})
_ARITHMETIC = frozenset({"affine", "product", "add"})


def _arithmetic_on_ids(key: Key) -> bool:
    """An arithmetic relation over an identifier: ids are labels, whose sums and ratios a recording
    can fit (one file's consecutive order ids) but no contract states."""
    return isinstance(key, TemplateKey) and key.form in _ARITHMETIC and any(id_named(f) for f in key.fields)


def _kin_falsified(key: Key, group: list[Candidate], collected: list[Collected], family: list[str]) -> bool:
    """Whether the holders' own tool (a routed tool or another of its routes) falsified ``key``."""
    kin = {base_tool(c.tool) for c in group}
    return any(family[i] in kin for i, col in enumerate(collected) if key in col.falsified)


def _kin_only(key: Key, group: list[Candidate], collected: list[Collected], family: list[str]) -> bool:
    """Whether only the holders' own tools (a routed tool and its routes) falsified ``key``."""
    kin = {base_tool(c.tool) for c in group}
    return all(family[i] in kin for i, col in enumerate(collected) if key in col.falsified)


# a unit's factor or offset (1.8 and 32, 1024, 0.3048) has this many significant digits or fewer
NICE_DIGITS = 4


def _nice(x: float) -> bool:
    if x == 0:
        return True
    if not math.isfinite(x):
        return False
    digits = NICE_DIGITS - 1 - math.floor(math.log10(abs(x)))
    return abs(round(x, digits) - x) <= 1e-9 * abs(x)


def _fitted_constant(key: Key) -> bool:
    """An affine fit whose factor or offset is a constant of the recording's data, not of a unit:
    a ratio of two files' row counts (``null_pct_b == 1.00915 x null_pct_a``), a rounded size's fit
    through its two ends (``1023.56 x size_human + 35.27``), or a fixed gap between two sums of a
    table's columns (``sum(Completed) == sum(Approved) + 6``: how many were never approved)."""
    if not isinstance(key, TemplateKey) or key.form != "affine":
        return False
    _, k, c = key.extra
    sums = all(f.startswith("sum(") for f in key.fields)
    return not (_nice(k) and _nice(c)) or (sums and c != 0)


def _fit_on_route_only(
    key: TemplateKey, c: Candidate, tool_cols: Mapping[str, Collected], held_by: Mapping[str, set[Key]]
) -> bool:
    """A route's arithmetic relation over fields its tool has on every row, which the tool does not hold."""
    if SEP not in c.tool:
        return False
    base = base_tool(c.tool)
    col = tool_cols.get(base)
    if col is None or not set(key.fields) <= col.dense.get(key.context, frozenset()):
        return False
    return key not in held_by.get(base, ())


def _narrower_than_kind(
    key: Key, c: Candidate, kind_types: dict[tuple[str, str | None, str, tuple[str, ...]], set[str]]
) -> bool:
    """A path route's type rule that its siblings of the same kind contradict with other types."""
    kind = route_kind(c.tool)
    if kind is None or not isinstance(key, TemplateKey) or key.cls != "type":
        return False
    seen = kind_types.get((base_tool(c.tool), kind, key.context, key.fields), set())
    return not seen <= set(c.params["types"])


def _stricter(th: Thresholds) -> Thresholds:
    return replace(
        th,
        min_presence=th.min_presence * CONTRADICTED_SUPPORT,
        min_distinct_sign=th.min_distinct_sign * CONTRADICTED_SUPPORT,
        min_distinct_eq=th.min_distinct_eq * CONTRADICTED_SUPPORT,
        min_pair_samples=th.min_pair_samples * CONTRADICTED_SUPPORT,
        min_distinct_dates=th.min_distinct_dates * CONTRADICTED_SUPPORT,
    )


def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def unseen_half(counts: Iterable[int]) -> float:
    """Good-Turing's unseen mass of a random half of the sample: the expected share of singletons
    in half the executions (hypergeometric). It bounds the unseen mass of the whole sample from
    above (the discovery rate only falls as a sample grows) and, unlike f1/n, is not 0 when a small
    sample happens to show every value twice: 4 values seen 4-5 times each in 17 executions give
    0.12 (a fifth value is likely), the same shares in 1,700 give about 1e-73."""
    cs = [int(c) for c in counts if c > 0]
    n = sum(cs)
    m = n // 2
    if m < 1:
        return 1.0
    lc = math.lgamma
    log_total = lc(n + 1) - lc(m + 1) - lc(n - m + 1)  # log C(n, m)
    f1 = 0.0
    for c in cs:
        if n - c < m - 1:
            continue  # the half always holds two or more of this value
        # P(exactly one of its c executions falls in the half) = c * C(n - c, m - 1) / C(n, m)
        log_ways = lc(n - c + 1) - lc(m) - lc(n - c - m + 2)
        f1 += c * math.exp(log_ways - log_total)
    return f1 / m


WIDE_MAX_DOMAIN = 40  # a larger vocabulary, closed only on the half sample's evidence (wide vocabulary)


def _pool_domains(
    by_key: dict[Key, list[Candidate]],
    th: Thresholds,
    held_back: list[dict[str, Any]] | None = None,
    wide: bool = False,
) -> dict[int, list[Any]]:
    """Categorical domains pooled by field name and shared values: tools returning ``availability``
    values that overlap draw them from one vocabulary (TFDV's shared domains), so their evidence is
    pooled; tools of the same field name whose values never meet stay separate vocabularies. A
    pooled domain must have at most ``max_domain`` values, each seen in at least
    ``min_count_per_value`` distinct executions (Good-Turing: no singletons, so the estimated unseen
    mass is 0), and ``min_per_category`` executions per value overall. A trace sample's domain (no
    ``max_unseen_mass``: not a database's population) also needs the unseen mass of a half sample
    (``unseen_half``) below 1 - confidence: a modest recording that saw each value a few times has
    not shown that the set is closed. Returns {id(candidate): values}.

    ``wide`` (the wider vocabulary, a recording's ``held_back`` given): a pooled vocabulary of up to
    ``WIDE_MAX_DOMAIN`` values is kept too, on the same half-sample bound: fifteen ``availability``
    words over 500 results, each seen many times, are a closed set however many they are.
    """
    keep: dict[int, list[Any]] = {}
    for key, group in by_key.items():
        if key.cls != DOMAIN_CANDIDATE:
            continue
        # connected components of candidates linked by a shared value
        owner: dict[Any, int] = {}
        parent = list(range(len(group)))
        for i, cand in enumerate(group):
            for v, _ in cand.params["counts"]:
                j = owner.setdefault((type(v), v), i)
                parent[_find(parent, j)] = _find(parent, i)
        comps: dict[int, list[Candidate]] = {}
        for i, cand in enumerate(group):
            comps.setdefault(_find(parent, i), []).append(cand)
        for members in comps.values():
            c: Counter[Any] = Counter()
            for cand in members:
                for v, k in cand.params["counts"]:
                    c[v] += k
            n = sum(c.values())
            singletons = sum(1 for k in c.values() if k < th.min_count_per_value)
            largest = (
                WIDE_MAX_DOMAIN
                if wide and held_back is not None and th.max_unseen_mass <= 0
                else th.max_domain
            )
            if (
                len(c) <= largest
                and (singletons == 0 or singletons < th.max_unseen_mass * n)
                and n >= max(th.min_presence, th.min_per_category * len(c))
            ):
                values = sorted(c, key=lambda v: (str(type(v)), v))
                if held_back is not None and th.max_unseen_mass <= 0 and len(c) > 1:
                    unseen = unseen_half(c.values())
                    if unseen >= 1 - th.confidence:
                        for cand in members:
                            held_back.append(
                                {
                                    "tool": cand.tool,
                                    "rule": f"domain {display_path(cand.context, cand.fields[0])}",
                                    "values": len(values),
                                    "n": n,
                                    "reason": f"too little support (unseen mass of a half sample {unseen:.3f})",
                                }
                            )
                        continue
                for cand in members:
                    keep[id(cand)] = values
    return keep


class _Classes:
    """Union-find over fields known equal; arguments represent their class."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        while self.parent.get(x, x) != x:
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if rb.startswith(ARG) or (not ra.startswith(ARG) and rb < ra):
            ra, rb = rb, ra
        self.parent[rb] = ra
        return True


def _suppress(rules: list[Rule]) -> list[Rule]:
    """Drop rules implied by others so receipts stay short: non-negative beside positive, types
    beside domains, equalities outside a spanning forest of each equality class, relations that
    restate another through equal fields, and date orderings implied by transitivity."""
    strict = {(r.context, r.fields[0]) for r in rules if r.cls == "positive" and r.params.get("strict")}
    domain = {(r.context, r.fields[0]) for r in rules if r.cls == "domain"}
    out: list[Rule] = []
    classes: dict[str, _Classes] = {}
    for r in sorted(
        rules, key=lambda r: (r.cls != "echo", r.cls != "relation" or r.params["form"] != "eq", r.rule_id)
    ):
        key1 = (r.context, r.fields[0])
        if r.cls == "positive" and not r.params.get("strict") and key1 in strict:
            continue
        if r.cls == "type" and key1 in domain:
            continue
        if (r.cls == "echo" or (r.cls == "relation" and r.params["form"] == "eq")) and not r.params.get(
            "guard"
        ):
            if not classes.setdefault(r.context, _Classes()).union(r.fields[0], r.fields[1]):
                continue
        out.append(r)
    seen: set[tuple[Any, ...]] = set()
    final = []
    for r in out:
        if r.cls == "relation" and r.params["form"] in ("affine", "product", "add"):
            cl = classes.get(r.context, _Classes())
            canon = (
                r.context,
                r.params["form"],
                cl.find(r.fields[0]),
                *sorted(cl.find(f) for f in r.fields[1:]),
            )
            if canon in seen:
                continue
            seen.add(canon)
        final.append(r)
    dates = {(r.context, r.fields[0], r.fields[1]) for r in final if r.cls == "date_order"}
    names = {f for _, a, b in dates for f in (a, b)}
    return [
        r
        for r in final
        if r.cls != "date_order"
        or not any(
            (r.context, r.fields[0], m) in dates and (r.context, m, r.fields[1]) in dates
            for m in names - set(r.fields)
        )
    ]


__all__ = ["admit", "unseen_half"]
