"""The Hydra entry point: ``python -m harness.run study=<name> [overrides]``.

``--retry-infra-errors`` is accepted as a spelling of ``retry_infra_errors=true``. Thin on purpose:
compose + validate the config (Hydra's own messages for typos and gaps), plan the run (models,
keys, arms, tasks), pick the run folder, hand over to :func:`harness.run.study.run_study`. A plan
error (unknown model, missing API key...) ends the process with status 2 and a one-paragraph
message, before any episode, record or manifest; so does a world that cannot start (its data or
install missing: ``core.protocol.WorldUnavailable``). Tests use the compose API and ``run_study``
directly, never this function.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

import hydra
from hydra.core.hydra_config import HydraConfig
from hydra.types import RunMode
from omegaconf import DictConfig
from omegaconf.errors import OmegaConfBaseException

from core import offline, worlds
from core.protocol import WorldUnavailable
from harness.config import cli_overrides, register, to_config, unknown_selections
from harness.records import RecordCorruptError
from harness.run import stopping
from harness.run.manifest import ResumeMismatch
from harness.run.notices import StrictError
from harness.run.plan import plan_run
from harness.run.stopping import Interrupted
from harness.run.study import run_study
from harness.run.workers import WorkerFailed, worker_count

register()

PLAN_ERROR_STATUS = 2


@hydra.main(version_base="1.3", config_path="../../conf", config_name="config")
def main(cfg: DictConfig) -> None:
    stopping.install()
    try:
        config = to_config(cfg)  # eager: MISSING values and range checks fail here, before any episode
        plan = plan_run(config)
        multirun = HydraConfig.get().mode == RunMode.MULTIRUN
        worker_count(config.workers, plan, multirun)  # workers > 1 with a real model is refused here
    except (ValueError, KeyError, OmegaConfBaseException, WorldUnavailable) as exc:  # say what to fix
        fail(exc, "no episode was run.")
    try:
        counts = run_study(config, HydraConfig.get().runtime.output_dir, plan=plan, multirun=multirun)
    except (ResumeMismatch, RecordCorruptError, StrictError) as exc:  # refused before the first write
        fail(exc, "no episode was run; the run folder is unchanged.")
    except WorkerFailed as exc:  # a worker process died: what it had finished is recorded
        fail(exc, "nothing finished was lost.")
    except WorldUnavailable as exc:  # e.g. a bridge gone while building monitors: records so far are kept
        fail(exc, "every finished episode is recorded; fix this and rerun the same command to go on.")
    except Interrupted as exc:  # Ctrl-C or SIGTERM: a few lines, no traceback
        stopped(exc, plan, HydraConfig.get().runtime.output_dir)
    print(f"{config.study.name}: {counts}")


def stopped(exc: Interrupted, plan: Any, run_dir: str) -> None:
    """What is recorded and how to go on, after SIGINT or SIGTERM; exit 130 or 143."""
    from harness.records import latest_by_episode, load_records

    try:
        records = latest_by_episode(load_records(Path(run_dir) / "episodes.jsonl", repair=False))
        done = f"{sum(1 for ep in plan.schedule if ep.episode_id in records)} of {len(plan.schedule)}"
    except (OSError, ValueError) as err:  # the stop must still say how to go on; the rerun names the fault
        done = f"? of {len(plan.schedule)} (the records could not be counted: {err})"
    message = (
        f"stopped by {exc.args[0]}: {done} episodes are recorded in {run_dir} "
        "(episodes running at the stop were not recorded). Rerun the same command to run the rest."
    )
    print(message, file=sys.stderr)
    logging.getLogger("harness.run").warning(message)
    sys.exit(exc.exit_status)


def fail(exc: BaseException, what: str) -> None:
    print(f"error: {exc.args[0] if exc.args else exc}\n{what}", file=sys.stderr)
    sys.exit(PLAN_ERROR_STATUS)


FLAGS = {"--retry-infra-errors": "retry_infra_errors=true"}  # CLI spellings of config keys


def study_help(argv: list[str]) -> bool:
    """``--help`` without ``study=``: Hydra would compose the config and stop on the missing study
    with a traceback, so list the studies instead (Hydra's own help once a study is named)."""
    if not {"--help", "-h"} & set(argv) or any(a.startswith(("study=", "+study=")) for a in argv):
        return False
    from harness import studies_list

    studies_list.main()
    print(
        "\npython -m harness.run study=<name> --help   Hydra's help: every config group and the composed config"
    )
    return True


def check_worlds() -> None:
    """Two worlds, or two studies (env, fault...) of one name: one line naming both, before Hydra
    composes anything (it would silently take the first it finds)."""
    try:
        worlds.check()
    except (worlds.DuplicateError, worlds.ConfigFileError) as exc:
        fail(exc, "no episode was run.")


def check_out(argv: list[str]) -> None:
    """``out=`` naming an existing file: Hydra would stop creating the folder with a traceback."""
    for arg in argv:
        key, _, value = arg.partition("=")
        if key.lstrip("+") == "out" and value and Path(value).exists() and not Path(value).is_dir():
            fail(
                ValueError(
                    f"out={value} names a file; out is a run folder (an existing one resumes its run)"
                ),
                "no episode was run.",
            )


if __name__ == "__main__":
    offline.apply()  # an entry point: offline unless a real model is asked for
    sys.argv = [FLAGS.get(a, a) for a in sys.argv]
    check_worlds()
    sys.argv = [sys.argv[0], *cli_overrides(sys.argv[1:])]  # arms=, models=, faults=: the older spellings
    if (unknown := unknown_selections(sys.argv[1:])) is not None:
        fail(ValueError(unknown), "no episode was run.")
    check_out(sys.argv[1:])
    try:
        if not study_help(sys.argv[1:]):
            main()
    except (KeyboardInterrupt, Interrupted) as exc:  # before a run started, or in a sweep's launcher
        signum = getattr(exc, "signum", 2)
        print(
            f"stopped by {'SIGTERM' if signum == 15 else 'SIGINT'} before a run could record anything; "
            "rerun the same command.",
            file=sys.stderr,
        )
        sys.exit(143 if signum == 15 else 130)
