"""The check path's shortcuts read as the slow paths do: compiled views (viewcode) against
``apply_view`` and ``misreads``, ``text_kinds``'s word screen before the HTTP regex against the
regex alone, and a generated check's inline reads of dotted paths against the exact path."""

from __future__ import annotations

import random

import pytest
from outcome_monitor import registry as registry_module
from outcome_monitor.checking.rules import Rule
from outcome_monitor.checking.toolcode import generate_tool
from outcome_monitor.registry import Registry, _compile_tool
from outcome_monitor.text import parse, viewcode
from outcome_monitor.text.views import apply_view, infer_root_view, infer_view, misreads

_STRINGS = [
    "12",
    "-3.5",
    "007",
    "0",
    "1e400",
    "N/A",
    "true",
    "False",
    "",
    "  ",
    "[1, 2]",
    '{"x": "4", "y": [1]}',
    "[(1, 'a', 2.5)]",
    "Name: a\nk: 1\nk: 2\nother",
    "id,name\n1,a\n2,b\n",
    "Contents of x:\n[1, 2]",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "datetime.date(2025, 3, 1)",
    "x" * 50,
]


def _value(r: random.Random, depth: int = 0):
    roll = r.random()
    if depth > 3 or roll < 0.45:
        return r.choice([*_STRINGS, 5, -2, 0.5, None, True, False])
    if roll < 0.7:
        keys = ["id_", "a", "b", "n", "x", "pos0", "pos1", "name", "id"]
        return {k: _value(r, depth + 1) for k in r.sample(keys, r.randint(0, 4))}
    return [_value(r, depth + 1) for _ in range(r.randint(0, 4))]


def _fit(view: dict, r: random.Random, depth: int = 0):
    """A value shaped as ``view`` reads (its places hold text to parse), now and then anything."""
    if depth > 5 or r.random() < 0.15:
        return _value(r)
    inner = {
        k: v
        for k, v in view.items()
        if k not in ("many", "wrap", "table", "tabled", "columns", "named", "star")
    }
    if "columns" in view:
        return [[r.choice(_STRINGS), r.choice([1, "2", None])] for _ in range(r.randint(0, 3))]
    if view.get("table"):
        return [r.choice(["id", "n", 1, "a", 2.5]) for _ in range(r.randint(0, 8))]
    if inner is not view and inner != view:
        v = _fit(inner, r, depth + 1)
        return v if not view.get("many") or r.random() < 0.5 else [v]
    if "parse" in view:
        return r.choice(_STRINGS)
    if view.get("header"):
        return [["id", "n"], *([r.choice(_STRINGS), r.choice(_STRINGS)] for _ in range(r.randint(0, 3)))]
    if "tuple" in view:
        fields = view.get("fields", {})
        return [_fit(fields.get(f"pos{i}", {}), r, depth + 1) for i in range(view["tuple"])]
    if "entries" in view:
        return {f"k{i}": _fit(view["entries"], r, depth + 1) for i in range(r.randint(0, 3))}
    if "fields" in view:
        return {k: _fit(sub, r, depth + 1) for k, sub in view["fields"].items() if r.random() < 0.9}
    if "items" in view:
        return [_fit(view["items"], r, depth + 1) for _ in range(r.randint(0, 3))]
    return _value(r)


HAND_VIEWS = [
    {"items": {"fields": {"id_": {"parse": "number"}}}, "wrap": "items"},
    {"many": True, "wrap": "items", "items": {"parse": "json"}},
    {
        "fields": {
            "a": {"parse": "json", "then": {"fields": {"x": {"parse": "number"}}}},
            "b": {"tuple": 2, "fields": {"pos0": {"parse": "number"}, "pos1": {"parse": "boolean"}}},
        }
    },
    {"entries": {"parse": "boolean"}},
    {"tuple": 2, "entries": {"parse": "number"}},
    {"tuple": 3},
    {"parse": "literal", "mixed": True, "then": {"items": {"parse": "number"}}},
    {"parse": "literal", "then": {"items": {"parse": "number"}}},
    {"header": True, "then": {"items": {"fields": {"n": {"parse": "number"}}}}},
    {"header": True},
    {"table": True, "wrap": "items"},
    {"table": True, "tabled": {"items": {"fields": {"pos0": {"parse": "number"}}}}},
    {"parse": "json", "skip": 1},
    {"parse": "csv"},
    {"parse": "kv"},
    {"parse": "md"},
    {"parse": "lines", "single": ["Name"], "record": ["k"], "start": "k"},
    {"columns": "query", "wrap": "items"},
    {"columns": "query", "named": {"items": {"fields": {"a": {"parse": "number"}}}}, "many": True},
    {"items": {"items": {"parse": "number"}}},
    {},
]


