"""Fast checks of the validity study's counting, with a fake registry and hand-made clean rows."""

from dataclasses import dataclass

from core.protocol import ToolSpec
from harness.evaluations.validity import StudyOptions, clean_fire_rate, incident_detection
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
