"""A tool's generated check (``outcome_monitor.checking.toolcode``) finds exactly the violations of
the reference path: every rule's own closure over the registry's plans, in plan order. Checked on
the synthetic traces and their perturbed copies, and on ToolMaze's clean results and every fault
its world plants in them, under both vocabularies."""

from __future__ import annotations

import copy
import math
from collections import OrderedDict, defaultdict

import pytest
from outcome_monitor.checking import shapes, toolcode
from outcome_monitor.checking.paths import iter_context
from outcome_monitor.checking.values import type_ok
from outcome_monitor.registry import Registry, _compile_tool, _violation
from outcome_monitor.text import parse

from core.seeding import rng
from harness.monitor import learn
from harness.monitor import synthetic as syn

_REFERENCE_PLANS: dict = {}


def reference_check(reg: Registry, tool: str, arguments, result) -> list:
    """Every rule's compiled closure in plan order: no generated code at all (tools without a view)."""
    rules = reg.rules.get(tool)
    if not rules:
        return []
    args = arguments if arguments is not None else {}
    found = []
    key = (id(reg), tool)
    if key not in _REFERENCE_PLANS:
        _REFERENCE_PLANS[key] = (reg, _compile_tool(rules))  # the registry held: its id stays its own
    for plan in _REFERENCE_PLANS[key][1]:
        for element, index in ((result, ()),) if not plan.chains else iter_context(result, plan.chains):
            if plan.shape_types is not None:
                py, names, c = plan.shape_types
                if type(element) not in py and not type_ok(element, names):
                    found.append(_violation(c, index, element))
                    continue
            if type(element) is dict:
                vals = dict(element)
                for f, g in plan.getters:
                    vals[f] = g(element)
                if plan.whole:
                    vals[""] = element
            else:
                vals = {"": element}
            if plan.keyed:
                vals["#key"] = index[-1]
            # the registry's _run: a value that is no record skips the records' required fields
            records = type(element) is dict or (not plan.chains and isinstance(element, dict))
            ordered = (
                [c for _, c in plan.required if records]
                + [t[-1] for t in plan.typed]
                + [t[-1] for t in plan.positive]
                + [t[-1] for t in plan.domain]
                + plan.checks
            )
            for c in ordered:
                hit = c.fn(vals, args)
                if hit is not None:
                    found.append(_violation(c, index, hit[0]))
    return found


def generated(reg: Registry, tool: str) -> bool:
    """Whether ``tool`` checks through generated code (not the exact path alone)."""
    reg.check(tool, {}, None)
    return reg._plans[tool][2].__code__.co_filename == "<monitor tool check>"


def calls_closures(reg: Registry, tool: str) -> list[str]:
    """The rule closures ``tool``'s generated check calls (its cells named F<n>: toolcode.bind)."""
    code = reg._plans[tool][2].__code__
    return [n for n in code.co_freevars if n[0] == "F" and n[1:].isdigit()]


# text of the kinds the wider vocabulary's text rules name (empty, an error, an HTML page)
ODD_TEXTS = ["", "  ", "Error: upstream timed out", "<html><body>502 Bad Gateway</body></html>"]
# what its shape, placeholder and token rules reject: placeholders of each kind, a homoglyph, a
# replacement character, a name, and strings past the generated code's memo (judged each time)
ODD_STRINGS = [
    "N/A",
    "null",
    "TODO",
    "{{name}}",
    "Lorem ipsum dolor",
    "caf\u00c3\u00a9",
    "Order confirmed...",
    "\u0391BC-123",
    "ab\ufffd1",
    "Mia Garcia",
    "x" * 600,
    "TODO " + "y" * 600,
]
# whole results that read as errors (status.result_error) and ones that nearly do
ERROR_RESULTS = [
    {"error": "upstream failed"},
    {"error": "upstream failed", "code": 503},
    {"success": False, "message": "no such order"},
    {"result": "Error: upstream timed out"},
    {"error": None, "status": "ok"},
    "Database error: Catalog Error: table not found",
]


