"""tau-bench retail, held out: structured faults inside id-keyed maps, nested records, list elements
and the result's root, the paper's two faults, and the clean fire rate (prints figures; asserts nothing).

    python scripts/monitor_collections.py [--data-dir DIR] [--check-split test] [--json]

The registry is what ``python -m harness.monitor learn --env taubench`` builds at its defaults (the
world's own contract sources: the train split's clean traces and the public database with train's
post-states, ``harness.monitor.sources.world_registry``); it is checked on the clean results of a
split it was not mined from, and on copies of them with one fault each. The faults are written here,
apart from the monitor and from the project's fault library, and name the retail fields they break.
A faulted result counts as flagged when it violates a rule (at a path) its clean result does not.
"""

from __future__ import annotations

import argparse
import collections
import copy
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.seeding import rng  # noqa: E402
from core.worlds import get_plugin  # noqa: E402

ON_ONE_ID = re.compile(
    r"(^|\.)[A-Za-z_#]*\d{4,}(\.|$)"
)  # variants.1234567890.price, payment_methods.paypal_123...
Fault = Callable[[dict, Any], bool]  # mutates a copy of a result in place; False: nothing to break

# ------------------------------------------------------------------------------------------ sites
# Where a fault lands, by tool: an entry of an id-keyed map, a nested record, a list element, the root.

ORDER_TOOLS = {
    "get_order_details",
    "cancel_pending_order",
    "exchange_delivered_order_items",
    "modify_pending_order_address",
    "modify_pending_order_items",
    "modify_pending_order_payment",
    "return_delivered_order_items",
}
USER_TOOLS = {"get_user_details", "modify_user_address"}


def _pick(r: Any, seq: list) -> Any:
    return seq[r.randrange(len(seq))] if seq else None


def variant(res: dict, r: Any) -> dict | None:
    vs = res.get("variants")
    return vs[_pick(r, sorted(vs))] if isinstance(vs, dict) and vs else None


def payment_method(res: dict, r: Any, source: str | None = None) -> dict | None:
    pms = res.get("payment_methods")
    if not isinstance(pms, dict):
        return None
    keys = sorted(k for k, m in pms.items() if source is None or m.get("source") == source)
    return pms[_pick(r, keys)] if keys else None


def item(res: dict, r: Any) -> dict | None:
    return _pick(r, res.get("items") or [])


def payment(res: dict, r: Any) -> dict | None:
    return _pick(r, [p for p in res.get("payment_history") or [] if p.get("amount", 0) > 0])


# ------------------------------------------------------------------------------------------ faults


def _set(getter: Callable[..., dict | None], key: str, value: Callable[[Any, Any], Any], **kw: Any) -> Fault:
    def fault(res: dict, r: Any) -> bool:
        rec = getter(res, r, **kw)
        if rec is None or key not in rec:
            return False
        rec[key] = value(rec[key], r)
        return True

    return fault


def _drop(getter: Callable[..., dict | None], key: str, **kw: Any) -> Fault:
    def fault(res: dict, r: Any) -> bool:
        rec = getter(res, r, **kw)
        if rec is None or key not in rec:
            return False
        del rec[key]
        return True

    return fault


def _address(res: dict, r: Any) -> dict | None:
    a = res.get("address")
    return a if isinstance(a, dict) else None


def _name(res: dict, r: Any) -> dict | None:
    n = res.get("name")
    return n if isinstance(n, dict) else None


def _root(res: dict, r: Any) -> dict | None:
    return res


def _rekey_variant(res: dict, r: Any) -> bool:
    v = variant(res, r)
    if v is None:
        return False
    others = sorted(k for k in res["variants"] if k != v["item_id"])
    if not others:
        return False
    v["item_id"] = _pick(r, others)  # the entry now names another variant's id
    return True


def _rekey_payment_method(res: dict, r: Any) -> bool:
    m = payment_method(res, r)
    if m is None:
        return False
    m["id"] = f"{m['source']}_{r.randrange(10**7):07d}"  # an id that is not its key
    return True


def _option(res: dict, r: Any) -> bool:
    v = variant(res, r) if "variants" in res else item(res, r)
    if v is None or not v.get("options"):
        return False
    k = _pick(r, sorted(v["options"]))
    v["options"][k] = "unknown " + k  # no catalog has it
    return True


