"""Command lines routed by their first word (wide vocabulary only): a shell's ``wc`` always prints
its counts beside the return code and its ``cp`` only the code, so a ``wc`` answer missing its
output fires on the ``wc`` route, where the tool's pooled rules let the bare code pass."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from outcome_monitor import Monitor, Registry, learn
from outcome_monitor.checking.routes import verb_of
from outcome_monitor.registry_format import schema

DONE = "\nCommand completed with return code: 0"


def _shell() -> list[dict[str, Any]]:
    rng = random.Random(11)
    rows = []
    for i in range(60):
        verb = ("wc", "grep", "cp", "wc", "grep")[i % 5]
        name = f"logs/app-{rng.randrange(100)}.log"
        if verb == "wc":
            command, result = f"wc -l {name}", [f"  {rng.randrange(10, 900)} {name}\n", DONE]
        elif verb == "grep":
            command = f"grep -c timeout {name}"
            result = [f"{rng.randrange(1, 40)}\n", DONE]
        else:  # a copy prints nothing: the code alone
            command, result = f"cp {name} backup/", DONE
        rows.append({"tool": "run_command", "arguments": {"command": command}, "result": result})
    return rows


def test_verb_of_reads_a_command_lines_first_word() -> None:
    assert verb_of("wc -l logs/app.log") == "wc"
    assert verb_of("  SELECT * FROM t") == "select"
    assert verb_of("/bin/ls -la") is None
    assert verb_of(42) is None


def test_a_command_line_routes_by_its_first_word(tmp_path: Any) -> None:
    reg = learn(_shell())
    assert reg.meta["routes"]["run_command"] == {
        "arg": "command",
        "exact": ["command=cp *", "command=grep *", "command=wc *"],
        "families": [],
        "verb": True,
    }
    path = tmp_path / "reg.json"
    reg.save(path)
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(json.loads(path.read_text()), schema())
    mon = Monitor(Registry.load(path))
    wc = {"command": "wc -l logs/app-7.log"}
    assert not mon.annotate("run_command", wc, ["  12 logs/app-7.log\n", DONE]).fired
    assert not mon.annotate("run_command", {"command": "cp logs/app-7.log backup/"}, DONE).fired
    # the counts dropped: the bare code is a copy's answer, not a count's
    assert mon.annotate("run_command", wc, DONE).fired
    # a word the recording never met is checked by the tool's pooled rules
    assert not mon.annotate("run_command", {"command": "mkdir -p backup/x"}, DONE).fired


def test_free_text_of_one_form_is_no_command_line() -> None:
    rows = _shell()
    for r in rows:  # every answer takes one form: the words explain nothing
        r["result"] = [f"{len(r['arguments']['command'])}\n", DONE]
    assert "run_command" not in (learn(rows).meta.get("routes") or {})
    assert not learn(_shell(), vocabulary="paper").meta.get("routes")
