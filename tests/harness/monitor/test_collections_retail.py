"""Rules over collections on a world: ``learn --env`` at the world's own sources, a run's coverage,
and, with the tau-bench data, detection on a split the registry never saw (the library's own
collection tests are outcome-monitor/tests/test_collections.py)."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest
from outcome_monitor import Registry

from tests.datapaths import TAUBENCH_RETAIL as SHARED  # the copy beside the repository

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def retail():
    from core.worlds import get_plugin

    with pytest.MonkeyPatch.context() as mp:
        if "TAUBENCH_DATA" not in os.environ and (SHARED / "orders.json").is_file():
            mp.setenv("TAUBENCH_DATA", str(SHARED))  # the CLI's --env builds the world from it
        plugin = get_plugin("taubench")
        missing = plugin.unavailable()
        if missing:
            pytest.skip(missing)
        yield plugin, plugin.make()


def test_learn_env_uses_the_worlds_own_sources(retail, tmp_path, capsys):
    from harness.monitor.cli import main

    out = tmp_path / "reg.json"
    assert main(["learn", "--env", "taubench", "--out", str(out)]) == 0
    reg = Registry.load(out)
    sources = {r.source for rs in reg.rules.values() for r in rs}
    assert "traces" in sources and any("records" in s for s in sources)  # traces + database, as studies
    assert main(["learn", "--env", "taubench", "--sources", "traces", "--out", str(out)]) == 0
    assert {r.source for rs in Registry.load(out).rules.values() for r in rs} == {"traces"}
    assert main(["explain", "--registry", str(out), "--tool", "get_user_details"]) == 0
    assert "rules by source: traces" in capsys.readouterr().out
    assert main(["coverage", "--env", "taubench", "--tool", "get_product_details", "--json"]) == 0
    cov = json.loads(capsys.readouterr().out)
    assert 0 < cov["tools"]["get_product_details"]["share"] <= 1


def test_a_runs_coverage_share(retail):
    """harness.run.registries' coverage of a run's registries: each fold's over the traces it checks."""
    from harness.run.registries import ContractSpec, contract_coverage, contract_parts

    plugin, env = retail
    spec = ContractSpec(tuple(plugin.contract_sources))
    parts = contract_parts(plugin, env, spec)
    cov = contract_coverage(plugin, env, spec, parts)
    assert cov["paths"] > 100 and 0.5 < cov["share"] < 1 and cov["value_share"] <= cov["share"]
    assert cov["by_tool"]["get_product_details"]["value_share"] > 0.5  # the variants are read
    assert ["list_all_product_types", "$.Laptop", "too little support: 1 results < 7"] in cov["no_rule"]


@pytest.mark.slow
def test_held_out_retail_faults_are_flagged(retail):
    """The issue's bar, measured with the faults of scripts/monitor_collections.py (written apart
    from the monitor) on the test split, the registry mined from train traces and the database."""
    from harness.monitor.sources import world_registry

    spec = importlib.util.spec_from_file_location(
        "monitor_collections", REPO / "scripts" / "monitor_collections.py"
    )
    mc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mc)
    plugin, env = retail
    reg = world_registry(plugin, env)
    rows = [r for r in plugin.clean_traces(env, split="test") if r["status"] == "ok"]
    res = mc.evaluate(reg, rows)
    assert res["clean"]["results"] > 800 and res["clean"]["rate"] <= 0.01
    s = res["structured"]
    assert s["flagged"] >= 0.95 * s["faults"]
    for kind, k in res["kinds"].items():
        assert k["faults"] > 0 and k["flagged"] >= 0.8 * k["faults"], kind
    for name, p in res["paper"].items():
        assert p["faults"] > 100 and p["flagged"] >= 0.95 * p["faults"], name
    # the maps and nested records the issue names are among the sites
    sites = {site for k in res["kinds"].values() for site in k["sites"]}
    assert {"map: variant price", "map: gift-card balance", "record: address state"} <= sites
