"""The registry file a user keeps: every registry the library can build validates against the JSON
Schema shipped in the package (and a corrupted one does not); rule ids are stable across re-learning,
row order and processes, unique, written in the file and shown by ``explain``; ``explain`` says each
rule in a sentence; a version-1 file written by hand is read; another version is refused in one line.

Imports ``outcome_monitor``, the standard library, pytest and this folder's ``fixtures``;
``jsonschema`` (the dev extra) only in the tests that validate, which skip without it."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import re
import subprocess
import sys
from typing import Any

import fixtures
import pytest
from outcome_monitor import Registry, from_json_schema, learn
from outcome_monitor.checking.rules import RULE_CLASSES, Rule
from outcome_monitor.cli.main import main
from outcome_monitor.registry_format import FORMAT_VERSION, KIND, schema

# ---------------------------------------------------------------------------------------- traces


def _rng(*parts: Any) -> random.Random:
    """Seeded by hashing its parts: the same rows on every run and process (never ``hash()``)."""
    return random.Random(int(hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16], 16))


def rows(n: int = 80, seed: int = 0) -> list[dict[str, Any]]:
    """Clean rows of four tools whose results carry every rule class of both vocabularies: an order
    (types, signs, a domain, an echo, ordered dates, a product, ids of one shape, a score in [0, 1],
    rows unique by two keys), a search whose summary is JSON text (a view) and whose hits a limit
    bounds, and a commit printed as text (line shapes)."""
    out = []
    for i in range(n):
        r = _rng(seed, i)
        oid = f"W{r.randint(0, 10**7):07d}"
        qty, unit, day = r.randint(1, 9), round(r.uniform(2, 90), 2), r.randint(1, 20)
        items = [
            {"item_id": f"I{r.randint(0, 10**6):06d}", "sku": f"S{r.randint(0, 10**6):06d}", "rank": j}
            for j in range(r.randint(2, 5))
        ]
        out.append(
            {
                "tool": "get_order",
                "arguments": {"order_id": oid},
                "result": {
                    "order_id": oid,
                    "status": r.choice(["pending", "shipped", "delivered"]),
                    "quantity": qty,
                    "unit_price": unit,
                    "total": round(unit * qty, 2),
                    "created": f"2025-03-{day:02d}",
                    "ships": f"2025-03-{day + r.randint(0, 8):02d}",
                    "items": items,
                    "score": r.random(),
                },
            }
        )
        limit = r.randint(3, 8)
        names = [f"name_{r.randint(0, 999)}" for _ in range(r.randint(1, limit))]
        summary = json.dumps({"count": len(names), "took_ms": r.randint(1, 500)})
        out.append(
            {
                "tool": "search",
                "arguments": {"query": f"q{i}", "limit": limit},
                "result": {"hits": [{"name": x} for x in names], "summary": summary},
            }
        )
        sha = f"{r.getrandbits(160):040x}"
        words = " ".join(
            r.choice(["fix", "the", "bug", "in", "parser", "add", "tests"]) for _ in range(r.randint(1, 8))
        )
        out.append(
            {
                "tool": "git_show",
                "arguments": {"rev": sha[:7]},
                "result": f"commit {sha}\nrevision {r.randint(1, 9999)}\n\n{words}\n",
            }
        )
    return out


ORDER_SCHEMA = {
    "type": "object",
    "required": ["order_id", "total", "items"],
    "properties": {
        "order_id": {"type": "string"},
        "total": {"type": "number", "exclusiveMinimum": 0},
        "status": {"type": "string", "enum": ["pending", "shipped", "delivered", "cancelled"]},
        "items": {
            "type": "array",
            "minItems": 1,
            "items": {"type": "object", "required": ["sku"], "properties": {"sku": {"type": "string"}}},
        },
    },
}

ROWS = rows()
WIDE = learn(ROWS)
PAPER = learn(ROWS, vocabulary="paper")
SCHEMA_DERIVED = Registry(from_json_schema("get_order", ORDER_SCHEMA), {"source": "schema"})
REGISTRIES = {
    "wide": WIDE,
    "paper": PAPER,
    "schema": SCHEMA_DERIVED,
    "paper+schema": PAPER.merged(SCHEMA_DERIVED),
    "wide+schema": WIDE.merged(SCHEMA_DERIVED),
    # the rows the library's other tests learn from (fixtures.py)
    "fixtures paper": learn(fixtures.traces(), vocabulary="paper"),
    "fixtures wide": learn(fixtures.traces()),
}


def _file(reg: Registry) -> dict[str, Any]:
    """The registry as its file holds it (through JSON text, as save writes it)."""
    return json.loads(json.dumps(reg.to_json(), ensure_ascii=False, default=repr))


@pytest.fixture(scope="module")
def validator() -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(schema())
    return jsonschema.Draft202012Validator(schema())


# ---------------------------------------------------------------------------------------- schema


def test_the_schema_is_shipped_and_speaks_of_this_version():
    s = schema()
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert s["properties"]["format_version"]["const"] == FORMAT_VERSION
    assert s["properties"]["kind"]["const"] == KIND
    assert s["$defs"]["rule"]["properties"]["class"]["enum"] == list(RULE_CLASSES)


def test_the_test_registries_hold_every_rule_class_and_source():
    classes = {r.cls for reg in REGISTRIES.values() for rs in reg.rules.values() for r in rs}
    assert classes == set(RULE_CLASSES)
    assert {"shape", "collection", "text", "range"} <= {r.cls for rs in WIDE.rules.values() for r in rs}
    assert WIDE.meta.get("views") and WIDE.meta.get("viewed_rules")
    sources = {r.source for reg in REGISTRIES.values() for rs in reg.rules.values() for r in rs}
    assert {"traces", "schema"} <= sources and any("+" in s for s in sources)


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_every_registry_validates_and_survives_its_file(name, validator, tmp_path):
    reg = REGISTRIES[name]
    assert reg.n_rules > 0
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(_file(reg))]
    assert errors == []
    reg.save(tmp_path / "r.json")
    back = Registry.load(tmp_path / "r.json")
    assert back.to_json() == _file(reg)


def _corrupt(name: str) -> dict[str, Any]:
    obj = copy.deepcopy(_file(WIDE))
    rule = obj["tools"]["get_order"][0]
    typed = next(r for r in obj["tools"]["get_order"] if r["class"] == "type")
    if name == "version as text":
        obj["format_version"] = "1"
    elif name == "no tools":
        del obj["tools"]
    elif name == "a rule without its class":
        del rule["class"]
    elif name == "an unknown class":
        rule["class"] = "vibes"
    elif name == "no fields":
        rule["fields"] = []
    elif name == "a type rule without types":
        typed["params"] = {}
    elif name == "an unknown JSON type":
        typed["params"]["types"] = ["float"]
    elif name == "support that is not a count":
        rule["support"] = {"n": "many"}
    elif name == "a stray key":
        obj["rules"] = []
    return obj


CORRUPTIONS = [
    "version as text",
    "no tools",
    "a rule without its class",
    "an unknown class",
    "no fields",
    "a type rule without types",
    "an unknown JSON type",
    "support that is not a count",
    "a stray key",
]


@pytest.mark.parametrize("name", CORRUPTIONS)
def test_a_corrupted_registry_fails_validation(name, validator):
    assert list(validator.iter_errors(_corrupt(name))), name


@pytest.mark.parametrize(
    "name", ["version as text", "a rule without its class", "an unknown class", "no fields"]
)
def test_the_reader_refuses_a_broken_rule_in_one_line(name):
    with pytest.raises(ValueError) as exc:
        Registry.from_json(_corrupt(name))
    assert len(str(exc.value).splitlines()) == 1
    if name != "version as text":
        assert "rule 0 of tool 'get_order'" in str(exc.value)


# ---------------------------------------------------------------------------------------- ids


def _ids(reg: Registry) -> list[str]:
    return [r.rule_id for rs in reg.rules.values() for r in rs]


def test_ids_are_unique_in_every_registry():
    for name, reg in REGISTRIES.items():
        ids = _ids(reg)
        assert len(ids) == len(set(ids)), name
    # a list whose rows never repeat an item_id nor a sku: two rules of one form on one field
    unique = sorted(i for i in _ids(WIDE) if ":collection:unique" in i and i.endswith(":$:items"))
    assert unique == [
        "get_order:collection:unique(item_id):$:items",
        "get_order:collection:unique(sku):$:items",
    ]


def test_ids_are_written_in_the_file():
    for reg in REGISTRIES.values():
        written = [r for rs in _file(reg)["tools"].values() for r in rs]
        assert all(r["id"] == Rule.from_json(r).rule_id for r in written)
        assert sorted(r["id"] for r in written) == sorted(_ids(reg))


def test_ids_are_the_same_learned_again_from_rows_in_another_order():
    shuffled = list(ROWS)
    random.Random(7).shuffle(shuffled)
    for vocabulary in ("wide", "paper"):
        a, b = learn(ROWS, vocabulary=vocabulary), learn(shuffled, vocabulary=vocabulary)
        assert sorted(_ids(a)) == sorted(_ids(b))
        # and the rules themselves: the same content under the same id
        by_id = {r.rule_id: r.to_json() for rs in b.rules.values() for r in rs}
        assert all(by_id[r.rule_id] == r.to_json() for rs in a.rules.values() for r in rs)


def test_ids_are_the_same_in_other_processes(tmp_path):
    """Learned in two fresh interpreters with different hash seeds: the ids (and the whole file)
    match this process's, so no id depends on ``hash()`` or on set order."""
    (tmp_path / "rows.json").write_text(json.dumps(ROWS))
    code = (
        "import json, sys; from outcome_monitor import learn; "
        "reg = learn(json.load(open(sys.argv[1]))); "
        "print(json.dumps(reg.to_json(), sort_keys=True, default=repr))"
    )
    mine = json.loads(json.dumps(WIDE.to_json(), sort_keys=True, default=repr))
    for seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", code, str(tmp_path / "rows.json")],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        theirs = json.loads(done.stdout)
        assert sorted(r["id"] for rs in theirs["tools"].values() for r in rs) == sorted(_ids(WIDE))
        assert theirs["tools"] == mine["tools"]


