"""``python -m harness.verify --run DIR`` (``make verify RUN=DIR``): is this run still what this checkout makes?

First the records: ``episodes.jsonl``'s hash chain (``harness.records.chain``) and the anchor the
manifest keeps, so a record edited, removed, inserted or moved after it was written is named by its
line and episode id. Then recomputes the run's fingerprint (``harness.run.fingerprint``: task list,
schedule, seeds, prompts, arm, model and fault specs, the world's data, contract registries) from the
saved config with the current code, and says key by key what changed, beside the code's own
provenance (git commit, package versions). A sweep folder (``sweep.json``, no manifest) gets the
records check only. Exit 0 when everything matches, 1 when the records or a key differ, 2 when the
run cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from omegaconf import OmegaConf

from core import offline, worlds
from harness.config import Config, name_list, register
from harness.records import RecordCorruptError, scan
from harness.run.manifest import git_state, package_versions

GROUPS = ("arm", "model", "fault")  # the config groups a run selects one or several of


def saved_config(manifest: dict[str, Any], run: Path | None = None) -> Config:
    """The run's config, rebuilt from its manifest (the resolved specs are recomputed, not trusted), with
    each selected arm, model and fault as this checkout's file says it."""
    saved = from_checkout(legacy(manifest["config"]), run_overrides(run))
    obj = OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(Config), saved))
    assert isinstance(obj, Config)
    return obj


def legacy(config: dict[str, Any]) -> dict[str, Any]:
    """A manifest written before arms, models and faults were config groups (name lists ``arms``,
    ``models``, ``faults``; one ``arm``/``model``/``fault`` node), in today's keys: names only, their
    configs come from the checkout."""
    saved = {k: v for k, v in config.items() if k != "resolved"}
    if "arms" not in saved and "faults" not in saved:
        return saved
    known = worlds.config_index()["model"]
    arms, models = saved.pop("arms", None), saved.pop("models", None) or []
    faults, fault = saved.pop("faults", None), saved.get("fault") or {}
    one_arm, one_model = saved.get("arm"), saved.get("model")
    saved["arm"] = {one_arm["name"]: {}} if one_arm else {n: {} for n in name_list(arms or [])}
    if one_model:
        saved["model"], saved["models"] = {one_model["name"]: {}}, []
    else:
        names = name_list(models)
        saved["model"] = {n: {} for n in names if n in known}
        saved["models"] = [n for n in names if n not in known]
    saved["fault"] = {n: {} for n in faults} if faults else {fault.get("name", "none"): {}}
    return saved


def run_overrides(run: Path | None) -> list[str]:
    """The run's own command-line settings of a group config's fields (``model.x.max_concurrency=4``)."""
    path = run / ".hydra" / "overrides.yaml" if run is not None else None
    if path is None or not path.exists():
        return []
    lines = OmegaConf.to_container(OmegaConf.load(path)) or []
    assert isinstance(lines, list)
    return [
        str(o).lstrip("+") for o in lines if str(o).lstrip("+").startswith(tuple(f"{g}." for g in GROUPS))
    ]


def from_checkout(saved: dict[str, Any], overrides: list[str]) -> dict[str, Any]:
    """The run read each group file once, when Hydra composed it; verify asks whether this checkout
    composes the same, so each selected config is read again here from the checkout's file."""
    saved = dict(saved)
    for group in GROUPS:
        node = dict(saved.get(group) or {})
        for name in node:
            path = worlds.config_file(group, name)
            if path is not None:
                node[name] = OmegaConf.to_container(OmegaConf.load(path))
        saved[group] = node
    if overrides:
        merged = OmegaConf.merge(OmegaConf.create(saved), OmegaConf.from_dotlist(overrides))
        out = OmegaConf.to_container(merged)
        assert isinstance(out, dict)
        return {str(k): v for k, v in out.items()}
    return saved


def flatten(tree: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(tree, dict):
        out: dict[str, Any] = {}
        for k, v in tree.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: tree}


def recompute(manifest: dict[str, Any], run: Path | None = None) -> dict[str, Any]:
    from harness.run.fingerprint import plan_fingerprint, registries_digest
    from harness.run.plan import plan_run
    from harness.run.registries import build_monitors

    plan = plan_run(saved_config(manifest, run))
    now = plan_fingerprint(plan)
    if manifest.get("fingerprint", {}).get("registries") is not None:
        with tempfile.TemporaryDirectory() as tmp:
            build_monitors(plan, Path(tmp))
            now["registries"] = registries_digest(Path(tmp) / "registries")
    return now


