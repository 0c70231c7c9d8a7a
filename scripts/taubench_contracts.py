"""tau-bench contracts check: learn on results, check held-out clean results and the faults.

    python scripts/taubench_contracts.py [--data-dir DIR] [--learn-split train] [--check-splits test,dev]
    python scripts/taubench_contracts.py --domain airline [--data-dir DIR]
        [--vocabulary paper|wide|both] [--examples N] [--json]

Airline has only a test split, so its figures are cross-fitted as its studies build monitors: the
world's own sources (clean traces, five folds by user, merged with the database and its seeded
random writes' post-states), each result checked by the fold that did not learn from its user; then
the clean fire rate and the flagged share of the results each airline fault touches.

Contracts come from the train split's clean traces (ground-truth replays plus seeded random calls)
and the public database with train's ground-truth post-states (the plugin's two sources, as
``python -m harness.monitor learn --env taubench --sources traces,database``). Prints: learning
time and rule counts by class; the clean fire rate on held-out results (share of ok JSON results
with at least one violation) and the rules that fired; whether the legitimate oddities (0.0 refunds,
unrounded amounts, gift-card balances above 100, another shipping address, unavailable items in
pending orders) fire; and the flagged share of held-out get_order_details results under each paper
fault (status out of domain; payment conservation broken), applied with the fault library's classes.
Each figure is given for the paper's seven rule classes (``vocabulary="paper"``, what the studies use)
beside the wide vocabulary (``vocabulary="wide"``); a fault below 90% flagged with the wide one is named
with why its misses were missed (``scripts/vocabcompare.py``), and ``--examples N`` prints N of them.
"""

from __future__ import annotations

import argparse
import collections
import copy
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from outcome_monitor.learning.derive import bind_records, from_records  # noqa: E402
from outcome_monitor.registry import Registry, learn  # noqa: E402
from vocabcompare import Comparison, add_arguments, chosen  # noqa: E402

from core.seeding import rng  # noqa: E402
from core.worlds import get_plugin  # noqa: E402
from harness.faults.classes import field_filter, get_class  # noqa: E402


def contracts(plugin, env, split: str, traces: bool = True, vocabulary: str = "paper") -> Registry:
    db = plugin.database(env, split=split)
    rules = from_records(db.collections)
    bound = [
        r
        for tool, places in sorted(db.bindings.items())
        for coll, ctx in places
        for r in bind_records(rules[coll], tool, ctx)
    ]
    shared = Registry(bound, {"source": "database"})
    if not traces:
        return shared
    rows = list(plugin.clean_traces(env, split=split))
    # "paper": the studies' protocol; "wide": the wider vocabulary a user's recording gets
    return learn(rows, vocabulary=vocabulary).merged(shared)


def fire_rate(rows: list[dict], registry_of) -> tuple[int, collections.Counter]:
    """How many ``rows`` fire under ``registry_of(row)`` (a row's held-out registry), and the top rules."""
    fired: collections.Counter = collections.Counter()
    n_fire = 0
    for r in rows:
        vs = registry_of(r).check(r["tool"], r["arguments"], r["result"])
        n_fire += bool(vs)
        fired.update(f"{v.rule_class} {r['tool']} {v.path}" for v in vs)
    return n_fire, fired


def flagged_share(
    rows: list[dict],
    name: str,
    cls: str,
    pattern: str,
    registry_of,
    cmp: Comparison | None = None,
    vocab: str = "",
) -> tuple[int, int]:
    """(flagged, touched): rows the fault class ``cls`` can touch at a field matching ``pattern``, and
    those whose faulted copy violates a rule the clean result does not (counted in ``cmp`` under
    ``vocab`` and ``name`` too, when given)."""
    fc = get_class(cls)
    touched = flagged = 0
    for i, r in enumerate(rows):
        content = copy.deepcopy(r["result"])
        paths = field_filter(fc.eligible(content, r["arguments"], None), pattern)
        if not paths:
            continue
        touched += 1
        reg = registry_of(r)
        applied = fc.apply(content, paths[0], r["arguments"], rng(0, name, i), {})
        clean = {v.rule_id for v in reg.check(r["tool"], r["arguments"], r["result"])}
        vs = reg.check(r["tool"], r["arguments"], applied.content)
        if cmp is not None:
            cmp.record(vocab, name, reg, r, applied, clean, vs)
        flagged += any(v.rule_id not in clean for v in vs)
    return flagged, touched


