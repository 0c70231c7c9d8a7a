"""Hydra's submitit SLURM launcher (``hydra/launcher=slurm``), saying what SLURM does with the sweep.

The same launcher as hydra-submitit-launcher's ``SlurmLauncher`` (one job array, one task per job,
each job's log under ``<sweep>/.submitit/<job id>/``), with two differences:

* each job's SLURM id, what it varies and its log file are logged as soon as the array is submitted,
  so the sweep's output names the jobs to watch (``squeue``, ``sacct``) or cancel (``scancel``);
* a job that ends without a result (cancelled, timed out, its node lost, an error inside) no longer
  stops the wait for the others: every job is waited for, then one line names each unfinished job,
  its SLURM state and its log, and the sweep exits with status 1 (no records are merged). Rerunning
  the same command resumes: finished jobs run nothing, unfinished ones run what they lack.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hydra.core.singleton import Singleton
from hydra.core.utils import JobReturn, filter_overrides
from hydra_plugins.hydra_submitit_launcher import config as _submitit_config
from hydra_plugins.hydra_submitit_launcher import submitit_launcher as _submitit
from omegaconf import OmegaConf

log = logging.getLogger(__name__)

UNFINISHED_STATUS = 1
POLL_S = 0.25  # how often the jobs' result files are looked for


class SlurmLauncher(_submitit.SlurmLauncher):
    def __call__(self, *args: Any, **kwargs: Any) -> JobReturn:
        """One job, inside SLURM; once it returned, its process ends without Python's teardown."""
        ret = super().__call__(*args, **kwargs)
        atexit.register(_exit_without_teardown)  # registered last: runs first, once submitit wrote the result
        return ret

    def launch(self, job_overrides: Sequence[Sequence[str]], initial_job_idx: int) -> Sequence[JobReturn]:
        import submitit
        from submitit.core.utils import FailedJobError, FailedSubmissionError, UncompletedJobError

        assert self.config is not None
        missing = [cmd for cmd in ("sbatch", "srun", "sacct") if shutil.which(cmd) is None]
        if missing:  # submitit would stop with a traceback
            _stop(
                f"error: no SLURM here: {', '.join(missing)} not on PATH (hydra/launcher=slurm submits to a SLURM "
                "cluster; `make slurm-up` starts one on this machine). No job was submitted."
            )
        # the executor, as hydra-submitit-launcher 1.2.0 builds it
        init_keys = {"submitit_folder", "max_num_timeout"}
        executor = submitit.AutoExecutor(
            cluster=self._EXECUTOR,
            folder=self.params["submitit_folder"],
            slurm_max_num_timeout=self.params.get("max_num_timeout", 0),
        )
        baseparams = set(OmegaConf.structured(_submitit_config.BaseQueueConf).keys())
        executor.update_parameters(
            **{
                k if k in baseparams else f"{self._EXECUTOR}_{k}": v
                for k, v in self.params.items()
                if k not in init_keys
            }
        )
        sweep_dir = Path(str(self.config.hydra.sweep.dir))
        sweep_dir.mkdir(parents=True, exist_ok=True)
        if "mode" in self.config.hydra.sweep:
            os.chmod(sweep_dir, mode=int(str(self.config.hydra.sweep.mode), 8))
        job_params: list[Any] = []
        lines = []
        for idx, overrides in enumerate(job_overrides, start=initial_job_idx):
            lines.append(" ".join(filter_overrides(overrides)) or "(no overrides)")
            job_params.append(
                (list(overrides), "hydra.sweep.dir", idx, f"job_id_for_{idx}", Singleton.get_state())
            )
        try:
            jobs = executor.map_array(self, *zip(*job_params, strict=True))
        except (FailedJobError, FailedSubmissionError, OSError) as exc:  # sbatch missing or refusing
            said = [ln.strip(" '\"") for ln in str(exc).splitlines() if ln.strip()]
            _stop(
                f"error: sbatch did not submit the sweep's {len(lines)} jobs: {said[-1] if said else exc!r}"
            )
        log.info("SLURM: %d jobs submitted from %s", len(jobs), sweep_dir)
        for job, what in zip(jobs, lines, strict=True):
            log.info("SLURM job %s: %s (log %s)", job.job_id, what, job.paths.stdout)

        # submitit's own wait polls each job's result file once a second, one job after the other;
        # a quarter second over all of them hands the last result to the merge sooner
        pending = list(jobs)
        while pending:
            pending = [job for job in pending if not job.done()]
            if pending:
                time.sleep(POLL_S)
        returns: list[JobReturn] = []
        unfinished = []
        for job, what in zip(jobs, lines, strict=True):
            try:
                returns.append(job.results()[0])
            except (UncompletedJobError, FailedJobError) as exc:
                unfinished.append(f"{job.job_id} ({what}): {_why(job, exc)}; log {job.paths.stdout}")
        if unfinished:
            message = (
                f"error: {len(unfinished)} of {len(jobs)} SLURM jobs did not finish: {' | '.join(unfinished)}. "
                "Finished jobs are kept and nothing was merged; rerun the same command to run what is left."
            )
            _stop(message)
        return returns


def _exit_without_teardown() -> None:
    """End a finished SLURM job's process now: freeing a study's heap object by object at interpreter
    exit takes seconds (2-4 s here), during which SLURM counts the job as running and the next job of
    the array waits for its CPU. Only when submitit's result file says success; else the ordinary exit."""
    import pickle

    from submitit import JobEnvironment

    try:
        with JobEnvironment().paths.result_pickle.open("rb") as f:
            outcome = pickle.load(f)[0]
    except Exception:  # no result written, or unreadable: exit as usual, with the usual status
        return
    if outcome != "success":
        return
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)


def _stop(message: str) -> None:
    """One line on stderr, then exit 1: past Hydra's handler, which would print a traceback."""
    print(message, file=sys.stderr)
    raise SystemExit(UNFINISHED_STATUS)


def _why(job: Any, exc: BaseException) -> str:
    """SLURM's word for how the job ended (sacct), and for an error inside it, the error's last line."""
    from submitit.core.utils import FailedJobError

    try:
        state = job.state
    except Exception:  # sacct unreachable: what submitit said is all there is
        state = "UNKNOWN"
    text = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    if isinstance(exc, FailedJobError) and text:
        return f"state {state}, {text[-1]}"
    return f"state {state}"