def test_an_id_names_what_the_rule_is_about_not_what_was_learned():
    """More clean rows widen what was learned (a domain's values, the support) but not the id."""
    more = learn(ROWS + rows(40, seed=1))
    for rid in ("get_order:domain:$:status", "get_order:relation:product:$:total|quantity|unit_price"):
        assert rid in _ids(WIDE) and rid in _ids(more)


# ---------------------------------------------------------------------------------------- explain

_LINE = re.compile(
    r"^  (?P<tool>[\w]+): (?P<sentence>.+)\. An? (?P<cls>[a-z-]+) rule "
    r"(?P<origin>(learned from clean traces|declared by the tool's output schema)"
    r"( and (learned from clean traces|declared by the tool's output schema))*)"
    r"(?: \((?P<support>[^()]+)\))?(?P<viewed>, on the result as its view reads it)?; id (?P<id>.+)$"
)


@pytest.mark.parametrize("name", sorted(REGISTRIES))
def test_explain_says_each_rule_in_a_sentence_with_its_tool_field_source_support_and_id(name):
    reg = REGISTRIES[name]
    lines = reg.explain()
    assert len(lines) == len(reg.tools()) + reg.n_rules
    viewed = set(reg.meta.get("viewed_rules") or ())
    rules = {r.rule_id: r for rs in reg.rules.values() for r in rs}
    seen = set()
    tool = None
    for line in lines:
        if not line.startswith("  "):
            tool, _, count = line.partition(" (")
            assert count == f"{len(reg.rules_for(tool))} rules)"
            continue
        m = _LINE.match(line)
        assert m is not None, line
        r = rules[m["id"]]
        seen.add(r.rule_id)
        assert m["tool"] == r.tool == tool and m["cls"] == r.cls.replace("_", "-")
        # the sentence names the rule's field, in words (no derived-field or path notation)
        field = r.fields[0]
        named = "the result" if r.context == "$" and not field else field.split("(")[-1].rstrip(")")
        assert named.removeprefix("$.") in m["sentence"] or "each element of" in m["sentence"], line
        for jargon in ("len(", "sum(", "$.", "{'", "[required]", "n="):
            assert jargon not in m["sentence"], (jargon, line)
        assert (m["support"] is not None) == bool(r.support), line
        assert (m["viewed"] is not None) == (r.rule_id in viewed), line
    assert seen == set(rules)


