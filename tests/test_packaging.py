"""How the repository installs: the harness from its checkout only, the monitor library as its own
distribution, and what the docs say about extras.

The harness's build backend (``_build/checkout_only.py``) refuses a wheel or an sdist in one line and
leaves nothing behind, while an editable build is setuptools' own. The harness depends on
``outcome-monitor``, which the locks never pin (it is built from the checkout). Every extra the docs
name exists in the pyproject of the distribution they name it for, and the Makefile does what the docs
say about which targets install which extra. The library as a user gets it (built, installed alone,
tested) is ``make package-check`` (scripts/check_package.py), run by ``.ci/run``.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "outcome-monitor"
HARNESS_LOCKS = [
    "constraints.txt",
    "requirements/inspect.txt",
    "requirements/mcp.txt",
    "requirements/docs.txt",
]


def pyproject(folder: Path) -> dict:
    return tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))


def backend() -> ModuleType:
    build = pyproject(ROOT)["build-system"]
    (where,) = build["backend-path"]
    spec = importlib.util.spec_from_file_location(
        build["build-backend"], ROOT / where / f"{build['build-backend']}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def leftovers() -> set[str]:
    """What a build leaves at the top of the checkout (build/, dist/, *.egg-info), whether git ignores it or not."""
    return {p.name for p in ROOT.iterdir() if p.name in ("build", "dist") or p.name.endswith(".egg-info")}


# --- the harness's own install: editable from the checkout, a wheel or sdist refused in one line


@pytest.mark.parametrize(
    "hook",
    [
        "get_requires_for_build_wheel",
        "prepare_metadata_for_build_wheel",
        "build_wheel",
        "get_requires_for_build_sdist",
        "build_sdist",
    ],
)
def test_every_wheel_and_sdist_hook_refuses_in_one_line(hook, tmp_path, capsys):
    args = {
        "build_wheel": (str(tmp_path),),
        "build_sdist": (str(tmp_path),),
        "prepare_metadata_for_build_wheel": (str(tmp_path),),
    }
    with pytest.raises(SystemExit) as stop:
        getattr(backend(), hook)(*args.get(hook, ()))
    assert stop.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "make install" in err[0] and "checkout" in err[0]
    assert list(tmp_path.iterdir()) == []


def test_the_editable_hooks_are_setuptools_own():
    from setuptools import build_meta

    b = backend()
    for hook in ("get_requires_for_build_editable", "prepare_metadata_for_build_editable", "build_editable"):
        assert getattr(b, hook) is getattr(build_meta, hook)


def test_pip_install_of_the_checkout_refuses_before_building_and_leaves_nothing(tmp_path):
    """``pip wheel .`` (what ``pip install .`` does first) stops at the backend's first hook with its
    one line; no ``build/``, ``dist/`` or egg-info appears in the checkout."""
    before = leftovers()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode != 0
    said = [ln.strip() for ln in (proc.stdout + proc.stderr).splitlines() if "make install" in ln]
    assert said == [f"error: {backend().MESSAGE}"]
    assert list(tmp_path.iterdir()) == [] and leftovers() == before


def test_an_editable_build_works_and_leaves_nothing_in_the_checkout(tmp_path):
    """The hooks pip calls for ``pip install -e .`` (metadata, then the editable wheel), run as a frontend
    runs them: in a subprocess in the checkout. The wheel requires outcome-monitor; nothing is left."""
    before = leftovers()
    out, said = tmp_path / "out", tmp_path / "said.json"
    code = (
        "import json, sys; sys.path.insert(0, '_build'); import checkout_only as b; out, said = sys.argv[1:]\n"
        "meta = b.prepare_metadata_for_build_editable(out)\n"
        "wheel = b.build_editable(out, metadata_directory=f'{out}/{meta}')\n"
        "json.dump([wheel, open(f'{out}/{meta}/METADATA').read()], open(said, 'w'))"
    )
    out.mkdir()
    proc = subprocess.run(
        [sys.executable, "-c", code, str(out), str(said)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    wheel, metadata = json.loads(said.read_text())
    assert wheel.startswith("outcome_monitors-") and wheel.endswith(".whl") and (out / wheel).is_file()
    assert "Requires-Dist: outcome-monitor" in metadata.splitlines()
    assert leftovers() == before


# --- the harness depends on the library through the lock: declared, built from the checkout, pinned nowhere


def test_the_harness_declares_the_library_and_no_lock_pins_it():
    deps = pyproject(ROOT)["project"]["dependencies"]
    assert "outcome-monitor" in deps  # unversioned: the checkout's own
    for lock in HARNESS_LOCKS:
        text = (ROOT / lock).read_text(encoding="utf-8")
        assert not re.search(r"^(-e\s|outcome-monitor\s*(==|@))", text, re.M), f"{lock} pins outcome-monitor"
        # pip-compile listed it as not pinned: the lock was made with the checkout's library in view
        assert re.search(r"^# outcome-monitor$", text, re.M), (
            f"{lock} was not locked with requirements/outcome-monitor.in"
        )
    assert (ROOT / "requirements" / "outcome-monitor.in").read_text().splitlines()[
        -1
    ] == "-e ./outcome-monitor"


def test_make_lock_resolves_the_library_from_the_checkout():
    lock = re.search(r"^lock:.*?\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert lock is not None
    harness_lines = [
        ln for ln in lock.group(1).splitlines() if "pyproject.toml" in ln or ln.rstrip().endswith("\\")
    ]
    joined = " ".join(harness_lines).replace("\\", " ")
    # each compile of the harness takes the name from the editable input listed first
    assert joined.count("requirements/outcome-monitor.in pyproject.toml") == len(HARNESS_LOCKS)


def test_make_install_installs_the_library_before_the_harness():
    recipe = (ROOT / "Makefile").read_text(encoding="utf-8")
    library = recipe.index("-e ./outcome-monitor")
    harness = recipe.index("--no-build-isolation -e .\n")
    assert library < harness


def _pins(path: Path) -> dict[str, str]:
    return dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", path.read_text(encoding="utf-8"), re.M))


def test_build_and_twine_are_pinned_in_the_dev_extra_and_hash_locked():
    dev = pyproject(ROOT)["project"]["optional-dependencies"]["dev"]
    pinned = dict(d.split("==") for d in dev if "==" in d)
    locked = _pins(ROOT / "constraints.txt")
    for name in ("build", "twine"):
        assert name in pinned and locked.get(name) == pinned[name]
    text = (ROOT / "constraints.txt").read_text(encoding="utf-8")
    for name in ("build", "twine"):
        assert re.search(
            rf"^{name}=={re.escape(pinned[name])} \\\n    --hash=sha256:[0-9a-f]{{64}}", text, re.M
        )


def test_the_check_venv_lock_shares_the_harness_pins():
    check = _pins(ROOT / "requirements" / "package-check.txt")
    assert {"pytest", "mcp"} <= set(check)
    for lock in ("constraints.txt", "requirements/mcp.txt"):
        theirs = _pins(ROOT / lock)
        assert {n: v for n, v in check.items() if n in theirs and theirs[n] != v} == {}, lock
    extra = pyproject(LIBRARY)["project"]["optional-dependencies"]["mcp"]
    assert any(e.startswith("mcp") for e in extra)


def test_ci_runs_the_package_check():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^make package-check\b", ci, re.M)
    assert re.search(
        r"^package-check: .*\n\t\$\(BIN\)/python scripts/check_package.py",
        (ROOT / "Makefile").read_text(),
        re.M,
    )


# --- the docs' claims about extras


def _docs() -> list[Path]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for folder in ("outcome-monitor", "harness", "analysis", "environments", "core", "scripts"):
        pages += sorted((ROOT / folder).rglob("README.md"))
    return [p for p in pages if p.is_file()]


LIBRARY_EXTRA = re.compile(r"outcome-monitor\[([a-z0-9_,-]+)\]")  # pip install "outcome-monitor[mcp]"
HARNESS_EXTRA = re.compile(r"""(?:^|[\s'"])\.\[([a-z0-9_,-]+)\]""")  # pip install -e '.[inspect]'
BARE_EXTRA = re.compile(r"(?<![\w\]])`?\[([a-z][a-z0-9_-]*)\]`?(?!\()")  # [mcp] for the proxy (not a link)
NAMED_EXTRA = re.compile(r"the (?:optional )?`([a-z0-9_-]+)` extra")


def extra_claims() -> list[tuple[str, str, str]]:
    """(where, distribution, extra) for every extra a doc names: ``outcome-monitor[x]`` and a bare ``[x]``
    on a line about outcome-monitor are the library's; ``.[x]`` is the harness's; "the `x` extra" is the
    library's on a line that names it, else the harness's."""
    claims = []
    for page in _docs():
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{page.relative_to(ROOT)}:{n}"
            about_library = "outcome-monitor" in line or page.is_relative_to(LIBRARY)
            named = [
                ("outcome-monitor", x) for m in LIBRARY_EXTRA.finditer(line) for x in m.group(1).split(",")
            ]
            named += [
                ("outcome-monitors", x) for m in HARNESS_EXTRA.finditer(line) for x in m.group(1).split(",")
            ]
            if about_library and "pip install" in line or named:
                rest = HARNESS_EXTRA.sub("", LIBRARY_EXTRA.sub("", line))
                named += (
                    [("outcome-monitor", m.group(1)) for m in BARE_EXTRA.finditer(rest)]
                    if about_library
                    else []
                )
            owner = "outcome-monitor" if about_library else "outcome-monitors"
            named += [(owner, m.group(1)) for m in NAMED_EXTRA.finditer(line)]
            claims += [(where, dist, extra) for dist, extra in named]
    return claims


def test_the_docs_name_extras():
    claims = extra_claims()
    assert {d for _, d, _ in claims} == {"outcome-monitor", "outcome-monitors"}, (
        claims
    )  # the scan finds both kinds


def test_every_extra_the_docs_name_exists_in_that_distribution():
    extras = {
        "outcome-monitor": set(pyproject(LIBRARY)["project"]["optional-dependencies"]),
        "outcome-monitors": set(pyproject(ROOT)["project"]["optional-dependencies"]),
    }
    missing = [(where, dist, extra) for where, dist, extra in extra_claims() if extra not in extras[dist]]
    assert missing == []


def test_each_harness_extra_has_its_lock_and_its_make_stamp():
    """getting-started: optional extras have their own lock files in requirements/, compiled by make lock,
    and `make test` installs those the tests exercise (inspect, mcp, docs)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    test_prereqs = re.search(r"^test: ([^#\n]*)", makefile, re.M)
    assert test_prereqs is not None
    for extra in set(pyproject(ROOT)["project"]["optional-dependencies"]) - {"dev"}:
        assert (ROOT / "requirements" / f"{extra}.txt").is_file(), extra
        assert f"--extra {extra} " in makefile and f"-o requirements/{extra}.txt" in makefile
        stamp = re.search(
            rf"^\$\((\w+)\): \$\(STAMP\) requirements/{extra}.txt\n\t.*--require-hashes -r requirements/{extra}.txt",
            makefile,
            re.M,
        )
        assert stamp is not None, f"no hash-locked install of the {extra} extra"
        assert f"$({stamp.group(1)})" in test_prereqs.group(1), (
            f"make test does not install the {extra} extra"
        )


def test_make_install_installs_no_extra_and_the_named_targets_add_inspect():
    """python-api.md: `make install` installs the base only; `make test`, `make lint` and `make
    inspect-export` add the inspect extra."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    base = re.search(r"^\$\(STAMP\):.*\n((?:\t.*\n)+)", makefile, re.M)
    assert base is not None and "requirements/" not in base.group(1).replace("requirements/bootstrap.txt", "")
    for target in ("test", "lint", "inspect-export"):
        line = re.search(rf"^{target}: ([^#\n]*)", makefile, re.M)
        assert line is not None and "$(INSPECT_STAMP)" in line.group(1), target


# --- make package-check's own judgements (scripts/check_package.py), on made-up wheels


def check_package() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_package", ROOT / "scripts" / "check_package.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _wheel(path: Path, files: list[str], requires: list[str]) -> Path:
    meta = "Metadata-Version: 2.4\nName: outcome-monitor\nVersion: 0\n" + "".join(
        f"Requires-Dist: {r}\n" for r in requires
    )
    with zipfile.ZipFile(path, "w") as z:
        for name in files:
            z.writestr(name, "")
        z.writestr("outcome_monitor-0.dist-info/METADATA", meta)
    return path


def test_the_package_check_refuses_a_wheel_with_a_dependency_or_a_second_package(tmp_path):
    cp = check_package()
    package = ["outcome_monitor/__init__.py", "outcome_monitor/py.typed"]
    good = _wheel(tmp_path / "good.whl", package, ['mcp<3,>=2.3; extra == "mcp"'])
    assert "files" in cp.check_wheel(good)
    with pytest.raises(cp.CheckFailed, match="requires"):
        cp.check_wheel(_wheel(tmp_path / "dep.whl", package, ["numpy"]))
    with pytest.raises(cp.CheckFailed, match="top level"):
        cp.check_wheel(_wheel(tmp_path / "two.whl", [*package, "core/__init__.py"], []))
    with pytest.raises(cp.CheckFailed, match="py.typed"):
        cp.check_wheel(_wheel(tmp_path / "untyped.whl", package[:1], []))


def test_the_package_check_runs_the_readmes_proxy_lines_with_the_local_server():
    cp = check_package()
    record, learn, check = cp.readme_proxy_lines(LIBRARY / "README.md")
    assert record[:2] == ["outcome-monitor", "proxy"] and "--record" in record
    assert learn[:2] == ["outcome-monitor", "learn"] and "--out" in learn
    assert check[:2] == ["outcome-monitor", "proxy"] and "--registry" in check
    assert record[-1] == check[-1] == str(cp.TIME_SERVER)  # uvx mcp-server-time, offline


def test_the_package_check_knows_a_builds_leftovers():
    leftover = check_package().LEFTOVER
    for entry in (
        "?? outcome-monitor/build/",
        "?? outcome-monitor/dist/",
        "!! outcome-monitor/src/outcome_monitor.egg-info/",
    ):
        assert leftover.search(entry), entry
    for entry in (
        " M outcome-monitor/src/outcome_monitor/registry.py",
        "!! outcome-monitor/src/outcome_monitor/__pycache__/",
    ):
        assert not leftover.search(entry), entry
