"""Cross-record contracts mined from a public database: agreement with a referenced record, and
ownership.

* lookup: a field of an element equals the same-named field of the record its id points at,
  directly (``items[*].name == products[product_id].name``) or one mapping deeper
  (``items[*].price == products[product_id].variants[item_id].price``);
* member: an id belongs to the record its owner key points at
  (``each(payment_history[*].payment_method_id)`` among ``users[user_id].payment_methods``;
  ``order_id`` among ``users[user_id].orders``);
* entry lookup: an entry of a map keyed by ids agrees with the database's entry of the same key
  (``variants.*.options == products[*].variants[key].options``), for the entries' fields that no
  post-state changes (a gift card's balance changes, its brand does not).

Both are ``relation`` rules (forms ``lookup`` and ``member``) carrying the table they need, taken
from the database, so checking makes no query. A rule is kept only when it holds on every record
(initial and replayed post-states alike) with enough distinct values to be more than a coincidence.
Knows nothing about receipts or environments.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from outcome_monitor.checking.paths import ENTRIES, KEY, ROOT
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.values import same_value
from outcome_monitor.thresholds import Thresholds

Records = Mapping[str, Mapping[str, Any]]  # collection -> {key: record}


def _scalar_id(v: Any) -> bool:
    return isinstance(v, (str, int)) and not isinstance(v, bool)


def _elements(rec: Mapping[str, Any]) -> dict[str, list[Mapping[str, Any]]]:
    """The record itself (context ``$``) and the elements of each top-level list of objects."""
    out: dict[str, list[Mapping[str, Any]]] = {ROOT: [rec]}
    for k, v in rec.items():
        if isinstance(v, list) and v and all(isinstance(e, dict) for e in v):
            out[f"{ROOT}.{k}[*]"] = v
    return out


def _contexts(recs: list[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    out: dict[str, list[Mapping[str, Any]]] = {}
    for rec in recs:
        for ctx, els in _elements(rec).items():
            out.setdefault(ctx, []).extend(els)
    return out


def cross_record_rules(
    tool: str, name: str, recs: list[Mapping[str, Any]], by_key: Records, th: Thresholds
) -> list[Rule]:
    """Lookup and member rules of collection ``name`` (records ``recs``) against the others."""
    out: list[Rule] = []
    contexts = _contexts(recs)
    for ctx, els in sorted(contexts.items()):
        fields = sorted({k for e in els for k in e})
        for k1 in fields:
            vals = [e.get(k1) for e in els]
            if not all(_scalar_id(v) for v in vals) or len({str(v) for v in vals}) < th.min_distinct_sign:
                continue
            for other, table in sorted(by_key.items()):
                if other == name or not all(str(v) in table for v in vals):
                    continue
                out.extend(_lookups(tool, ctx, els, fields, k1, other, table, th))
                if ctx == ROOT:
                    out.extend(_members(tool, recs, contexts, k1, other, table, th))
    return out


def _lookups(
    tool: str,
    ctx: str,
    els: list[Mapping[str, Any]],
    fields: list[str],
    k1: str,
    other: str,
    table: Mapping[str, Mapping[str, Any]],
    th: Thresholds,
) -> list[Rule]:
    out = []
    targets = [table[str(e[k1])] for e in els]
    # one mapping deeper: a sub-mapping of the target (variants) keyed by another id of the element
    deeper: list[tuple[str, str, list[Mapping[str, Any]]]] = []
    for sub in sorted({s for t in targets for s, v in t.items() if isinstance(v, dict)}):
        for k2 in fields:
            if k2 == k1:
                continue
            subs: list[Any] = [t.get(sub) for t in targets]
            if all(
                isinstance(s, dict)
                and _scalar_id(e.get(k2))
                and str(e[k2]) in s
                and isinstance(s[str(e[k2])], dict)
                for e, s in zip(els, subs, strict=True)
            ):
                deeper.append((sub, k2, [s[str(e[k2])] for e, s in zip(els, subs, strict=True)]))
    for f in fields:
        if f == k1:
            continue
        found = None
        for sub, k2, tgt in deeper:
            if f != k2 and _holds(els, tgt, f, th):
                found = (sub, k2, tgt)
                break
        if found is not None:
            sub, k2, _ = found
            tab = {
                str(key): {str(k): v[f] for k, v in rec[sub].items() if isinstance(v, dict) and f in v}
                for key, rec in table.items()
                if isinstance(rec.get(sub), dict)
            }
            params = {"form": "lookup", "reference": other, "sub": sub, "target": f, "table": tab}
            out.append(Rule(tool, "relation", ctx, (f, k1, k2), params, {"n": len(els)}, "records"))
        elif _holds(els, targets, f, th):
            tab = {str(key): rec[f] for key, rec in table.items() if f in rec}
            params = {"form": "lookup", "reference": other, "target": f, "table": tab}
            out.append(Rule(tool, "relation", ctx, (f, k1), params, {"n": len(els)}, "records"))
    return out


def _holds(els: list[Mapping[str, Any]], targets: list[Mapping[str, Any]], f: str, th: Thresholds) -> bool:
    pairs = [(e[f], t[f]) for e, t in zip(els, targets, strict=True) if f in e and f in t]
    if len(pairs) < th.min_pair_samples or len(pairs) < len(els):
        return False
    if len({repr(a) for a, _ in pairs}) < th.min_distinct_eq:
        return False
    return all(same_value(a, b) for a, b in pairs)


def _members(
    tool: str,
    recs: list[Mapping[str, Any]],
    contexts: Mapping[str, list[Mapping[str, Any]]],
    k1: str,
    other: str,
    table: Mapping[str, Mapping[str, Any]],
    th: Thresholds,
) -> list[Rule]:
    """Ids of a record (a root field, or a key of each element of a list) that belong to a
    collection held by the record ``k1`` points at (a mapping's keys, or a list of ids)."""

    def holdings(rec: Mapping[str, Any], sub: str) -> set[str] | None:
        v = rec.get(sub)
        if isinstance(v, dict):
            return {str(k) for k in v}
        if isinstance(v, list) and all(_scalar_id(x) for x in v):
            return {str(x) for x in v}
        return None

    subs = sorted({s for rec in table.values() for s, v in rec.items() if isinstance(v, (dict, list))})
    candidates: list[tuple[str, Any]] = []  # (field, getter of its ids in one record)
    for f in sorted({k for r in recs for k in r}):
        if f != k1:
            candidates.append((f, lambda r, f=f: [r[f]] if f in r else None))
    for lst, els in sorted(contexts.items()):
        if lst == ROOT:
            continue
        name = lst[len(ROOT) + 1 : -3]
        for key in sorted({k for e in els for k in e}):
            candidates.append(
                (
                    f"each({name}[*].{key})",
                    lambda r, name=name, key=key: [e.get(key) for e in r.get(name) or []],
                )
            )
    out = []
    for sub in subs:
        held = {k: holdings(rec, sub) for k, rec in table.items()}
        union = set().union(*(h for h in held.values() if h))
        sizes = [len(h) for h in held.values() if h]
        if not union or not sizes or sum(sizes) / len(sizes) >= 0.5 * len(union):
            continue  # a record holds most ids anyway: membership would say little
        for f, get in candidates:
            ids, ok = [], True
            for r in recs:
                got = get(r)
                if got is None:
                    continue
                h = held.get(str(r.get(k1)))
                if h is None or not all(_scalar_id(x) and str(x) in h for x in got):
                    ok = False
                    break
                ids.extend(got)
            if ok and len(ids) >= th.min_pair_samples and len(set(map(str, ids))) >= th.min_distinct_sign:
                tab = {k: sorted(h) for k, h in held.items() if h}
                params = {"form": "member", "reference": other, "sub": sub, "table": tab}
                out.append(Rule(tool, "relation", ROOT, (f, k1), params, {"n": len(ids)}, "records"))
    return out


_UNSTABLE = object()


def entry_lookups(
    tool: str, name: str, recs: list[Mapping[str, Any]], maps: Mapping[str, Any], th: Thresholds
) -> list[Rule]:
    """Lookup rules of the entries of a record's top-level maps keyed by ids (``maps``, from
    ``detect_maps`` over the records): ``<map>.*.<field> == <name>[*].<map>[key].<field>``, for each
    field every copy of an entry agrees on (initial records and post-states alike: a field some
    write changes is not a fact of the key), taking two values or more over at least
    ``min_distinct_sign`` keys. An unknown key gives no verdict (a new entry is not a fault)."""
    out: list[Rule] = []
    for path in sorted(maps):
        sub = path[len(ROOT) + 1 :]
        if path.count(".") != 1 or "[" in sub or "*" in sub:
            continue  # a map directly in the record (variants, payment_methods)
        tables: dict[str, dict[str, Any]] = {}
        for rec in recs:
            m = rec.get(sub)
            if not isinstance(m, dict):
                continue
            for key, entry in m.items():
                if not isinstance(entry, dict):
                    continue
                for f, v in entry.items():
                    t = tables.setdefault(f, {})
                    seen = t.get(str(key))
                    if str(key) not in t:
                        t[str(key)] = v
                    elif seen is not _UNSTABLE and not same_value(seen, v):
                        t[str(key)] = _UNSTABLE
        for f, table in sorted(tables.items()):
            if any(v is _UNSTABLE for v in table.values()) or len(table) < th.min_distinct_sign:
                continue
            if len({repr(v) for v in table.values()}) < 2:
                continue  # a constant: a domain says it
            if all(str(v) == k for k, v in table.items()):
                continue  # the entry's own id: the echo of its key says it
            params = {"form": "lookup", "reference": name, "entry": sub, "target": f, "table": table}
            out.append(Rule(tool, "relation", path + ENTRIES, (f, KEY), params, {"n": len(table)}, "records"))
    return out
