"""What receipts did: the agent's next action after each receipt, the admissible recovery actions a
receipt offered, and how often receipts fire (on clean episodes: false triggers), beside the paper's
figures where the world has them.
"""

from __future__ import annotations

import math

import pandas as pd

from analysis import paper
from analysis.load import (
    INFRA_STATUSES,
    World,
)
from analysis.table import (
    NEXT_ACTIONS,
    RUN_LABEL,
    Table,
    scripted_run,
    titled,
)
from analysis.view import PAPER_LABEL, View, resolve


def _receipts(records: pd.DataFrame) -> pd.DataFrame:
    ok = records[~records["status"].isin(INFRA_STATUSES)]
    rows = [
        {"arm": arm, "model": model, **r}
        for arm, model, rec in zip(ok["arm"], ok["model"], ok["receipts"], strict=True)
        for r in rec
        if isinstance(r, dict)
    ]
    return pd.DataFrame(rows, columns=["arm", "model", "call_index", "tool", "violated", "rule_class",
                                       "recovery_tools", "n_admissible", "next_action"])  # fmt: skip


def post_receipt_actions(records: pd.DataFrame, world: World | View | None = None) -> Table:
    """What the agent did next after each receipt, per arm, beside the paper's shares."""
    view = resolve(world, records)
    rec = _receipts(records)
    rows = []
    for arm, g in rec.groupby("arm", sort=True):
        counts = g["next_action"].value_counts()
        n = len(g)
        row = {"source": RUN_LABEL, "arm": arm, "receipt_events": n}
        row |= {f"{a}_pct": 100.0 * counts.get(a, 0) / n for a in NEXT_ACTIONS}
        row |= {a: int(counts.get(a, 0)) for a in NEXT_ACTIONS}
        rows.append(row)
    pp = view.figures("post_receipt_actions")
    notes = [*view.header,
             "infra-error episodes excluded; other next_action values are counted in receipt_events only"]  # fmt: skip
    if pp:
        rows.append({"source": PAPER_LABEL, "arm": "monitor", "receipt_events": pp["receipt_events"]}
                    | {f"{a}_pct": pp["pct"][a] for a in NEXT_ACTIONS})  # fmt: skip
    else:
        notes += view.no_figures("post-receipt actions")
    return Table(
        "post_receipt_actions",
        titled("Post-receipt actions", scripted_run(records)),
        pd.DataFrame(rows),
        notes,
    )


def admissible(records: pd.DataFrame, world: World | View | None = None) -> Table:
    """Admissible recovery actions per receipt event, per arm."""
    view = resolve(world, records)
    rec = _receipts(records)
    rows = []
    for arm, g in rec.groupby("arm", sort=True):
        k = pd.to_numeric(g["n_admissible"], errors="coerce").dropna()
        rows.append({"source": RUN_LABEL, "arm": arm, "receipt_events": len(g), "mean_admissible": float(k.mean()),
                     "median_admissible": float(k.median()), "events_with_at_least_two": int((k >= 2).sum()),
                     "pct_with_at_least_two": 100.0 * float((k >= 2).sum()) / len(g)})  # fmt: skip
    pa = view.figures("admissible")
    notes = list(view.header)
    if pa:
        rows.append({"source": PAPER_LABEL, "arm": "monitor", "receipt_events": pa["receipt_events"],
                     "events_with_at_least_two": pa["events_with_at_least_two"],
                     "pct_with_at_least_two": pa["pct_with_at_least_two"]})  # fmt: skip
    else:
        notes += view.no_figures("admissible recovery actions")
    return Table("admissible", titled("Admissible recovery actions per receipt event", scripted_run(records)),
                 pd.DataFrame(rows), notes)  # fmt: skip


def fire_rates(records: pd.DataFrame, world: World | View | None = None) -> Table:
    """How often receipts fire, per arm and fault class (fault class ``none`` = clean: false triggers),
    beside the paper's rates (a note) or its counts for the fault classes this run holds (rows below)."""
    view = resolve(world, records)
    ok = records[~records["status"].isin(INFRA_STATUSES)].copy()
    ok["fault_class"] = ok["fault_class"].fillna("none").astype(str)
    rows = []
    for (arm, fc), g in ok.groupby(["arm", "fault_class"], sort=True):
        calls = int(g["n_tool_calls"].sum())
        rows.append({"arm": arm, "fault_class": fc, "episodes": len(g),
                     "episodes_with_receipt": int((g["n_receipts"] > 0).sum()),
                     "episode_fire_pct": 100.0 * float((g["n_receipts"] > 0).mean()),
                     "receipts": int(g["n_receipts"].sum()), "tool_calls": calls,
                     "receipts_per_call_pct": 100.0 * g["n_receipts"].sum() / calls if calls else math.nan})  # fmt: skip
    frame = pd.DataFrame(rows)
    pf = view.figures("fire_rates")
    notes, paper_frame = list(view.header), None
    if pf and "implicit_faults_flagged_pct" in pf:  # rates per observed tool outcome, said in a note
        notes.append(f"{PAPER_LABEL}: implicit faults flagged {pf['implicit_faults_flagged_pct']}% and clean false "
                     f"positives {pf['clean_false_positive_pct']}% per observed tool outcome; organic fire rate "
                     f"{pf['organic_fire_rate_pct']}%")  # fmt: skip
    held = set(frame["fault_class"]) if len(frame) else set()
    counted = list((pf or {}).get("rows", ()))
    shown = [r for r in counted if r["fault_class"] in held]
    if shown:  # counts of the same kind of episodes (clean ones: spurious receipts), beside the run's
        paper_frame = pd.DataFrame(shown)
        notes.append(f"{PAPER_LABEL}: {pf['text']}; beside this run's rows of fault class "
                     f"{', '.join(sorted({r['fault_class'] for r in shown}))} (receipts there are spurious)")  # fmt: skip
    elif counted:  # the paper's counts are of episodes this run does not hold: said, not set beside
        classes = ", ".join(sorted({str(r["fault_class"]) for r in counted}))
        notes.append(f"{PAPER_LABEL}: {pf['text']} (fault class {classes}); this run holds no episodes of that "
                     "class, so no row stands beside it")  # fmt: skip
    if not pf:
        notes += view.no_figures("receipt fire rates")
    return Table("fire_rates", titled("Receipt fire rates", scripted_run(records)), frame, notes, paper_frame,
                 (paper.section(view.paper) or {}).get("title", ""))  # fmt: skip
