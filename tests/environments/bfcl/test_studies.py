"""The bfcl-faults study's fault list is a rule, not a choice by flag rate: every structured class of the
library that finds a target in BFCL's clean read results (base), and each has its config."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.environments.bfcl.conftest import require_bfcl

require_bfcl()

from core.worlds import get_plugin  # noqa: E402
from harness.faults.classes import CLASSES  # noqa: E402

CONF = Path(__file__).resolve().parents[3] / "environments" / "bfcl" / "conf"


def _study_faults() -> list[str]:
    study = yaml.safe_load((CONF / "study" / "bfcl-faults.yaml").read_text())
    entry = next(d for d in study["defaults"] if isinstance(d, dict) and "override /fault" in d)
    return list(entry["override /fault"])


def test_the_faults_are_every_structured_class_with_a_target_in_bfcls_results():
    plugin = get_plugin("bfcl")
    env = plugin.make(category="base")
    specs = env.tool_specs()
    reads = [
        r for r in plugin.clean_traces(env) if r["status"] == "ok" and specs[r["tool"]].category == "read"
    ]

    def applies(fc) -> bool:
        return any(fc.eligible(r["result"], r["arguments"] or {}, specs[r["tool"]]) for r in reads)

    fitting = {n for n, fc in CLASSES.items() if fc.kind == "structured" and applies(fc)}
    assert fitting and fitting != {n for n, fc in CLASSES.items() if fc.kind == "structured"}
    named = _study_faults()
    assert len(named) == len(set(named))
    classes = set()
    for name in named:
        cfg = yaml.safe_load((CONF / "fault" / f"{name}.yaml").read_text())
        assert cfg["name"] == name and cfg["kind"] == "structured" and cfg["level"] == "observation"
        classes.add(cfg["fault_class"])
    assert classes == fitting
