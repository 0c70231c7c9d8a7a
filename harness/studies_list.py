"""``python -m harness.studies_list`` (``make studies``): every study (in each world's ``conf/study``), one line each.

A study file's first comment line after ``# @package _global_`` is its one-line description.
"""

from __future__ import annotations

from core import worlds


def studies() -> dict[str, str]:
    out = {}
    for _name, path in sorted(worlds.config_index()["study"].items()):
        lines = [ln.lstrip("# ").strip() for ln in path.read_text().splitlines() if ln.startswith("#")]
        text = next((ln for ln in lines if not ln.startswith("@package")), "")
        out[path.stem] = text
    return out


def main() -> int:
    rows = studies()
    width = max(map(len, rows), default=0)
    print(
        "python -m harness.run study=<name> [overrides]   (arm=[a,b] model=[m] fault=[f] select; -m arm=a,b sweeps)"
    )
    for name, text in rows.items():
        print(f"  {name:<{width}}  {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
