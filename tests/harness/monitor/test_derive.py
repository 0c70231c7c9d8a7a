"""Contracts without traces: from a JSON Schema and from public record collections."""

from __future__ import annotations

import json

from outcome_monitor.learning.derive import bind_records, from_records, registry_from_schemas, shape_pattern

from harness.monitor import Registry, from_json_schema
from tests.datapaths import TAUBENCH_RETAIL, retail_only

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


TAU = TAUBENCH_RETAIL


@retail_only
def test_records_give_domains_formats_and_references():
    orders = list(json.loads((TAU / "orders.json").read_text()).values())[:300]
    users = json.loads((TAU / "users.json").read_text())  # {user_id: record}
    contracts = from_records({"orders": orders, "users": users})
    rules = contracts["orders"]
    status = [r for r in rules if r.cls == "domain" and r.fields == ("status",)]
    assert status and set(status[0].params["values"]) == {o["status"] for o in orders}
    assert [r for r in rules if r.cls == "type" and r.fields == ("order_id",) and r.params.get("pattern")]
    assert [
        r
        for r in rules
        if r.cls == "domain" and r.fields == ("user_id",) and r.params.get("reference") == "users"
    ]
    reg = Registry(bind_records(rules, "get_order_details"))
    assert reg.check("get_order_details", {}, orders[0]) == []
    bad = {**orders[0], "status": "teleported", "user_id": "nobody_0000"}
    assert {v.path for v in reg.check("get_order_details", {}, bad)} >= {"$.status", "$.user_id"}
