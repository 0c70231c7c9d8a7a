"""Contracts without traces: from a JSON Schema (from record collections: test_crossrecord.py here,
and the tau-bench database in the harness's tests/harness/monitor/test_derive_records.py)."""

from __future__ import annotations

from outcome_monitor import from_json_schema
from outcome_monitor.learning.derive import registry_from_schemas, shape_pattern

SCHEMA = {
    "type": "object",
    "required": ["order_id", "status", "total", "items"],
    "properties": {
        "order_id": {"type": "string", "pattern": "#W[0-9]{7}"},
        "status": {"type": "string", "enum": ["pending", "delivered"]},
        "total": {"type": "number", "exclusiveMinimum": 0},
        "discount": {"type": "number", "minimum": 0},
        "placed": {"type": "string", "format": "date"},
        "items": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/item"}},
    },
    "$defs": {
        "item": {
            "type": "object",
            "required": ["price"],
            "properties": {"price": {"type": "number", "minimum": 0.01}},
        }
    },
}
GOOD = {
    "order_id": "#W1234567",
    "status": "pending",
    "total": 3.5,
    "items": [{"price": 3.5}],
    "discount": None,
}


def test_schema_rules_cover_required_types_enums_signs_formats_and_lists():
    rules = from_json_schema("get_order", SCHEMA)
    classes = {(r.cls, r.context, r.fields[0]) for r in rules}
    assert ("required", "$", "status") in classes and ("domain", "$", "status") in classes
    assert ("positive", "$", "total") in classes and ("positive", "$.items[*]", "price") in classes
    assert ("positive", "$", "len(items)") in classes
    disc = [r for r in rules if r.cls == "type" and r.fields == ("discount",)][0]
    assert "null" in disc.params["types"]  # not required -> nullable


def test_schema_registry_checks():
    reg = registry_from_schemas({"get_order": SCHEMA})
    assert reg.check("get_order", {}, GOOD) == []
    bad = {**GOOD, "status": "lost", "total": -1, "order_id": "W1", "placed": "yesterday", "items": []}
    fired = {(v.rule_class, v.path) for v in reg.check("get_order", {}, bad)}
    assert {
        ("domain", "$.status"),
        ("positive", "$.total"),
        ("type", "$.order_id"),
        ("type", "$.placed"),
        ("positive", "len($.items)"),
    } <= fired
    assert {v.rule_class for v in reg.check("get_order", {}, {**GOOD, "items": [{"price": 0}]})} == {
        "positive"
    }


def test_shape_pattern():
    pat, _ = shape_pattern(["#W0000001", "#W1234567", "#W7654321"])
    assert pat == r"\#W\d{7}"
    assert shape_pattern(["abc", "a-b"]) is None


def test_a_field_an_optional_object_requires_is_required_only_where_the_object_is() -> None:
    # a git server's worktree answer: "moved" comes only from a move, and then holds from and to
    schema = {
        "type": "object",
        "required": ["success"],
        "properties": {
            "success": {"type": "boolean"},
            "moved": {
                "type": "object",
                "required": ["from", "to"],
                "properties": {"from": {"type": "string"}, "to": {"type": "string"}},
            },
        },
    }
    reg = registry_from_schemas({"worktree": schema})
    assert reg.check("worktree", {}, {"success": True}) == []
    assert reg.check("worktree", {}, {"success": True, "moved": {"from": "/a", "to": "/b"}}) == []
    assert [v.rule_class for v in reg.check("worktree", {}, {"moved": {"from": "/a", "to": "/b"}})] == [
        "required"
    ]
