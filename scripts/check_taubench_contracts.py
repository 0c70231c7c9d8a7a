"""One-off: do the taubench plugin's contract sources stay silent on clean results?

    python scripts/check_taubench_contracts.py [--data-dir DIR] [--learn-split train] [--check-splits test,dev]
    python scripts/check_taubench_contracts.py --domain airline     # random-write post-states, checked on test

Derives record contracts from ``PLUGIN.database(env, split)`` (bound to tools by its bindings) and
schema contracts from ``PLUGIN.tool_schemas(env)``, then counts violations on the clean traces of
other splits, once with the learn split's post-states and once with the initial records only.
Prints the counts; asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from outcome_monitor.learning.derive import bind_records, from_records, registry_from_schemas  # noqa: E402
from outcome_monitor.registry import Registry  # noqa: E402

from core.worlds import get_plugin  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data-dir")
    ap.add_argument("--domain", default="retail", choices=["retail", "airline"])
    ap.add_argument(
        "--learn-split", help="post-states of this split (default: retail train; airline random writes)"
    )
    ap.add_argument(
        "--check-splits", help="clean results of these splits (default: retail test,dev; airline test)"
    )
    args = ap.parse_args()
    learn = args.learn_split or ("train" if args.domain == "retail" else "random")
    check = args.check_splits or ("test,dev" if args.domain == "retail" else "test")
    plugin = get_plugin("taubench")
    env = plugin.make(data_dir=args.data_dir, domain=args.domain)
    rows = [
        r
        for s in check.split(",")
        for r in plugin.clean_traces(env, split=s)
        if r["status"] == "ok" and isinstance(r["result"], (dict, list))
    ]
    for split in (learn, None):
        db = plugin.database(env, split=split)
        contracts = from_records(db.collections)
        reg = Registry(
            [
                r
                for tool, binds in db.bindings.items()
                for coll, ctx in binds
                for r in bind_records(contracts[coll], tool, ctx)
            ]
        )
        fired = collections.Counter(
            f"{v.rule_class} {v.path}"
            for r in rows
            for v in reg.check(r["tool"], r["arguments"], r["result"])
        )
        label = f"initial records + {split} post-states" if split else "initial records only"
        print(
            f"{args.domain} database ({label}): {reg.n_rules} rules, {sum(fired.values())} violations on "
            f"{len(rows)} clean JSON results of {check} {dict(fired.most_common(5))}"
        )
    sreg = registry_from_schemas(plugin.tool_schemas(env))
    n = sum(len(sreg.check(r["tool"], r["arguments"], r["result"])) for r in rows)
    print(f"result schemas: {sreg.n_rules} rules, {n} violations on the same results")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
