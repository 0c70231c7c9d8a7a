"""Support that a recording only seems to give (wide vocabulary): one call's many elements, a field
name several tools use for other types, an argument named only inside another one, a band read as
an equation, messages worded alike, a sign lent where the object's other numbers change sign, the
caller's own words, a list that deletes shorten. Each pairs the clean case that fired before with
a fault the rules still catch."""

from __future__ import annotations

import random
from typing import Any

from outcome_monitor import Monitor, learn


def _ids(reg: Any, tool: str, args: dict[str, Any], result: Any) -> list[str]:
    return [v.rule_id for v in Monitor(reg).annotate(tool, args, result).violations]


def _node(depth: int, text: bool) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "block", "children": []}
    if depth == 0 or text:
        node["text"] = "x = 1"
    if depth > 0:
        node["children"] = [_node(depth - 1, text) for _ in range(2)]
    return node


def test_one_calls_many_elements_are_one_observation() -> None:
    # the deepest level was met in one call only: 8 nodes there, all with text
    rows = [
        {"tool": "ast", "arguments": {"path": f"f{i}.py", "depth": 1}, "result": {"tree": _node(1, False)}}
        for i in range(20)
    ] + [{"tool": "ast", "arguments": {"path": "g.py", "depth": 3}, "result": {"tree": _node(3, True)}}]
    reg = learn(rows)
    deep = _node(4, False)  # its third level is no leaf: no text there
    deepest = "children[*].children[*].children[*]"
    assert not [r for r in _ids(reg, "ast", {"path": "h.py", "depth": 3}, {"tree": deep}) if deepest in r]
    # the level met in every call keeps its required fields
    assert _ids(reg, "ast", {"path": "h.py", "depth": 1}, {"tree": {"children": []}})


def test_a_field_one_file_holds_counts_that_files_calls() -> None:
    # rows of many files; only staff.json's rows hold a rating, met in two calls of 7 rows
    rows = [
        {
            "tool": "preview",
            "arguments": {"path": f"d{i}.csv"},
            "result": {"rows": [{"id": i, "x": j} for j in range(5)]},
        }
        for i in range(20)
    ]
    rows += [
        {
            "tool": "preview",
            "arguments": {"path": "staff.json", "n": n},
            "result": {"rows": [{"id": j, "rating": 3.5 + j / 10} for j in range(n)]},
        }
        for n in (3, 4)
    ]
    reg = learn(rows)
    assert not _ids(reg, "preview", {"path": "staff.json", "n": 9}, {"rows": [{"id": 1, "rating": None}]})
    assert _ids(reg, "preview", {"path": "d9.csv"}, {"rows": [{"id": "one", "x": 1}]})  # the ids' type stands


def test_a_field_name_other_tools_hold_with_other_types_lends_no_type() -> None:
    rows = [{"tool": "query", "arguments": {"p": "/a"}, "result": {"value": "basic"}}]
    rows += [{"tool": "radix", "arguments": {"n": i}, "result": {"value": bin(i)}} for i in range(10)]
    rows += [{"tool": "math", "arguments": {"x": i}, "result": {"value": i * 1.5}} for i in range(10)]
    reg = learn(rows)
    assert not _ids(reg, "query", {"p": "/b"}, {"value": None})
    assert _ids(reg, "radix", {"n": 3}, {"value": 3})  # its own ten strings keep its type


def test_a_format_named_only_inside_the_output_path_is_no_naming() -> None:
    rng = random.Random(3)
    rows = []
    for i in range(40):
        fmt = rng.choice(["html", "txt", "markdown", "docx", "epub"])
        if i % 3 == 0:
            out = f"/out/page-{i}.{fmt}"
            rows.append(
                {
                    "tool": "convert",
                    "arguments": {"input": f"p{i}.md", "output_format": fmt, "output_file": out},
                    "result": f"File successfully converted and saved to: {out}",
                }
            )
        else:
            rows.append(
                {
                    "tool": "convert",
                    "arguments": {"input": f"p{i}.md", "output_format": fmt},
                    "result": f"Following are the converted contents in {fmt} format.\n\nbody {i}",
                }
            )
    reg = learn(rows)
    saved = "File successfully converted and saved to: /out/page-99.tex"
    asked = {"input": "p99.md", "output_format": "latex", "output_file": "/out/page-99.tex"}
    assert not [r for r in _ids(reg, "convert", asked, saved) if "names_arg" in r]
    # without an output file the text still names the format asked for
    wrong = "Following are the converted contents in html format.\n\nbody 99"
    assert [
        r
        for r in _ids(reg, "convert", {"input": "p99.md", "output_format": "txt"}, wrong)
        if "names_arg" in r
    ]


