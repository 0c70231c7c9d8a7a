"""End to end on ToolMaze: cross-fit registries from the clean traces are the pinned ones, stay
under the 1% false-alarm budget on held-out workflows, and flag implicit payloads of every
contract class."""

from __future__ import annotations

import pytest

import environments.toolmaze.env as toolmaze


@pytest.fixture(scope="module")
def setup():
    from environments.toolmaze.__main__ import traces
    from harness.monitor.crossfit import build_crossfit

    env = toolmaze.ToolMazeEnv(seed=0)
    rows = list(traces(env, "P0"))
    return env, rows, build_crossfit(rows, 5, 0)


# sha256 of the canonical JSON of the five seed-0 registries. A speed-up must leave it unchanged;
# a deliberate change to mining updates it and says why in its commit. 2026-12-04 (maps keyed by ids):
# only meta.thresholds changed (three new fields); RULES_SEED0, the same without the thresholds,
# is the one of before: ToolMaze's results hold no map keyed by ids, so its rules are byte-identical.
GOLDEN_CROSSFIT_SEED0 = "4c3c2966ff8019e1f197c45a0b15630ff010743be287236ba01f17b3bc4b7a8f"
RULES_SEED0 = "f4e4ff321126e25db7106b05242575956e0f835a90bcf58157773e0b250fddd9"


def test_crossfit_registries_are_the_pinned_ones(setup):
    from core.seeding import sha256_hex

    _, _, cf = setup
    assert [r.n_rules for r in cf.registries] == [7887, 7754, 7841, 7727, 7785]
    assert sha256_hex(cf.to_json()) == GOLDEN_CROSSFIT_SEED0
    rules = cf.to_json()
    for r in rules["registries"]:
        r["meta"].pop("thresholds")
    assert sha256_hex(rules) == RULES_SEED0


@pytest.mark.slow
def test_heldout_false_alarms_stay_within_budget(setup):
    from harness.evaluations.payload_audit import false_alarms

    _, rows, cf = setup
    fa = false_alarms(cf, rows)
    assert fa["responses"]["all"] == sum(1 for r in rows if r["status"] != "error")
    assert fa["rate"]["all"] <= 0.01  # the budget: at most 1% of clean responses


@pytest.mark.slow
def test_implicit_payloads_are_flagged_in_every_contract_class(setup):
    from harness.evaluations.payload_audit import detection_audit

    env, _, cf = setup
    audit = detection_audit(cf, env, where={"mode": ["P4"], "complexity": ["C3"]})
    assert audit["fault_outcomes"] > 0
    for cls, row in audit["by"]["contract_class"].items():
        assert row["flagged"] > 0, cls
    # a flagged payload is better than chance at the clean fire rate of the same runs
    assert audit["flagged"] > audit["clean_fire_rate"]
    assert audit["receipt_events"] > 0 and 0 < audit["events_with_2plus_recovery"] <= 1
