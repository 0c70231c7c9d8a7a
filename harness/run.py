"""The Hydra entry point: ``python -m harness.run study=<name> [overrides]``.

``--retry-infra-errors`` is accepted as a spelling of ``retry_infra_errors=true``. Thin on purpose: compose + validate the config (Hydra's own messages for typos and gaps), pick
the run folder, hand over to :func:`harness.runner.run_study`. Tests use the compose API and
``run_study`` directly, never this function.
"""

from __future__ import annotations

import sys

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig

from harness.config import register, to_config
from harness.runner import run_study

register()


@hydra.main(version_base="1.3", config_path="../conf", config_name="config")
def main(cfg: DictConfig) -> None:
    config = to_config(cfg)  # eager: MISSING values and range checks fail here, before any episode
    counts = run_study(config, HydraConfig.get().runtime.output_dir)
    print(f"{config.study.name}: {counts}")


FLAGS = {"--retry-infra-errors": "retry_infra_errors=true"}  # CLI spellings of config keys


if __name__ == "__main__":
    sys.argv = [FLAGS.get(a, a) for a in sys.argv]
    main()
