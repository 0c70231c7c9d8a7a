"""BFCL contracts, held out: the clean fire rate and the share of faulted results flagged, per fault class.

    python scripts/bfcl_contracts.py [--category base] [--classes type_drift,missing_field,...] [--json]

The registries are the ones the studies build (the world's contract sources: the documented response
schemas, reconciled, and clean ground-truth traces mined in five folds by task): each clean result is
checked by the fold that did not learn from its task. Prints the clean fire rate (share of ok results with
at least one violation), and for each fault class of the library the results it can touch (a field the
class finds eligible; one field per result, a seeded choice) and how many of those the monitor flags (a
violation the clean result does not raise), then the structured classes pooled, and the classes that fit
BFCL's results (``FIT``, the studies' faults) pooled. Writes are spared, as the studies' faults spare them.
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

from core.seeding import rng  # noqa: E402
from core.worlds import get_plugin  # noqa: E402
from harness.faults.classes import CLASSES, get_class  # noqa: E402
from harness.run.registries import ContractSpec, contract_parts  # noqa: E402

# classes whose damage a structure can show; the string classes (stale_value, encoding_corruption,
# plausible_string) keep every value well formed and are reported apart
# the structured classes whose damage BFCL's results can show (the studies' faults): see the world's README
FIT = ("type_drift", "missing_field", "renamed_field", "echoed_argument_mismatch")
STRUCTURED = tuple(sorted(n for n, c in CLASSES.items() if c.kind == "structured"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--category", default="base", choices=("base", "long_context"))
    ap.add_argument("--classes", help="comma-separated fault classes (default: every class)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--documented",
        action="store_true",
        help="schemas as documented (no reconciliation with the package's results)",
    )
    a = ap.parse_args(argv)
    plugin = get_plugin("bfcl")
    why = plugin.unavailable()
    if why:
        print(f"error: {why}", file=sys.stderr)
        return 2
    env = plugin.make(category=a.category)
    t0 = time.perf_counter()
    if a.documented:  # the documents as written: every documented field required, every documented type
        from environments.bfcl import contracts

        plugin.tool_schemas = lambda env: contracts.contract_schemas(env, documented=True)  # type: ignore[method-assign]
    parts = contract_parts(plugin, env, ContractSpec(tuple(plugin.contract_sources)))
    regs, cf = parts.registries(), parts.mined.crossfit
    took = time.perf_counter() - t0
    rows = [r for r in plugin.clean_traces(env, categories=[a.category]) if r["status"] == "ok"]
    specs = env.tool_specs()

    def held_out(r: dict):
        return regs[cf.fold(r["group_id"])]

    fired: collections.Counter = collections.Counter()
    n_fire = 0
    clean_ids: list[set[str]] = []
    for r in rows:
        vs = held_out(r).check(r["tool"], r["arguments"], r["result"])
        n_fire += bool(vs)
        fired.update(f"{v.rule_class} {r['tool']} {v.path}" for v in vs)
        clean_ids.append({v.rule_id for v in vs})
    names = a.classes.split(",") if a.classes else sorted(CLASSES)
    per: dict[str, dict[str, int]] = {}
    for name in names:
        fc = get_class(name)
        touched = flagged = 0
        for i, r in enumerate(rows):
            if specs[r["tool"]].category != "read":
                continue  # the studies' faults spare writes (exclude_categories: [write, terminal])
            content = copy.deepcopy(r["result"])
            eligible = fc.eligible(content, r["arguments"], specs[r["tool"]])
            if not eligible:
                continue
            draw = rng(0, "bfcl-contracts", name, r["task_id"], i)
            path = eligible[draw.randrange(len(eligible))]
            applied = fc.apply(content, path, r["arguments"], draw, {})
            touched += 1
            vs = held_out(r).check(r["tool"], r["arguments"], applied.content)
            flagged += any(v.rule_id not in clean_ids[i] for v in vs)
        per[name] = {"touched": touched, "flagged": flagged, "kind": fc.kind}
    pooled = [per[n] for n in names if per[n]["kind"] == "structured"]
    s_touched, s_flagged = sum(p["touched"] for p in pooled), sum(p["flagged"] for p in pooled)
    fit = [per[n] for n in names if n in FIT]
    f_touched, f_flagged = sum(p["touched"] for p in fit), sum(p["flagged"] for p in fit)
    out = {
        "category": a.category,
        "rules_per_fold": [r.n_rules for r in regs],
        "build_seconds": round(took, 2),
        "clean": {"results": len(rows), "fired": n_fire, "top": dict(fired.most_common(8))},
        "faults": per,
        "structured": {"touched": s_touched, "flagged": s_flagged},
        "fit": {"classes": list(FIT), "touched": f_touched, "flagged": f_flagged},
    }
    if a.json:
        print(json.dumps(out, indent=1))
        return 0
    pct = lambda k, n: f"{100 * k / max(1, n):.1f}%"  # noqa: E731
    print(
        f"bfcl {a.category} contracts (sources {', '.join(plugin.contract_sources)}; 5 folds by task): "
        f"{out['rules_per_fold']} rules per fold in {took:.2f} s"
    )
    print(
        f"held-out clean fire rate: {n_fire}/{len(rows)} results = {pct(n_fire, len(rows))}  top: {out['clean']['top']}"
    )
    for name in names:
        p = per[name]
        print(
            f"  {name:<26} ({p['kind']:<10}) flagged {p['flagged']}/{p['touched']} touched results = {pct(p['flagged'], p['touched'])}"
        )
    print(f"every structured class pooled: flagged {s_flagged}/{s_touched} = {pct(s_flagged, s_touched)}")
    worst = (
        min((per[n]["flagged"] / max(1, per[n]["touched"]), n) for n in names if n in FIT) if fit else None
    )
    print(
        f"the classes that fit ({', '.join(FIT)}): flagged {f_flagged}/{f_touched} = {pct(f_flagged, f_touched)}"
        + (f"; lowest {worst[1]} {100 * worst[0]:.1f}%" if worst else "")
        + f"; clean fire {pct(n_fire, len(rows))}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