def mutants(result, r) -> list:
    """Perturbed copies: dropped keys, wrong types, signs, shifted numbers and dates, odd containers."""
    out: list = [None, "x", [result], 7, math.nan, *ERROR_RESULTS]
    if not isinstance(result, dict):
        return out
    out += [OrderedDict(result), defaultdict(int, result), {**result, "extra": 1}]
    for k, v in result.items():
        m = copy.deepcopy(result)
        del m[k]
        out.append(m)
        swaps = ["x", None, True, False, [], {}, -1, 0, 0.0, math.nan, math.inf, -math.inf]
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            swaps += [v * 2 + 1, -v, v + r.choice([0.5, 0.01, 7]), v + 1e-12, float(v), int(v)]
            swaps += [1.5, -0.25, 0.5]  # out of a share's range, and in it
        if isinstance(v, str):
            swaps += [v + "1", v.upper(), "2099-12-31", "1999-01-01T00:00", "2025-01-01 10:00:00Z"]
            swaps += ODD_TEXTS + ODD_STRINGS
        if isinstance(v, list):
            swaps += [[], v[:1], v + v, [None]]
            if v and isinstance(v[0], dict):
                for kk in v[0]:
                    for w in ("x", None, -3, 0.5, math.nan):
                        m = copy.deepcopy(result)
                        m[k][0][kk] = w
                        out.append(m)
        for w in swaps:
            m = copy.deepcopy(result)
            m[k] = w
            out.append(m)
    return out


def same_everywhere(reg: Registry, rows, r) -> tuple[int, int]:
    """Compare on each row's result and its mutants, with its arguments, other ones and none."""
    checked = fired = 0
    for row in rows:
        tool, args = row["tool"], row.get("arguments") or {}
        other = {k: ("zz" if isinstance(v, str) else -5) for k, v in args.items()}
        for res in [row["result"], *mutants(row["result"], r)]:
            for a in (args, other, None):
                got = reg.check(tool, a, res)
                assert got == reference_check(reg, tool, a, res), (tool, a, res)
                checked += 1
                fired += bool(got)
    return checked, fired


@pytest.mark.parametrize("vocabulary", ["paper", "wide"])
def test_generated_tool_checks_equal_the_reference_on_synthetic_traces(vocabulary):
    traces = syn.traces(n_workflows=40, calls_per_workflow=6, seed=3)
    reg = learn(traces, vocabulary=vocabulary)
    tools = {row["tool"] for row in traces}
    assert all(generated(reg, t) for t in tools)  # the code under test is the one that ran
    checked, fired = same_everywhere(reg, traces[:60], rng(11, "compiled-checks", vocabulary))
    assert 0 < fired < checked
    # the violations carry their observed values and concrete paths, not only their ids
    bad = copy.deepcopy(next(row for row in traces if row["tool"] == "get_quote"))
    bad["result"]["price"] = -2.5
    (v,) = [v for v in reg.check("get_quote", bad["arguments"], bad["result"]) if v.rule_class == "positive"]
    assert v.observed == -2.5 and v.path == "$.price"


def test_string_verdicts_forgotten_when_their_memo_fills_check_the_same(monkeypatch):
    # each field's memo of string verdicts is cleared at its bound: a one-entry memo forgets at once
    monkeypatch.setattr(toolcode._Memo, "MAX", 1)
    traces = syn.traces(n_workflows=20, calls_per_workflow=6, seed=7)
    reg = learn(traces)
    assert any(
        isinstance(cell.cell_contents, toolcode._Memo)
        for t in {row["tool"] for row in traces}
        if generated(reg, t)
        for cell in reg._plans[t][2].__closure__ or ()
    )
    checked, fired = same_everywhere(reg, traces[:20], rng(14, "compiled-checks-memo"))
    assert 0 < fired < checked


