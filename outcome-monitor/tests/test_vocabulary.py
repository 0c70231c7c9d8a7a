"""The wider vocabulary (``learn``'s default): learning that traffic cannot fool, text read into
structure, and the rule classes past the paper's seven (issue: the monitor sees what real servers hide)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from outcome_monitor import Monitor, learn
from outcome_monitor.learning.status import result_error, split_clean
from outcome_monitor.learning.vocabulary import constant_floor, known_set
from outcome_monitor.text.views import apply_view, infer_root_view


def _reservation(rng: random.Random) -> dict[str, Any]:
    return {
        "reservation_id": "".join(rng.choice("ABCDEFGH") for _ in range(6)),
        "status": rng.choice(["confirmed", "pending"]),
        "price": rng.randint(10, 500),
    }


def _two_tools(rng: random.Random) -> list[dict[str, Any]]:
    return [
        {"tool": t, "arguments": {"x": i}, "result": _reservation(rng)}
        for t in ("book", "get_res")
        for i in range(40)
    ]


def _fired(reg: Any, tool: str, result: Any, args: dict[str, Any] | None = None) -> bool:
    return Monitor(reg).annotate(tool, args or {"x": 1}, result).fired


def test_an_error_row_erases_no_rule_of_any_tool():
    rows = _two_tools(random.Random(0))
    error = {"tool": "book", "arguments": {"x": 99}, "result": "Error: user not found"}
    for extra in ([], [error]):
        reg = learn(rows + extra)
        assert _fired(reg, "book", {}) and _fired(reg, "get_res", {})
    assert learn(rows + [error]).meta["set_aside"]["inferred"] == {"book": 1}
    # the paper's way pools the error row with the clean ones: both tools lose their required fields
    paper = learn(rows + [error], vocabulary="paper")
    assert not _fired(paper, "book", {}) and not _fired(paper, "get_res", {})


@pytest.mark.parametrize(
    "text",
    [
        "Error: user not found",
        "Database error: Catalog Error: Table with name x does not exist!",
        "ValueError: bad id",
        "Traceback (most recent call last):\n  File ...",
        "fatal: not a git repository",
        "<html><head><title>502 Bad Gateway</title></head></html>",
    ],
)
def test_error_text_is_set_aside_bare_wrapped_or_in_blocks(text):
    assert result_error(text) is not None
    assert result_error({"content": text}) is not None
    assert result_error([text, {"type": "image"}]) is not None
    assert result_error({"error": "no such user"}) is not None


@pytest.mark.parametrize(
    "clean",
    ["Order W123 shipped", "Commit history:\ncommit abc", {"id": 1, "error_rate": 0.1}, {"content": "ok"}],
)
def test_clean_results_are_not_errors(clean):
    assert result_error(clean) is None


def test_a_tools_own_error_shape_is_learned_from_its_flagged_rows():
    rows = [
        {
            "tool": "q",
            "arguments": {},
            "result": "Error executing tool read_query: no table",
            "status": "error",
        },
        {
            "tool": "q",
            "arguments": {"a": 1},
            "result": "error executing tool read_query: other",
            "status": "ok",
        },
        {"tool": "q", "arguments": {"a": 2}, "result": "[(1, 'a')]"},
    ]
    split = split_clean(rows)
    assert split.flagged == {"q": 1} and split.inferred == {"q": 1} and len(split.clean) == 1


def test_a_constant_is_not_a_domain():
    rows = [
        {"tool": "g", "arguments": {"i": i}, "result": {"reservation_id": "HATHAT", "n": i + 1}}
        for i in range(15)
    ]
    reg = learn(rows)
    assert not any(r.cls == "domain" for r in reg.rules_for("g"))
    assert not _fired(reg, "g", {"reservation_id": "ZZQQXX", "n": 3}, {"i": 2})
    assert any("constant" in h["reason"] for h in reg.meta["held_back"])
    # with the support an unseen value needs, it is one
    many = [
        {"tool": "g", "arguments": {"i": i}, "result": {"currency": "USD"}}
        for i in range(constant_floor(reg_th()))
    ]
    assert any(r.cls == "domain" for r in learn(many).rules_for("g"))


def reg_th() -> Any:
    from outcome_monitor.thresholds import DEFAULT

    return DEFAULT


def test_a_domain_of_a_few_weekdays_is_the_week():
    assert known_set(["Monday", "Saturday", "Sunday"]) == [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ]
    assert known_set(["mon", "sun"]) == ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    assert known_set(["Monday", "Funday"]) is None
    rng = random.Random(1)
    days = ["Monday", "Saturday", "Sunday"]
    rows = [
        {"tool": "now", "arguments": {"tz": f"Z{i}"}, "result": {"day_of_week": rng.choice(days)}}
        for i in range(300)
    ]
    reg = learn(rows)
    assert not _fired(reg, "now", {"day_of_week": "Tuesday"}, {"tz": "Z1"})
    assert _fired(reg, "now", {"day_of_week": "Funday"}, {"tz": "Z1"})


def _wrapped() -> list[dict[str, Any]]:
    return [
        {
            "tool": "read",
            "arguments": {"p": f"notes/{i}.md"},
            "result": {"content": f"# Note {i}\n\nSome words {i * 7}."},
        }
        for i in range(20)
    ]


@pytest.mark.parametrize(
    "bad",
    [{"content": "<html><body><h1>502 Bad Gateway</h1></body></html>"}, {"content": ""}, {"content": None}],
)
def test_a_wrapped_502_page_an_empty_text_and_null_fire(bad):
    reg = learn(_wrapped())
    assert _fired(reg, "read", bad, {"p": "x"})
    assert not _fired(reg, "read", {"content": "# Note 99\n\nSome words 3."}, {"p": "x"})


def test_numbers_in_strings_get_the_rules_of_numbers():
    rows = [
        {"tool": "count", "arguments": {"q": f"w{i}"}, "result": {"result": str(i * 3 + 1)}}
        for i in range(20)
    ]
    reg = learn(rows)
    assert reg.meta["views"]["count"] == {"fields": {"result": {"parse": "number"}}}
    assert _fired(reg, "count", {"result": "-4"}, {"q": "w"})
    assert _fired(reg, "count", {"result": "N/A"}, {"q": "w"})
    assert not _fired(reg, "count", {"result": "77"}, {"q": "w"})


def test_repr_rows_are_read_into_columns():
    rows = [
        {
            "tool": "sql",
            "arguments": {"q": f"select {i}"},
            "result": str([(j, f"n{j}", 2.5 + j) for j in range(1 + i % 5)]),
        }
        for i in range(30)
    ]
    view = infer_root_view([r["result"] for r in rows])
    assert view is not None and view["parse"] == "literal" and view["wrap"] == "items"
    assert apply_view(view, "[(1, 'a', 2.5)]") == {"items": [{"pos0": 1, "pos1": "a", "pos2": 2.5}]}
    reg = learn(rows)
    assert _fired(reg, "sql", "[(1, 'n1', 'oops')]", {"q": "x"})
    assert not _fired(reg, "sql", "[(1, 'n1', 3.5)]", {"q": "x"})


def test_content_blocks_keep_rules_per_position():
    rows = [
        {
            "tool": "shot",
            "arguments": {"page": i},
            "result": [
                {"type": "text", "text": f"page {i}"},
                {"type": "image", "mimeType": "image/png", "data": f"AAA{i}"},
            ],
        }
        for i in range(20)
    ]
    reg = learn(rows)
    ok = rows[3]["result"]
    assert not _fired(reg, "shot", ok, {"page": 3})
    assert _fired(reg, "shot", ok[:1], {"page": 3})  # a dropped block
    changed = [ok[0], {**ok[1], "mimeType": "text/html"}]
    assert _fired(reg, "shot", changed, {"page": 3})


def test_a_tools_non_empty_rule_survives_a_sibling_that_returns_empty_lists():
    rng = random.Random(2)
    rows = [
        {
            "tool": "full",
            "arguments": {"i": i},
            "result": {"items": [{"id": rng.randint(1, 99)}] * rng.randint(1, 4)},
        }
        for i in range(30)
    ] + [
        {"tool": "maybe", "arguments": {"i": i}, "result": {"items": [] if i % 2 else [{"id": i}]}}
        for i in range(30)
    ]
    reg = learn(rows)
    assert _fired(reg, "full", {"items": []}, {"i": 1})
    assert not _fired(reg, "maybe", {"items": []}, {"i": 1})
    paper = learn(rows, vocabulary="paper")
    assert not _fired(paper, "full", {"items": []}, {"i": 1})


def test_collections_keep_their_size_entries_and_echoed_members():
    rng = random.Random(3)
    users = [f"u{k}" for k in range(40)]
    rows = []
    for i in range(30):
        asked = rng.sample(users, rng.randint(1, 5))
        rows.append(
            {
                "tool": "users",
                "arguments": {"ids": asked, "limit": 10},
                "result": {
                    "found": [{"id": u, "age": rng.randint(20, 70)} for u in asked],
                    "prefs": {"theme": "dark", "lang": "en", **({f"x{i}": 1} if i % 2 else {})},
                },
            }
        )
    reg = learn(rows)
    forms = {r.params["form"] for r in reg.rules_for("users") if r.cls == "collection"}
    assert {"echo_set", "has_keys"} <= forms
    good = rows[0]["result"]
    args = rows[0]["arguments"]
    assert not _fired(reg, "users", good, args)
    swapped = {**good, "found": [{**good["found"][0], "id": "u999"}, *good["found"][1:]]}
    assert _fired(reg, "users", swapped, args)
    dropped = {**good, "prefs": {"lang": "en"}}
    assert _fired(reg, "users", dropped, args)


def test_unknown_vocabulary_is_an_error():
    with pytest.raises(ValueError, match="unknown vocabulary"):
        learn([], vocabulary="huge")


def test_rules_of_other_sources_read_the_result_as_sent():
    """A view reads "500" as a number for the rules learned through it; a database's rule beside it
    (merged) still reads the string it holds, so neither fires on a clean result."""
    from outcome_monitor.checking.rules import Rule
    from outcome_monitor.registry import Registry

    rows = [
        {"tool": "order", "arguments": {"o": f"o{i}"}, "result": {"pieces": str(100 * (1 + i % 9)), "n": i}}
        for i in range(40)
    ]
    learned = learn(rows)
    assert "pieces" in learned.meta["views"]["order"]["fields"]
    records = Registry(
        [Rule("order", "type", "$", ("pieces",), {"types": ["string"]}, {"n": 40}, "records")],
        {"source": "records"},
    )
    both = learned.merged(records)
    assert not _fired(both, "order", {"pieces": "300", "n": 3}, {"o": "x"})
    assert _fired(
        both, "order", {"pieces": 300, "n": 3}, {"o": "x"}
    )  # the database's rule, and the view's own


def test_an_error_result_fires_for_any_tool_learned_from_enough_clean_rows():
    rows = [{"tool": "status", "arguments": {}, "result": "On branch main\nnothing to commit"}] * 9
    reg = learn(rows)
    assert _fired(reg, "status", "Error: upstream request timed out", {})
    assert _fired(reg, "status", "<html><title>502 Bad Gateway</title></html>", {})
    assert not _fired(reg, "status", "On branch dev\nnothing to commit", {})


def test_lists_of_names_keep_their_kind_and_no_duplicates():
    rng = random.Random(4)
    files = [f"file{k}.txt" for k in range(30)]
    rows = [
        {
            "tool": "ls",
            "arguments": {"d": f"d{i}"},
            "result": {"content": rng.sample(files, rng.randint(2, 6))},
        }
        for i in range(30)
    ]
    reg = learn(rows)
    assert _fired(reg, "ls", {"content": ["file1.txt", "file1.txt"]}, {"d": "x"})
    assert _fired(
        reg, "ls", {"content": ["file1.txt", "<html><body>502 Bad Gateway</body></html>"]}, {"d": "x"}
    )
    assert not _fired(reg, "ls", {"content": ["file1.txt", "file2.txt"]}, {"d": "x"})


def test_a_map_keyed_by_the_names_asked_for_keeps_them():
    rng = random.Random(5)
    hotels = [f"Hotel {c}" for c in "ABCDEFGHIJ"]
    rows = []
    for i in range(20):
        asked = rng.sample(hotels, rng.randint(1, 4))
        rows.append(
            {
                "tool": "ratings",
                "arguments": {"names": asked},
                "result": {h: f"Rating: {i % 5}" for h in asked},
            }
        )
    reg = learn(rows)
    args = rows[0]["arguments"]
    result = rows[0]["result"]
    assert not _fired(reg, "ratings", result, args)
    dropped = dict(list(result.items())[1:]) if len(result) > 1 else {}
    assert _fired(reg, "ratings", dropped, args)


def test_events_fall_on_the_day_asked_for_and_logs_stay_sorted():
    rng = random.Random(6)
    rows = []
    for i in range(20):
        day = f"2024-05-{1 + i:02d}"
        events = sorted(f"{day}T{rng.randint(8, 18):02d}:00:00" for _ in range(rng.randint(3, 5)))
        rows.append(
            {
                "tool": "day",
                "arguments": {"day": day},
                "result": [{"id": f"e{i}{k}", "start": t} for k, t in enumerate(events)],
            }
        )
    reg = learn(rows)
    good = rows[2]["result"]
    assert not _fired(reg, "day", good, {"day": "2024-05-03"})
    moved = [{**good[0], "start": "2024-04-20T09:00:00"}, *good[1:]]
    assert _fired(reg, "day", moved, {"day": "2024-05-03"})
    shuffled = [good[-1], *good[:-1]]
    assert _fired(reg, "day", shuffled, {"day": "2024-05-03"})


def test_periods_by_day_stay_sorted_among_periods_by_week():
    rng = random.Random(8)
    rows = []
    for i in range(24):
        if i % 2:  # weeks: no date to order by, passed at learning and at checking alike
            periods = [f"2025-W{w:02d}" for w in range(1 + i, 4 + i)]
        else:
            periods = [f"2024-09-{d:02d}" for d in range(1 + i, 1 + i + rng.randint(3, 6))]
        rows.append(
            {
                "tool": "quantity",
                "arguments": {"bucket": "week" if i % 2 else "day", "q": f"q{i}"},
                "result": [{"period": p, "value": float(rng.randint(1, 99))} for p in periods],
            }
        )
    reg = learn(rows)
    days, weeks = rows[0]["result"], rows[1]["result"]
    assert not _fired(reg, "quantity", days, {"bucket": "day"})
    assert not _fired(reg, "quantity", weeks[::-1], {"bucket": "week"})
    assert _fired(reg, "quantity", days[::-1], {"bucket": "day"})


def test_a_number_where_text_always_was_fires():
    rows = [
        {"tool": "calc", "arguments": {"e": f"{i}+1"}, "result": {"result": str(i * 7 + 1)}}
        for i in range(20)
    ]
    reg = learn(rows)
    assert _fired(reg, "calc", {"result": 22}, {"e": "x"})
    assert not _fired(reg, "calc", {"result": "22"}, {"e": "x"})


def test_a_score_between_0_and_1_stays_there_pooled_across_tools():
    rng = random.Random(7)
    rows = [
        {
            "tool": f"lookup_{k % 6}",
            "arguments": {"q": f"q{k}"},
            "result": {"match_score": round(rng.random(), 3)},
        }
        for k in range(60)
    ]
    reg = learn(rows)
    assert _fired(reg, "lookup_1", {"match_score": 1.62}, {"q": "x"})
    assert not _fired(reg, "lookup_1", {"match_score": 0.42}, {"q": "x"})


def test_the_older_spelling_recording_names_a_vocabulary():
    rows = _two_tools(random.Random(8))
    assert learn(rows, recording=False).to_json() == learn(rows, vocabulary="paper").to_json()
    assert learn(rows, recording=True).to_json() == learn(rows).to_json()


def _notes(tool: str, n: int, rng: random.Random) -> list[dict[str, Any]]:
    words = ["alpha", "beta", "gamma", "delta", "report", "budget", "draft", "final", "meeting", "notes"]
    return [
        {
            "tool": tool,
            "arguments": {"i": i},
            "result": {"text": " ".join(rng.choice(words) for _ in range(6)) + f" {i}", "tags": [f"t{i}"]},
        }
        for i in range(n)
    ]


def test_an_error_page_fires_in_a_field_seen_rarely_where_the_recording_never_held_one():
    rng = random.Random(9)
    rows = _notes("search", 60, rng) + _notes("sort", 3, rng)
    page = "<html><head><title>502 Bad Gateway</title></head><body>502</body></html>"
    reg = learn(rows)
    # sort saw three values of its own: the recording's sixty-odd, none a page, speak for it
    assert _fired(reg, "sort", {"text": page, "tags": ["t1"]})
    assert _fired(reg, "sort", {"text": "draft notes 4", "tags": [page]})
    assert not _fired(reg, "sort", {"text": "budget final draft notes alpha beta 99", "tags": ["t99"]})
    # a recording that held a page once keeps no such rule for the rarely seen field
    with_page = rows + [{"tool": "fetch", "arguments": {"u": 1}, "result": {"text": page, "tags": []}}]
    assert not _fired(learn(with_page), "sort", {"text": page, "tags": ["t1"]})


def test_an_id_field_seen_a_few_times_stays_an_id_token():
    rows = [
        {"tool": "lookup", "arguments": {"name": f"n{i}"}, "result": {"uid": f"UID-{i:03d}f{i % 7}", "n": i}}
        for i in range(12)
    ]
    reg = learn(rows)
    assert _fired(reg, "lookup", {"uid": "NULL", "n": 3}, {"name": "x"})
    assert _fired(reg, "lookup", {"uid": "UID-0\u04401f2", "n": 3}, {"name": "x"})
    assert not _fired(reg, "lookup", {"uid": "UID-977f5", "n": 3}, {"name": "x"})


def test_a_text_names_the_argument_it_was_asked_about():
    rows = [
        {
            "tool": "diff",
            "arguments": {"target": f"HEAD~{i}"},
            "result": f"Diff with HEAD~{i}:\n+ x = {i * 7}\n",
        }
        for i in range(12)
    ]
    reg = learn(rows)
    assert any(r.params.get("form") == "names_arg" for r in reg.rules_for("diff"))
    assert _fired(reg, "diff", "Diff with HEAD~9:\n+ x = 21\n", {"target": "HEAD~3"})
    assert not _fired(reg, "diff", "Diff with HEAD~31:\n+ x = 7\n", {"target": "HEAD~31"})


def test_a_text_names_each_name_of_a_list_asked_for():
    tables = ["loans", "holds", "members", "books", "fines"]
    rng = random.Random(10)
    rows = []
    for _i in range(12):
        asked = rng.sample(tables, rng.randint(1, 3))
        text = " | ".join(f"{t} has {rng.randint(2, 9)} columns" for t in asked)
        rows.append({"tool": "schema", "arguments": {"table_names": asked}, "result": text})
    reg = learn(rows)
    assert [r.params.get("each") for r in reg.rules_for("schema") if r.params.get("form") == "names_arg"] == [
        True
    ]
    asked = {"table_names": ["loans", "books"]}
    assert not _fired(reg, "schema", "loans has 4 columns | books has 3 columns", asked)
    assert _fired(reg, "schema", "loans has 4 columns | boo", asked)


def test_a_text_that_always_ended_with_a_newline_fires_when_cut_short():
    rows = [
        {
            "tool": "show",
            "arguments": {"rev": f"r{i}"},
            "result": f"commit {i}\nAuthor: A\n\n+ line {i * 7}\n",
        }
        for i in range(10)
    ]
    reg = learn(rows)
    assert _fired(reg, "show", "commit 3\nAuthor: A\n\n+ li", {"rev": "r3"})
    assert not _fired(reg, "show", "commit 3\nAuthor: A\n\n+ line 99\n", {"rev": "r3"})
    # prose ends as it likes: no rule from texts ending with letters or full stops
    prose = [
        {"tool": "say", "arguments": {"i": i}, "result": f"Hello number {i}, have a nice day."}
        for i in range(10)
    ]
    assert not any(r.params.get("form") == "ends" for r in learn(prose).rules_for("say"))


def test_ids_stay_unique_in_lists_whose_rows_differ_in_columns_from_query_to_query():
    rng = random.Random(3)
    rows = []
    for i in range(12):
        ids = rng.sample(range(1, 500), 5)
        cols = [{"id": k, "name": f"P{k}", "price": k * 1.5} for k in ids]
        if i % 2:
            cols = [{"id": k, "qty": 2} for k in ids]
        rows.append({"tool": "query", "arguments": {"sql": f"q{i}"}, "result": cols})
        rows.append(
            {
                "tool": "query",
                "arguments": {"sql": f"g{i}"},
                "result": [{"status": "a", "n": i}, {"status": "b", "n": 1}],
            }
        )
    reg = learn(rows)
    assert any(r.params.get("form") == "unique" for r in reg.rules_for("query"))
    dup = [{"id": 7, "qty": 2}, {"id": 7, "qty": 2}, {"id": 9, "qty": 1}]
    assert _fired(reg, "query", dup, {"sql": "q99"})
    assert not _fired(
        reg, "query", [{"id": 7, "qty": 2}, {"id": 8, "qty": 2}, {"id": 9, "qty": 1}], {"sql": "q99"}
    )


def test_a_null_placeholder_fires_in_a_field_seen_rarely_where_the_recording_never_held_one():
    rng = random.Random(5)
    rows = _notes("search", 60, rng)
    rows += [
        {"tool": "ticket", "arguments": {"i": i}, "result": {"event_id": f"EV-10{i}", "seat": "A"}}
        for i in range(3)
    ]
    reg = learn(rows)
    assert _fired(reg, "ticket", {"event_id": "NULL", "seat": "A"}, {"i": 9})
    assert _fired(reg, "ticket", {"event_id": "lorem ipsum", "seat": "A"}, {"i": 9})
    assert not _fired(reg, "ticket", {"event_id": "EV-1099", "seat": "A"}, {"i": 9})
    # an empty value needs a field's own support: no recording-wide rule speaks for it
    assert not _fired(reg, "ticket", {"event_id": "", "seat": "A"}, {"i": 9})
    # a recording that held a "N/A" somewhere keeps no such rule for the rarely seen field
    with_na = rows + [{"tool": "other", "arguments": {}, "result": {"note": "N/A", "tags": []}}]
    assert not _fired(learn(with_na), "ticket", {"event_id": "NULL", "seat": "A"}, {"i": 9})


def test_a_field_always_null_or_of_any_kind_keeps_no_type() -> None:
    values = [7, "seven", {"n": 7}, None]
    rows = [
        {
            "tool": "extract",
            "arguments": {"pointer": f"/{i}"},
            "result": {"value": values[i % 4], "length": None, "kind": "x"},
        }
        for i in range(40)
    ]
    reg = learn(rows)
    typed = {x.fields[0] for x in reg.rules["extract"] if x.cls == "type"}
    assert "value" not in typed and "length" not in typed
    assert reg.check("extract", {"pointer": "/x"}, {"value": 18.5, "length": 2, "kind": "x"}) == []
