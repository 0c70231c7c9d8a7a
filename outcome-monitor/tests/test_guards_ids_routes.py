"""Guards of the wide vocabulary against coincidences a recording fits: no band and no arithmetic over
an identifier, no relation on a route that the same tool's other routes break, and a part of an
argument read back passes the shapes its clean values had."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn
from outcome_monitor.checking.values import quoted


def _fired(reg: Any, tool: str, args: dict[str, Any], result: Any) -> list[str]:
    return [v.rule_id for v in Monitor(reg).annotate(tool, args, result).violations]


def test_an_id_gets_no_band_where_a_measure_beside_it_does() -> None:
    rng = random.Random(5)
    rows = [
        {
            "tool": "order",
            "arguments": {"n": i},
            "result": {"order_id": 50000 + 7 * i, "weight": rng.randint(900, 990)},
        }
        for i in range(40)
    ]
    reg = learn(rows)
    assert not _fired(reg, "order", {"n": 1}, {"order_id": 61000, "weight": 910})  # a newer order
    assert _fired(reg, "order", {"n": 1}, {"order_id": 50007, "weight": 9.1})  # the weight's band


def test_no_arithmetic_relation_over_an_id() -> None:
    rows = [
        {
            "tool": "slot",
            "arguments": {"k": k},
            "result": {"slot_id": 1000 + 3 * k, "end": 500 + 3 * k, "k2": k},
        }
        for k in range(30)
    ]
    fired = _fired(learn(rows), "slot", {"k": 4}, {"slot_id": 2000, "end": 2000, "k2": 4})
    assert not [r for r in fired if "slot_id" in r and "affine" in r]
    assert [r for r in fired if "end" in r]  # the same fit on a field that is no id is kept


def _profile(i: int, route: str) -> dict[str, Any]:
    v = i % 12
    if route == "csv":  # on this route's files the two counts happened to agree
        return {
            "tool": "profile",
            "arguments": {"path": f"/data/a{i}.csv"},
            "result": {"count": v, "pct": v},
        }
    return {
        "tool": "profile",
        "arguments": {"path": f"/data/b{i}.json"},
        "result": {"count": v, "pct": v + 3},
    }


def test_a_relation_the_tools_other_route_breaks_is_not_kept_on_a_route() -> None:
    rows = [_profile(i, "csv") for i in range(30)] + [_profile(i, "json") for i in range(30)]
    reg = learn(rows)
    assert any("@" in t for t in reg.rules)  # the tool is routed by its path
    assert not _fired(reg, "profile", {"path": "/data/a7.csv"}, {"count": 3, "pct": 9})


def test_a_relation_of_one_route_alone_is_kept() -> None:
    rows = [_profile(i, "csv") for i in range(30)]
    assert _fired(learn(rows), "profile", {"path": "/data/a7.csv"}, {"count": 3, "pct": 9})


def _parsed(i: int) -> dict[str, Any]:
    url = f"https://api.example.net/items/{i}?page={i % 9}&size=2{i % 5}"
    return {"tool": "url_parse", "arguments": {"url": url}, "result": {"search": url.split("?", 1)[1]}}


def test_a_part_of_an_argument_read_back_passes_its_shape() -> None:
    reg = learn([_parsed(i) for i in range(40)])
    url = "https://api.example.net/items?q=desc&lang=desc"
    assert not _fired(reg, "url_parse", {"url": url}, {"search": "q=desc&lang=desc"})
    assert _fired(
        reg, "url_parse", {"url": "https://api.example.net/items/4?page=4&size=21"}, {"search": "N/A"}
    )


def test_a_prefix_of_an_argument_is_not_a_part_read_back() -> None:
    # a value cut short is a prefix of what it echoed
    assert not quoted("https://api.exa", {"url": "https://api.example.net/"})
    assert quoted("example.net", {"url": "https://api.example.net/"})
    assert not quoted("ne", {"url": "https://api.example.net/"})  # too short to be a value


def _entry(i: int, book: str, found: bool = True) -> dict[str, Any]:
    key = f"auth{1990 + i}topic"
    result = (
        {"Key": key, "Type": "book", "Fields": f"title: T{i}"} if found else {"message": f"no entry '{key}x'"}
    )
    return {"tool": "entry", "arguments": {"file": f"/refs/{book}.bib", "key": key}, "result": result}


def test_a_sibling_file_of_the_same_kind_breaks_a_routes_required_fields() -> None:
    rows = [_entry(i, book) for book in ("ml", "db", "os") for i in range(25)]
    rows += [_entry(i, "db", found=False) for i in range(3)]
    reg = learn(rows)
    assert any("@ /refs/ml.bib" in t for t in reg.rules)  # each file is a route of its own
    assert not _fired(reg, "entry", {"file": "/refs/ml.bib", "key": "x"}, {"message": "no entry 'x'"})


def test_a_mode_of_another_form_leaves_a_routes_required_fields() -> None:
    brief = [
        {"tool": "event", "arguments": {"id": i, "detail": "brief"}, "result": f"event {i}"}
        for i in range(25)
    ]
    full = [
        {"tool": "event", "arguments": {"id": i, "detail": "full"}, "result": {"id": i, "title": f"E{i}"}}
        for i in range(25)
    ]
    reg = learn(brief + full)
    assert _fired(reg, "event", {"id": 3, "detail": "full"}, {"id": 3})  # the full form's title


def test_a_sibling_file_of_the_same_kind_widens_a_routes_types() -> None:
    rows = [_entry(i, book) for book in ("ml", "db", "os") for i in range(25)]
    rows += [{**_entry(i, "db"), "result": f"no entry 'auth{i}x'"} for i in range(3)]
    reg = learn(rows)
    assert not _fired(reg, "entry", {"file": "/refs/ml.bib", "key": "x"}, "no entry 'x'")
    assert _fired(reg, "entry", {"file": "/refs/ml.bib", "key": "x"}, 404)  # the tool's own types hold


def _extracted(i: int) -> dict[str, Any]:
    doc = f'{{"id": "SHP-{i}", "tier": "gold", "qty": {i}}}'
    return {
        "tool": "extract",
        "arguments": {"text": doc, "pointer": "/tier"},
        "result": {"preview": f"gold{i}"},
    }


def test_a_placeholder_the_arguments_hold_is_read_back() -> None:
    reg = learn([_extracted(i) for i in range(40)])
    doc = '{"id": "SHP-1", "tier": null}'
    assert not _fired(reg, "extract", {"text": doc, "pointer": "/tier"}, {"preview": "null"})
    assert _fired(reg, "extract", {"text": '{"tier": 1}', "pointer": "/tier"}, {"preview": "null"})


def _share(i: int, route: str) -> dict[str, Any]:
    count, rows = 1 + i % 9, 50 if route == "csv" else 20  # a share of each file's row count
    path = f"/data/a{i}.csv" if route == "csv" else f"/data/b{i}.json"
    return {"tool": "top", "arguments": {"path": path}, "result": {"count": count, "pct": count * 100 / rows}}


def test_a_fit_on_one_route_that_its_tool_does_not_hold_is_not_kept() -> None:
    rows = [_share(i, "csv") for i in range(30)] + [_share(i, "json") for i in range(30)]
    reg = learn(rows)
    assert any("@" in t for t in reg.rules)
    assert not _fired(reg, "top", {"path": "/data/a3.csv", "max_rows": 20}, {"count": 3, "pct": 15.0})
    # on one route alone the fit is the tool's, and kept
    alone = learn([_share(i, "csv") for i in range(30)])
    assert _fired(alone, "top", {"path": "/data/a3.csv"}, {"count": 3, "pct": 15.0})


def _card(i: int, book: str, found: bool = True) -> dict[str, Any]:
    key = f"auth{1990 + i}topic"
    text = f"Key: {key}\nType: book\nYear: {1990 + i}" if found else f"no entry '{key}x'; keys: ['{key}']"
    return {
        "tool": "card",
        "arguments": {"file": f"/refs/{book}.bib", "key": key},
        "result": {"result": text},
    }


def test_routes_of_one_kind_read_their_text_alike() -> None:
    rows = [_card(i, book) for book in ("ml", "db", "os") for i in range(25)]
    rows += [_card(i, "db", found=False) for i in range(3)]
    reg = learn(rows)
    assert any("@ /refs/ml.bib" in t for t in reg.rules)
    assert not _fired(
        reg, "card", {"file": "/refs/ml.bib", "key": "x"}, {"result": "no entry 'x'; keys: ['y']"}
    )
    assert _fired(
        reg, "card", {"file": "/refs/ml.bib", "key": "x"}, {"result": "Key: x\nType: book"}
    )  # no Year


def test_a_fit_through_a_rounded_quantity_is_no_contract() -> None:
    rng = random.Random(3)
    sizes = [rng.randint(2000, 60000) for _ in range(30)]  # bytes, and in KB to a tenth
    rows = [
        {"tool": "info", "arguments": {"f": f"f{i}"}, "result": {"bytes": b, "kb": round(b / 1024, 1)}}
        for i, b in enumerate(sizes)
    ]
    # a larger file than any recorded: a factor fitted through two ends (not 1024) drifts past its tolerance
    assert not _fired(learn(rows), "info", {"f": "g"}, {"bytes": 2_000_000, "kb": 1953.1})


def test_a_ratio_of_two_files_row_counts_is_no_contract() -> None:
    nulls = [0, 0, 3, 5, 0, 8, 12, 0, 3, 5, 20, 0, 1, 2, 0, 7, 9, 0, 0, 4]
    rows = [
        {
            "tool": "cmp",
            "arguments": {"a": "x.csv", "b": "y.csv", "col": f"c{i}"},
            "result": {"pct_a": round(100 * k / 109, 2), "pct_b": round(100 * k / 110, 2)},
        }
        for i, k in enumerate(nulls)
    ]
    assert not _fired(
        learn(rows), "cmp", {"a": "u.csv", "b": "v.csv", "col": "c"}, {"pct_a": 10.0, "pct_b": 8.33}
    )


def test_a_units_factor_and_offset_are_kept() -> None:
    rows = [
        {"tool": "temp", "arguments": {"c": c}, "result": {"c": c, "f": round(1.8 * c + 32, 1)}}
        for c in range(-9, 30, 3)
    ]
    assert [r for r in _fired(learn(rows), "temp", {"c": 0}, {"c": 10, "f": 60.0}) if "affine" in r]


def test_a_fixed_gap_between_two_sums_is_no_contract() -> None:
    rows = []
    for i in range(20):
        done = [1 + (i * 7 + j) % 4 for j in range(2 + i % 5)]
        approved = [done[0] - 1, *done[1:]]  # one request of the table's first row never approved
        table = [{"done": d, "ok": a} for d, a in zip(done, approved, strict=True)]
        rows.append({"tool": "table", "arguments": {"q": i}, "result": {"rows": table}})
    fired = _fired(learn(rows), "table", {"q": 0}, {"rows": [{"done": 4, "ok": 1}, {"done": 2, "ok": 2}]})
    assert not [r for r in fired if "sum(" in r]


def _regex(i: int) -> dict[str, Any]:
    action = ("match", "test", "matchAll")[i % 3] if i < 42 else "matchAll"
    if action == "match":
        result: Any = {"matches": [f"T-{i}", f"T-{i + 1}"], "index": i}
    elif action == "test":
        result = {"match": i % 2 == 0}
    else:
        result = {"matches": []}  # the recording's matchAll calls matched nothing
    return {"tool": "regex", "arguments": {"pattern": f"p{i}", "action": action}, "result": result}


def test_a_mode_that_only_sent_an_empty_list_says_nothing_of_its_elements() -> None:
    reg = learn([_regex(i) for i in range(42)])
    assert reg.meta.get("routes", {}).get("regex", {}).get("mode")
    found = {"matches": [{"match": "T-1", "index": 3}]}
    assert not _fired(reg, "regex", {"pattern": "p", "action": "matchAll"}, found)
    assert _fired(reg, "regex", {"pattern": "p", "action": "match"}, found)  # the match mode's own route


def test_a_list_of_records_on_some_calls_and_values_on_others_types_its_elements_by_both() -> None:
    rows = [
        {
            "tool": "find",
            "arguments": {"q": f"q{i}"},
            "result": {"items": [f"T-{i}", f"T-{i + 2}"] if i % 2 else [{"match": f"T-{i}", "at": i}]},
        }
        for i in range(40)
    ]
    reg = learn(rows)
    assert not _fired(reg, "find", {"q": "z"}, {"items": ["T-7"]})
    assert not _fired(reg, "find", {"q": "z"}, {"items": [{"match": "T-7", "at": 7}]})


def test_a_mode_argument_sent_as_a_list_on_one_call_is_learned_past() -> None:
    rows = [
        {
            "tool": "event",
            "arguments": {"id": i, "detail": d},
            "result": f"event {i}" if d == "brief" else {"id": i, "title": f"E{i}"},
        }
        for i in range(30)
        for d in ("brief", "full")
    ]
    rows.append({"tool": "event", "arguments": {"id": 99, "detail": ["brief", "full"]}, "result": "event 99"})
    reg = learn(rows)  # no TypeError: a list is no mode of its own
    assert reg.meta.get("routes", {}).get("event", {}).get("mode")