def _inferred(r: random.Random) -> list[dict]:
    out = []
    for _ in range(200):
        values = [_value(r) for _ in range(r.randint(3, 12))]
        for v in (infer_view(values), infer_root_view(values)):
            if v:
                out.append(v)
    # one kind at a place, as clean results have it
    for s in _STRINGS:
        v = infer_view([s, s + "1", s + "2", "3", "4", "5", "6"])
        if v:
            out.append(v)
    return out


def test_compiled_views_read_as_apply_view_and_misreads():
    r = random.Random(11)
    views = HAND_VIEWS + _inferred(r)
    assert len(views) > len(HAND_VIEWS)
    n = changed = bad_seen = 0
    for view in views:
        read, bad = viewcode.reader(view), viewcode.misread(view)
        for _ in range(60):
            value = _value(r) if r.random() < 0.3 else _fit(view, r)
            args = r.choice([None, {}, {"query": "SELECT a, b FROM t"}, {"query": "SELECT * FROM t"}])
            got = read(value, args)
            assert got == apply_view(view, value, args), (view, value)
            assert bad(value) == bool(misreads(view, value)), (view, value)
            changed += got != value
            bad_seen += bad(value)
            n += 1
    assert n > 1000
    assert changed > n // 4 and bad_seen > n // 50  # places read, and places misread, were met


def _text(r: random.Random) -> str:
    pieces = [
        "HTTP/1.1 ",
        "http/2 ",
        "  HTTP/1.0 503 Service Unavailable",
        "404 Not Found",
        "502 bad gateway",
        "504 Gateway Time-out",
        "500 INTERNAL SERVER ERROR",
        "429 Too Many Requests",
        "401 unauthorized",
        "400 Bad Request",
        "403 forbidden",
        "40 4",
        "5",
        "\n",
        " ",
        "<html>",
        "error: x",
        "the rows",
        "\u0130",
        "\u0131",
        "\u017f",
        "\u212a",
        "\u00e9",
        "NOT FOUND",
        "not found",
        "HTTP/",
        "ht",
        "tp/",
        "Forb\u0130dden",
        "unauthor\u0131zed",
        "too many reque\u017ft\u017f",
        "\u212aX",
    ]
    return "".join(r.choice(pieces) for _ in range(r.randint(0, 8)))


def test_text_kinds_word_screen_keeps_every_http_match():
    r = random.Random(5)
    fired = 0
    for _ in range(20000):
        t = _text(r)
        head = t[:4000]
        if parse._HTTP.search(head):
            fired += 1
            assert parse._may_be_http(head), t
    assert fired > 1000


def _reference_kinds(text: str) -> frozenset[str]:
    """text_kinds as it was before its word screen: the regexes decide."""
    if not text.strip():
        return frozenset({"empty"})
    kinds = set()
    head = text[:4000]
    if ("<" in head and parse._HTML.search(head)) or (
        ("4" in head or "5" in head) and parse._HTTP.search(head)
    ):
        kinds.add("html")
    if parse._may_name_error(head) and any(parse._ERROR.search(ln) for ln in parse._head(text)):
        kinds.add("error")
    return frozenset(kinds)


def test_text_kinds_equal_the_regexes_alone():
    r = random.Random(6)
    for _ in range(20000):
        t = _text(r)
        assert parse.text_kinds(t) == _reference_kinds(t), t
    for t in ["", " \t\n", "\u2003", "\x1c", "\u00a0x", "x"]:
        assert parse.text_kinds(t) == _reference_kinds(t)


def _rule(i: int, cls: str, field: str, params: dict) -> Rule:
    return Rule("t", cls, "$", (field,), params, {"n": 10 + i})


@pytest.mark.parametrize("typed_head", [False, True])
@pytest.mark.parametrize("field", ["a.b", "a.b.c", "shared_with.x.y@z.com", "a.len"])
def test_inline_dotted_paths_equal_the_exact_path(field, typed_head, monkeypatch):
    head = [
        _rule(5, "required", field.split(".")[0], {}),
        _rule(6, "type", field.split(".")[0], {"types": ["object"]}),
    ]
    rules = [
        *(head if typed_head else []),
        _rule(0, "type", field, {"types": ["string"]}),
        _rule(1, "domain", field, {"values": ["r", "rw"], "nullable": False}),
        _rule(2, "required", field, {}),
        _rule(3, "positive", field, {"strict": True}),
        _rule(4, "shape", field, {"form": "no_placeholder"}),
    ]
    fast = Registry(rules)
    r = random.Random(hash(field) & 0xFFFF)
    keys = field.split(".")
    values = []
    for _ in range(400):
        leaf = r.choice(["r", "rw", "x", 3, -1, None, {}, [], 2.5])
        v: object = leaf
        for k in reversed(keys[r.randint(0, len(keys) - 1) :]):
            v = {k: v} if r.random() < 0.9 else r.choice([[v], "s", None, {"other": v}])
        values.append(v)
    got = [fast.check("t", {}, v) for v in values]
    assert fast._plans["t"][2].__name__ == "check"  # toolcode's generated function, not the exact path
    # the generated check alone (None: it can't vouch): [] only where the exact path finds nothing,
    # and [] on every clean value (the path read in full, not a prefix of it sent to the exact path)
    alone = generate_tool(_compile_tool(rules), lambda arguments, result: None)
    assert alone is not None
    clean = {"r", "rw"}
    for v, found in zip(values, got, strict=True):
        verdict = alone({}, v)
        assert verdict is None or (verdict == [] and found == [])
        leaf = v
        for k in keys:
            leaf = leaf.get(k) if isinstance(leaf, dict) else None
        if isinstance(leaf, str) and leaf in clean and not found:
            assert verdict == []
    monkeypatch.setattr(registry_module, "generate_tool", lambda plans, exact: None)
    slow = Registry(rules)  # every check by the exact path
    assert got == [slow.check("t", {}, v) for v in values]
    assert any(got) and not all(got)


