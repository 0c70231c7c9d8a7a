"""Mining, as properties over many draws (needs hypothesis; skipped without it): learned rules never
fire on their own data, and values drawn from a learned domain or sign never fire it."""

from __future__ import annotations

import copy

import pytest

pytest.importorskip("hypothesis", reason="the property tests need hypothesis")

import fixtures as syn  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from outcome_monitor import learn  # noqa: E402

TRACES = syn.traces(n_workflows=45, calls_per_workflow=6, seed=0)
REG = learn(TRACES)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(8, 30))
def test_property_rules_never_fire_on_their_own_data(seed, n):
    train = syn.traces(n_workflows=n, calls_per_workflow=4, seed=seed)
    reg = learn(train)
    assert not [v for t in train for v in reg.check(t["tool"], t["arguments"], t["result"])]


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_property_records_drawn_from_the_learned_domain_do_not_fire(data):
    row = data.draw(st.sampled_from(TRACES))
    result = copy.deepcopy(row["result"])
    drawn = set()
    for r in REG.rules_for(row["tool"]):
        if r.context != "$":
            continue
        if r.cls == "domain":
            result[r.fields[0]] = data.draw(st.sampled_from(r.params["values"]))
            drawn.add(r.rule_id)
        elif r.cls == "positive" and not r.fields[0].startswith("len("):
            lo = 1e-3 if r.params["strict"] else 0.0
            value = data.draw(st.floats(lo, 1e6, allow_nan=False))
            result[r.fields[0]] = int(value) + 1 if isinstance(result[r.fields[0]], int) else value
            drawn.add(r.rule_id)
    fired = {v.rule_id for v in REG.check(row["tool"], row["arguments"], result)}
    assert drawn and not (fired & drawn)
