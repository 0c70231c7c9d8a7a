"""The conformance kit: every discovered world conforms, and a broken world fails the checks it breaks,
each saying what to implement."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from core import worlds
from harness.conformance import FAIL, PASS, check_world, main

sys.path.insert(0, str(Path(__file__).resolve().parent / "runner"))
from _fakes import load_fakeworld  # noqa: E402

from tests.datapaths import TAUBENCH as SHARED_TAUBENCH


@pytest.mark.parametrize("name", worlds.world_names())
def test_every_discovered_world_conforms(name, monkeypatch):
    if name == "taubench" and SHARED_TAUBENCH.is_dir():
        monkeypatch.setenv("TAUBENCH_DATA", str(SHARED_TAUBENCH))
    why = worlds.get_plugin(name).unavailable()
    if why is not None:
        pytest.skip(f"{name} cannot start here: {why}")
    report = check_world(name)
    assert report.passed, report.text()
    assert any(f.status == PASS for f in report.findings), report.text()


def _statuses(report) -> dict[str, str]:
    return {f.check: f.status for f in report.findings}


def test_the_fake_world_conforms():
    load_fakeworld()
    report = check_world("runner_fakeworld:PLUGIN")
    assert report.passed, report.text()
    assert _statuses(report)["episode"] == PASS and _statuses(report)["contracts"] == PASS


def test_a_broken_world_fails_what_it_breaks(monkeypatch):
    fw = load_fakeworld()
    bad_schema = replace(
        fw.TOOLS[0], parameters={"type": "object", "properties": {"item": {"type": "strng"}}}
    )
    monkeypatch.setattr(fw, "TOOLS", [bad_schema, *fw.TOOLS[1:]])
    monkeypatch.setattr(fw, "SPECS", {s.name: s for s in fw.TOOLS})

    def raising_call(self, call):  # a world that raises on a bad call instead of answering
        raise KeyError(call.name)

    monkeypatch.setattr(fw.FakeEpisode, "call", raising_call)
    report = check_world("runner_fakeworld:PLUGIN")
    status = _statuses(report)
    assert not report.passed
    assert status["tools"] == FAIL and status["episode"] == FAIL
    messages = " ".join(f.message for f in report.findings if f.status == FAIL)
    assert "fix the ToolSpec schemas" in messages and "KeyError" in messages


def test_cli_exit_status(capsys):
    load_fakeworld()
    assert main(["runner_fakeworld:PLUGIN"]) == 0
    assert "conforms" in capsys.readouterr().out
