"""Contracts without traces from public record collections: the tau-bench retail database (needs
its data; the library's own tests, in outcome-monitor/tests, cover schemas and synthetic records)."""

from __future__ import annotations

import json

from outcome_monitor import Registry
from outcome_monitor.learning.derive import bind_records, from_records

from tests.datapaths import TAUBENCH_RETAIL, retail_only

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
