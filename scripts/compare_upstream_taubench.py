"""Are our replayed final databases what upstream tau-bench's own tools produce?

    python scripts/compare_upstream_taubench.py --upstream DIR [--data-dir DIR] [--split all]

DIR is a checkout of github.com/sierra-research/tau-bench at commit 59a200c (the folder holding
``tau_bench/``; nothing of it is in this repository). For every task of the split(s) this runs
upstream's own ground-truth actions (its ``tasks_*.py``, its 16 tool classes, its step rule: an
exception becomes ``Error: ...``) on a fresh copy of the data, runs ``python -m environments.taubench
replay --dump-db`` here, and compares the two final databases strictly: same keys, same list order,
same values and the same JSON number types (``51`` is not ``51.0``). Also compares each task's action
list with the JSON task lists the project reads. Prints the count of equal databases and the first
differences; exit 1 on any difference.

Only upstream's tool modules, data loader and types are imported (its package ``__init__`` pulls in
agents and model clients, which this comparison does not need).
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import subprocess
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from environments.taubench.data import DataError, load  # noqa: E402

SPLITS = ("test", "train", "dev")


def load_upstream(upstream: Path) -> tuple[dict[str, Any], dict[str, list]]:
    """Upstream's tool classes by name and its task lists by split, without its package __init__."""
    pkg = upstream / "tau_bench"
    if not (pkg / "envs" / "retail" / "tools" / "__init__.py").is_file():
        raise SystemExit(f"error: {upstream} is not a tau-bench checkout (no tau_bench/envs/retail/tools); "
                         "pass the folder that holds tau_bench/")  # fmt: skip
    for name, path in (
        ("tau_bench", pkg),
        ("tau_bench.envs", pkg / "envs"),
        ("tau_bench.envs.retail", pkg / "envs" / "retail"),
    ):
        mod = types.ModuleType(name)
        mod.__path__ = [str(path)]  # a namespace stand-in: submodules import, the __init__ does not run
        sys.modules[name] = mod
    tools = importlib.import_module("tau_bench.envs.retail.tools")
    by_name = {t.get_info()["function"]["name"]: t for t in tools.ALL_TOOLS}
    tasks = {}
    for split in SPLITS:
        mod = importlib.import_module(f"tau_bench.envs.retail.tasks_{split}")
        tasks[split] = next(v for k, v in vars(mod).items() if k.startswith("TASKS"))
    return by_name, tasks


def upstream_final(tools: dict[str, Any], task: Any, base: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(base)
    for action in task.actions:
        if action.name in tools:
            try:
                tools[action.name].invoke(data=data, **action.kwargs)
            except Exception:  # noqa: BLE001 - upstream's step turns any exception into an error string
                pass
    return data


def strict_diff(a: Any, b: Any, path: str = "$") -> str | None:
    """The first place two JSON values differ, types included (bool, int and float are all distinct)."""
    if type(a) is not type(b):
        return f"{path}: {a!r} ({type(a).__name__}) vs {b!r} ({type(b).__name__})"
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return f"{path}: keys {sorted(set(a) ^ set(b))[:5]} differ"
        return next((d for k in a if (d := strict_diff(a[k], b[k], f"{path}.{k}"))), None)
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} vs {len(b)}"
        return next(
            (
                d
                for i, (x, y) in enumerate(zip(a, b, strict=True))
                if (d := strict_diff(x, y, f"{path}[{i}]"))
            ),
            None,
        )
    return None if a == b else f"{path}: {a!r} vs {b!r}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--upstream", required=True, help="a tau-bench checkout (the folder holding tau_bench/)")
    ap.add_argument(
        "--data-dir", help="the retail data folder (default: $TAUBENCH_DATA, as the project reads it)"
    )
    ap.add_argument("--split", default="all", choices=[*SPLITS, "all"])
    args = ap.parse_args(argv)
    tools, tasks = load_upstream(Path(args.upstream))
    splits = SPLITS if args.split == "all" else (args.split,)
    try:
        data = load(args.data_dir)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    base = {k: json.loads((data.folder / f"{k}.json").read_text()) for k in ("orders", "products", "users")}
    equal, diffs, action_diffs = 0, [], 0
    with tempfile.TemporaryDirectory() as tmp:
        res = subprocess.run([sys.executable, "-m", "environments.taubench", "replay", "--split", args.split,
                              "--dump-db", tmp, "--data-dir", str(data.folder)], cwd=ROOT, capture_output=True,
                             text=True)  # fmt: skip
        if res.returncode != 0:
            print(f"error: our replay failed: {res.stderr.strip()[-500:]}", file=sys.stderr)
            return 2
        for split in splits:
            for i, task in enumerate(tasks[split]):
                ours = json.loads(Path(tmp, f"{split}-{i}.json").read_text())
                d = strict_diff(upstream_final(tools, task, base), ours)
                equal += d is None
                if d:
                    diffs.append(f"{split}-{i}: {d}")
                up_actions = [{"name": a.name, "kwargs": a.kwargs} for a in task.actions]
                action_diffs += up_actions != [dict(a) for a in data.tasks[split][i].actions]
    n = sum(len(tasks[s]) for s in splits)
    print(f"final databases equal to upstream's (strict: values, list order, number types): {equal}/{n}")
    print(f"task action lists equal to upstream's tasks_*.py: {n - action_diffs}/{n}")
    for d in diffs[:10]:
        print("  differs:", d)
    return 0 if equal == n and not action_diffs else 1


if __name__ == "__main__":
    raise SystemExit(main())
