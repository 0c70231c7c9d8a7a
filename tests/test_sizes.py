"""No module of the project over 650 lines (issues 39 and 47): a module holds one idea; split it along
its seams before it grows past this. Every Python file of the project counts (its packages, scripts,
Hydra plugins and docs hooks), tests and fetched data aside."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 650
# top-level folders that hold no module of the project: tests, run outputs, fetched data
NOT_THE_PROJECT = {"tests", "results", "data"}


def project_folders(root: Path) -> list[Path]:
    return sorted(
        d
        for d in root.iterdir()
        if d.is_dir() and not d.name.startswith(".") and d.name not in NOT_THE_PROJECT
    )


def over_the_limit(root: Path, limit: int = LIMIT) -> dict[str, int]:
    """Each module under ``root``'s project folders (or at its top) longer than ``limit`` lines."""
    files = [p for d in project_folders(root) for p in d.rglob("*.py")] + list(root.glob("*.py"))
    return {
        str(p.relative_to(root)): n
        for p in sorted(files)
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > limit
    }


def test_every_package_and_the_scripts_are_counted():
    names = {d.name for d in project_folders(ROOT)}
    assert {"core", "harness", "analysis", "environments", "scripts", "hydra_plugins"} <= names, names


def test_no_module_of_the_project_over_650_lines():
    long = over_the_limit(ROOT)
    assert not long, f"modules over {LIMIT} lines: {long}"


def test_a_long_module_anywhere_is_named(tmp_path):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "pkg" / "deep").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "scripts" / "short.py").write_text("x = 1\n" * LIMIT)
    (tmp_path / "pkg" / "deep" / "long.py").write_text("x = 1\n" * (LIMIT + 1))
    (tmp_path / "tests" / "test_long.py").write_text("x = 1\n" * (LIMIT + 1))  # tests are not counted
    assert over_the_limit(tmp_path) == {"pkg/deep/long.py": LIMIT + 1}
