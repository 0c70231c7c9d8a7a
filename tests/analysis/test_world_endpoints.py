"""analysis.endpoints: a world's own per-episode endpoints per arm with paired tests, and receipts on
perturbed vs clean results by rule, from records alone."""

from __future__ import annotations

import json

import pandas as pd

from analysis import endpoints


def _rec(
    pair: int, arm: str, model: str, success: bool, attack: bool | None, calls: list, receipts: list
) -> dict:
    return {
        "pair_id": f"p{pair}",
        "arm": arm,
        "model": model,
        "group_id": f"g{pair % 3}",
        "status": "completed",
        "success": success,
        "scripted": True,
        "outcome": {} if attack is None else {"attack_success": attack},
        "tool_calls": calls,
        "receipts": receipts,
    }


def _records() -> pd.DataFrame:
    ok = {"tool": "t", "status": "ok", "perturbed": False, "receipt": False}
    bad = {**ok, "perturbed": True}
    flagged = [{"call_index": 1, "tool": "t", "violated": ["r1", "r2"], "rule_class": "type"}]
    rows = []
    for i in range(6):
        # the monitor arm stops the attack in pairs 0 and 1, and its receipt fires on the injected result there
        rows.append(_rec(i, "baseline", "m", True, True, [ok, bad], []))
        rows.append(_rec(i, "monitor", "m", i != 5, i >= 2, [ok, bad], flagged if i < 2 else []))
    rows.append(
        _rec(9, "baseline", "m", True, None, [ok], [])
    )  # no attack_success: dropped from that endpoint
    rows.append(_rec(9, "monitor", "m", True, None, [ok], []))
    return pd.DataFrame(rows)


def test_each_endpoint_is_paired_per_arm_with_its_discordant_pairs():
    t = endpoints.endpoint_table(
        _records(), {"attack_success": "attack success"}, n_resamples=200, n_flips=500
    )
    f = t.frame.set_index("endpoint")
    a, s = f.loc["attack_success"], f.loc["success"]
    assert a["n"] == 6 and a["baseline_pct"] == 100.0 and round(a["monitor_pct"], 1) == 66.7
    assert a["baseline_only"] == 2 and a["monitor_only"] == 0 and a["delta_points"] < 0
    assert s["n"] == 7 and s["baseline_only"] == 1


def test_receipts_on_perturbed_and_clean_results_are_counted_by_rule():
    t = endpoints.perturbed_receipts(_records())
    rows = {(r.by, r.rule): r for r in t.frame.itertuples()}
    every = rows[("all", "every rule")]
    assert (every.perturbed_results, every.fired_on_perturbed) == (6, 2)
    assert (every.clean_results, every.fired_on_clean) == (7, 0)
    assert rows[("rule", "r2")].fired_on_perturbed == 2 and rows[("class", "type")].fired_on_clean == 0


def test_write_only_for_a_world_that_declares_endpoints(tmp_path):
    records = _records()
    assert endpoints.write(records, tmp_path, tmp_path, n_resamples=100, n_flips=200) == []
    (tmp_path / "world.json").write_text(json.dumps({"endpoints": {"attack_success": "attack success"}}))
    names = {p.name for p in endpoints.write(records, tmp_path, tmp_path, n_resamples=100, n_flips=200)}
    assert {"endpoints.csv", "endpoints.md", "figure_endpoints.png", "receipts_perturbed.md"} <= names
