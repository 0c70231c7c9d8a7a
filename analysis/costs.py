"""What a run cost: USD per episode by arm, every model call priced by role (agent, simulated user,
reviewer), the cost an arm adds over the baseline on the same pairs, and who pays for what.
"""

from __future__ import annotations

import math

import pandas as pd

from analysis.load import (
    INFRA_STATUSES,
    World,
)
from analysis.table import (
    RUN_LABEL,
    Table,
    scripted_run,
    titled,
)
from analysis.view import PAPER_LABEL, View, resolve

# Who makes an episode's model calls, and the record fields that count and price each role's calls.
ROLES: dict[str, dict[str, str]] = {
    "agent": {"calls": "rounds", "prompt": "prompt_tokens", "completion": "completion_tokens", "usd": "cost_usd"},
    "user": {"calls": "user_calls", "prompt": "user_prompt_tokens", "completion": "user_completion_tokens",
             "usd": "user_cost_usd"},
    "reviewer": {"calls": "reviewer_calls", "prompt": "reviewer_prompt_tokens",
                 "completion": "reviewer_completion_tokens", "usd": "reviewer_cost_usd"},
}  # fmt: skip


def _role_column(records: pd.DataFrame, field_name: str) -> pd.Series:
    """A role's field as floats; 0 where records lack it (a frame from before the field existed)."""
    if field_name not in records.columns:
        return pd.Series(0.0, index=records.index)
    return records[field_name].fillna(0).astype(float)


def cost(records: pd.DataFrame, baseline: str = "baseline", world: World | View | None = None) -> Table:
    """Cost per episode by arm, every model call priced by role (agent, simulated user, reviewer; a column
    each), and the cost added over the baseline on the same pairs."""
    view = resolve(world, records)
    ok = records[~records["status"].isin(INFRA_STATUSES)].copy()
    for role, f in ROLES.items():
        ok[f"_{role}_usd"] = _role_column(ok, f["usd"])
        ok[f"_{role}_calls"] = _role_column(ok, f["calls"])
    ok["total_usd"] = sum(ok[f"_{role}_usd"] for role in ROLES)
    base = ok[ok["arm"] == baseline].drop_duplicates("pair_id", keep="last").set_index("pair_id")["total_usd"]
    rows = []
    for arm, g in ok.groupby("arm", sort=True):
        row = {"source": RUN_LABEL, "arm": arm, "episodes": len(g), "usd_per_episode": float(g["total_usd"].mean()),
               **{f"{role}_usd_per_episode": float(g[f"_{role}_usd"].mean()) for role in ROLES},
               **{f"{role}_calls_per_episode": float(g[f"_{role}_calls"].mean()) for role in ROLES}}  # fmt: skip
        t = g.drop_duplicates("pair_id", keep="last").set_index("pair_id")["total_usd"]
        common = t.index.intersection(base.index)
        if arm != baseline and len(common):
            added = float(t[common].mean() - base[common].mean())
            b = float(base[common].mean())
            row |= {"matched_pairs": len(common), "added_usd_per_episode": added,
                    "added_pct": 100.0 * added / b if b > 0 else math.nan}  # fmt: skip
        rows.append(row)
    pc = view.figures("cost")
    for arm, c in (pc or {}).items():
        rows.append({"source": PAPER_LABEL, "arm": arm, "added_usd_per_episode": c["added_usd_per_episode"],
                     "added_pct": c["added_pct"]})  # fmt: skip
    notes = [
        *view.header,
        "usd_per_episode: every model call of an episode priced, by role: agent (its loop's calls), user (the "
        "world's simulated user, where it has a model), reviewer (the reviewer arm's calls); calls: model calls "
        "answered per episode (agent: the loop's rounds)",
        f"added cost: mean over pairs that have both this arm and {baseline!r}; infra-error episodes excluded",
    ]
    if not pc:
        notes += view.no_figures("costs")
    return Table("cost", titled("Cost per episode by arm", scripted_run(records)), pd.DataFrame(rows), notes)


def cost_roles(records: pd.DataFrame, world: World | View | None = None) -> Table:
    """Per model, arm and role: calls, tokens and USD in all, and the role's share of the USD: who pays for what."""
    view = resolve(world, records)
    ok = records[~records["status"].isin(INFRA_STATUSES)]
    rows = []
    for (model, arm), g in ok.groupby(["model", "arm"], sort=True):
        usd = {role: float(_role_column(g, f["usd"]).sum()) for role, f in ROLES.items()}
        total = sum(usd.values())
        for role, f in ROLES.items():
            calls = float(_role_column(g, f["calls"]).sum())
            if not calls and not usd[role]:
                continue  # a role this arm never called (no simulated user, no reviewer)
            rows.append({"model": model, "arm": arm, "role": role, "episodes": len(g), "calls": calls,
                         "prompt_tokens": float(_role_column(g, f["prompt"]).sum()),
                         "completion_tokens": float(_role_column(g, f["completion"]).sum()),
                         "usd": usd[role], "cost_share_pct": 100.0 * usd[role] / total if total > 0 else math.nan})  # fmt: skip
    notes = [*view.header, "a row per role that made calls: agent, user (the world's simulated user), reviewer; "
             "cost_share_pct: the role's share of the (model, arm)'s USD; infra-error episodes excluded"]  # fmt: skip
    return Table(
        "cost_roles", titled("Model calls and cost by role", scripted_run(records)), pd.DataFrame(rows), notes
    )
