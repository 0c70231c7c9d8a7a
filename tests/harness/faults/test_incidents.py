import json
from collections import Counter
from pathlib import Path

import yaml

from harness.faults.__main__ import main
from harness.faults.classes import CLASSES
from harness.faults.incidents import SUITE_PATH, load_suite
from harness.faults.inject import FaultInjector, build_injector

CONF = Path(__file__).resolve().parents[3] / "conf" / "fault"


def test_suite_meets_the_brief():
    suite = load_suite()
    types = Counter(f.type for f in suite.faults)
    assert len(suite.faults) >= 57 and len(types) >= 8
    assert {f.kind for f in suite.faults} == {"structured", "string"}
    assert set(suite.taxonomy) == {"A", "B", "C", "D", "E"}
    for f in suite.faults:
        assert f.fault_class in CLASSES and f.url.startswith("http") and f.what_went_wrong
        assert {"toolmaze", "taubench", "appworld"} <= set(f.worlds), f"{f.id} lacks a world mapping"
        FaultInjector(f.config(), seed=0)  # every fault is realisable


def test_suite_is_apart_from_the_monitor():
    text = SUITE_PATH.read_text()
    assert "harness.monitor" not in text and "harness/monitor" not in text


def test_incidents_json_cli(capsys):
    assert main(["incidents", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    suite = load_suite()
    assert out["n_faults"] == len(suite.faults)
    assert sum(t["n_faults"] for t in out["types"].values()) == len(suite.faults)
    assert {f["id"] for f in out["faults"]} == {f.id for f in suite.faults}


def test_conf_fault_files_build_injectors():
    for path in sorted(CONF.glob("*.yaml")):
        cfg = yaml.safe_load(path.read_text())
        inj = build_injector(cfg, seed=0)
        if cfg.get("fault_class") or cfg.get("incident"):
            assert isinstance(inj, FaultInjector), path.name
        else:
            assert inj is None, path.name
    inj = build_injector({"name": "incident", "incident": "united-1"}, seed=0)
    assert inj.spec.name == "united-1" and inj.spec.params == {"variant": "zero"}


def test_runner_style_incident_config_resolves_through_the_injector():
    inj = FaultInjector(
        {"name": "incident", "fault_class": "incident", "incident": "phe-1", "mode": "transient"}
    )
    assert inj.spec.name == "phe-1" and inj.spec.fault_class == "empty_or_truncated_list"
    assert inj.spec.mode == "transient" and inj.spec.params == {"variant": "truncate"}