# kind -> [(site, tools, fault)]
FAULTS: dict[str, list[tuple[str, set[str], Fault]]] = {
    "negative_value": [
        ("map: variant price", {"get_product_details"}, _set(variant, "price", lambda v, r: -v)),
        (
            "map: gift-card balance",
            USER_TOOLS,
            _set(payment_method, "balance", lambda v, r: -v - 1, source="gift_card"),
        ),
        ("list: item price", ORDER_TOOLS, _set(item, "price", lambda v, r: -v)),
        ("list: payment amount", ORDER_TOOLS, _set(payment, "amount", lambda v, r: -v)),
    ],
    "zero_price": [
        ("map: variant price", {"get_product_details"}, _set(variant, "price", lambda v, r: 0)),
        ("list: item price", ORDER_TOOLS, _set(item, "price", lambda v, r: 0.0)),
    ],
    "out_of_domain": [
        ("map: payment source", USER_TOOLS, _set(payment_method, "source", lambda v, r: "crypto_wallet")),
        (
            "map: card brand",
            USER_TOOLS,
            _set(payment_method, "brand", lambda v, r: "discover", source="credit_card"),
        ),
        (
            "map: variant availability",
            {"get_product_details"},
            _set(variant, "available", lambda v, r: "maybe"),
        ),
        ("record: address state", USER_TOOLS | ORDER_TOOLS, _set(_address, "state", lambda v, r: "ZZ")),
        (
            "record: address country",
            USER_TOOLS | ORDER_TOOLS,
            _set(_address, "country", lambda v, r: "Atlantis"),
        ),
        ("list: transaction type", ORDER_TOOLS, _set(payment, "transaction_type", lambda v, r: "chargeback")),
    ],
    "option_value": [
        ("map: variant option", {"get_product_details"}, _option),
        ("list: item option", ORDER_TOOLS, _option),
    ],
    "type_drift": [
        (
            "map: variant price as text",
            {"get_product_details"},
            _set(variant, "price", lambda v, r: f"{v:.2f}"),
        ),
        (
            "map: variant item_id as number",
            {"get_product_details"},
            _set(variant, "item_id", lambda v, r: int(v)),
        ),
        (
            "map: balance as text",
            USER_TOOLS,
            _set(payment_method, "balance", lambda v, r: str(v), source="gift_card"),
        ),
        (
            "map: last four as number",
            USER_TOOLS,
            _set(payment_method, "last_four", lambda v, r: int(v), source="credit_card"),
        ),
        ("record: zip as number", USER_TOOLS | ORDER_TOOLS, _set(_address, "zip", lambda v, r: int(v))),
        ("list: item price as text", ORDER_TOOLS, _set(item, "price", lambda v, r: str(v))),
    ],
    "missing_field": [
        ("map: variant price", {"get_product_details"}, _drop(variant, "price")),
        ("map: variant item_id", {"get_product_details"}, _drop(variant, "item_id")),
        ("map: payment source", USER_TOOLS, _drop(payment_method, "source")),
        ("record: address state", USER_TOOLS | ORDER_TOOLS, _drop(_address, "state")),
        ("record: first name", USER_TOOLS, _drop(_name, "first_name")),
        ("list: item price", ORDER_TOOLS, _drop(item, "price")),
        ("root: order status", ORDER_TOOLS, _drop(_root, "status")),
    ],
    "null_value": [
        ("map: variant price", {"get_product_details"}, _set(variant, "price", lambda v, r: None)),
        ("map: payment id", USER_TOOLS, _set(payment_method, "id", lambda v, r: None)),
        ("record: address city", USER_TOOLS | ORDER_TOOLS, _set(_address, "city", lambda v, r: None)),
    ],
    "id_mismatch": [
        ("map: variant id vs its key", {"get_product_details"}, _rekey_variant),
        ("map: payment id vs its key", USER_TOOLS, _rekey_payment_method),
        (
            "root: product id vs the call",
            {"get_product_details"},
            _set(_root, "product_id", lambda v, r: v[::-1]),
        ),
        (
            "root: order id vs the call",
            {"get_order_details"},
            _set(_root, "order_id", lambda v, r: v[:-1] + ("1" if v[-1] == "0" else "0")),
        ),
    ],
    "catalog_drift": [
        ("list: item price vs catalog", ORDER_TOOLS, _set(item, "price", lambda v, r: round(v * 1.1, 2))),
    ],
}


def _paper_status(res: dict, r: Any) -> bool:
    if "status" not in res:
        return False
    res["status"] = _pick(r, ["shipped", "on hold", "Pending", "canceled"])  # none of the seven
    return True


def _paper_conservation(res: dict, r: Any) -> bool:
    p = payment(res, r)
    if p is None:
        return False
    p["amount"] = round(p["amount"] + _pick(r, [1.0, 10.0, 0.5 * p["amount"]]), 2)  # no longer adds up
    return True


PAPER: dict[str, tuple[set[str], Fault]] = {
    "status outside its domain": (ORDER_TOOLS, _paper_status),
    "payments no longer add up": (ORDER_TOOLS, _paper_conservation),
}


# ------------------------------------------------------------------------------------------ run


