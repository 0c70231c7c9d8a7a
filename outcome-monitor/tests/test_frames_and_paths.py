"""Results third-party servers send that the wider vocabulary once read poorly: records framed by
sentences (several content blocks), maps keyed by file paths (whose dots are no path steps), a map
keyed by what a list of objects asked for, and write tools met only a few times."""

from __future__ import annotations

import copy
import hashlib

from fixtures import rng
from outcome_monitor import learn
from outcome_monitor.learning.mapdetect import detect_maps
from outcome_monitor.text.frames import framed, infer_frame
from outcome_monitor.text.viewcode import reader
from outcome_monitor.text.views import apply_view

HEAD = "Here are the results of running the linter on the files you gave:"
TAIL = "Ask the user before fixing anything."


def _lint_rows(n: int = 60) -> list[dict]:
    r = rng("test-frames", "lint")
    files = [f"/app/src/mod{i}.js" for i in range(12)]
    rows = []
    for _ in range(n):
        asked = r.sample(files, r.randint(1, 3))
        records = []
        for path in asked:
            found = r.randint(0, 3)
            records.append(
                {"filePath": path, "errorCount": found, "warningCount": r.randint(0, 9),
                 "messages": [{"line": r.randint(1, 80), "column": r.randint(1, 30)} for _ in range(found)]}
            )  # fmt: skip
        rows.append({"tool": "lint", "arguments": {"files": asked}, "result": [HEAD, *records, TAIL]})
    return rows


def test_sentences_around_records_are_read_by_position_and_the_records_as_a_list():
    fixed = {"head0": HEAD, "tail0": TAIL}
    assert infer_frame(
        [[HEAD, {"a": 1}, TAIL], [HEAD, {"a": 2}, {"a": 3}, TAIL], [HEAD, {"a": 4}, TAIL]]
    ) == {
        "frame": [1, 1],
        "fixed": fixed,
    }
    # a record between the sentences, text among the records, or too few results: no frame
    assert infer_frame([[HEAD, {"a": 1}, "x", {"a": 2}, TAIL]] * 3) is None
    assert infer_frame([[HEAD, {"a": 1}, TAIL]] * 5) is None
    assert framed([HEAD, {"a": 1}, {"a": 2}, TAIL], [1, 1]) == {
        "head0": HEAD,
        "items": [{"a": 1}, {"a": 2}],
        "tail0": TAIL,
    }
    assert framed([HEAD, TAIL], [1, 1]) == {"head0": HEAD, "items": [], "tail0": TAIL}
    assert framed("text", [1, 1]) == "text" and framed([HEAD], [1, 1]) == [HEAD]
    # an end that no longer starts as it did leaves the list unread
    assert framed(["N/A", {"a": 1}, TAIL], [1, 1], fixed) == ["N/A", {"a": 1}, TAIL]


STATUS = "\nCommand completed with return code: "


def test_a_status_line_every_answer_ends_with_is_a_fixed_end_cut_before_its_digits():
    results = [
        ["  3 ERROR\n  9 INFO\n", STATUS + "0"],
        [12, STATUS + "0"],
        [STATUS + "1"],
        ["a.log\nb.log\n", STATUS + "0"],
    ]
    assert infer_frame(results) == {"frame": [0, 1], "fixed": {"tail0": STATUS}}
    assert framed(["x\n", STATUS + "2"], [0, 1], {"tail0": STATUS}) == {
        "items": ["x\n"],
        "tail0": "2",
    }
    for broken in (["x\n"], ["x\n", "\nCommand completed "], ["x\n", "TBD"], [7]):
        assert framed(broken, [0, 1], {"tail0": STATUS}) == broken
    # no shared start long enough, or the start met inside the answer too: no frame
    assert infer_frame([["a", "ok 1"], ["b", "ok 2"], ["c", "ok 3"]]) is None
    assert infer_frame([[STATUS + "0 x", STATUS + "0"], ["b", STATUS + "1"], ["c", STATUS + "0"]]) is None


def test_a_framed_result_keeps_its_records_rules_and_a_clean_one_passes():
    rows = _lint_rows()
    reg = learn(rows)
    assert reg.meta["views"]["lint"].get("frame") == [1, 1]
    assert reg.meta["views"]["lint"].get("fixed") == {"head0": HEAD, "tail0": TAIL}
    for row in rows[:20]:
        assert reg.check("lint", row["arguments"], row["result"]) == []
    row = next(r for r in rows if len(r["result"]) == 4)
    dropped = copy.deepcopy(row["result"])
    del dropped[1]["errorCount"]
    negative = copy.deepcopy(row["result"])
    negative[2]["warningCount"] = -1
    cut = row["result"][:2] + row["result"][3:]  # a record of the two asked left out
    for faulted in (dropped, negative, cut):
        assert reg.check("lint", row["arguments"], faulted), faulted