def test_a_placeholder_alone_and_an_error_envelope_check_as_their_exact_path():
    # free text (no shape, no token: only the placeholder and text kinds judge it) in an object
    # whose every key an error envelope may have: an added "error" makes it one
    r = rng(15, "compiled-checks-envelope")
    vocab = ["Parcel", "was", "packed", "by", "Mia", "at", "noon,", "then", "shipped!", "Li", "42"]
    rows = [
        {
            "tool": "ack",
            "arguments": {},
            "result": {
                "status": r.choice(["done", "queued"]),
                "message": " ".join(r.choice(vocab) for _ in range(r.randint(2, 7))),
            },
        }
        for _ in range(60)
    ]
    reg = learn(rows)
    forms = {(x.cls, x.params.get("form")) for x in reg.rules["ack"] if x.fields == ("message",)}
    assert ("shape", "no_placeholder") in forms and ("shape", "shape") not in forms
    assert generated(reg, "ack") and not calls_closures(reg, "ack")
    fired: dict = defaultdict(int)
    clean = rows[0]["result"]
    for res in [
        *({**clean, "message": t} for t in ODD_TEXTS + ODD_STRINGS),
        {**clean, "error": "upstream failed"},
        {**clean, "error": ""},
        {**clean, "success": False},
        {**clean, "note": "x", "error": "upstream failed"},  # a key no envelope has: no error
    ]:
        got = reg.check("ack", {}, res)
        assert got == reference_check(reg, "ack", {}, res), res
        for v in got:
            fired[(v.rule_class, v.expected)] += 1
    assert fired[("shape", "not a placeholder")] >= 6
    assert sum(n for (c, _), n in fired.items() if c == "text") >= 2


def _placeholder_by_regexes(s: str):
    """shapes.placeholder_kind without its cheap tests before the regexes (the order it had)."""
    t = s[: shapes.HEAD_CHARS].strip()
    if not t:
        return "empty"
    low = t.lower()
    if low in shapes._NULL_WORDS and (t == low or t == t.upper() or t in shapes._NULL_SPELLINGS):
        return "null"
    if shapes._DASHES.fullmatch(t):
        return "null"
    if shapes._TODO.match(t):
        return "todo"
    if shapes._TEMPLATE.search(t) or shapes._TEMPLATE_WHOLE.fullmatch(t):
        return "template"
    if (
        low == "lorem"
        or low.startswith(("lorem ", "lorem,"))
        or "lorem ipsum" in low
        or "dolor sit amet" in low
    ):
        return "lorem"
    if shapes._mojibake(t):
        return "mojibake"
    return "truncated" if s[-64:].rstrip().endswith(("...", "\u2026")) else None


def _text_kinds_by_regexes(text: str) -> frozenset:
    """text.parse.text_kinds without its cheap tests before the regexes."""
    if not text.strip():
        return frozenset({"empty"})
    head, kinds = text[:4000], set()
    if parse._HTML.search(head) or parse._HTTP.search(head):
        kinds.add("html")
    if any(parse._ERROR.search(ln) for ln in parse._head(text)):
        kinds.add("error")
    return frozenset(kinds)


