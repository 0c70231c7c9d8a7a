"""What a listing or a default says, not the recording (wide vocabulary): free text cut short for
display, each record's own values listed again, an argument's default left out, a word that reads
like a placeholder in English only. Each pairs the clean case that fired before with a fault the
rules still catch."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn
from outcome_monitor.checking.shapes import placeholder_kind


def _ids(reg: Any, tool: str, args: dict[str, Any], result: Any) -> list[str]:
    return [v.rule_id for v in Monitor(reg).annotate(tool, args, result).violations]


def _forms(reg: Any, tool: str) -> list[tuple[str, str]]:
    return [(r.cls, r.fields[0]) for r in reg.rules_for(tool)]


TEXTS = (
    "Add a dark theme to the dashbo...",
    "Fix rounding in invoices",
    "Ship the CSV importer",
    "Audit access to the admin pane...",
    "Set up nightly reports",
    "Speed up the search page",
)


def test_text_cut_short_for_display_is_no_category() -> None:
    rng = random.Random(5)
    board: list[dict[str, Any]] = []
    rows = []
    for i in range(30):
        if i % 2 == 0:  # the board grows; requests are asked again in the same words
            board.append({"id": f"req-{len(board) + 1}", "request": rng.choice(TEXTS), "state": "open"})
        rows.append({"tool": "list_requests", "arguments": {"page": i}, "result": {"rows": list(board)}})
    reg = learn(rows)
    assert ("domain", "request") not in _forms(reg, "list_requests")
    new = {"rows": [*board, {"id": "req-99", "request": "Retire the legacy export (rou...", "state": "open"}]}
    assert not _ids(reg, "list_requests", {"page": 40}, new)
    # a request's text gone null still breaks its type
    gone = {"rows": [*board[:-1], {**board[-1], "request": None}]}
    assert _ids(reg, "list_requests", {"page": 40}, gone)


def _windows(names: dict[str, str], states: dict[str, str]) -> list[dict[str, Any]]:
    ids, rng = sorted(names), random.Random(6)
    rows = []
    for call in range(40):  # windows of a list of six variables, each listed many times
        offset, size = rng.randrange(len(ids) - 1), rng.choice((2, 3))
        items = [{"id": k, "name": names[k], "state": states[k]} for k in ids[offset : offset + size]]
        rows.append({"tool": "list_vars", "arguments": {"call": call}, "result": {"items": items}})
    return rows


def test_each_records_own_value_listed_again_is_no_category() -> None:
    names = {
        f"v{i}": name
        for i, name in enumerate(("tmpBuffer", "oldIndex", "unusedFlag", "spare", "lastSeen", "draft"))
    }
    states = {k: ("open", "closed")[i % 2] for i, k in enumerate(sorted(names))}
    reg = learn(_windows(names, states))
    forms = _forms(reg, "list_vars")
    assert ("domain", "name") not in forms  # six variables, each its own name
    assert ("domain", "state") in forms  # two states the six share
    assert not _ids(
        reg,
        "list_vars",
        {"call": 99},
        {"items": [{"id": "v9", "name": "cache", "state": "open"}]},
    )
    assert _ids(
        reg,
        "list_vars",
        {"call": 99},
        {"items": [{"id": "v9", "name": "cache", "state": "lost"}]},
    )


def test_an_arguments_default_left_out_determines_nothing() -> None:
    formulas, names = (
        ("C2H6O", "H2O2", "C6H8O7", "NaCl", "C3H8"),
        ("ethanol", "caffeine", "urea", "glycine", "menthol"),
    )
    rows = []
    for f in formulas:
        rows.append(
            {
                "tool": "find",
                "arguments": {"query": f, "by": "formula"},
                "result": {"interpreted_as": "formula"},
            }
        )
        rows.append(
            {
                "tool": "find",
                "arguments": {"query": f + " ", "by": "auto"},
                "result": {"interpreted_as": "formula"},
            }
        )
        rows.append(
            {"tool": "find", "arguments": {"query": f.lower()}, "result": {"interpreted_as": "formula"}}
        )
    for n in names:
        rows.append(
            {"tool": "find", "arguments": {"query": n, "by": "name"}, "result": {"interpreted_as": "name"}}
        )
        rows.append({"tool": "find", "arguments": {"query": n.upper()}, "result": {"interpreted_as": "name"}})
    reg = learn(rows)
    assert not [r for r in reg.rules_for("find") if r.params.get("form") == "lookup"]
    # "auto" read a name this time: clean
    assert not _ids(reg, "find", {"query": "vanillin", "by": "auto"}, {"interpreted_as": "name"})
    # an interpretation no call ever gave still fires
    assert _ids(reg, "find", {"query": "vanillin", "by": "auto"}, {"interpreted_as": "smiles"})


def test_na_is_a_word_in_welsh_and_na_in_capitals_a_placeholder() -> None:
    assert placeholder_kind("na") is None
    assert placeholder_kind("NA") == "null"
    assert placeholder_kind("n/a") == "null"
    assert placeholder_kind("N/A") == "null"


CODES = {"LT01": 1, "LT05": 2, "LT09": 4, "CP01": 1, "AL01": 3}


def _violation(rng: random.Random, code: str) -> dict[str, Any]:
    line = rng.randrange(1, 60)
    return {
        "code": code,
        "line": line,
        "start_pos": rng.randrange(40, 400),
        "fixes": [{"edit": " ", "line": line}] * CODES[code],
    }


def test_a_key_repeated_within_one_list_names_no_record() -> None:
    rng = random.Random(7)
    rows = []
    for i in range(40):
        codes = rng.sample(sorted(CODES), 3)
        if i % 4 == 0:
            codes.append(codes[0])  # a rule broken twice in one file
        rows.append(
            {
                "tool": "lint",
                "arguments": {"path": f"m{i}.sql"},
                "result": {"violations": [_violation(rng, c) for c in codes]},
            }
        )
    reg = learn(rows)
    assert not [r for r in reg.rules_for("lint") if r.params.get("form") == "len_by_id"]
    again = {"violations": [{"code": "LT05", "line": 3, "start_pos": 9, "fixes": [{"edit": " ", "line": 3}]}]}
    assert not _ids(reg, "lint", {"path": "n.sql"}, again)
    assert _ids(reg, "lint", {"path": "n.sql"}, {"violations": [{**again["violations"][0], "fixes": None}]})


def test_lengths_nearly_all_one_say_nothing_of_the_entry() -> None:
    rng = random.Random(8)
    sheets = {"Sales": 1, "Items": 1, "Teams": 1, "People": 1, "Plan": 2}
    rows = []
    for i in range(20):
        sheet = (
            "Plan" if i == 7 else rng.choice(("Items", "People", "Sales", "Teams"))
        )  # Plan: one cell, two dependents
        cells = [f"C{i + k}" for k in range(sheets[sheet])]
        rows.append(
            {
                "tool": "trace",
                "arguments": {"sheet": sheet, "cell": f"B{i}"},
                "result": {"cells": {sheet: cells}},
            }
        )
    reg = learn(rows)
    assert not [r for r in reg.rules_for("trace") if r.params.get("form") == "len_by_key"]
    assert not _ids(reg, "trace", {"sheet": "Sales", "cell": "B40"}, {"cells": {"Sales": ["B41", "B42"]}})
    assert _ids(reg, "trace", {"sheet": "Sales", "cell": "B40"}, {"cells": "Error: sheet not found"})


def test_an_echo_into_a_list_needs_answers_that_held_something() -> None:
    rng = random.Random(9)
    rows = []
    for i in range(30):
        asked = rng.sample(sorted(CODES), 2) if i % 2 else None
        args: dict[str, Any] = {"sql": f"select {i}"} | ({"rules": asked} if asked else {})
        found = [] if asked else [_violation(rng, c) for c in rng.sample(sorted(CODES), 2)]
        rows.append({"tool": "lint_sql", "arguments": args, "result": {"violations": found}})
    reg = learn(rows)
    assert not [r for r in reg.rules_for("lint_sql") if r.params.get("form") in ("subset", "echo_set")]
    one = {"violations": [_violation(rng, "CP01")]}
    assert not _ids(reg, "lint_sql", {"sql": "select 99", "rules": ["CP01", "CP02"]}, one)
    assert _ids(
        reg, "lint_sql", {"sql": "select 99", "rules": ["CP01"]}, {"violations": "Error: parse failed"}
    )


def test_a_zero_in_a_sibling_tools_records_of_the_same_shape_passes() -> None:
    rng = random.Random(10)
    rows = []
    for i in range(40):
        found = [_violation(rng, c) for c in rng.sample(sorted(CODES), 2)]
        rows.append(
            {"tool": "lint_file", "arguments": {"path": f"m{i}.sql"}, "result": {"violations": found}}
        )
        left = [{**v, "start_pos": 0 if i % 5 == 0 else v["start_pos"]} for v in found[:1]]
        rows.append(
            {"tool": "fix_file", "arguments": {"path": f"m{i}.sql"}, "result": {"remaining_violations": left}}
        )
    reg = learn(rows)
    first = {"violations": [{**_violation(rng, "LT01"), "start_pos": 0}]}
    assert not _ids(reg, "lint_file", {"path": "n.sql"}, first)
    assert _ids(
        reg, "lint_file", {"path": "n.sql"}, {"violations": [{**first["violations"][0], "start_pos": -3}]}
    )
