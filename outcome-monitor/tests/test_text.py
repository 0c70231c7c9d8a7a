"""Text results, the trace sample's support bound, boolean types and JSON words in receipts."""

from __future__ import annotations

import random

from outcome_monitor.learning.mine import unseen_half
from outcome_monitor.registry import learn
from outcome_monitor.text.parse import error_reason, error_shape, parse_text, text_contracts, text_kinds

PAGE_502 = "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"


def test_text_is_json_else_a_python_literal_else_text():
    assert parse_text('{"a": [1, null]}') == {"a": [1, None]}
    assert parse_text("[]") == []
    # mcp-server-sqlite prints rows as Python: the same array type as the JSON "[]"
    assert parse_text("[{'id': 1, 'name': 'x', 'ok': True, 'n': None}]") == [
        {"id": 1, "name": "x", "ok": True, "n": None}
    ]
    assert parse_text("(1, 2)") == [1, 2]
    assert parse_text("commit 1234") == "commit 1234"
    assert parse_text("{1, 2}") == "{1, 2}"  # a set is no JSON value: kept as text
    assert parse_text("[__import__('os').getcwd()]") == "[__import__('os').getcwd()]"  # never evaluated
    assert parse_text("True") == "True"  # only containers are read as literals


def test_kinds_of_text():
    assert text_kinds("") == {"empty"} and text_kinds("  \n") == {"empty"}
    assert "html" in text_kinds(PAGE_502)
    assert "html" in text_kinds("HTTP/1.1 503 Service Unavailable\n\nretry later")
    assert "error" in text_kinds("Error: no such table: users")
    assert "error" in text_kinds("sqlite3.OperationalError: near 'SELEC': syntax error")
    assert text_kinds("Commit history:\nCommit: abc\nMessage: fixed the failed build") == frozenset()


def test_error_text_without_is_error():
    own = {error_shape("Error executing tool read_query: no such table: t")}
    assert own == {"error executing tool read_query"}
    assert "own error shape" in error_reason("Error executing tool read_query: no such column: x", own)
    assert "common error prefix" in error_reason("fatal: bad object HEAD")
    assert "HTTP error page" in error_reason(PAGE_502)
    assert error_reason("Repository status:\nOn branch main") is None


def _log(rng: random.Random, n: int) -> str:
    lines = ["Commit history:"]
    for _ in range(n):
        lines += [f"Commit: {rng.getrandbits(160):040x}", "Author: A", "Message: change"]
    return "\n".join(lines)


def test_text_contracts_learned_from_clean_text_and_checked():
    rng = random.Random(3)
    rows = [
        {"tool": "git_log", "arguments": {"n": k}, "result": _log(rng, k), "status": "ok"}
        for k in range(1, 11)
    ]
    # the text's own rules (the wide vocabulary reads such a log into entries instead: see below)
    forms = sorted(p["form"] for p in text_contracts([r["result"] for r in rows], 7))
    assert forms == ["line_commit_hex", "not_empty", "not_error", "not_html"]
    reg = learn(rows)
    assert reg.meta["views"]["git_log"]["parse"] == "lines"
    assert reg.check("git_log", {"n": 3}, _log(rng, 3)) == []
    for bad, words in (
        (PAGE_502, "an error"),
        ("", "must be an object"),
        ("fatal: unable to read tree", "an error"),
        ("Commit history:\nCommit: unknown\nAuthor: A", "Commit must look like"),
    ):
        found = reg.check("git_log", {"n": 3}, bad)
        assert found and any(words in v.sentence for v in found), (bad, [v.sentence for v in found])
    # too few clean results, or results that are not all text: no text rule
    assert text_contracts([_log(rng, 2) for _ in range(3)], 7) == []
    assert text_contracts([_log(rng, 2) for _ in range(9)] + [{"a": 1}], 7) == []


def test_unseen_half_falls_with_support():
    # 4 values seen 4-5 times in 17 executions: a fifth is likely; the same shares 100 times over: not
    assert unseen_half([5, 4, 4, 4]) > 0.05
    assert unseen_half([500, 400, 400, 400]) < 1e-6
    assert unseen_half([30, 30]) < 0.01 < unseen_half([3, 3])


def _orders(n: int, rng: random.Random, options: list[str]) -> list[dict]:
    return [
        {
            "tool": "get_order",
            "arguments": {"id": f"#{i}"},
            "result": {"id": f"#{i}", "status": rng.choice(["open", "done"]), "gift": rng.random() < 0.5,
                       "option": options[i % len(options)]},
            "status": "ok",
        }
        for i in range(n)
    ]  # fmt: skip


def test_a_modest_recording_holds_thin_domains_back_and_says_so():
    rng = random.Random(0)
    options = [f"{h} hours" for h in (4, 6, 10, 20)]
    small = learn(_orders(16, rng, options))  # each option seen 4 times: no singleton, still thin
    held = {h["rule"] for h in small.meta.get("held_back", [])}
    assert "domain $.option" in held
    assert not any(r.cls == "domain" and r.fields == ("option",) for r in small.rules_for("get_order"))
    large = learn(_orders(2000, random.Random(1), options))
    assert any(r.cls == "domain" and r.fields == ("option",) for r in large.rules_for("get_order"))
    # the studies' protocol (vocabulary="paper") keeps the small sample's domain as before
    off = learn(_orders(16, random.Random(0), options), vocabulary="paper")
    assert "held_back" not in off.meta
    assert any(r.cls == "domain" and r.fields == ("option",) for r in off.rules_for("get_order"))


def test_booleans_get_a_type_rule_and_receipts_speak_json():
    reg = learn(_orders(200, random.Random(2), ["a", "b"]))
    rules = {(r.cls, r.fields[0]): r for r in reg.rules_for("get_order")}
    assert rules[("type", "gift")].params["types"] == ["boolean"]
    assert ("domain", "gift") not in rules
    (v,) = reg.check(
        "get_order", {"id": "#1"}, {"id": "#1", "status": "open", "gift": "false", "option": "a"}
    )
    assert v.sentence == "gift must be a boolean"
    (v,) = reg.check("get_order", {"id": "#1"}, {"id": "#1", "status": "void", "gift": True, "option": "a"})
    assert v.sentence == 'status must be one of "done", "open"'