def test_the_cheap_tests_before_the_string_regexes_change_no_verdict(toolmaze):
    strings: set = set()

    def walk(x):
        if isinstance(x, str):
            strings.add(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    for row in toolmaze:
        walk(row["result"])
    # and what the regexes are for, with letters case-insensitive matching folds (ı, ſ, K)
    odd = ODD_TEXTS + ODD_STRINGS + [e for e in ERROR_RESULTS if isinstance(e, str)]
    odd += ["--", "\u2014", "???", "????", "tbd", "FIXME later", "xxx", "To be confirmed", "T\u0131med out"]
    odd += [
        "fa\u0131led: disk",
        "\u0131nternal server error",
        "Ex\u0131t",
        "HTTP/1.1 503 oops",
        "404 Not Found",
    ]
    odd += ["<title>x</title>", "lorem", "Lorem, ipsum", "dolor sit amet", "{user}", "%s", "100%", "a [b]"]
    odd += ["conn refused", "Permission DENIED here", "panic: x", "\u212aernel failure", "ok\nerror: later"]
    cases = sorted(strings) + [p + s for s in odd for p in ("", "  ", "Note: ", "x\n")]
    assert len(strings) > 500
    for s in cases:
        assert shapes.placeholder_kind(s) == _placeholder_by_regexes(s), s
        assert parse.text_kinds(s) == _text_kinds_by_regexes(s), s
    kinds = [parse.text_kinds(s) for s in cases]
    assert any("error" in k for k in kinds) and any("html" in k for k in kinds)
    assert {shapes.placeholder_kind(s) for s in cases} >= {
        None,
        "null",
        "todo",
        "template",
        "lorem",
        "truncated",
    }


def test_a_plan_too_long_to_write_out_keeps_the_exact_path(monkeypatch):
    monkeypatch.setattr(toolcode, "MAX_INLINE", 0)
    traces = syn.traces(n_workflows=20, calls_per_workflow=6, seed=5)
    reg = learn(traces, vocabulary="paper")
    assert not any(generated(reg, t) for t in {row["tool"] for row in traces})
    checked, fired = same_everywhere(reg, traces[:20], rng(12, "compiled-checks"))
    assert 0 < fired < checked


@pytest.fixture(scope="module")
def toolmaze():
    from core.worlds import get_plugin

    plugin = get_plugin("toolmaze")
    env = plugin.make(seed=0)
    rows = [r for r in plugin.clean_traces(env, mode="P0") if r.get("status", "ok") != "error"]
    return rows


@pytest.mark.parametrize("vocabulary", ["paper", "wide"])
def test_generated_tool_checks_equal_the_reference_on_toolmaze_faults(toolmaze, vocabulary):
    from environments.toolmaze.catalog import build_catalog
    from environments.toolmaze.faults import explicit_fault, implicit_fault, supported_kinds

    rows = toolmaze
    reg = learn(rows[::2], vocabulary=vocabulary)  # the other half is held out: some clean rows fire
    catalog = build_catalog()
    r = rng(13, "compiled-checks-toolmaze", vocabulary)
    n = fired = 0
    faulted_fired = faulted = text_fired = 0
    odd_fired: dict = defaultdict(int)
    for row in rows[:600]:
        tool, args, clean = row["tool"], row["arguments"], row["result"]
        spec = catalog[tool]
        payloads = [clean, explicit_fault(spec, "http_503").content]
        # the world perturbs the last tool of a route (dag.py's victims), never a first step
        for kind in supported_kinds(spec) if spec.role != "step1" else ():
            try:
                payloads.append(implicit_fault(spec, clean, kind, r).content)
            except AssertionError:
                continue  # this result has no consumed field that kind can change
        texts = [
            {**clean, k: t} for k, v in clean.items() if isinstance(v, str) for t in ODD_TEXTS + ODD_STRINGS
        ]
        texts += [{**clean, k: x} for k, v in clean.items() if type(v) is float for x in (1.5, -0.25)]
        texts += ERROR_RESULTS
        for i, res in enumerate(payloads):
            got = reg.check(tool, args, res)
            assert got == reference_check(reg, tool, args, res), (tool, res)
            n += 1
            fired += bool(got)
            if i > 0:
                faulted += 1
                faulted_fired += bool(got)
        for res in texts:  # a text field turned into an error or a page, with and without arguments
            for a in (args, None):
                got = reg.check(tool, a, res)
                assert got == reference_check(reg, tool, a, res), (tool, a, res)
                text_fired += any(v.rule_class == "text" for v in got)
                for v in got:
                    odd_fired[v.rule_class] += 1
    assert sum(generated(reg, t) for t in reg.tools()) >= 0.9 * len(reg.tools())
    assert (text_fired > 0) == (vocabulary == "wide")  # only the wider vocabulary has text rules
    if vocabulary == "wide":  # the odd strings and numbers broke the rules written out for them
        assert odd_fired["shape"] > 0 and odd_fired["range"] > 0
        # and every rule of these tools is written out: no rule's own closure is called
        assert not [t for t in reg.tools() if generated(reg, t) and calls_closures(reg, t)]
    assert faulted > 0.5 * n and faulted_fired > 0.5 * faulted and fired < n


def _log(r, n: int) -> str:
    lines = ["Commit history:"]
    for _ in range(n):
        lines += [f"Commit: {r.getrandbits(160):040x}", f"Author: A{r.randint(0, 3)}", "Message: change"]
    return "\n".join(lines)


def test_a_tool_read_through_a_view_checks_as_its_exact_path(monkeypatch):
    from outcome_monitor import registry
    from outcome_monitor.registry import _check_exact

    r = rng(14, "compiled-checks-view")
    rows = [
        {"tool": "git_log", "arguments": {"n": k % 9 + 1}, "result": _log(r, k % 9 + 1)} for k in range(40)
    ]
    reg = learn(rows)
    assert reg.meta["views"]["git_log"]["parse"] == "lines"
    reg.check("git_log", {}, None)
    assert reg._plans["git_log"][2].__name__ == "check"  # the view's generated check, not the exact path
    raw, viewed, _ = reg._plans["git_log"]
    view = reg._views["git_log"]
    results = [_log(r, 3), _log(r, 1), *ODD_TEXTS, None, 7, ["x"], {"a": 1}, "Commit history:"]
    results += [_log(r, 2).replace("Commit: ", "Commit: zz", 1), _log(r, 2) + "\nCommit: 123"]
    fired = 0
    for res in results:
        for a in ({"n": 3}, None):
            got = reg.check("git_log", a, res)
            assert got == _check_exact("git_log", view, raw, viewed, a, res), res
            fired += bool(got)
    assert 0 < fired < 2 * len(results)
    # a clean log passes on the generated code alone
    calls = []
    monkeypatch.setattr(registry, "_check_exact", lambda *a: calls.append(a) or _check_exact(*a))
    assert reg.check("git_log", {"n": 3}, _log(r, 3)) == [] and calls == []
    assert reg.check("git_log", {"n": 3}, "") and len(calls) == 1


def test_numbers_read_out_of_text_and_a_declared_schema_check_as_their_exact_path(monkeypatch):
    from outcome_monitor import registry
    from outcome_monitor.learning.derive import registry_from_schemas
    from outcome_monitor.registry import _check_exact

    rows = [
        {"tool": "count", "arguments": {"q": f"w{i}"}, "result": {"result": str(i * 3 + 1)}}
        for i in range(20)
    ]
    schema = {"type": "object", "properties": {"result": {"type": "string"}, "note": {"type": "string"}}}
    # the learned rules read "result" as a number (the view); the schema's rules read it as sent
    reg = learn(rows).merged(registry_from_schemas({"count": schema}))
    assert reg.meta["views"]["count"] == {"fields": {"result": {"parse": "number"}}}
    reg.check("count", {}, None)
    raw, viewed, check = reg._plans["count"]
    assert raw and viewed and check.__name__ == "check"
    results = [{"result": "77"}, {"result": 77}, {"result": "-4"}, {"result": "N/A"}, {"result": None}]
    results += [{"result": "7", "note": 3}, {"result": "7", "note": "n"}, {}, "7", None]
    fired = 0
    for res in results:
        got = reg.check("count", {"q": "w"}, res)
        assert got == _check_exact("count", reg._views["count"], raw, viewed, {"q": "w"}, res), res
        fired += bool(got)
    assert fired >= 5
    calls = []
    monkeypatch.setattr(registry, "_check_exact", lambda *a: calls.append(a) or _check_exact(*a))
    assert reg.check("count", {"q": "w"}, {"result": "77", "note": "n"}) == [] and calls == []
