"""``ToolMazeEnv``: the ToolMaze world behind the shared ``core.protocol.Environment`` protocol.

The dataset for a seed is generated once per process (lazily, cached) and is identical on every
run and machine. Must not know harness, monitors or models.
"""

from __future__ import annotations

from core.protocol import LocalEpisode, Task, ToolSpec, UserModel
from environments.toolmaze.catalog import catalog_specs
from environments.toolmaze.dag import COMPLEXITIES, Dataset, Instance, build_dataset
from environments.toolmaze.episode import ToolMazeEpisode
from environments.toolmaze.faults import MODES


class ToolMazeEnv:
    name = "toolmaze"
    needs_user = False  # the query is the whole conversation: the agent's first text ends the episode

    def __init__(self, seed: int = 0):
        self.seed = int(seed)

    @property
    def dataset(self) -> Dataset:
        return build_dataset(self.seed)

    def instance(self, task_id: str) -> Instance:
        """The hidden instance (oracle data); for the environment's judge, policies and tests only."""
        try:
            return self.dataset.instances[task_id]
        except KeyError:
            raise KeyError(f"unknown toolmaze task '{task_id}'") from None

    def tasks(self, split: str = "all") -> list[Task]:
        """``split``: "all", a mode ("P3"), a complexity ("C3"), or "C3/P4"."""
        comp, mode = None, None
        for part in split.split("/"):
            if part in MODES:
                mode = part
            elif part in COMPLEXITIES:
                comp = part
            elif part != "all":
                raise KeyError(f"unknown toolmaze split '{split}'")
        return [
            i.task
            for i in self.dataset.instances.values()
            if (comp is None or i.base.complexity == comp) and (mode is None or i.mode == mode)
        ]

    def task(self, task_id: str) -> Task:
        return self.instance(task_id).task

    def start(self, task_id: str, seed: int = 0) -> ToolMazeEpisode:
        """The synchronous episode (the world's own tools, tests and policies use it directly)."""
        return ToolMazeEpisode(self.instance(task_id), self.seed, seed)

    def episode(self, task_id: str, seed: int = 0, user: UserModel | None = None) -> LocalEpisode:
        """Protocol v2: the same episode behind the async interface the harness drives."""
        return LocalEpisode(self.start(task_id, seed))

    def tool_specs(self) -> dict[str, ToolSpec]:
        return dict(catalog_specs())
