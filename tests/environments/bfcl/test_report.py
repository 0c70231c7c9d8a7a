"""The failures report tells a dropped argument from a tool's error from a silent failure (no wheel needed)."""

from __future__ import annotations

import json

from environments.bfcl.report import classify, failures, render


def _transcript(*results: str, fault_at: int = 0) -> dict:
    messages = [{"role": "tool", "content": r} for r in results]
    metas = [{"injected_fault": {"path": "$.x"}} if i == fault_at else {} for i in range(len(results))]
    return {"messages": messages, "results_meta": metas}


def test_kinds_of_failure_from_the_first_faulted_result_on():
    dropped = "Error during execution: place_order() missing 1 required positional argument: 'price'"
    assert classify(_transcript('{"price": 1}', dropped)) == "dropped"
    assert classify(_transcript('{"price": 1}', '{"error": "Invalid stock symbol: "}')) == "tool error"
    assert classify(_transcript('{"price": 1}', '{"order_id": 7}')) == "silent"
    # an error before the fault is not the fault's doing
    assert classify(_transcript('{"error": "no"}', '{"p": 1}', '{"ok": 1}', fault_at=1)) == "silent"


def test_the_table_counts_failed_episodes_per_arm_and_player(tmp_path):
    (tmp_path / "t").mkdir()
    rows = []
    for i, (arm, ok) in enumerate([("baseline", False), ("baseline", True), ("monitor", False)]):
        t = _transcript('{"a": 1}', '{"b": 2}')
        t["messages"].append({"role": "assistant", "content": "I stop here: no value I trust"})
        (tmp_path / "t" / f"{i}.json").write_text(json.dumps(t))
        rows.append(
            {
                "arm": arm,
                "model": "scripted-x",
                "success": ok,
                "status": "completed" if ok else "agent_failed",
                "transcript": f"t/{i}.json",
            }
        )
    (tmp_path / "episodes.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
    table = failures(tmp_path)
    assert table["baseline"]["scripted-x"]["failed"] == 1 and table["monitor"]["scripted-x"]["stopped"] == 1
    assert "| baseline | scripted-x | 1 | 0 | 0 | 1 | 1 |" in render(table)
