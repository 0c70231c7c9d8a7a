"""``python -m harness.studies_list`` (``make studies``): every study in conf/study, one line each.

A study file's first comment line after ``# @package _global_`` is its one-line description.
"""

from __future__ import annotations

from pathlib import Path

from harness.config import CONF_DIR


def studies(conf_dir: Path = CONF_DIR) -> dict[str, str]:
    out = {}
    for path in sorted((conf_dir / "study").glob("*.yaml")):
        lines = [ln.lstrip("# ").strip() for ln in path.read_text().splitlines() if ln.startswith("#")]
        text = next((ln for ln in lines if not ln.startswith("@package")), "")
        out[path.stem] = text
    return out


def main() -> int:
    rows = studies()
    width = max(map(len, rows), default=0)
    print("python -m harness.run study=<name> [overrides]   (-m with arm=/model= lists to sweep)")
    for name, text in rows.items():
        print(f"  {name:<{width}}  {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