def crossfit_fire_rate(plugin, env, split: str, vocabulary: str = "paper") -> None:
    """As the studies build monitors: each fold's trace contracts merged with the database's, each
    result checked by the fold that did not learn from its customer."""
    from harness.monitor.crossfit import build_crossfit

    rows = list(plugin.clean_traces(env, split=split))
    cf = build_crossfit(rows, 5, 0, vocabulary=vocabulary)
    shared = contracts(plugin, env, split, traces=False)
    regs = [r.merged(shared) for r in cf.registries]
    ok = [r for r in rows if r["status"] == "ok" and isinstance(r["result"], dict)]
    n_fire, fired = fire_rate(ok, lambda r: regs[cf.fold(r["group_id"])])
    print(
        f"  cross-fitted clean fire rate on {split} (5 folds, traces + database): {n_fire}/{len(ok)} results = "
        f"{100 * n_fire / max(1, len(ok)):.2f}%  top: {dict(fired.most_common(6))}"
    )


AIRLINE_FAULTS = (
    (
        "taubench_airline_status (cabin or status outside its domain)",
        "out_of_domain_categorical",
        "^(cabin|status)$",
    ),
    ("taubench_airline_conservation (a payment no longer adds up)", "stale_value", "payment_history"),
)


def airline_heldout(plugin, env, vocab: str, cmp: Comparison) -> None:
    """Airline's held-out figures: the registries its studies build (the world's own contract sources,
    cross-fitted by user), each result checked by the fold that did not learn from its user."""
    from harness.run.registries import ContractSpec, contract_parts

    t0 = time.perf_counter()
    parts = contract_parts(plugin, env, ContractSpec(tuple(plugin.contract_sources), vocabulary=vocab))
    regs, cf = parts.registries(), parts.mined.crossfit
    took = time.perf_counter() - t0
    print(
        f"airline contracts, {vocab} vocabulary (sources {', '.join(plugin.contract_sources)}; 5 folds by user): "
        f"{[r.n_rules for r in regs]} rules per fold in {took:.2f} s"
    )
    ok = [
        r for r in plugin.clean_traces(env) if r["status"] == "ok" and isinstance(r["result"], (dict, list))
    ]

    def held_out(r: dict):
        return regs[cf.fold(r["group_id"])]

    n_fire, fired = fire_rate(ok, held_out)
    cmp.know(ok)
    print(
        f"  held-out clean fire rate: {n_fire}/{len(ok)} results = {100 * n_fire / max(1, len(ok)):.2f}%"
        f"  top: {dict(fired.most_common(6))}"
    )
    for name, cls, pattern in AIRLINE_FAULTS:
        cmp.tally(vocab, name)
        flagged_share(ok, name, cls, pattern, held_out, cmp, vocab)


def oddities(tool: str, result: dict, users_orders: dict) -> list[str]:
    out = []
    if tool == "get_order_details":
        if any(p.get("amount") == 0.0 for p in result.get("payment_history", [])):
            out.append("0.0 refund")
        if any(round(p.get("amount", 0), 2) != p.get("amount") for p in result.get("payment_history", [])):
            out.append("unrounded amount")
        if result.get("status") == "pending" and users_orders.get(result.get("order_id")):
            out.append("unavailable item in a pending order")
    if tool == "get_user_details":
        if any(m.get("balance", 0) > 100 for m in result.get("payment_methods", {}).values()):
            out.append("gift-card balance above 100")
    return out


RETAIL_FAULTS = (
    ("status out of domain", "out_of_domain_categorical", "^status$"),
    ("payment conservation broken", "broken_relation", "payment_history"),
)


