"""`make ablations`: the ablation arms through Hydra multirun, one job per model, then Figure 3.

Each job runs every arm of conf/study/ablations.yaml for one model, so episodes stay paired and
interleaved inside the job; the sweep is the grid over models (Hydra's basic launcher). The jobs'
records are then merged (pairs never cross models) and analysed from records alone.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from omegaconf import OmegaConf

ROOT = Path(__file__).resolve().parents[1]


def default_models() -> list[str]:
    study = OmegaConf.load(ROOT / "conf" / "study" / "ablations.yaml")
    return list(study.get("models") or OmegaConf.load(ROOT / "conf" / "config.yaml").models)


def merge_records(sweep_dir: Path) -> Path:
    """Concatenate the jobs' episodes.jsonl into the sweep folder (rebuilt on every call)."""
    merged = sweep_dir / "episodes.jsonl"
    parts = sorted(p for p in sweep_dir.glob("*/episodes.jsonl"))
    if not parts:
        raise SystemExit(f"no job records under {sweep_dir}: did the sweep run?")
    with merged.open("w") as out:
        for part in parts:
            for line in part.read_text().splitlines():
                if line.strip():
                    out.write(line + "\n")
    return merged


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default="")
    ap.add_argument("--limit", default="")
    ap.add_argument("--out", default="")
    ap.add_argument("--progress", default="true")
    args = ap.parse_args(argv)
    if args.limit and not (args.limit.isdigit() and int(args.limit) >= 1):
        print(f"error: LIMIT must be a whole number of workflows (1 or more), got {args.limit!r}", file=sys.stderr)
        return 2

    models = [m.strip() for m in args.models.split(",") if m.strip()] or default_models()
    out = Path(args.out) if args.out else ROOT / "results" / "ablations" / "sweep"
    sweep = "choice(" + ",".join(f"['{m}']" for m in models) + ")"
    cmd = [
        sys.executable, "-m", "harness.run", "--multirun", "study=ablations", f"models={sweep}",
        f"hydra.sweep.dir={out}", "hydra.sweep.subdir=job${hydra.job.num}", f"progress={args.progress}",
    ]
    if args.limit:
        cmd.append(f"limit={int(args.limit)}")
    print("+", " ".join(cmd[1:]), flush=True)
    rc = subprocess.call(cmd, cwd=ROOT)
    if rc != 0:
        print(f"the sweep failed (exit {rc}); rerun the same command to resume the finished jobs", file=sys.stderr)
        return rc
    merge_records(out)
    # every table and figure (Figure 3 is the ablation forest plot), then the Figure 3 table
    rc = subprocess.call([sys.executable, "-m", "analysis", "figures", "--run", str(out)], cwd=ROOT)
    if rc == 0:
        print((out / "ablations.md").read_text())
    return rc


if __name__ == "__main__":
    raise SystemExit(main())
