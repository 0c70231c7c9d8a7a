"""Are our replayed final databases what upstream tau-bench's own tools produce?

    python scripts/compare_upstream_taubench.py --upstream DIR [--domain retail|airline] [--data-dir DIR] [--split all]

DIR is a checkout of github.com/sierra-research/tau-bench at commit 59a200c (the folder holding
``tau_bench/``; keep it outside this repository, nothing of it belongs here). For every task of the
domain's split(s) this runs upstream's own ground-truth actions (its ``tasks_*.py``, its tool classes,
its step rule: an exception becomes ``Error: ...``) on a fresh copy of the data, runs ``python -m
environments.taubench replay --domain D --dump-db`` here, and compares the two final databases strictly:
same keys, same list order, same values and the same JSON number types (``51`` is not ``51.0``). Also
compares each task's action list with the JSON task lists the project reads (taken before upstream's
tools run: its ``book_reservation`` stores the task's own payment and passenger lists, which later
actions of the task may extend). Prints the count of equal databases and the first differences; exit 1
on any difference.

``--random-calls N`` also runs, after each task's ground truth, N seeded random calls of the domain
(valid reads, invalid calls and, where the domain has them, valid writes, drawn from our database's
state) on both sides, and compares every result string and the final database strictly: the error
paths and the record texts, not only the end states of valid ground truth.

Only upstream's tool modules and types are imported (its package ``__init__`` pulls in agents and
model clients, which this comparison does not need); it needs pydantic, as upstream's types do.
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

from environments.taubench.checksums import DB_FILES, DOMAINS, SPLITS_OF  # noqa: E402
from environments.taubench.data import DataError, load  # noqa: E402


def load_upstream(upstream: Path, domain: str) -> tuple[dict[str, Any], dict[str, list]]:
    """Upstream's tool classes by name and its task lists by split, without its package __init__."""
    pkg = upstream / "tau_bench"
    if not (pkg / "envs" / domain / "tools" / "__init__.py").is_file():
        raise SystemExit(f"error: {upstream} is not a tau-bench checkout (no tau_bench/envs/{domain}/tools); "
                         "pass the folder that holds tau_bench/")  # fmt: skip
    for name, path in (
        ("tau_bench", pkg),
        ("tau_bench.envs", pkg / "envs"),
        (f"tau_bench.envs.{domain}", pkg / "envs" / domain),
    ):
        mod = types.ModuleType(name)
        mod.__path__ = [str(path)]  # a namespace stand-in: submodules import, the __init__ does not run
        sys.modules[name] = mod
    tools = importlib.import_module(f"tau_bench.envs.{domain}.tools")
    by_name = {t.get_info()["function"]["name"]: t for t in tools.ALL_TOOLS}
    tasks = {}
    for split in SPLITS_OF[domain]:
        mod = importlib.import_module(f"tau_bench.envs.{domain}.tasks_{split}")
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


def random_calls(
    domain_name: str, tools: dict[str, Any], tasks: dict[str, list], data: Any, n: int
) -> tuple[int, int, int, list[str]]:
    """(calls compared, tasks whose final databases are equal, documented differences, differences) over ``n``
    random calls per task."""
    from core.seeding import rng
    from environments.taubench.domains import get_domain

    domain = get_domain(domain_name)
    base = {c: data.base.collections[c] for c in data.base.collections}
    calls, equal, known, diffs = 0, 0, 0, []
    for split, rows in tasks.items():
        for i, task in enumerate(rows):
            record = data.tasks[split][i]
            ours = data.base.fresh()
            theirs = copy.deepcopy(base)
            for action in record.actions:
                domain.execute(ours, action["name"], action["kwargs"])
            for action in copy.deepcopy(list(task.actions)):
                _invoke(tools, theirs, action.name, action.kwargs)
            r = rng("compare-upstream", domain_name, record.task_id)
            for _ in range(n):
                draw = r.random()
                if domain.valid_write is not None and draw < 0.3:
                    call = domain.valid_write(ours, record.user_id, r)
                    if call is None:
                        continue
                else:
                    call = (domain.valid_read if draw < 0.7 else domain.invalid_call)(ours, record.user_id, r)
                name, kwargs = call
                mine = domain.execute(ours, name, copy.deepcopy(kwargs))
                up = _invoke(tools, theirs, name, copy.deepcopy(kwargs))
                calls += 1
                if up is None and name == "send_certificate" and mine.startswith("Error: "):
                    known += 1  # upstream returns None when the user holds all three ids (README: deliberately different)
                elif mine != up:
                    diffs.append(f"{record.task_id} {name}({kwargs}): {mine[:120]!r} vs {str(up)[:120]!r}")
            d = strict_diff(theirs, ours.to_dict())
            equal += d is None
            if d:
                diffs.append(f"{record.task_id} after random calls: {d}")
    return calls, equal, known, diffs