def test_explain_words_for_the_wider_vocabulary():
    text = "\n".join(WIDE.explain())
    for words in (
        "get_order: the number of elements of items must be positive.",
        "get_order: the item_ids of items must all differ",
        "id get_order:collection:unique(item_id):$:items",
        "search: hits must hold at most the argument limit elements.",
        "search: summary.took_ms must be non-negative. A positive rule learned from clean traces (",
        "on the result as its view reads it",
        "git_show: the result must have a line shaped like commit <40 hex digits>",
        "get_order: score must be between 0 and 1",
        "get_order: total must equal quantity × unit_price. A relation rule learned from clean traces (seen 80 times,",
    ):
        assert words in text, words
    # a receipt keeps the path words the studies' scripted players read
    rule = next(r for r in WIDE.rules_for("get_order") if r.fields == ("len(items)",))
    assert rule.sentence() == "len($.items) must be positive"


# ---------------------------------------------------------------------------------------- versions

# A version-1 file as outcome-monitor 0.2.0 wrote it, by hand: a tool whose payload is JSON text (a
# view) with rows unique by two keys, which that version named by one bare id in ``viewed_rules``.
VERSION_1 = {
    "format_version": 1,
    "kind": "outcome-monitor-registry",
    "meta": {
        "source": "traces",
        "vocabulary": "wide",
        "views": {"list_items": {"fields": {"payload": {"parse": "json"}}}},
        "viewed_rules": [
            "list_items:collection:unique:$:payload.items",
            "list_items:required:$:payload.items",
        ],
    },
    "n_rules": 4,
    "tools": {
        "list_items": [
            {
                "id": "list_items:required:$:payload.items",
                "tool": "list_items",
                "class": "required",
                "context": "$",
                "fields": ["payload.items"],
                "params": {},
                "support": {"n": 80},
                "source": "traces",
            },
            {
                "id": "list_items:collection:unique:$:payload.items",
                "tool": "list_items",
                "class": "collection",
                "context": "$",
                "fields": ["payload.items"],
                "params": {"form": "unique", "key": "id"},
                "support": {"n": 80},
                "source": "traces",
            },
            {
                "id": "list_items:collection:unique:$:payload.items",
                "tool": "list_items",
                "class": "collection",
                "context": "$",
                "fields": ["payload.items"],
                "params": {"form": "unique", "key": "ref"},
                "support": {"n": 80},
                "source": "traces",
            },
            {
                "id": "list_items:positive:$:total",
                "tool": "list_items",
                "class": "positive",
                "context": "$",
                "fields": ["total"],
                "params": {"strict": True},
                "support": {},
                "source": "schema",
            },
        ]
    },
}


