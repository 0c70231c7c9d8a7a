"""Benchmark and audit of the outcome monitor on ToolMaze (prints figures; no assertions).

    python scripts/bench_monitor.py [--seed 0] [--repeat 5] [--json] [--skip-audit]

Reports: registry build time for the five cross-fit folds and the number of accepted rules; checks
per second on one core (CPU seconds; the three checkers take turns in every round, best round of
each), side by side with validating the same results with ``jsonschema`` and with ``fastjsonschema``
against per-tool schemas inferred by ``genson`` (the ratios printed), and what compiling each costs,
and the wider vocabulary's registry (``learn``'s default) on the same results, also with its per-field
memos of string verdicts forgetting every string (as a stream of all-new values would have them;
its memos of calls met before, ``same_answer``'s, forgetting them too), and without its ``same_answer``
rules (what that form costs);
``import outcome_monitor`` (and its ``Monitor``, and ``Monitor, learn``) in fresh interpreters, best
of 7, with whether numpy came with it and what ``import numpy`` alone costs; the size of
tau-bench retail's registry (``learn --env taubench`` defaults) with maps keyed by ids mined per
entry, and as it was before, per id (when the tau-bench data is there); the held-out false-alarm rate on clean traces (each
workflow checked by the registry that never saw it), per complexity; the detection audit of
ToolMaze's implicit payloads (oracle policy on P3/P4) by contract class, fault kind and complexity;
and how many admissible recovery actions receipts offered. Same for the schema-only detector.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.worlds import get_plugin  # noqa: E402
from harness.evaluations.payload_audit import detection_audit, false_alarms  # noqa: E402
from harness.monitor import learn  # noqa: E402
from harness.monitor.crossfit import build_crossfit  # noqa: E402

C3C4 = {"complexity": ["C3", "C4"]}  # the paper's difficult workflows


def timed(fn, repeat: int) -> tuple[float, float, object]:
    """(best, first, result) over ``repeat`` runs; the first run is cold (module memos empty)."""
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), times[0], out


def best_of(fn, repeat: int) -> tuple[float, object]:
    best, _, out = timed(fn, repeat)
    return best, out


def check_speed(rows: list[dict], repeat: int) -> dict:
    import fastjsonschema
    from genson import SchemaBuilder
    from jsonschema import Draft7Validator
    from outcome_monitor import Registry

    clean = [r for r in rows if r.get("status", "ok") != "error"]
    reg = learn(clean, vocabulary="paper")  # the studies' protocol, as the figures before it
    wide = learn(clean)  # a user's default: the wider vocabulary (text, shape, collection, range rules too)
    # the same rules but same_answer's: every call here replays a recorded one, which that form judges
    wide_no_same = Registry(
        [r for rs in wide.rules.values() for r in rs if r.params.get("form") != "same_answer"], wide.meta
    )
    builders: dict[str, SchemaBuilder] = defaultdict(SchemaBuilder)
    for r in clean:
        builders[r["tool"]].add_object(r["result"])
    validators = {t: Draft7Validator(b.to_schema()) for t, b in builders.items()}
    # fastjsonschema compiles each schema to Python code; it stops at the first error
    t0 = time.process_time()
    fast = {t: fastjsonschema.compile(b.to_schema()) for t, b in builders.items()}
    t_fast_compile = time.process_time() - t0
    invalid = fastjsonschema.JsonSchemaException
    batch = [(r["tool"], r["arguments"], r["result"]) for r in clean] * 3  # ~11.5k results per timed pass
    # the monitor compiles a tool's check on its first call: every tool's first result, outside the timing
    first = {}
    for t, a, res in batch:
        first.setdefault(t, (a, res))
    t0 = time.process_time()
    for t, (a, res) in first.items():
        reg.check(t, a, res)
    t_compile = time.process_time() - t0
    for t, (a, res) in first.items():
        wide.check(t, a, res)
        wide_no_same.check(t, a, res)
    for t, a, res in batch[:200]:  # warm caches outside the timing
        reg.check(t, a, res)
        wide.check(t, a, res)
        wide_no_same.check(t, a, res)
        list(validators[t].iter_errors(res))

    def run_monitor():
        return sum(len(reg.check(t, a, res)) for t, a, res in batch)

    def run_wide():
        return sum(len(wide.check(t, a, res)) for t, a, res in batch)

    def run_wide_no_same():
        return sum(len(wide_no_same.check(t, a, res)) for t, a, res in batch)

    def run_jsonschema():
        return sum(1 for t, _, res in batch for _ in validators[t].iter_errors(res))

    def run_fastjsonschema():
        bad = 0
        for t, _, res in batch:
            try:
                fast[t](res)
            except invalid:
                bad += 1
        return bad

    # the wide check memoizes each field's string verdicts (toolcode._Memo), and these results repeat
    # their strings (the batch is the clean rows three times, and fields repeat values); timed also
    # with every memo emptied and holding one string at a time, as a stream of all-new ids and texts
    # would have it
    from outcome_monitor.checking import toolcode
    from outcome_monitor.checking.answers import SameAnswers

    # the cells of each tool's check and, through the functions among them, of what it calls (a tool
    # whose text is read through a view checks with two generated functions, each with its memos)
    cells: list = []
    todo, met = [plans[2] for plans in wide._plans.values()], set()
    while todo:
        fn = todo.pop()
        if id(fn) in met:
            continue
        met.add(id(fn))
        for c in getattr(fn, "__closure__", None) or ():
            try:
                x = c.cell_contents
            except ValueError:  # an empty cell
                continue
            cells.append(x)
            if getattr(x, "__closure__", None):
                todo.append(x)
    # every memo once, and the one all generated checks share (the result-is-an-error rule's)
    memos = list(
        {id(c): c for c in [*cells, toolcode._GLOBALS["ERRM"]] if isinstance(c, toolcode._Memo)}.values()
    )
    # same_answer's memos of calls and answers met before (each bound through its methods): with all-new
    # values no call repeats, so they forget too
    owners = {id(o): o for o in (getattr(c, "__self__", None) for c in cells)}
    same = [o for o in owners.values() if isinstance(o, SameAnswers)]

    def run_wide_unmemoized():
        memo_max, toolcode._Memo.MAX = toolcode._Memo.MAX, 0  # a miss empties the memo first
        limits = [o.limit for o in same]
        for o in same:
            o.limit = 0  # likewise: a call it judges empties it first
        try:
            return run_wide()
        finally:
            toolcode._Memo.MAX = memo_max
            for o, n in zip(same, limits, strict=True):
                o.limit = n

    # side by side: the checkers take turns in every round, so a change of the machine's load falls on
    # all of them; CPU seconds of this process (one core), the best round of each
    names = (
        "monitor",
        "monitor_wide",
        "monitor_wide_unmemoized",
        "monitor_wide_no_same",
        "jsonschema",
        "fastjsonschema",
    )
    best = {name: float("inf") for name in names}
    fired = {}
    memo_entries = 0
    for _ in range(repeat):
        for name, fn in (
            ("monitor", run_monitor),
            ("fastjsonschema", run_fastjsonschema),
            ("monitor_wide_unmemoized", run_wide_unmemoized),
            ("monitor_wide", run_wide),
            ("monitor_wide_no_same", run_wide_no_same),
            ("jsonschema", run_jsonschema),
        ):
            if name == "monitor_wide_unmemoized":  # emptied before, refilled after, outside the timing
                kept = [dict(m) for m in [*memos, *(o.seen for o in same)]]
                for m in [*memos, *(o.seen for o in same)]:
                    m.clear()
            t0 = time.process_time()
            fired[name] = fn()  # the memo never changes a verdict: the two wide counts agree
            best[name] = min(best[name], time.process_time() - t0)
            if name == "monitor_wide_unmemoized":
                for m, k in zip([*memos, *(o.seen for o in same)], kept, strict=True):
                    m.clear()
                    m.update(k)
        memo_entries = sum(len(m) for m in memos)  # the distinct strings one memoized pass remembered
    tm, tj, tf = best["monitor"], best["jsonschema"], best["fastjsonschema"]
    return {
        "results": len(batch),
        "monitor_checks_per_s": len(batch) / tm,
        "jsonschema_checks_per_s": len(batch) / tj,
        "fastjsonschema_checks_per_s": len(batch) / tf,
        "speedup_vs_jsonschema": tj / tm,
        "ratio_vs_fastjsonschema": tf / tm,
        "monitor_wide_checks_per_s": len(batch) / best["monitor_wide"],
        "monitor_wide_rules": wide.n_rules,
        "monitor_wide_memos": len(memos),
        "monitor_wide_memo_entries": memo_entries,
        "monitor_wide_unmemoized_checks_per_s": len(batch) / best["monitor_wide_unmemoized"],
        "monitor_wide_no_same_answer_checks_per_s": len(batch) / best["monitor_wide_no_same"],
        "monitor_wide_same_answer_rules": wide.n_rules - wide_no_same.n_rules,
        "monitor_compile_seconds": t_compile,
        "fastjsonschema_compile_seconds": t_fast_compile,
        "tools": len(reg.tools()),
        "monitor_rules": reg.n_rules,
        "monitor_classes": reg.counts_by_class(),
        "violations_on_training_data": {k: fired[k] for k in ("monitor", "jsonschema", "fastjsonschema")},
        "violations_on_training_data_wide": fired["monitor_wide"],
        "violations_on_training_data_wide_unmemoized": fired["monitor_wide_unmemoized"],
    }


def held_out_speed(worlds: list[str], repeat: int) -> dict[str, dict | str]:
    """``check_speed`` on other worlds' clean traces (their default make): results the speed work never
    saw. A world that cannot be made here (its data or packages missing) is named with why."""
    out: dict[str, dict | str] = {}
    for name in worlds:
        try:
            plugin = get_plugin(name)
            rows = list(plugin.clean_traces(plugin.make()))
        except Exception as exc:  # a world's own error: named, the benchmark goes on
            out[name] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
            continue
        out[name] = check_speed(rows, repeat)
    return out


# each in a fresh interpreter: the seconds the statement takes, and whether numpy was loaded after it
_IMPORT_PROBES = {
    "import outcome_monitor": "import outcome_monitor",
    "outcome_monitor.Monitor": "import outcome_monitor; outcome_monitor.Monitor",
    "from outcome_monitor import Monitor, learn": "from outcome_monitor import Monitor, learn",
    "import numpy": "import numpy",
}
_PROBE = (
    "import sys, time; t0 = time.perf_counter(); {stmt}; t = time.perf_counter() - t0; "
    "print(t, 'numpy' in sys.modules)"
)


def import_times(runs: int = 7) -> dict:
    """Best of ``runs`` fresh interpreters for each probe (seconds), and whether it loaded numpy."""
    import os
    import subprocess

    # with bytecode caches, as an installed wheel has them (the first run writes any that are stale)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out: dict[str, dict] = {}
    for name, stmt in _IMPORT_PROBES.items():
        best, numpy = float("inf"), False
        for _ in range(runs):
            res = subprocess.run(
                [sys.executable, "-c", _PROBE.format(stmt=stmt)],
                capture_output=True,
                text=True,
                check=False,
                env=env,
            )
            if res.returncode != 0:  # numpy absent: its row says so
                best = float("nan")
                break
            t, loaded = res.stdout.split()
            best, numpy = min(best, float(t)), loaded == "True"
        out[name] = {"seconds": best, "numpy_loaded": numpy}
    return out


ON_ONE_ID = re.compile(
    r"(^|\.)[A-Za-z_#]*\d{4,}(\.|$)"
)  # variants.1234567890.price, payment_methods.paypal_1234567


def retail_registry_size() -> dict | None:
    """Rules of tau-bench retail's registry as ``learn --env taubench`` builds it, and the same
    sources mined per id as before maps were recognised (no map detection, database domains capped
    as trace domains are). None without the data."""
    import dataclasses

    from outcome_monitor.thresholds import DEFAULT

    from harness.monitor.sources import world_registry

    plugin = get_plugin("taubench")
    if plugin.unavailable():
        return None
    env = plugin.make()
    rows = list(plugin.clean_traces(env))
    out = {}
    per_id = dataclasses.replace(DEFAULT, map_key_share=0.0, max_domain_records=DEFAULT.max_domain)
    for name, th in (("now", DEFAULT), ("per_id", per_id)):
        t0 = time.perf_counter()
        reg = world_registry(plugin, env, traces=rows, thresholds=th)
        out[name] = {
            "rules": reg.n_rules,
            "on_one_id": sum(
                1 for rs in reg.rules.values() for r in rs if any(ON_ONE_ID.search(f) for f in r.fields)
            ),
            "seconds": time.perf_counter() - t0,
        }
    return out


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--skip-audit", action="store_true")
    ap.add_argument(
        "--held-out-worlds",
        default="agentdojo,bfcl",
        help="comma list of worlds whose clean traces the check speed is also measured on: the generated "
        "checks were tuned on ToolMaze's results only (empty: none)",
    )
    args = ap.parse_args(argv)

    toolmaze = get_plugin("toolmaze")
    env = toolmaze.make(seed=args.seed)
    rows = list(toolmaze.clean_traces(env, mode="P0"))
    report: dict = {"clean_trace_rows": len(rows), "workflows": len({r["workflow_id"] for r in rows})}
    t_build, t_first, cf = timed(lambda: build_crossfit(rows, 5, args.seed), args.repeat)
    report["build"] = {
        "seconds_five_folds": t_build,
        "seconds_first_build": t_first,
        "accepted_rules_total": cf.n_rules,
        "rules_per_fold": [r.n_rules for r in cf.registries],
        "classes_fold0": cf.registries[0].counts_by_class(),
    }
    report["speed"] = check_speed(rows, args.repeat)
    report["speed_held_out"] = held_out_speed([w for w in args.held_out_worlds.split(",") if w], args.repeat)
    report["import"] = import_times()
    report["retail_registry"] = retail_registry_size()
    report["false_alarms_heldout"] = false_alarms(cf, rows)
    cf_schema = build_crossfit(rows, 5, args.seed, schema_only=True)
    report["schema_only"] = {
        "accepted_rules_total": cf_schema.n_rules,
        "false_alarms_heldout": false_alarms(cf_schema, rows)["rate"]["all"],
    }
    if not args.skip_audit:
        t0 = time.perf_counter()
        report["audit"] = detection_audit(cf, env, focus=C3C4)
        report["audit"]["seconds"] = time.perf_counter() - t0
        sch = detection_audit(cf_schema, env, focus=C3C4)
        report["schema_only"]["audit"] = {
            k: sch[k]
            for k in (
                "fault_outcomes",
                "flagged",
                "focus",
                "clean_fire_rate",
                "receipt_events",
                "events_with_2plus_recovery",
            )
        }
    if args.json:
        print(json.dumps(report, indent=1, default=str))
        return 0
    b, s, f = report["build"], report["speed"], report["false_alarms_heldout"]
    print(f"ToolMaze clean traces: {report['clean_trace_rows']} rows from {report['workflows']} workflows")
    print(
        f"build, five cross-fit registries, one process: {b['seconds_five_folds']:.2f} s (best of {args.repeat}; first "
        f"{b['seconds_first_build']:.2f} s; goal < 1 s: {_met(b['seconds_five_folds'] < 1.0)}); "
        f"accepted rules {b['accepted_rules_total']} = {b['rules_per_fold']}"
    )
    print(f"  rule classes (fold 0): {b['classes_fold0']}")
    print(
        f"check speed (one core, CPU seconds, {s['results']} results, the checkers in turn, best of {args.repeat} rounds): "
        f"monitor {s['monitor_checks_per_s']:,.0f}/s ({s['monitor_rules']} rules, 7 classes) vs genson+jsonschema "
        f"{s['jsonschema_checks_per_s']:,.0f}/s -> monitor {s['speedup_vs_jsonschema']:.1f}x (goals >= 50,000/s: "
        f"{_met(s['monitor_checks_per_s'] >= 50_000)}; >= 2x: {_met(s['speedup_vs_jsonschema'] >= 2)})"
    )
    print(
        f"  beside genson+fastjsonschema {s['fastjsonschema_checks_per_s']:,.0f}/s: monitor / fastjsonschema = "
        f"{s['ratio_vs_fastjsonschema']:.2f}x (goal >= 1.0x: {_met(s['ratio_vs_fastjsonschema'] >= 1.0)}; the monitor "
        f"checks 7 rule classes, fastjsonschema the inferred types); compiling (CPU): monitor "
        f"{1e3 * s['monitor_compile_seconds']:.0f} ms for {s['tools']} tools, fastjsonschema "
        f"{1e3 * s['fastjsonschema_compile_seconds']:.0f} ms"
    )
    print(
        f"  the wider vocabulary (learn's default; {s['monitor_wide_rules']} rules, text and shape rules too) on the same "
        f"results: {s['monitor_wide_checks_per_s']:,.0f}/s = "
        f"{s['monitor_wide_checks_per_s'] / s['fastjsonschema_checks_per_s']:.2f}x fastjsonschema (goal >= 1.0x: "
        f"{_met(s['monitor_wide_checks_per_s'] >= s['fastjsonschema_checks_per_s'])}); with its memos (string "
        f"verdicts, same_answer's calls met before) forgetting all at once (all-new values): {s['monitor_wide_unmemoized_checks_per_s']:,.0f}/s = "
        f"{s['monitor_wide_unmemoized_checks_per_s'] / s['fastjsonschema_checks_per_s']:.2f}x ({s['monitor_wide_memos']} "
        f"memos held {s['monitor_wide_memo_entries']:,} strings); without its {s['monitor_wide_same_answer_rules']} "
        f"same_answer rules (every call here replays a recorded one, which they judge): "
        f"{s['monitor_wide_no_same_answer_checks_per_s']:,.0f}/s = "
        f"{s['monitor_wide_no_same_answer_checks_per_s'] / s['fastjsonschema_checks_per_s']:.2f}x"
    )
    for name, h in report["speed_held_out"].items():
        if isinstance(h, str):
            print(f"  held out, {name}: not measured ({h})")
            continue
        fj = h["fastjsonschema_checks_per_s"]
        print(
            f"  held out from the speed work, {name} ({h['results']} results, {h['tools']} tools): monitor / "
            f"fastjsonschema {h['ratio_vs_fastjsonschema']:.2f}x (paper vocabulary), "
            f"{h['monitor_wide_checks_per_s'] / fj:.2f}x (wider), {h['monitor_wide_unmemoized_checks_per_s'] / fj:.2f}x "
            "(wider, every string new)"
        )
    imp = report["import"]
    print(
        "import, fresh interpreter with bytecode caches (best of 7): "
        + "; ".join(
            f"{name} {1e3 * v['seconds']:.1f} ms"
            + (" (loads numpy)" if v["numpy_loaded"] and "numpy" not in name else "")
            for name, v in imp.items()
        )
        + f" (goal import outcome_monitor < 50 ms: {_met(imp['import outcome_monitor']['seconds'] < 0.05)})"
    )
    rr = report["retail_registry"]
    if rr is None:
        print("tau-bench retail registry: data not found (make data-taubench or TAUBENCH_DATA)")
    else:
        print(
            f"tau-bench retail registry (learn --env taubench defaults): {rr['now']['rules']} rules, "
            f"{rr['now']['on_one_id']} on one id; mined per id (no map detection, database domains capped at 10 values, as before): "
            f"{rr['per_id']['rules']} rules, {rr['per_id']['on_one_id']} on one id"
        )
    print(
        "held-out false alarms on clean responses: "
        + ", ".join(
            f"{k} {100 * v:.2f}% ({f['fired'].get(k, 0)}/{f['responses'][k]})" for k, v in f["rate"].items()
        )
        + f" (goal <= 1%: {_met(f['rate']['all'] <= 0.01)})"
    )
    print(f"  by class: {f['fired_by_class']}")
    so = report["schema_only"]
    print(
        f"schema-only detector: {so['accepted_rules_total']} rules, held-out false alarms {100 * so['false_alarms_heldout']:.2f}%"
    )
    if "audit" in report:
        a = report["audit"]
        print(
            f"implicit-payload audit (oracle on P3/P4, task-disjoint registries): {a['fault_outcomes']} fault outcomes, "
            f"flagged {100 * a['flagged']:.1f}%, contract available {100 * a['contract_available']:.1f}%"
        )
        c = a["focus"]
        print(
            f"  C3/C4: {c['fault_outcomes']} outcomes, flagged {100 * c['flagged']:.1f}%, contract available "
            f"{100 * c['contract_available']:.1f}%; clean responses in the same runs fired {100 * a['clean_fire_rate']:.2f}% "
            f"of {a['clean_responses']}"
        )
        for g in ("contract_class", "fault_kind", "stratum:complexity"):
            print(
                f"  by {g}: "
                + "; ".join(f"{k} {100 * v['flagged']:.1f}% of {v['n']}" for k, v in a["by"][g].items())
            )
        print(
            f"  receipts: {a['receipt_events']}, with >= 2 admissible recovery actions {100 * a['events_with_2plus_recovery']:.1f}%"
        )
        sa = so["audit"]
        print(
            f"  schema-only: flagged {100 * sa['flagged']:.1f}% (C3/C4 {100 * sa['focus']['flagged']:.1f}%), receipts "
            f"{sa['receipt_events']}, with >= 2 recovery actions {100 * sa['events_with_2plus_recovery']:.1f}%"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