def _invoke(tools: dict[str, Any], data: dict[str, Any], name: str, kwargs: dict[str, Any]) -> Any:
    """Upstream's step for one call: the tool's string, ``Error: <exception>``, or ``Unknown action``."""
    if name not in tools:
        return f"Unknown action {name}"
    try:
        return tools[name].invoke(data=data, **kwargs)
    except Exception as exc:  # noqa: BLE001 - upstream's step turns any exception into an error string
        return f"Error: {exc}"


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
    ap.add_argument("--domain", default="retail", choices=DOMAINS)
    ap.add_argument(
        "--random-calls", type=int, default=0, help="random calls per task after its ground truth"
    )
    ap.add_argument(
        "--data-dir",
        help="the data root or the domain's folder (default: $TAUBENCH_DATA, as the project reads it)",
    )
    ap.add_argument(
        "--split", default="all", choices=[*dict.fromkeys(s for v in SPLITS_OF.values() for s in v), "all"]
    )
    args = ap.parse_args(argv)
    if args.split != "all" and args.split not in SPLITS_OF[args.domain]:
        print(f"error: the {args.domain} domain has no split {args.split}", file=sys.stderr)
        return 2
    tools, tasks = load_upstream(Path(args.upstream), args.domain)
    splits = SPLITS_OF[args.domain] if args.split == "all" else (args.split,)
    try:
        data = load(args.data_dir, args.domain)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    base = {name[:-5]: json.loads((data.folder / name).read_text()) for name in DB_FILES[args.domain]}
    equal, diffs, action_diffs = 0, [], 0
    with tempfile.TemporaryDirectory() as tmp:
        res = subprocess.run([sys.executable, "-m", "environments.taubench", "replay", "--domain", args.domain,
                              "--split", args.split, "--dump-db", tmp, "--data-dir", str(data.folder)], cwd=ROOT,
                             capture_output=True, text=True)  # fmt: skip
        if res.returncode != 0:
            print(f"error: our replay failed: {res.stderr.strip()[-500:]}", file=sys.stderr)
            return 2
        for split in splits:
            for i, task in enumerate(tasks[split]):
                ours = json.loads(Path(tmp, f"{split}-{i}.json").read_text())
                up_actions = copy.deepcopy([{"name": a.name, "kwargs": a.kwargs} for a in task.actions])
                d = strict_diff(upstream_final(tools, task, base), ours)
                equal += d is None
                if d:
                    diffs.append(f"{split}-{i}: {d}")
                action_diffs += up_actions != [dict(a) for a in data.tasks[split][i].actions]
    n = sum(len(tasks[s]) for s in splits)
    print(
        f"{args.domain}: final databases equal to upstream's (strict: values, list order, number types): {equal}/{n}"
    )
    print(f"task action lists equal to upstream's tasks_*.py: {n - action_diffs}/{n}")
    for d in diffs[:10]:
        print("  differs:", d)
    random_ok = True
    if args.random_calls > 0:
        calls, same, known, rdiffs = random_calls(
            args.domain, tools, {s: tasks[s] for s in splits}, data, args.random_calls
        )
        print(
            f"{args.domain}: {calls} random calls after the ground truth: "
            f"{calls - known - sum('after random' not in d for d in rdiffs)}/{calls} results equal to upstream's "
            f"({known} documented differences: send_certificate with no id left, upstream returns None), "
            f"final databases equal {same}/{n}"
        )
        for d in rdiffs[:10]:
            print("  differs:", d)
        random_ok = not rdiffs
    return 0 if equal == n and not action_diffs and random_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
