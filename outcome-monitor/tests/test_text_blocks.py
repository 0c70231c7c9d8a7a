"""Several content blocks read into structure (the wide vocabulary's views): a flat list of cells
read as rows, and one block alone read as a list of one where a place holds one or more matches."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn
from outcome_monitor.text.views import FAIL, apply_view, flat_table, header_rows, infer_root_view

_NAMES = ["Classic Monitor", "Eco Camera", "Compact Drill", "Red Fan", "Ultra Tent", "Mini Speaker"]


def _cells(rng: random.Random, rows: int, header: bool) -> list[Any]:
    out: list[Any] = ["id", "name", "qty", "price"] if header else []
    for i in range(rows):
        out += [i + 1, rng.choice(_NAMES), rng.randint(1, 300), round(rng.uniform(5, 250), 2)]
    return out


def test_a_flat_list_of_cells_reads_as_rows():
    rng = random.Random(0)
    named = flat_table(_cells(rng, 5, header=True))
    assert named is not FAIL and len(named) == 5 and set(named[0]) == {"id", "name", "qty", "price"}
    by_position = flat_table(_cells(rng, 5, header=False))
    assert by_position is not FAIL and set(by_position[0]) == {"pos0", "pos1", "pos2", "pos3"}
    cells = _cells(rng, 9, header=False)
    assert flat_table(cells[:-1]) is FAIL  # a cell dropped: no width fits
    assert flat_table([str(c) if i == 6 else c for i, c in enumerate(cells)]) is FAIL  # "qty" as text
    assert flat_table(["a", "b", "c", "d"]) is FAIL  # text alone says no width


def _sheet_calls(seed: int, n: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [
        {"tool": "read_range", "arguments": {"range": f"A2:D{k + 1}"}, "result": _cells(rng, k, header=False)}
        for k in (rng.randint(2, 9) for _ in range(n))
    ]


def test_cells_of_a_table_keep_their_column_rules():
    reg = learn(_sheet_calls(0, 60))
    assert reg.meta["views"]["read_range"].get("table")
    assert not any(
        Monitor(reg).annotate(c["tool"], c["arguments"], c["result"]).fired for c in _sheet_calls(1, 40)
    )
    call = _sheet_calls(2, 1)[0]
    cells = call["result"]
    for faulted in (
        [str(c) if i == 2 else c for i, c in enumerate(cells)],  # a count become text
        ["N/A" if i == 2 else c for i, c in enumerate(cells)],  # a placeholder
        cells[:1] + cells[2:],  # a cell dropped
    ):
        assert Monitor(reg).annotate(call["tool"], call["arguments"], faulted).fired


def _match(rng: random.Random) -> dict[str, Any]:
    return {"cell": f"C{rng.randint(2, 40)}", "value": rng.choice(_NAMES)}


def test_one_block_alone_reads_as_a_list_of_one_and_no_match_stays_clean():
    rng = random.Random(0)
    results: list[Any] = [[_match(rng) for _ in range(rng.randint(2, 4))] for _ in range(10)]
    results += [_match(rng) for _ in range(5)]
    view = infer_root_view(results)  # no empty list recorded: still one match or many
    assert view is not None and view.get("many") and infer_root_view([*results, []]) == view
    # the matches' own rules speak; a search that found nothing is as clean though none was recorded
    reg = learn([{"tool": "search", "arguments": {"q": f"q{i}"}, "result": r} for i, r in enumerate(results)])
    assert reg.check("search", {"q": "none"}, []) == []
    assert reg.check("search", {"q": "one"}, {**results[-1], "value": None})
    lone = apply_view(view, results[-1])
    assert type(lone) is dict and [results[-1]] in lone.values()
    # a lone value of another shape is not read as a match
    assert not (infer_root_view([*results, [], "text"]) or {}).get("many")


def test_rows_under_a_header_row_read_as_objects():
    rng = random.Random(3)

    def sheet(rows: int) -> list[list[Any]]:
        cells = _cells(rng, rows, header=True)
        return [cells[i : i + 4] for i in range(0, len(cells), 4)]

    assert header_rows(sheet(3))[0].keys() == {"id", "name", "qty", "price"}
    assert header_rows([["id", "id"], [1, 2]]) is FAIL  # a header names each column once
    assert header_rows([[1, 2], [3, 4]]) is FAIL
    calls = [
        {"tool": "read_sheet", "arguments": {"n": k}, "result": {"result": sheet(k)}} for k in range(2, 40)
    ]
    reg = learn(calls[::2])
    assert reg.meta["views"]["read_sheet"]["fields"]["result"].get("header")
    assert not any(Monitor(reg).annotate(c["tool"], c["arguments"], c["result"]).fired for c in calls[1::2])
    table = sheet(5)
    table[2] = [*table[2][:2], str(table[2][2]), table[2][3]]  # a count become text
    assert Monitor(reg).annotate("read_sheet", {"n": 99}, {"result": table}).fired
    table = sheet(5)
    table[3] = table[3][:3]  # a cell dropped: the row no longer as wide as its header
    assert Monitor(reg).annotate("read_sheet", {"n": 99}, {"result": table}).fired


def test_text_cells_alone_split_where_columns_keep_their_look():
    cells = ["team", "lead", "ops", "Grace", "sales", "Hugo", "dev", "Keiko"]
    assert flat_table(cells) == [
        {"team": "ops", "lead": "Grace"},
        {"team": "sales", "lead": "Hugo"},
        {"team": "dev", "lead": "Keiko"},
    ]
    assert flat_table(["team", "lead", "ops", "Grace", "Hugo", "sales", "dev", "Keiko"]) is FAIL
    # rows of numbers alone under a header stay lists (a collection, not records)
    assert header_rows([["a", "b"], [1, 2]]) != FAIL
    rows = [
        {"tool": "t", "arguments": {"i": i}, "result": [["a", "b"], [i, i + 1], [i + 2, i + 3]]}
        for i in range(20)
    ]
    assert not (learn(rows).meta.get("views") or {}).get("t", {}).get("header")


def test_registries_with_every_reading_validate_against_the_schema():
    import sys
    from pathlib import Path

    import pytest
    from outcome_monitor.registry_format import schema

    jsonschema = pytest.importorskip("jsonschema")
    sys.path.insert(0, str(Path(__file__).parent))
    import test_text_rows as rows_tests

    rng = random.Random(9)
    matches: list[Any] = [[_match(rng) for _ in range(rng.randint(2, 4))] for _ in range(10)]
    matches += [_match(rng) for _ in range(5)] + [[]]
    recording = [
        *_sheet_calls(0, 30),
        *rows_tests._recording(0),
        *({"tool": "search", "arguments": {"i": i}, "result": m} for i, m in enumerate(matches)),
    ]
    reg = learn(recording)
    views = reg.meta["views"]
    assert views["read_range"].get("table") and views["query"].get("columns") and views["search"].get("many")
    jsonschema.Draft202012Validator(schema()).validate(reg.to_json())