def compare(manifest: dict[str, Any], now: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """(key, recorded, now) for every key of the recorded fingerprint and the code's provenance."""
    recorded = {
        "fingerprint": manifest.get("fingerprint", {}),
        "git.commit": manifest.get("git", {}).get("commit"),
        "packages": manifest.get("packages", {}),
    }
    current = {
        "fingerprint": now,
        "git.commit": git_state()["commit"],
        "packages": package_versions(tuple(manifest.get("packages", {}))),
    }
    a, b = flatten(recorded), flatten(current)
    return [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b))]


SHOWN_BREAKS = 10  # the first ones; the count says how many more


def check_records(run: Path, anchor: dict[str, Any] | None) -> list[str]:
    """Lines saying whether ``episodes.jsonl`` is what its writer wrote; the first word is the verdict."""
    path = run / "episodes.jsonl"
    if not path.exists():
        return ["same    records: no episodes.jsonl yet"]
    try:
        s = scan(path, anchor)
    except RecordCorruptError as exc:  # a line that is no record at all
        return [f"CHANGED records: {exc}"]
    if s.breaks:
        out = [f"CHANGED records: {b.describe()}" for b in s.breaks[:SHOWN_BREAKS]]
        more = len(s.breaks) - SHOWN_BREAKS
        return out + ([f"CHANGED records: ... and {more} more break(s)"] if more > 0 else [])
    chained = len(s.records) - s.walk.unchained
    notes = [f"{len(s.records)} records" + (", chain intact" if chained else "")]
    if anchor:
        notes.append(f"record {anchor['seq']} is the one the run's last finish recorded")
    if s.walk.unchained:
        covered = "covered by the chained lines after them" if chained else "nothing to check them against"
        notes.append(f"{s.walk.unchained} line(s) of record version 1 or 2 carry no chain: {covered}")
    if s.torn:
        notes.append("a torn last line (an append cut short) is not a record")
    return ["same    records: " + "; ".join(notes)]


def _json(path: Path) -> dict[str, Any] | None:
    return json.loads(path.read_text()) if path.exists() else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m harness.verify", description=__doc__.splitlines()[0])
    ap.add_argument("--run", required=True, help="a run folder (it holds manifest.json) or a sweep folder")
    args = ap.parse_args(argv)
    run = Path(args.run)
    try:
        manifest = _json(run / "manifest.json")
        sweep = _json(run / "sweep.json") if manifest is None else None
    except (OSError, ValueError) as exc:
        print(f"error: cannot verify {args.run}: {exc}", file=sys.stderr)
        return 2
    if manifest is None and sweep is None:
        print(f"error: cannot verify {args.run}: no manifest.json (nor sweep.json) there", file=sys.stderr)
        return 2
    record_lines = check_records(run, (manifest or sweep or {}).get("records"))
    for line in record_lines:
        print(line)
    records_ok = record_lines[0].startswith("same")
    if manifest is None:
        print("\na sweep folder: its records were checked; each job's folder has the manifest to verify")
        return 0 if records_ok else 1
    try:
        register()
        rows = compare(manifest, recompute(manifest, run))
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: cannot verify {args.run}: {exc}", file=sys.stderr)
        return 2
    changed = [(k, a, b) for k, a, b in rows if a != b]
    for key, a, b in rows:
        mark = "same   " if a == b else "CHANGED"
        print(f"{mark} {key}" + ("" if a == b else f": recorded {str(a)[:20]}, now {str(b)[:20]}"))
    if changed:
        verdict = f"; changed: {', '.join(k for k, _, _ in changed)}"
    else:
        verdict = ": the run is what this checkout makes" if records_ok else ""
    if not records_ok:
        verdict += "; its records were changed after they were written (above)"
    print(f"\n{len(rows) - len(changed)} of {len(rows)} keys unchanged{verdict}")
    return 1 if changed or not records_ok else 0


if __name__ == "__main__":
    offline.apply()  # an entry point: offline unless a real model is asked for
    raise SystemExit(main())
