"""Markdown tables inside text (wide vocabulary only): the cells of a table get the rules of fields,
and the text beside them keeps the text rules."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn
from outcome_monitor.text.mdtables import read_md

FAIL = object()
STATUSES = ("open", "done", "blocked")


def _report(rng: random.Random, i: int) -> str:
    rows = "\n".join(
        f"| T-{100 + j} | {rng.choice(STATUSES)} | {rng.randrange(1, 40)} |"
        for j in range(rng.randrange(2, 6))
    )
    return (
        f"# Sprint {i}\n\nProgress as of today, with every task listed below.\n\n"
        f"| id | status | hours |\n| --- | --- | ---: |\n{rows}\n\n|  |  |\n| --- | --- |\n"
        f"| owner | Ada Quinn |\n| budget | {rng.randrange(100, 900)} |\n"
    )


def _rows(n: int = 50) -> list[dict[str, Any]]:
    rng = random.Random(7)
    return [
        {"tool": "sprint_report", "arguments": {"sprint": i}, "result": _report(rng, i)} for i in range(n)
    ]


def _fired(reg: Any, text: str) -> bool:
    return Monitor(reg).annotate("sprint_report", {"sprint": 99}, text).fired


def test_read_md_reads_rows_and_pairs_and_fails_without_a_table() -> None:
    got = read_md(_report(random.Random(1), 1), FAIL)
    assert got["rows"][0]["status"] in STATUSES and set(got["rows"][0]) == {"id", "status", "hours"}
    assert got["fields"]["owner"] == "Ada Quinn" and got["text"].startswith("# Sprint")
    assert read_md("no table | here, just a bar", FAIL) is FAIL
    assert read_md(r"| a | b |" + "\n| --- | --- |\n" + r"| x \| y | 2 |", FAIL)["rows"] == [
        {"a": "x | y", "b": "2"}
    ]


def test_cells_get_field_rules_and_the_text_keeps_its_own() -> None:
    reg = learn(_rows())
    clean = _report(random.Random(99), 99)
    assert not _fired(reg, clean)
    assert _fired(reg, clean.replace("| done |", "| UNSPECIFIED |").replace("| open |", "| UNSPECIFIED |"))
    assert _fired(reg, clean.replace("| budget | ", "| budget | -"))
    assert _fired(reg, "<html><head><title>502 Bad Gateway</title></head><body>502</body></html>")
    # the paper's vocabulary reads no tables
    assert (
        not Monitor(learn(_rows(), vocabulary="paper"))
        .annotate("sprint_report", {"sprint": 99}, clean.replace("| budget | ", "| budget | -"))
        .fired
    )


def test_the_kept_text_is_not_read_for_tables_again() -> None:
    """Each table rule once: the text kept beside the rows is the same text, not a new place."""
    reg = learn(_rows())
    contexts = {r.context for r in reg.rules_for("sprint_report")} | {
        f for r in reg.rules_for("sprint_report") for f in r.fields
    }
    assert not any("text.rows" in c or "text.text" in c for c in contexts)
    assert any(r.context.endswith("rows[*]") for r in reg.rules_for("sprint_report"))