def _hits(reg: Any, row: dict, result: Any) -> set[tuple[str, str]]:
    return {(v.rule_id, v.path) for v in reg.check(row["tool"], row["arguments"], result)}


def applied(rows: list[dict], tools: set[str], fault: Fault, salt: str) -> Iterator[tuple[dict, dict]]:
    for i, row in enumerate(rows):
        if row["tool"] not in tools or not isinstance(row["result"], dict):
            continue
        bad = copy.deepcopy(row["result"])
        if fault(bad, rng("monitor-collections", salt, i)):
            yield row, bad


def evaluate(reg: Any, rows: list[dict]) -> dict[str, Any]:
    clean = {id(row): _hits(reg, row, row["result"]) for row in rows}
    fired = [row for row in rows if clean[id(row)]]
    out: dict[str, Any] = {
        "clean": {
            "results": len(rows),
            "fired": len(fired),
            "rate": len(fired) / max(1, len(rows)),
            "rules": collections.Counter(
                f"{rid} at {path}" for row in fired for rid, path in clean[id(row)]
            ).most_common(8),
        },
        "kinds": {},
        "paper": {},
    }
    total = [0, 0]
    for kind, sites in FAULTS.items():
        k_tot = [0, 0]
        per_site = {}
        for site, tools, fault in sites:
            n = f = 0
            missed = collections.Counter()
            for row, bad in applied(rows, tools, fault, f"{kind}:{site}"):
                n += 1
                hit = bool(_hits(reg, row, bad) - clean[id(row)])
                f += hit
                if not hit:
                    missed[row["tool"]] += 1
            per_site[site] = {"faults": n, "flagged": f, "missed_by_tool": dict(missed)}
            k_tot[0] += n
            k_tot[1] += f
        out["kinds"][kind] = {"faults": k_tot[0], "flagged": k_tot[1], "sites": per_site}
        total[0] += k_tot[0]
        total[1] += k_tot[1]
    out["structured"] = {"faults": total[0], "flagged": total[1]}
    for name, (tools, fault) in PAPER.items():
        n = f = 0
        for row, bad in applied(rows, tools, fault, name):
            n += 1
            f += bool(_hits(reg, row, bad) - clean[id(row)])
        out["paper"][name] = {"faults": n, "flagged": f}
    return out


def _pct(f: int, n: int) -> str:
    return f"{100 * f / max(1, n):.1f}% ({f}/{n})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir")
    ap.add_argument("--check-split", default="test")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    from outcome_monitor.checking.coverage import path_coverage

    from harness.monitor.sources import world_registry

    plugin = get_plugin("taubench")
    env = plugin.make(data_dir=a.data_dir)
    t0 = time.perf_counter()
    reg = world_registry(plugin, env)  # what `learn --env taubench` builds at its defaults
    took = time.perf_counter() - t0
    rows = [r for r in plugin.clean_traces(env, split=a.check_split) if r["status"] == "ok"]
    res = evaluate(reg, rows)
    per_id = sum(1 for rs in reg.rules.values() for r in rs if any(ON_ONE_ID.search(f) for f in r.fields))
    res["registry"] = {
        "sources": list(plugin.contract_sources),
        "rules": reg.n_rules,
        "by_class": reg.counts_by_class(),
        "rules_on_one_id": per_id,
        "seconds": took,
    }
    res["coverage"] = path_coverage(reg, rows).summary()
    if a.json:
        print(json.dumps(res, indent=1, default=str))
        return 0
    g = res["registry"]
    print(
        f"registry (learn --env taubench defaults: {'+'.join(g['sources'])}, train): {g['rules']} rules "
        f"in {g['seconds']:.1f} s, {g['rules_on_one_id']} of them on one id; {g['by_class']}"
    )
    c = res["clean"]
    print(f"clean {a.check_split} results: fired on {_pct(c['fired'], c['results'])}  {c['rules']}")
    s = res["structured"]
    print(f"structured faults (not the paper's two): flagged {_pct(s['flagged'], s['faults'])}")
    for kind, k in res["kinds"].items():
        print(f"  {kind}: {_pct(k['flagged'], k['faults'])}")
        for site, st in k["sites"].items():
            miss = f"  missed: {st['missed_by_tool']}" if st["missed_by_tool"] else ""
            print(f"      {site}: {_pct(st['flagged'], st['faults'])}{miss}")
    for name, p in res["paper"].items():
        print(f"paper fault '{name}': flagged {_pct(p['flagged'], p['faults'])}")
    cv = res["coverage"]
    print(
        f"coverage of {a.check_split}'s result paths: {100 * cv['share']:.1f}% read by a rule, "
        f"{100 * cv['value_share']:.1f}% by a rule beyond presence and type ({cv['paths']} paths)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
