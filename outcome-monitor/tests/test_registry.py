"""Registry storage and explanation."""

from __future__ import annotations

import json

import fixtures as syn
import pytest
from outcome_monitor import Registry, learn
from outcome_monitor.registry import FORMAT_VERSION

REG = learn(syn.traces(n_workflows=30, calls_per_workflow=6))


def test_json_round_trip_keeps_rules_and_checks(tmp_path):
    REG.save(tmp_path / "r.json")
    obj = json.loads((tmp_path / "r.json").read_text())
    assert obj["format_version"] == FORMAT_VERSION and obj["n_rules"] == REG.n_rules
    back = Registry.load(tmp_path / "r.json")
    assert back.to_json()["tools"] == REG.to_json()["tools"]
    bad = {"ticker": "T001", "price": -1.0, "currency": "USD", "as_of": "2025-01-01", "volume": 10}
    assert [v.rule_id for v in back.check("get_quote", {"ticker": "T001"}, bad)] == [
        v.rule_id for v in REG.check("get_quote", {"ticker": "T001"}, bad)
    ]


def test_unknown_format_version_is_refused():
    with pytest.raises(ValueError):
        Registry.from_json({**REG.to_json(), "format_version": FORMAT_VERSION + 1})


def test_unknown_tools_have_no_rules():
    assert REG.check("nope", {}, {"x": 1}) == []
    assert "nope" not in REG.tools() and REG.n_rules == sum(REG.counts_by_class().values())


def test_explain_lists_every_rule_in_words():
    lines = REG.explain("get_quote")
    assert lines[0].startswith("get_quote (") and len(lines) == 1 + len(REG.rules_for("get_quote"))
    assert any("price must be positive" in line for line in lines)
