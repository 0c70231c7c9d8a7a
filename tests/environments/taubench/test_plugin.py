"""The plugin: registry lookup, clean traces, result schemas, database and bindings, oracle, layering."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import jsonschema
import pytest

from core.plugin import Database, Plugin
from core.worlds import get_environment, get_plugin
from environments.taubench.retail import DOMAIN

TOOLS = DOMAIN.tools


@pytest.fixture(scope="module")
def plugin():
    return get_plugin("taubench")


def test_registry_and_make(plugin, data_dir):
    from environments.taubench.plugin import PLUGIN

    assert plugin is PLUGIN and isinstance(plugin, Plugin)
    assert plugin.player_conventions() is None and plugin.contract_sources == ("traces", "database")
    env = get_environment("taubench", data_dir=str(data_dir))
    assert env.name == "taubench" and len(env.tool_specs()) == 16
    with pytest.raises(TypeError, match="taubench takes only"):
        plugin.make(data_dir=str(data_dir), colour="red")
    assert set(plugin.scripted_policies()) == {"trusting", "receipt-aware", "skeptic", "noisy"}
    assert list(plugin.scripted_users()) == ["card-user"]


def test_clean_traces_are_clean_and_seeded(plugin, env):
    rows = list(plugin.clean_traces(env, split="test"))
    again = list(plugin.clean_traces(env, split="test"))
    other = list(plugin.clean_traces(env, split="test", seed=1))
    assert rows == again and rows != other
    random_rows = [r for r in rows if r["source"] == "random"]
    assert len(random_rows) == 4 * 115
    assert {r["status"] for r in random_rows} == {"ok", "error"}
    # random calls never write: every successful one is a read
    assert {TOOLS[r["tool"]].category for r in random_rows if r["status"] == "ok"} == {"read"}
    errors = [r for r in random_rows if r["status"] == "error"]
    assert all(isinstance(r["result"], str) and r["result"].startswith("Error: ") for r in errors)
    gt = [r for r in rows if r["source"] == "ground_truth"]
    assert len(gt) == sum(len(env.record(t.task_id).actions) for t in env.tasks("test"))
    # random reads stay with the task's own customer (a fold holds its customer's records)
    for r in random_rows:
        if r["tool"] == "get_order_details" and r["status"] == "ok":
            assert r["result"]["user_id"] == r["group_id"]


def test_result_schemas_accept_every_clean_result(plugin, env):
    schemas = plugin.tool_schemas(env)
    assert set(schemas) == {n for n, t in TOOLS.items() if t.returns == "json"}
    validators = {n: jsonschema.Draft202012Validator(s) for n, s in schemas.items()}
    rows = itertools.chain(plugin.clean_traces(env, split="test"), plugin.clean_traces(env, split="dev"))
    checked = 0
    for r in rows:
        if r["status"] == "ok" and r["tool"] in schemas:
            validators[r["tool"]].validate(r["result"])
            checked += 1
    assert checked > 300
    # every record of the initial database too (products are read rarely in traces)
    for name, tool in (
        ("users", "get_user_details"),
        ("orders", "get_order_details"),
        ("products", "get_product_details"),
    ):
        for record in env.data.base.collections[name].values():
            validators[tool].validate(record)
    # and every record a train ground truth writes (0.0 refunds, unrounded amounts, balances above 100)
    post = plugin.database(env, split="train").collections
    for name, tool in (("users", "get_user_details"), ("orders", "get_order_details")):
        for key, record in post[name].items():
            if "~" in key:
                validators[tool].validate(record)


def test_database_and_bindings(plugin, env, raw):
    db = plugin.database(env, split="dev")
    assert isinstance(db, Database)
    assert set(db.collections) == {"users", "orders", "products"}
    added = {c: [k for k in v if "~" in k] for c, v in db.collections.items()}
    assert len(db.collections["orders"]) == len(raw["orders"]) + len(added["orders"]) and added["orders"]
    assert all(k.split("~")[1].startswith("dev-") for k in added["orders"])
    assert db.bindings["get_order_details"] == [("orders", "$")]
    assert db.bindings["get_user_details"] == [("users", "$")]
    assert db.bindings["get_product_details"] == [("products", "$")]
    assert set(db.bindings) == set(plugin.tool_schemas(env)) - {"list_all_product_types"}
    assert len(plugin.database(env, split=None).collections["orders"]) == len(raw["orders"])


def test_oracle_is_the_ground_truth(plugin, env, raw):
    calls = plugin.oracle(env, "test-0")
    assert [(c.name, dict(c.arguments)) for c in calls] == [
        (a["name"], a["kwargs"]) for a in raw["tasks_test"][0]["actions"]
    ]


def test_environment_imports_no_harness_or_analysis():
    root = Path(__file__).resolve().parents[3] / "environments" / "taubench"
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            assert not any(n.split(".")[0] in ("harness", "analysis") for n in names), path