def _listing(ids: list[str], refs: list[str], total: float = 2) -> dict[str, Any]:
    items = [{"id": i, "ref": r} for i, r in zip(ids, refs, strict=True)]
    return {"payload": json.dumps({"items": items}), "total": total}


def test_a_version_1_file_written_by_hand_validates(validator):
    assert list(validator.iter_errors(VERSION_1)) == []


def test_a_version_1_file_written_by_hand_is_read_and_checks():
    reg = Registry.from_json(copy.deepcopy(VERSION_1))
    assert reg.n_rules == 4

    def fired(result: Any) -> list[str]:
        return sorted(v.rule_id for v in reg.check("list_items", {}, result))

    assert fired(_listing(["A1", "A2"], ["R1", "R2"])) == []
    # each rule its bare id named reads the payload through the view, as when it was learned
    assert fired(_listing(["A1", "A1"], ["R1", "R2"])) == ["list_items:collection:unique(id):$:payload.items"]
    assert fired(_listing(["A1", "A2"], ["R1", "R1"])) == [
        "list_items:collection:unique(ref):$:payload.items"
    ]
    assert fired({"total": 2}) == ["list_items:required:$:payload.items"]
    # the rule of another source reads the result as sent
    assert fired(_listing(["A1", "A2"], ["R1", "R2"], total=-1)) == ["list_items:positive:$:total"]
    # written again, it names each rule by its own id, and reads back the same
    again = reg.to_json()
    assert again["meta"]["viewed_rules"] == [
        "list_items:collection:unique(id):$:payload.items",
        "list_items:collection:unique(ref):$:payload.items",
        "list_items:collection:unique:$:payload.items",
        "list_items:required:$:payload.items",
    ]
    assert Registry.from_json(again).to_json() == again


@pytest.mark.parametrize(
    ("version", "says"), [(99, "newer outcome-monitor"), (0, "learn the registry again")]
)
def test_another_version_is_refused_in_one_line(version, says, tmp_path, capsys):
    obj = {**_file(PAPER), "format_version": version}
    with pytest.raises(ValueError) as exc:
        Registry.from_json(obj)
    message = str(exc.value)
    assert message.startswith("unsupported registry format_version") and says in message
    assert len(message.splitlines()) == 1
    path = tmp_path / f"v{version}.json"
    path.write_text(json.dumps(obj))
    rows_file = tmp_path / "rows.jsonl"
    rows_file.write_text(json.dumps(ROWS[0]) + "\n")
    for argv in (
        ["explain", "--registry", str(path)],
        ["check", "--registry", str(path), "--input", str(rows_file), "--output", str(tmp_path / "o.jsonl")],
    ):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        line = str(stop.value.code)
        assert line.startswith(f"error: the registry {path} has format_version {version}"), line
        assert says in line and len(line.splitlines()) == 1
    assert not (tmp_path / "o.jsonl").exists()


def test_the_command_exits_non_zero_with_one_line_on_a_future_version(tmp_path):
    path = tmp_path / "future.json"
    path.write_text(json.dumps({**_file(PAPER), "format_version": 99}))
    done = subprocess.run(
        [sys.executable, "-m", "outcome_monitor", "explain", "--registry", str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "format_version 99" in done.stderr and str(path) in done.stderr
    assert "upgrade" in done.stderr