def test_the_compiled_view_reads_a_frame_as_apply_view_does():
    view = {"frame": [1, 1], "fields": {"items": {"items": {"fields": {"n": {"parse": "number"}}}}}}
    fixed = {**view, "fixed": {"tail0": TAIL}}
    for value in (
        [HEAD, {"n": "4"}, TAIL],
        [HEAD, TAIL],
        [HEAD],
        "plain",
        None,
        {"n": "1"},
        [HEAD, {"n": "4"}, "cut"],
    ):
        assert reader(view)(value, None) == apply_view(view, value)
        assert reader(fixed)(value, None) == apply_view(fixed, value)


def test_a_command_runner_keeps_its_status_line():
    r = rng("test-frames", "shell")
    rows = []
    for i in range(40):
        code = r.choice((0, 0, 0, 1))
        out = [
            f"{r.randint(1, 99)} {w}\n" for w in r.sample(["INFO", "WARN", "ERROR", "DEBUG"], r.randint(1, 4))
        ]
        answer = "".join(out) if code == 0 else r.randint(0, 9)
        rows.append({"tool": "run", "arguments": {"command": f"cmd {i}"},
                     "result": [answer, STATUS + str(code)] if i % 9 else STATUS + str(code)})  # fmt: skip
    reg = learn(rows)
    view = reg.meta["views"]["run"]
    assert view.get("fixed") == {"tail0": STATUS} and view.get("many")
    assert reg.check("run", {"command": "new"}, ["7 INFO\n", STATUS + "1"]) == []
    assert reg.check("run", {"command": "new"}, STATUS + "0") == []
    for broken in (["7 INFO\n"], ["7 INFO\n", "\nCommand completed w"], ["7 INFO\n", "TBD"], 3):
        found = reg.check("run", {"command": "new"}, broken)
        assert found and found[0].rule_id == "run:type:frame:tail0", (broken, found)
        assert found[0].sentence == (
            "the result's last block must start with "
            '"\\nCommand completed with return code: ", as every clean result\'s did'
        )


def _files_rows(n: int = 80, dots: bool = True) -> list[dict]:
    r = rng("test-frames", "files", dots)
    paths = [f"/srv/team/{d}/{f}" + (".txt" if dots else "") for d in "abc" for f in "wxyz"]
    rows = []
    for i in range(n):
        asked = r.sample(paths, r.choice((1, 1, 2)))

        def digest(s: str, i: int = i) -> str:
            return hashlib.sha256(f"{i}{s}".encode()).hexdigest()

        result = {
            p: {"file_hash": digest(p),
                "ranges": [{"range_hash": digest(f"{p}{k}"), "start_line": k + 1} for k in range(r.randint(1, 2))]}
            for p in asked
        }  # fmt: skip
        rows.append({"tool": "read", "arguments": {"files": [{"file_path": p, "encoding": "utf-8"} for p in asked]},
                     "result": result})  # fmt: skip
    return rows


def test_a_map_keyed_by_file_paths_keeps_its_entries_rules_and_no_key_with_a_dot():
    rows = _files_rows()
    maps = detect_maps([r["result"] for r in rows])
    assert maps["$"] == frozenset()  # every path is frequent, but a dotted key cannot be named
    reg = learn(rows)
    row = rows[3]
    path = next(iter(row["result"]))
    cut = copy.deepcopy(row["result"])
    cut[path]["ranges"][0]["range_hash"] = cut[path]["ranges"][0]["range_hash"][:20] + "..."
    found = reg.check("read", row["arguments"], cut)
    assert {v.rule_class for v in found} >= {"shape"}, found
    assert all(v.path.startswith(f"$['{path}']") for v in found)
    assert reg.check("read", row["arguments"], row["result"]) == []


def test_a_map_keyed_by_a_field_of_the_objects_asked_for_holds_an_entry_for_each():
    rows = _files_rows(dots=False)
    reg = learn(rows)
    echo = [r for r in reg.rules["read"] if r.params.get("form") == "keys_echo"]
    assert [(r.params["arg"], r.params["key"]) for r in echo] == [("files", "file_path")]
    row = next(r for r in rows if len(r["result"]) == 2)
    first = next(iter(row["result"]))
    short = {k: v for k, v in row["result"].items() if k != first}
    assert any(v.rule_id == echo[0].rule_id for v in reg.check("read", row["arguments"], short))
    assert any(v.rule_id == echo[0].rule_id for v in reg.check("read", row["arguments"], {}))
    assert reg.check("read", row["arguments"], row["result"]) == []


def _write_rows() -> list[dict]:
    """A server whose edits name the file they changed: one tool met often, one a few times."""
    r = rng("test-frames", "writes")
    rows = []
    for i in range(20):
        name = f"/docs/drafts/report-{r.randrange(1000):03d}.docx"
        rows.append({"tool": "add_paragraph", "arguments": {"filename": name, "text": f"p{i}"},
                     "result": f"Paragraph added to {name}"})  # fmt: skip
    for rows_, cols in ((3, 2), (2, 4), (1, 3)):
        name = f"/docs/drafts/offer-{r.randrange(1000):03d}.docx"
        rows.append({"tool": "add_table", "arguments": {"filename": name, "rows": rows_, "cols": cols},
                     "result": f"Table ({rows_}x{cols}) added to {name}"})  # fmt: skip
    return rows