def retail(plugin, env, a: argparse.Namespace, vocab: str, cmp: Comparison) -> None:
    """Retail with one vocabulary: contracts from the learn split, checked on the check splits."""
    t0 = time.perf_counter()
    reg = contracts(plugin, env, a.learn_split, vocabulary=vocab)
    took = time.perf_counter() - t0
    by_class = collections.Counter(r.cls for rs in reg.rules.values() for r in rs)
    print(
        f"{vocab} vocabulary: contracts from {a.learn_split} traces + database: {reg.n_rules} rules in "
        f"{took:.2f} s {dict(by_class)}"
    )

    rows = [
        r
        for s in a.check_splits.split(",")
        for r in plugin.clean_traces(env, split=s)
        if r["status"] == "ok" and isinstance(r["result"], dict)
    ]
    products = env.data.base.collections["products"]
    unavailable = {
        oid: any(
            not products[i["product_id"]]["variants"].get(i["item_id"], {}).get("available", True)
            for i in o["items"]
        )
        for oid, o in env.data.base.collections["orders"].items()
    }
    fired, odd_seen, odd_fired, n_fire = (
        collections.Counter(),
        collections.Counter(),
        collections.Counter(),
        0,
    )
    for r in rows:
        vs = reg.check(r["tool"], r["arguments"], r["result"])
        n_fire += bool(vs)
        fired.update(f"{v.rule_class} {r['tool']} {v.path}" for v in vs)
        for odd in oddities(r["tool"], r["result"], unavailable):
            odd_seen[odd] += 1
            odd_fired[odd] += bool(vs)
    print(
        f"  clean fire rate on {a.check_splits}: {n_fire}/{len(rows)} results = "
        f"{100 * n_fire / max(1, len(rows)):.2f}%  top: {dict(fired.most_common(6))}"
    )
    for odd in sorted(odd_seen):
        print(f"    oddity {odd!r}: {odd_fired[odd]} of {odd_seen[odd]} results fire")

    if a.crossfit:
        crossfit_fire_rate(plugin, env, a.learn_split, vocab)

    orders = [r for r in rows if r["tool"] == "get_order_details"]
    cmp.know(rows)
    for name, cls, pattern in RETAIL_FAULTS:
        cmp.tally(vocab, name)
        flagged_share(orders, name, cls, pattern, lambda r: reg, cmp, vocab)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir")
    ap.add_argument("--domain", default="retail", choices=("retail", "airline"))
    ap.add_argument("--learn-split", default="train")
    ap.add_argument("--check-splits", default="test,dev")
    ap.add_argument(
        "--crossfit",
        action="store_true",
        help="also: fire rate of the learn split's own results under 5-fold cross-fitted trace contracts + database",
    )
    ap.add_argument("--json", action="store_true", help="the fault figures of each vocabulary as JSON")
    add_arguments(ap)
    a = ap.parse_args(argv)
    plugin = get_plugin("taubench")
    try:
        env = plugin.make(data_dir=a.data_dir, domain=a.domain)
    except Exception as e:  # noqa: BLE001 - one clear line for a user-facing script
        sys.exit(f"error: cannot load tau-bench data ({e}); pass --data-dir or set TAUBENCH_DATA")
    vocabs = chosen(a.vocabulary)
    cmp = Comparison(vocabs, a.examples)
    out = sys.stdout
    if a.json:  # the figures' lines go to stderr; stdout carries the JSON alone
        sys.stdout = sys.stderr
    try:
        for vocab in vocabs:
            if a.domain == "airline":
                airline_heldout(plugin, env, vocab, cmp)
            else:
                retail(plugin, env, a, vocab, cmp)
    finally:
        sys.stdout = out
    if a.json:
        rep = {
            "domain": a.domain,
            "vocabularies": list(vocabs),
            **{v: {"faults": cmp.faults_json(v)} for v in vocabs},
        }
        if "wide" in vocabs:
            rep["below_target_wide"] = cmp.below_target("wide")
        print(json.dumps(rep, indent=1))
        return 0
    what = "touched results" if a.domain == "airline" else "touched get_order_details results"
    print(f"faulted {what} flagged (a violation the clean result does not raise):")
    print("\n".join(cmp.lines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
