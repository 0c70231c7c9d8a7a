"""Sweeps: the Hydra callback that merges a sweep's jobs into one analysis.

``python -m harness.run -m study=ablations model=a,b [hydra/launcher=joblib|slurm]`` runs one job
per combination, each in its own sub-folder of the sweep folder with its own records, transcripts
and reply cache (SQLite is not safe on shared network filesystems, so jobs never share one).
Rerunning the same command resumes: finished jobs run nothing, unfinished ones resume their
episodes. At the end of a sweep, :class:`MergeRecords` writes ``<sweep>/episodes.jsonl`` from every
job's records (each episode once: its latest record), chained anew from its first line, and
``<sweep>/sweep.json`` (which jobs, how many records each, the merged file's anchor), then runs the
analysis on the merged records in its own process. A job whose records were changed after they were
written is not merged (a fresh chain would launder the edit): the merge stops, naming the line.

Knows no world; reads records through ``harness.records`` only.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

from hydra.experimental.callback import Callback
from omegaconf import DictConfig

from harness.records import RecordCorruptError, load_records, write_records
from harness.run.manifest import write_atomic

log = logging.getLogger(__name__)


def merge_records(sweep_dir: Path) -> dict[str, Any]:
    """Rebuild ``<sweep>/episodes.jsonl`` from the jobs' records; each episode once (its latest record)."""
    jobs = sorted(p for p in sweep_dir.glob("*/episodes.jsonl") if p.parent != sweep_dir)
    latest: dict[str, dict[str, Any]] = {}
    per_job = {}
    for path in jobs:
        # a job's records changed after they were written: RecordChainError, nothing merged
        records = load_records(path, repair=False, anchor=_job_anchor(path.parent))
        per_job[path.parent.name] = len(records)
        for rec in records:  # a job's later attempt supersedes its earlier one
            latest.pop(rec["episode_id"], None)
            latest[rec["episode_id"]] = rec
    anchor = write_records(sweep_dir / "episodes.jsonl", latest.values())
    summary = {
        "jobs": per_job,
        "episodes": len(latest),
        "records_read": sum(per_job.values()),
        "records": anchor,
    }
    write_atomic(sweep_dir / "sweep.json", summary)
    # how the merged records read (world.json) and what their monitor read (coverage.json): the jobs'
    # own, when every job wrote the same
    for name in ("world.json", "coverage.json"):
        texts = {p.read_text() for p in sweep_dir.glob(f"*/{name}") if p.parent != sweep_dir}
        if len(texts) == 1:
            (sweep_dir / name).write_text(texts.pop())
    return summary


def _job_anchor(job_dir: Path) -> dict[str, Any] | None:
    """The anchor a job's manifest keeps for its records (None without a manifest)."""
    try:
        return cast(
            "dict[str, Any] | None", json.loads((job_dir / "manifest.json").read_text()).get("records")
        )
    except (OSError, ValueError):
        return None


# The analysis process imports pandas, scipy and matplotlib (seconds) and draws one throwaway figure
# in each format (fonts and renderers load on first use) while the jobs run, then waits for one line
# on stdin: "go" analyses the merged sweep, anything else (or EOF) exits untouched.
_WARM_ANALYSIS = (
    "import io, sys\n"
    "import analysis.__main__ as m, analysis.figures  # noqa\n"
    "import matplotlib.pyplot as plt\n"
    "fig, ax = plt.subplots(figsize=(2, 1)); ax.set_title('warm'); ax.text(0.5, 0.5, 'W/L'); ax.scatter([0], [0])\n"
    "for fmt in ('png', 'pdf'):\n"
    "    fig.savefig(io.BytesIO(), format=fmt, dpi=150, bbox_inches='tight')\n"
    "plt.close(fig)\n"
    "if sys.stdin.readline().strip() != 'go':\n"
    "    raise SystemExit(0)\n"
    "raise SystemExit(m.main(['figures', '--run', sys.argv[1]]))\n"
)


def release_idle_workers() -> None:
    """Stop the joblib launcher's idle worker processes now, without waiting for them.

    Every job has returned when a multirun ends, but loky keeps its workers for reuse and joins them
    at interpreter exit: seconds after the analysis (workers holding a study's heap exit slowly).
    Stopped here, they exit while the records merge. No-op under any other launcher.
    """
    loky = sys.modules.get("joblib.externals.loky.reusable_executor")
    executor = getattr(loky, "_executor", None)  # loky's one reusable pool, if this process made it
    if executor is not None:
        for pid in list(getattr(executor, "_processes", None) or ()):
            with contextlib.suppress(OSError):  # their exit (freeing a study's heap) yields to the analysis
                os.setpriority(os.PRIO_PROCESS, pid, 19)
        executor.shutdown(wait=False)


# by sweep folder, outside the callback: launchers pickle the callbacks with the config (a Popen can't be)
_WARM: dict[str, subprocess.Popen[str]] = {}


class MergeRecords(Callback):
    """After a multirun: merge the jobs' records, then ``python -m analysis figures`` on the sweep folder.

    The analysis process is started (and does its imports) when the sweep starts, so only the
    analysis itself follows the last job.
    """

    def __init__(self, analyse: bool = True):
        self.analyse = analyse

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        if self.analyse:
            _WARM[str(config.hydra.sweep.dir)] = subprocess.Popen([sys.executable, "-c", _WARM_ANALYSIS, str(config.hydra.sweep.dir)],
                                          stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                          text=True)  # fmt: skip

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        release_idle_workers()
        sweep_dir = Path(config.hydra.sweep.dir)
        warm = _WARM.pop(str(config.hydra.sweep.dir), None)
        try:
            summary = merge_records(sweep_dir)
        except RecordCorruptError as exc:  # the merged file and its analysis stay as they were
            log.error("records not merged: %s", exc)
            if warm is not None:
                warm.communicate("stop\n")
            return
        log.info(
            "merged %d episodes from %d jobs into %s", summary["episodes"], len(summary["jobs"]), sweep_dir
        )
        if not (self.analyse and summary["episodes"]):
            if warm is not None:
                warm.communicate("stop\n")
            return
        if warm is not None and warm.poll() is None:
            _, err = warm.communicate("go\n")
            code = warm.returncode
        else:  # no warm process (or it died): run the analysis now
            res = subprocess.run([sys.executable, "-m", "analysis", "figures", "--run", str(sweep_dir)],
                                 capture_output=True, text=True)  # fmt: skip
            err, code = res.stderr, res.returncode
        if code != 0:
            log.error("analysis of the merged sweep failed: %s", err.strip()[-2000:])
