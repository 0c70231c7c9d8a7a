"""Fast checks of the validity study's counting, with a fake registry and hand-made clean rows."""

from dataclasses import dataclass

from core.protocol import ToolSpec
from harness.evaluations.validity import (
    CleanIndex,
    StudyOptions,
    below_target_lines,
    clean_fire_rate,
    compare_lines,
    diagnose_miss,
    incident_detection,
    run_validity,
)
from harness.faults.incidents import load_suite


@dataclass
class V:
    rule_id: str
    rule_class: str


class SignRegistry:
    """Flags a negative 'price'; knows contracts for the 'quote' tool only."""

    def rules_for(self, tool):
        return ["price>0"] if tool == "quote" else []

    def check(self, tool, arguments, result):
        if tool == "quote" and isinstance(result, dict) and isinstance(result.get("price"), (int, float)):
            return [V("price>0", "positive")] if result["price"] <= 0 else []
        return []


ROWS = [
    {
        "task_id": f"T{i}",
        "workflow_id": f"W{i}",
        "tool": "quote" if i % 2 else "other",
        "arguments": {"ticker": "AAPL"},
        "result": {"ticker": "AAPL", "price": 10.0 + i},
    }
    for i in range(8)
]
SPECS = {
    "quote": ToolSpec("quote", "", {}, category="read"),
    "other": ToolSpec("other", "", {}, category="read"),
}


def test_detection_counts_flags_and_coverage():
    suite = load_suite()
    opts = StudyOptions(env="toolmaze", per_fault=4, fault_ids=("united-2", "steam-1"))
    assignment = {r["workflow_id"]: 0 for r in ROWS}
    rep = incident_detection(suite, ROWS, SPECS, assignment, {0: SignRegistry()}, opts)
    by_id = {f["id"]: f for f in rep["faults"]}
    neg = by_id["united-2"]  # negative price: flagged exactly on the 'quote' rows
    assert neg["applied"] == 4 and neg["flagged"] == neg["applied_covered"]
    assert neg["violated_rule_classes"] == {"positive": neg["flagged"]}
    echo = by_id["steam-1"]  # another entity's record: the fake registry has no echo rule
    assert echo["applied"] == 4 and echo["flagged"] == 0 and not echo["detected"]
    s = rep["summary"]
    assert s["overall"]["applications"] == 8 and s["structured"]["faults"] == 2 and s["string"]["faults"] == 0
    assert s["covered"]["overall"]["applications"] == neg["applied_covered"] + echo["applied_covered"]


def test_clean_fire_rate_counts_only_studied_folds():
    rows = ROWS + [{**ROWS[1], "workflow_id": "WX", "result": {"price": -1.0}}]
    assignment = {r["workflow_id"]: 0 for r in ROWS} | {"WX": 1}
    assert clean_fire_rate(rows, assignment, {0: SignRegistry()}) == {
        "responses": 8,
        "fired": 0,
        "fire_rate_pct": 0.0,
        "tools_with_fires": 0,
    }
    rep = clean_fire_rate(rows, assignment, {0: SignRegistry(), 1: SignRegistry()})
    assert rep["responses"] == 9 and rep["fired"] == 1 and rep["tools_with_fires"] == 1


def test_misses_are_sorted_by_why():
    reg = SignRegistry()
    clean = {"ticker": "AAPL", "price": 10.0}
    same = diagnose_miss(reg, "quote", {}, clean, dict(clean), "$.price", set())
    assert same == "unchanged"
    assert (
        diagnose_miss(reg, "nothing", {}, clean, {**clean, "price": 11.0}, "$.price", set()) == "no_contract"
    )
    # no rule of the fake reads ticker: a probe of another type there passes too
    assert diagnose_miss(reg, "quote", {}, clean, {**clean, "ticker": "MSFT"}, "$.ticker", set()) == "no_rule"

    class TypeRegistry(SignRegistry):
        def check(self, tool, arguments, result):
            bad = not isinstance(result.get("price"), (int, float))
            return [V("price:type", "type")] if bad else super().check(tool, arguments, result)

    assert (
        diagnose_miss(TypeRegistry(), "quote", {}, clean, {**clean, "price": 20.0}, "$.price", set())
        == "passes"
    )


def test_detection_keeps_why_each_miss_was_missed():
    opts = StudyOptions(env="toolmaze", per_fault=4, fault_ids=("steam-1",), examples=2)
    assignment = {r["workflow_id"]: 0 for r in ROWS}
    rep = incident_detection(load_suite(), ROWS, SPECS, assignment, {0: SignRegistry()}, opts)
    echo = rep["faults"][0]
    assert sum(echo["missed_by_reason"].values()) == echo["applied"] - echo["flagged"] == 4
    assert len(echo["missed_examples"]) == 2 and {"tool", "path", "reason"} <= set(echo["missed_examples"][0])


def test_side_by_side_report_names_the_types_below_target():
    opts = StudyOptions(env="toolmaze", per_fault=4, fault_ids=("united-2", "steam-1"))
    assignment = {r["workflow_id"]: 0 for r in ROWS}
    det = incident_detection(load_suite(), ROWS, SPECS, assignment, {0: SignRegistry()}, opts)
    clean = clean_fire_rate(ROWS, assignment, {0: SignRegistry()})
    by = {
        "paper": {"incident_detection": det, "clean": clean},
        "wide": {"incident_detection": det, "clean": clean},
    }
    text = "\n".join(compare_lines(by))
    assert "paper vocabulary" in text and "wide vocabulary" in text and "clean fire" in text
    below = "\n".join(below_target_lines(det))
    echo = next(f for f in det["faults"] if f["id"] == "steam-1")
    assert echo["type"] in below and "steam-1" in below


def test_an_unknown_vocabulary_is_one_clear_error():
    import pytest

    with pytest.raises(ValueError, match="unknown vocabulary"):
        run_validity(StudyOptions(env="toolmaze", vocabularies=("broad",)))


def test_a_fault_that_leaves_what_clean_results_hold_is_named_as_such():
    rows = [
        {"tool": "ls", "result": {"files": ["a", "b"], "owner": "me"}},
        {"tool": "ls", "result": {"files": []}},  # an empty folder and no owner: both legitimate
    ]
    index = CleanIndex(rows)
    clean = rows[0]["result"]
    assert index.looks_clean("ls", {"files": [], "owner": "me"}, "$.files")  # a list that short is clean
    assert index.looks_clean("ls", {"files": ["a", "b"]}, "$.owner")  # the field is absent in a clean one
    assert not index.looks_clean("ls", {"files": ["a", "b"], "owner": -1}, "$.owner")
    # a copied element holds a clean value, but its list is now a length no clean list had
    assert not index.looks_clean("ls", {"files": ["a", "a", "b"], "owner": "me"}, "$.files[1]")
    assert index.looks_clean("ls", {"files": ["a", "a"], "owner": "me"}, "$.files[1]")
    reg = SignRegistry()
    faulted = {"files": [], "owner": "me"}
    assert diagnose_miss(reg, "ls", {}, clean, faulted, "$.files", set(), index) == "looks_clean"
    assert diagnose_miss(reg, "ls", {}, clean, faulted, "$.files", set()) == "no_contract"
