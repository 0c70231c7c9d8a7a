"""One episode's path through the run (issue 39): ``harness/run/__init__.py`` numbers it in at most six
steps, one module of ``harness/run/`` each (a step may name one alternative: ``process`` or ``workers``),
and a tiny study run in-process has no other module of the run on the stack when a tool result passes
down an arm's stream or the writer appends a record."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fakes import load_fakeworld, policy_factory  # noqa: E402

import harness.run  # noqa: E402
from harness.config import CONF_DIR, register, to_config  # noqa: E402

RUN = Path(harness.run.__file__).resolve().parent
DOC = harness.run.__doc__ or ""
MAX_STEPS = 6


def path_steps() -> list[list[str]]:
    """The docstring's numbered steps, each as the module it names first and its ``or`` alternatives."""
    steps = []
    for line in DOC.splitlines():
        m = re.match(r"\s*(\d+)\.\s+``(\w+)``(.*)", line)
        if m:
            steps.append([m[2], *re.findall(r"\bor\s+``(\w+)``", m[3])])
    return steps


def consulted() -> list[str]:
    """The modules of the run the docstring's bullet list names (what the steps consult)."""
    bullets = [ln for ln in DOC.splitlines() if ln.lstrip().startswith("- ")]
    return [m for ln in bullets for m in re.findall(r"``(\w+)``", ln) if exists(m)]


def exists(name: str) -> bool:
    return (RUN / f"{name}.py").is_file() or (RUN / name / "__init__.py").is_file()


def test_the_documented_path_has_at_most_six_steps_each_one_module_of_the_run():
    steps = path_steps()
    assert 3 <= len(steps) <= MAX_STEPS, steps
    assert [int(n) for n in re.findall(r"^\s*(\d+)\.\s", DOC, flags=re.M)] == list(range(1, len(steps) + 1))
    for step in steps:
        assert 1 <= len(step) <= 2, f"a step names one module (or one alternative): {step}"
    named = [m for step in steps for m in step]
    assert len(named) == len(set(named)), f"a module named twice: {named}"
    assert not set(named) & set(consulted()), "a module both on the path and consulted"
    missing = [m for m in named if not exists(m)]
    assert not missing, f"harness/run/__init__.py names modules that are not in harness/run/: {missing}"


def test_every_module_of_the_run_is_named_in_the_package_docstring():
    named = {m for step in path_steps() for m in step} | set(consulted())
    present = {p.stem for p in RUN.glob("*.py") if p.stem != "__init__"}
    assert present - named == set(), f"modules of harness/run/ its docstring leaves out: {present - named}"


def run_modules_on_stack(frame) -> list[str]:
    """The harness.run modules with a frame on the stack from ``frame`` down, outermost first."""
    seen: list[str] = []
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name.startswith("harness.run."):
            short = name.removeprefix("harness.run.")
            if short not in seen:
                seen.append(short)
        frame = frame.f_back
    return seen[::-1]


@pytest.fixture(scope="module")
def stacks(tmp_path_factory) -> dict[str, list[frozenset[str]]]:
    """A tiny study run in-process: the run's modules on the stack at each record appended (the one
    writer) and at each tool result passed down an arm's stream (inside an episode)."""
    fw = load_fakeworld()

    def monitors(workflow_id: str, variant: str, detector: str):
        return fw.NegativePriceMonitor(variant)

    import harness.agents.loop
    from harness.records.files import RecordWriter
    from harness.run.study import run_study

    register()
    overrides = [  # the smoke study's arms (baseline, monitor) on the runner tests' fake world, one task
        "study=smoke",
        "study.env.name='runner_fakeworld:PLUGIN'",
        "study.env.traces={}",
        "study.selection.params.salt=test",
        "limit=1",
        "workers=1",
        "progress=false",
    ]
    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        cfg = to_config(compose("config", overrides=overrides))
    seen: dict[str, list[frozenset[str]]] = {"append": [], "stream": []}
    append, apply_chain = RecordWriter.append, harness.agents.loop.apply_chain

    def appending(self, record):
        seen["append"].append(frozenset(run_modules_on_stack(sys._getframe(1))))
        return append(self, record)

    def streaming(*args, **kwargs):
        seen["stream"].append(frozenset(run_modules_on_stack(sys._getframe(1))))
        return apply_chain(*args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(RecordWriter, "append", appending)
        mp.setattr(harness.agents.loop, "apply_chain", streaming)
        run_dir = tmp_path_factory.mktemp("path") / "run"
        counts = run_study(cfg, run_dir, factory=policy_factory, monitors=monitors)
    assert counts["ran_now"] >= 2 and counts["ran_now"] == len(seen["append"])
    return seen


def path_modules() -> set[str]:
    return {m for step in path_steps() for m in step}


@pytest.mark.parametrize("where", ["append", "stream"])
def test_only_the_path_modules_are_on_the_stack(stacks, where):
    """When the writer appends a record, and when a tool result passes down the arm's stream, the
    modules of the run on the stack are steps of the documented path: at most six of them."""
    assert stacks[where], f"nothing seen at {where}"
    for on_stack in set(stacks[where]):
        assert on_stack <= path_modules(), (
            f"off the documented path at {where}: {sorted(on_stack - path_modules())}"
        )
        assert len(on_stack) <= MAX_STEPS
    if where == "stream":
        assert all({"study", "process", "episode"} <= s for s in stacks[where]), set(stacks[where])
