from core.protocol import ToolCall, ToolResult
from harness.faults.propagation import summarise, track_episode, trackable, value_occurs


def _fault(corrupted, original, fault_class="stale_value"):
    return {
        "fault_class": fault_class,
        "kind": "string",
        "path": "$.price",
        "original": original,
        "corrupted": corrupted,
    }


def test_trackable_rules():
    assert trackable(_fault(171.5, 187.25))
    assert not trackable(_fault(0, 187.25))
    assert not trackable(_fault(1, 2, "empty_or_truncated_list"))
    assert not trackable(_fault("ab", "xy"))
    assert trackable(_fault("Lisbon", "Paris", "plausible_string"))


def test_value_occurs_numbers_and_text():
    assert value_occurs(171.5, {"amount": 171.5})
    assert value_occurs(171.5, {"note": "paid 171.50 USD"})
    assert not value_occurs(171.5, {"amount": 171.6})
    assert value_occurs("Lisbon", {"to": "Lisbon, PT"})
    assert not value_occurs("Lisbon", {"to": "Paris"})


def test_track_episode_arguments_and_answer():
    hist = [
        (
            ToolCall("quote", {"t": "A"}),
            ToolResult({"price": 171.5}, meta={"injected_fault": _fault(171.5, 187.25)}),
        ),
        (ToolCall("buy", {"price": 171.5, "qty": 2}), ToolResult({"confirmation_code": "CF-1"})),
        (ToolCall("finish", {"answer": "CF-1"}), ToolResult({"ok": True}, terminal=True)),
    ]
    row = track_episode(hist)
    assert row["trackable"] and row["to_arguments"] and not row["to_answer"] and row["propagated"]
    hist[1] = (ToolCall("buy", {"price": 187.25, "qty": 2}), ToolResult({"confirmation_code": "CF-1"}))
    row = track_episode(hist, final_answer="bought at 171.50")
    assert row["to_answer"] and not row["to_arguments"]
    row = track_episode(hist)
    assert row["trackable"] and not row["propagated"]


def test_summarise_counts_pass_among_propagated():
    rows = [
        {"trackable": True, "propagated": True, "success": True},
        {"trackable": True, "propagated": True, "success": False},
        {"trackable": True, "propagated": False, "success": True},
        {"trackable": False, "propagated": False, "success": True},
    ]
    s = summarise(rows)
    assert s["trackable"] == 3 and s["propagated"] == 2 and s["propagated_and_passed"] == 1
    assert s["propagated_pct"] == 100 * 2 / 3 and s["propagated_passed_pct"] == 50.0