def test_a_band_is_no_equation() -> None:
    # bytes over lines: 92 to 113 bytes for one line, so no affine fit however wide its tolerance
    points = [(1, 103), (1, 92), (1, 101), (1, 102), (1, 113), (2, 199), (4, 403)]  # 100 x lines + 3, +-50
    rows = [
        {"tool": "count", "arguments": {"text": f"t{i}"}, "result": {"lines": a, "bytes": b}}
        for i, (a, b) in enumerate(points * 2)
    ]
    reg = learn(rows)
    assert not [r for r in _ids(reg, "count", {"text": "u"}, {"lines": 3, "bytes": 247}) if "affine" in r]
    exact = [
        {"tool": "temp", "arguments": {"c": c}, "result": {"c": c, "f": round(1.8 * c + 32, 1)}}
        for c in range(-5, 30, 2)
    ]
    assert [r for r in _ids(learn(exact), "temp", {"c": 10}, {"c": 10, "f": 60.0}) if "relation" in r]


def test_messages_worded_alike_may_repeat_in_one_list() -> None:
    rng = random.Random(5)
    words = ["amount", "qty", "region", "city", "sku", "note", "price", "tier", "owner", "batch"]
    rows = []
    for i in range(30):
        cols = rng.sample(words, 3)
        issues = [{"column": c, "detail": f"Column {c} has {rng.randint(2, 90)}% nulls."} for c in cols]
        rows.append({"tool": "issues", "arguments": {"path": f"d{i}.csv"}, "result": {"issues": issues}})
    reg = learn(rows)
    same = "Column holds a single constant value; it carries no information."
    twice = {"issues": [{"column": "a", "detail": same}, {"column": "b", "detail": same}]}
    assert not [r for r in _ids(reg, "issues", {"path": "e.csv"}, twice) if "unique" in r]


def test_no_sign_is_lent_where_the_objects_other_numbers_change_sign() -> None:
    rng = random.Random(7)
    rows = []
    for i in range(12):
        other = {f"m{j}": round(rng.uniform(1, 99), 2) for j in range(12)}  # the recording's base rate
        rows.append({"tool": "item", "arguments": {"sku": f"S{i}"}, "result": other})
    for i in range(5):
        row = {"discount": 0.02 + 0.03 * i, "qty": -0.05 - 0.02 * i, "order": 0.1 - 0.05 * i}
        rows.append({"tool": "corr", "arguments": {"f": f"o{i}.csv"}, "result": {"matrix": {"amount": row}}})
    reg = learn(rows)
    negative = {"matrix": {"amount": {"discount": -0.17, "qty": -0.1, "order": 0.0}}}
    assert not [r for r in _ids(reg, "corr", {"f": "o9.csv"}, negative) if "positive" in r]


def test_the_callers_words_read_back_in_a_value_pass_a_word_set() -> None:
    words = ["main", "feature", "fix", "log", "export", "audit", "coupons", "login"]
    rng = random.Random(11)
    rows = []
    for _ in range(40):
        ref = f"{rng.choice(['feature', 'fix'])}/{rng.choice(words[3:])}-{rng.choice(words[3:])}"
        rows.append(
            {
                "tool": "reflog",
                "arguments": {"ref": ref},
                "result": {"entries": [{"refName": f"{ref}@{{0}}"}]},
            }
        )
    reg = learn(rows)
    asked = {"ref": "fix/dark-mode"}
    assert not [
        r for r in _ids(reg, "reflog", asked, {"entries": [{"refName": "fix/dark-mode@{0}"}]}) if "words" in r
    ]
    assert [
        r for r in _ids(reg, "reflog", asked, {"entries": [{"refName": "lorem/ipsum@{0}"}]}) if "words" in r
    ]