def test_a_write_met_a_few_times_keeps_naming_its_file_where_another_tool_does():
    rows = _write_rows()
    reg = learn(rows)
    named = {r.tool: r.support for r in reg.rules_for("add_table") if r.params.get("form") == "names_arg"}
    assert named == {"add_table": {"n": 3, "lending_tools": 1}}
    args = {"filename": "/docs/drafts/offer-777.docx", "rows": 2, "cols": 2}
    assert reg.check("add_table", args, "Table (2x2) added to /docs/drafts/offer-777.docx") == []
    assert reg.check("add_table", args, "Table (2x2) added to /docs/dra")
    # alone, the few calls lend nothing
    alone = learn([r for r in rows if r["tool"] == "add_table"])
    assert not [r for r in alone.rules_for("add_table") if r.params.get("form") == "names_arg"]


def test_a_tool_that_always_answered_in_sentences_keeps_a_bare_placeholder_out():
    rows = _write_rows()
    reg = learn(rows)
    args = {"filename": "/docs/drafts/offer-777.docx", "rows": 2, "cols": 2}
    for placeholder in ("TODO", "TBD", "lorem ipsum"):
        assert reg.check("add_table", args, placeholder), placeholder
    # a tool whose clean answers were single words keeps no such rule at its root
    words = [
        {"tool": "status", "arguments": {"id": i}, "result": ["ok", "done", "queued"][i % 3]}
        for i in range(5)
    ]
    reg = learn(rows + words)
    assert not [r for r in reg.rules_for("status") if r.params.get("form") == "no_placeholder"]


def test_a_converter_names_its_format_unless_asked_to_save_to_a_file():
    r = rng("test-frames", "converter")
    rows = []
    for i in range(30):
        fmt = r.choice(["html", "markdown", "plain", "latex"])
        args = {"input_file": f"/docs/report-{i}.md", "output_format": fmt}
        text = f"Following are the converted contents in {fmt} format.\nConverted Contents:\n\nReport {i}"
        if i % 10 == 3:  # asked to save: another form of answer, naming the file instead
            args["output_file"] = f"/out/report-{i}.bin"
            text = f"File successfully converted and saved to: {args['output_file']}"
        rows.append({"tool": "convert", "arguments": args, "result": text})
    reg = learn(rows)
    (rule,) = [
        x
        for x in reg.rules["convert"]
        if x.params.get("form") == "names_arg" and x.params["arg"] == "output_format"
    ]
    assert rule.params["unless"] == "output_file"
    asked = {"input_file": "/docs/x.md", "output_format": "latex"}
    assert (
        reg.check(
            "convert",
            asked,
            "Following are the converted contents in latex format.\nConverted Contents:\n\nReport 77",
        )
        == []
    )
    assert reg.check(
        "convert",
        asked,
        "Following are the converted contents in html format.\nConverted Contents:\n\nReport 77",
    )
    saved = {**asked, "output_file": "/out/report-77.bin"}
    assert reg.check("convert", saved, "File successfully converted and saved to: /out/report-77.bin") == []


def test_a_list_of_a_record_and_text_blocks_types_its_elements_from_all_of_them():
    # a reader's answer: one JSON block of what it read, then a text block per page; a call that
    # reads no page text sends the JSON block alone (a list of one)
    r = rng("test-frames", "pages")
    rows = []
    for i in range(40):
        record = {"results": [{"source": f"/docs/{i}.pdf", "pages": r.randint(1, 8)}]}
        pages = [f"[Page {p}]\nInvoice {i}-{p}: {r.randint(1, 900)} EUR" for p in range(1, r.randint(1, 3))]
        rows.append(
            {
                "tool": "read",
                "arguments": {"path": f"/docs/{i}.pdf"},
                "result": [record, *pages] if pages else record,
            }
        )
    reg = learn(rows)
    types = {
        x.params["types"][0] if len(x.params["types"]) == 1 else tuple(x.params["types"])
        for x in reg.rules["read"]
        if x.cls == "type" and x.fields == ("",) and x.context.endswith("[*]")
    }
    assert ("object", "string") in types
    clean = [{"results": [{"source": "/docs/99.pdf", "pages": 2}]}, "[Page 1]\nInvoice 99-1: 120 EUR"]
    assert reg.check("read", {"path": "/docs/99.pdf"}, clean) == []
    dropped = [{"pages": 2}, "[Page 1]\nInvoice 99-1: 120 EUR"]
    assert any(v.rule_class == "required" for v in reg.check("read", {"path": "/docs/99.pdf"}, dropped))
