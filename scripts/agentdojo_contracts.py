"""AgentDojo contracts, held out: the clean fire rate per suite and the share of faulted results flagged.

    python scripts/agentdojo_contracts.py [--suite all|workspace|travel|banking|slack] [--json]
        [--vocabulary paper|wide|both] [--examples N]

The registries are the ones the studies build (the world's contract sources: the tools' declared return
types and clean traces of the ground truths and argument-free reads, five folds by task): each clean
result is checked by the fold that did not learn from its task. Prints, per suite, the clean fire rate
(share of ok results with at least one violation) and the rules that fired; then, for each fault class of
the agentdojo-faults study, the read results it can touch (one field per result, a seeded choice) and how
many of those the monitor flags (a violation the clean result does not raise). Each figure is given for
the paper's seven rule classes (``vocabulary="paper"``, what the studies use) beside the wide vocabulary
(``vocabulary="wide"``); a class below 90% flagged with the wide one is named with why its misses were
missed (``scripts/vocabcompare.py``), and ``--examples N`` prints N of them.
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

from vocabcompare import Comparison, add_arguments, chosen  # noqa: E402

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

# Why a class stays below 90% with the wide vocabulary, read from its misses (``--examples N`` prints
# them; the lines above each note count the misses by reason and name the places most missed).
NOTES = {
    "out_of_domain_categorical": "a name replaced in an open list or field: a channel of get_channels (every "
    "clean call returned the same four channels: one distinct execution, no evidence of a closed set), a "
    'sender or recipient of a transaction ("me" beside IBANs: an open field), a car type of a company '
    "(the types pooled over the companies of get_car_types_available close only in folds that saw each type "
    "twice); not observable as outside a set the clean traffic closed",
    "empty_or_truncated_list": "a shorter list where no size contract holds in clean traffic: one call "
    "repeated alone (get_channels always 4, get_scheduled_transactions: a constant length in disguise, "
    "below a constant's support), a list the world's writes change from task to task (list_files 25 to 27 "
    "files, get_most_recent_transactions 5 or 6, get_unread_emails), or a list whose length varies by call "
    "where the same call was not repeated often enough in the fold (read_channel_messages, search results, "
    "participants); the empty ones that looked clean are lengths clean results had",
    "negative_or_zero": "get_balance's one value (1810.0 in every clean call: a single distinct value, too "
    "few for a sign), and a file's size set to 0 in search_files_by_filename where clean sizes came within "
    "half their mean gap of zero (the count guard keeps '>= 0' there: an empty file is a legitimate size, "
    "as a product out of stock is on a real server); negatives in those sizes are caught",
    "date_order_violation": "a date moved inside an e-mail's free text (get_sent_emails body): no rule reads "
    "dates in prose; an event's start moved off the day asked for is caught (the day echo pooled across "
    "get_day_calendar_events and search_calendar_events)",
}


def measure(plugin, env, vocab: str, cmp: Comparison) -> dict:
    """The held-out figures of one vocabulary: clean fire per suite and the faults (into ``cmp``)."""
    t0 = time.perf_counter()
    parts = contract_parts(plugin, env, ContractSpec(tuple(plugin.contract_sources), vocabulary=vocab))
    regs, cf = parts.registries(), parts.mined.crossfit
    took = time.perf_counter() - t0
    rows = [r for r in plugin.clean_traces(env) if r["status"] == "ok"]
    specs = env.tool_specs()
    cmp.know(rows)

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
    for name in STUDY_FAULTS:
        fc = get_class(name)
        cmp.tally(vocab, name)
        for i, r in enumerate(rows):
            if specs[r["tool"]].category != "read":
                continue  # the studies' faults spare writes
            content = copy.deepcopy(r["result"])
            eligible = fc.eligible(content, r["arguments"], specs[r["tool"]])
            if not eligible:
                continue
            g = rng(0, "agentdojo-contracts", name, i)
            applied = fc.apply(content, g.choice(eligible), r["arguments"], g, {})
            vs = held_out(r).check(r["tool"], r["arguments"], applied.content)
            cmp.record(vocab, name, held_out(r), r, applied, clean_ids[i], vs)
    total = {"results": len(rows), "fired": sum(s["fired"] for s in per_suite.values())}
    return {
        "rules_per_fold": [r.n_rules for r in regs],
        "seconds": round(took, 2),
        "clean": dict(per_suite),
        "clean_total": total,
        "top_fired": dict(fired.most_common(8)),
        "faults": cmp.faults_json(vocab),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", default="all", choices=("all", "workspace", "travel", "banking", "slack"))
    ap.add_argument("--json", action="store_true")
    add_arguments(ap)
    a = ap.parse_args(argv)
    offline.apply()
    plugin = get_plugin("agentdojo")
    why = plugin.unavailable()
    if why:
        print(f"error: {why}", file=sys.stderr)
        return 2
    env = plugin.make(suite=a.suite)
    vocabs = chosen(a.vocabulary)
    cmp = Comparison(vocabs, a.examples, notes=NOTES)
    by_vocab = {v: measure(plugin, env, v, cmp) for v in vocabs}
    if a.json:
        out = {"suite": a.suite, "vocabularies": list(vocabs), **by_vocab}
        if "wide" in vocabs:
            out["below_target_wide"] = cmp.below_target("wide")
        print(json.dumps(out, indent=2))
        return 0
    for vocab, out in by_vocab.items():
        total, took = out["clean_total"], out["seconds"]
        print(
            f"agentdojo contracts, {vocab} vocabulary (sources {', '.join(plugin.contract_sources)}; "
            f"5 folds by task): {out['rules_per_fold']} rules per fold in {took:.1f} s"
        )
        for suite, s in sorted(out["clean"].items()):
            print(
                f"  held-out clean fire, {suite}: {s['fired']}/{s['results']} results = "
                f"{100 * s['fired'] / max(1, s['results']):.2f}%"
            )
        print(
            f"  held-out clean fire, {a.suite}: {total['fired']}/{total['results']} results = "
            f"{100 * total['fired'] / max(1, total['results']):.2f}%  top: {out['top_fired']}"
        )
    print("faulted read results flagged (a violation the clean result does not raise):")
    print("\n".join(cmp.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