def test_a_list_that_deletes_shortened_may_be_emptied() -> None:
    obs = {"Ana": ["a1", "a2", "a3"], "Ben": ["b1", "b2"], "Cy": ["c1", "c2", "c3", "c4"]}
    rows = []
    for i in range(30):
        if i == 15:
            obs["Ana"] = ["a1"]  # observations deleted between two reads
        ents = [
            {"name": k, "observations": list(v) + [f"n{j}" for j in range(i // 10)]} for k, v in obs.items()
        ]
        rows.append({"tool": "read_graph", "arguments": {}, "result": {"entities": ents}})
    # a sibling tool of the same shape reads the same store, though it never saw a list shrink
    opened = [
        {"tool": "open_nodes", "arguments": {"i": i}, "result": r["result"]} for i, r in enumerate(rows[:15])
    ]
    reg = learn(rows + opened)
    emptied = {"entities": [{"name": "Ana", "observations": []}]}
    assert not [r for r in _ids(reg, "read_graph", {"i": 99}, emptied) if "positive" in r]
    assert not [r for r in _ids(reg, "open_nodes", {"i": 99}, emptied) if "positive" in r]
    still = [
        {"tool": "search", "arguments": {"i": i}, "result": {"entities": r["result"]["entities"]}}
        for i, r in enumerate(rows[:15])
    ]
    assert [r for r in _ids(learn(still), "search", {"i": 99}, emptied) if "positive" in r]


def test_two_records_of_one_sender_are_no_list_shortened() -> None:
    rng = random.Random(13)
    rows = []
    for i in range(30):
        mails = [
            {
                "sender": f"s{j % 3}@x.org",
                "subject": f"re {i} {j}",
                "recipients": [f"r{k}@x.org" for k in range(rng.randint(1, 4))],
            }
            for j in range(3)
        ]
        rows.append({"tool": "inbox", "arguments": {"i": i}, "result": mails})
    reg = learn(rows)
    empty = [{"sender": "s0@x.org", "subject": "re 99 0", "recipients": []}]
    assert [r for r in _ids(reg, "inbox", {"i": 99}, empty) if "positive" in r]
    # one file read for fewer pages is another call's answer, not a record shortened
    reads = [
        {
            "tool": "read_pdf",
            "arguments": {"path": f"f{i % 4}.pdf", "pages": 1 + (7 * i) % 5},
            "result": {"results": [{"source": f"f{i % 4}.pdf", "page_texts": ["p"] * (1 + (7 * i) % 5)}]},
        }
        for i in range(30)
    ]
    empty = {"results": [{"source": "f1.pdf", "page_texts": []}]}
    assert [
        r for r in _ids(learn(reads), "read_pdf", {"path": "f1.pdf", "pages": 2}, empty) if "positive" in r
    ]


def test_a_decimal_numbers_whole_part_takes_any_width() -> None:
    rng = random.Random(17)
    rows = [
        {
            "tool": "wage",
            "arguments": {"soc": f"15-{1000 + i}"},
            "result": {"hourly": f"${rng.randint(10, 99)}.{rng.randint(0, 99):02d}"},
        }
        for i in range(40)
    ]
    reg = learn(rows)
    assert not [r for r in _ids(reg, "wage", {"soc": "15-9999"}, {"hourly": "$101.80"}) if "shape" in r]
    assert [
        r for r in _ids(reg, "wage", {"soc": "15-9999"}, {"hourly": "$10.8"}) if "shape" in r
    ]  # cents stay two


def test_a_product_that_copies_one_operand_is_its_echo() -> None:
    rng = random.Random(19)
    rows = []
    for i in range(40):
        charge = rng.choice([-1, 1, 2, 3])
        abundance = rng.uniform(0.8, 1.0)  # the base peak's share: near 1 for light molecules
        result = {"charge": charge, "base_peak": {"abundance": abundance}}
        rows.append(
            {
                "tool": "isotopes",
                "arguments": {"formula": f"C{i}H{2 * i}", "charge": charge},
                "result": result,
            }
        )
    reg = learn(rows)
    heavy = {"charge": 3, "base_peak": {"abundance": 0.51}}
    assert not [r for r in _ids(reg, "isotopes", {"formula": "CBr4", "charge": 3}, heavy) if "product" in r]
    assert _ids(
        reg, "isotopes", {"formula": "CBr4", "charge": 3}, {"charge": 2, "base_peak": {"abundance": 0.51}}
    )
