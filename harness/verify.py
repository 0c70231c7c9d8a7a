"""``python -m harness.verify --run DIR`` (``make verify RUN=DIR``): is this run still what this checkout makes?

Recomputes the run's fingerprint (``harness.fingerprint``: task list, schedule, seeds, prompts,
arm, model and fault specs, the world's data, contract registries) from the saved config with the
current code, and says key by key what changed, beside the code's own provenance (git commit,
package versions). Exit 0 when every key matches, 1 when one differs, 2 when the run cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from omegaconf import OmegaConf

from harness.config import Config, register
from harness.manifest import git_state, package_versions


def saved_config(manifest: dict[str, Any]) -> Config:
    """The run's config, rebuilt from its manifest (the resolved specs are recomputed, not trusted)."""
    saved = {k: v for k, v in manifest["config"].items() if k != "resolved"}
    obj = OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(Config), saved))
    assert isinstance(obj, Config)
    return obj


def flatten(tree: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(tree, dict):
        out: dict[str, Any] = {}
        for k, v in tree.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: tree}


def recompute(manifest: dict[str, Any]) -> dict[str, Any]:
    from harness.contracts import build_monitors
    from harness.fingerprint import plan_fingerprint, registries_digest
    from harness.plan import plan_run

    plan = plan_run(saved_config(manifest))
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m harness.verify", description=__doc__.splitlines()[0])
    ap.add_argument("--run", required=True, help="a run folder (it holds manifest.json)")
    args = ap.parse_args(argv)
    path = Path(args.run) / "manifest.json"
    try:
        manifest = json.loads(path.read_text())
        register()
        rows = compare(manifest, recompute(manifest))
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: cannot verify {args.run}: {exc}", file=sys.stderr)
        return 2
    changed = [(k, a, b) for k, a, b in rows if a != b]
    for key, a, b in rows:
        mark = "same   " if a == b else "CHANGED"
        print(f"{mark} {key}" + ("" if a == b else f": recorded {str(a)[:20]}, now {str(b)[:20]}"))
    print(
        f"\n{len(rows) - len(changed)} of {len(rows)} keys unchanged"
        + (
            f"; changed: {', '.join(k for k, _, _ in changed)}"
            if changed
            else ": the run is what this checkout makes"
        )
    )
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
