"""``make studies`` (``python -m harness.run.sizes``): the study list of ``harness.studies_list`` with
each study's episode count, planned and not run.

The count is the planner's own steps on the study's composed config (``plan``: the arms, the agent
models, the fault injectors; ``schedule``: the frozen task selection under each fault, the paired
schedule), without the model checks a run makes (keys, local servers), so a study whose models need
keys is counted too. A world is built once per set of options and shared by the studies that use it.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from hydra import compose, initialize_config_dir

from core.worlds import get_plugin
from harness import studies_list
from harness.config import CONF_DIR, agent_models, register, selected, to_config
from harness.run.plan import fault_injectors, tasks_under_faults
from harness.run.schedule import build_schedule


class EpisodeCounter:
    """Episodes a study plans, from its composed config and the planner's steps, nothing run. A world
    is built once per set of options and shared by the studies that use it (building one can take
    seconds: a world may import a whole benchmark package)."""

    def __init__(self) -> None:
        self.envs: dict[tuple[str, str], Any] = {}

    def count(self, study: str) -> int:
        register()
        with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
            cfg = to_config(compose("config", overrides=[f"study={study}"]))
        plugin = get_plugin(cfg.study.env.name)
        options = dict(cfg.study.env.options)
        key = (plugin.name, repr(sorted(options.items())))
        if key not in self.envs:
            self.envs[key] = plugin.make(**options)
        env = self.envs[key]
        selected_tasks = tasks_under_faults(env, plugin, cfg, fault_injectors(cfg))  # as the planner
        arms = list(selected("arm", cfg.arm))
        models = [m.name for m in agent_models(cfg)]
        schedule = build_schedule(
            cfg.study.name, selected_tasks, arms, models, cfg.seed, cfg.replicates, cfg.trials
        )
        return len(schedule)

    def close(self) -> None:
        """Release what the built worlds hold (bridges, pools), as a run does."""
        for env in self.envs.values():
            closer = getattr(env, "aclose", None)
            if callable(closer):
                try:
                    asyncio.run(closer())
                except Exception:  # noqa: BLE001  (a listing must not fail on a release)
                    pass


def main(argv: list[str] | None = None) -> int:
    if argv:
        print(f"usage: python -m harness.run.sizes (no arguments; got {' '.join(argv)})", file=sys.stderr)
        return 2
    print("planning every study whose world is ready (each world built once)...", file=sys.stderr, flush=True)
    counter = EpisodeCounter()
    print("\n".join(studies_list.render(studies_list.rows(counter), count=True)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