def test_string_memo_answers_as_its_function_and_keeps_its_bounds(monkeypatch):
    from outcome_monitor.checking import toolcode

    monkeypatch.setattr(toolcode._Memo, "MAX", 40)
    monkeypatch.setattr(toolcode._Memo, "LONG_BUDGET", 20_000)
    calls: list[str] = []

    def fn(s: str) -> bool:
        calls.append(s)
        return parse.text_kinds(s) == frozenset() and len(s) % 3 != 0

    memo = toolcode._Memo(fn)
    r = random.Random(9)
    pool = [_text(r) * r.choice([1, 1, 40, 200, 900]) for _ in range(300)]
    for _ in range(5000):
        s = r.choice(pool)
        assert memo[s] == fn(s)
        assert len(memo) <= 40
        assert memo.long == sum(len(k) for k in memo if len(k) > toolcode._MEMO_CHARS) <= 20_000
        assert all(len(k) <= toolcode._LONG_CHARS for k in memo)
    assert any(len(s) > toolcode._LONG_CHARS for s in pool)
    assert any(toolcode._MEMO_CHARS < len(k) for k in memo)


def _items_rule(i: int, field: str, params: dict) -> Rule:
    return Rule("t", "collection", "$.items[*]", (field,), params, {"n": 10 + i})


def test_inline_elements_and_lengths_by_id_equal_the_exact_path(monkeypatch):
    rules = [
        _items_rule(0, "to", {"form": "elements", "not": ["html", "error", "placeholder"], "strings": True}),
        _items_rule(1, "cc", {"form": "elements", "not": ["html"], "values": ["a@x.com", "b@x.com", "N/A"]}),
        _items_rule(2, "cc", {"form": "len_by_id", "key": "id", "lengths": {"1": 2, "2": 0, "x": 1}}),
        _items_rule(3, "to", {"form": "len_by_id", "key": "when", "lengths": {"2024-01-01": 1}}),
    ]
    fast = Registry(rules)
    r = random.Random(21)
    strings = ["a@x.com", "b@x.com", "N/A", "TODO", "<html><body>", "error: no", "", "c@y.org"]

    class Name(str):
        pass

    class Num(int):
        pass

    def element():
        e: dict = {}
        if r.random() < 0.9:
            e["to"] = [r.choice([*strings, 3, None]) for _ in range(r.randint(0, 3))]
        if r.random() < 0.9:
            e["cc"] = r.choice([[r.choice(strings) for _ in range(r.randint(0, 3))], "a@x.com", None])
        e["id"] = r.choice([1, 2, "1", "x", True, 2.0, None, Num(1), Name("x"), "9"])
        e["when"] = r.choice(["2024-01-01", "2024-01-02", Name("2024-01-01")])
        return e

    results = [{"items": [element() for _ in range(r.randint(0, 3))]} for _ in range(1500)]
    got = [fast.check("t", {}, res) for res in results]
    assert fast._plans["t"][2].__name__ == "check"
    alone = generate_tool(_compile_tool(rules), lambda arguments, result: None)
    assert alone is not None
    fast_clean = 0
    for res, found in zip(results, got, strict=True):
        verdict = alone({}, res)
        assert verdict is None or (verdict == [] and found == [])
        fast_clean += verdict == []
    monkeypatch.setattr(registry_module, "generate_tool", lambda plans, exact: None)
    slow = Registry(rules)
    assert got == [slow.check("t", {}, res) for res in results]
    assert sum(map(bool, got)) > 300 and fast_clean > 100


def test_a_pickled_registry_compiles_its_checks_again():
    import pickle

    rules = [_rule(0, "type", "a", {"types": ["string"]}), _rule(1, "required", "a", {})]
    reg = Registry(rules)
    assert reg.check("t", {}, {"a": "x"}) == [] and reg._checks
    again = pickle.loads(pickle.dumps(reg))
    assert not again._checks and not again._plans
    assert again.check("t", {}, {"a": 1}) == reg.check("t", {}, {"a": 1}) != []
    assert again.check("t", {}, {"a": "x"}) == [] and "t" in again._checks
