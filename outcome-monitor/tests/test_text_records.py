"""Rows printed one field per line (``1. row`` / ``id: 67`` / a blank line), read as records with rules
of their own; a number with the word that counts it (``36.5 KB``) read as the number."""

from __future__ import annotations

import random

from outcome_monitor import learn
from outcome_monitor.text.records import consistent, read_records
from outcome_monitor.text.views import infer_view

STATUS = ("out", "returned", "overdue", "lost")


def _rows_text(r: random.Random, n: int) -> str:
    blocks = [
        f"{i + 1}. row\nid: {r.randint(70000, 79999)}\ntitle: The {r.choice(['Amber', 'Iron', 'Paper'])} Road\n"
        f"status: {r.choice(STATUS)}\nfine: {r.randint(0, 40)}.{r.randint(0, 9)}"
        for i in range(n)
    ]
    return "\n\n".join(blocks) + f"\n\nResult: {n} rows"


def test_blocks_of_key_value_lines_are_records_and_the_rest_stays_beside_them() -> None:
    got = read_records("1. row\nid: 7\nname: Ada\n\n2. row\nid: 9\nname: Bo\n\nResult: 2 rows", None)
    assert got == {
        "records": [{"id": "7", "name": "Ada"}, {"id": "9", "name": "Bo"}],
        "Result": "2 rows",
        "text": "",
    }
    assert read_records("Success: 1 rows affected", None) == {
        "records": [],
        "Success": "1 rows affected",
        "text": "",
    }
    assert read_records("No rows returned", None) == {"records": [], "text": "No rows returned"}
    # a block with a line that is no key: value line is text, not a record
    assert read_records("id: 7\nthis is prose\nname: Ada", None)["records"] == []
    assert not consistent([{"records": []}] * 5 + [{"records": [{"a": "1"}]}] * 3)
    assert consistent([{"records": [{"a": "1"}]}] * 3 + [{"records": []}] * 2)


def test_rows_printed_as_records_keep_types_signs_and_domains() -> None:
    r = random.Random("records")
    rows = []
    for i in range(60):
        if i % 6 == 0:
            rows.append(
                {
                    "tool": "sql",
                    "arguments": {"q": f"UPDATE {i}"},
                    "result": {"result": "Success: 1 rows affected"},
                }
            )
        else:
            rows.append(
                {
                    "tool": "sql",
                    "arguments": {"q": f"SELECT {i}"},
                    "result": {"result": _rows_text(r, r.randint(1, 6))},
                }
            )
    reg = learn(rows)
    assert reg.meta["views"]["sql"]["fields"]["result"]["parse"] == "records"
    clean = _rows_text(r, 3)
    assert reg.check("sql", {"q": "SELECT x"}, {"result": clean}) == []
    assert reg.check("sql", {"q": "UPDATE x"}, {"result": "Success: 1 rows affected"}) == []
    for faulted in (
        clean.replace("fine: ", "fine: -", 1),
        clean.replace("status: ", "status: archived #", 1),
    ):
        assert reg.check("sql", {"q": "SELECT x"}, {"result": faulted}), faulted


def test_a_number_with_its_unit_reads_as_the_number_where_it_counts() -> None:
    sizes = [f"{n} KB" for n in (3, 12, 36.5, 7, 81, 2, 19)]
    assert infer_view(sizes) == {"parse": "quantity"}
    # a few options with a unit choose, they do not count: no view (their domain speaks)
    assert infer_view(["4 hours", "6 hours", "10 hours", "20 hours"]) is None
    # words that name are no units
    assert (
        infer_view(
            [
                f"{n} {w}"
                for n, w in zip(range(1, 8), "red blue green gold grey pink teal".split(), strict=True)
            ]
        )
        is None
    )
