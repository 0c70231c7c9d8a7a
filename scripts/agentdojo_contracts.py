"""AgentDojo contracts, held out: the clean fire rate per suite and the share of faulted results flagged.

    python scripts/agentdojo_contracts.py [--suite all|workspace|travel|banking|slack] [--json]

The registries are the ones the studies build (the world's contract sources: the tools' declared return
types and clean traces of the ground truths and argument-free reads, five folds by task): each clean
result is checked by the fold that did not learn from its task. Prints, per suite, the clean fire rate
(share of ok results with at least one violation) and the rules that fired; then, for each fault class of
the agentdojo-faults study, the read results it can touch (one field per result, a seeded choice) and how
many of those the monitor flags (a violation the clean result does not raise).
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

from core import offline  # noqa: E402
from core.seeding import rng  # noqa: E402
from core.worlds import get_plugin  # noqa: E402
from harness.faults.classes import get_class  # noqa: E402
from harness.run.registries import ContractSpec, contract_parts  # noqa: E402

STUDY_FAULTS = (
    "type_drift",
    "missing_field",
    "negative_or_zero",
    "out_of_domain_categorical",
    "empty_or_truncated_list",
    "date_order_violation",
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", default="all", choices=("all", "workspace", "travel", "banking", "slack"))
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    offline.apply()
    plugin = get_plugin("agentdojo")
    why = plugin.unavailable()
    if why:
        print(f"error: {why}", file=sys.stderr)
        return 2
    env = plugin.make(suite=a.suite)
    t0 = time.perf_counter()
    parts = contract_parts(plugin, env, ContractSpec(tuple(plugin.contract_sources)))
    regs, cf = parts.registries(), parts.mined.crossfit
    took = time.perf_counter() - t0
    rows = [r for r in plugin.clean_traces(env) if r["status"] == "ok"]
    specs = env.tool_specs()

    def held_out(r: dict):
        return regs[cf.fold(r["group_id"])]

    per_suite: dict[str, dict[str, int]] = collections.defaultdict(lambda: {"results": 0, "fired": 0})
    fired: collections.Counter = collections.Counter()
    clean_ids: list[set[str]] = []
    for r in rows:
        vs = held_out(r).check(r["tool"], r["arguments"], r["result"])
        suite = r["task_id"].split(".", 1)[0]
        per_suite[suite]["results"] += 1
        per_suite[suite]["fired"] += bool(vs)
        fired.update(f"{v.rule_class} {r['tool']} {v.path}" for v in vs)
        clean_ids.append({v.rule_id for v in vs})
    faults: dict[str, dict[str, int]] = {}
    for name in STUDY_FAULTS:
        fc = get_class(name)
        touched = flagged = 0
        for i, r in enumerate(rows):
            if specs[r["tool"]].category != "read":
                continue  # the studies' faults spare writes
            content = copy.deepcopy(r["result"])
            eligible = fc.eligible(content, r["arguments"], specs[r["tool"]])
            if not eligible:
                continue
            g = rng(0, "agentdojo-contracts", name, i)
            applied = fc.apply(content, g.choice(eligible), r["arguments"], g, {})
            touched += 1
            vs = held_out(r).check(r["tool"], r["arguments"], applied.content)
            flagged += any(v.rule_id not in clean_ids[i] for v in vs)
        faults[name] = {"touched": touched, "flagged": flagged}
    total = {"results": len(rows), "fired": sum(s["fired"] for s in per_suite.values())}
    out = {
        "suite": a.suite,
        "rules_per_fold": [r.n_rules for r in regs],
        "seconds": round(took, 2),
        "clean": dict(per_suite),
        "clean_total": total,
        "top_fired": dict(fired.most_common(8)),
        "faults": faults,
    }
    if a.json:
        print(json.dumps(out, indent=2))
        return 0
    print(
        f"agentdojo contracts (sources {', '.join(plugin.contract_sources)}; 5 folds by task): "
        f"{out['rules_per_fold']} rules per fold in {took:.1f} s"
    )
    for suite, s in sorted(per_suite.items()):
        print(
            f"held-out clean fire, {suite}: {s['fired']}/{s['results']} results = "
            f"{100 * s['fired'] / max(1, s['results']):.2f}%"
        )
    print(
        f"held-out clean fire, {a.suite}: {total['fired']}/{total['results']} results = "
        f"{100 * total['fired'] / max(1, total['results']):.2f}%  top: {out['top_fired']}"
    )
    for name, f in faults.items():
        print(
            f"fault {name}: flagged {f['flagged']}/{f['touched']} touched read results = "
            f"{100 * f['flagged'] / max(1, f['touched']):.1f}%"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
