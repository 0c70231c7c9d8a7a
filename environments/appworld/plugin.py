"""AppWorld's plugin: the environment, its contract source (the released API response schemas) and
its task selection rule. Knows nothing of the harness."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.plugin import Plugin
from core.protocol import Environment, Task
from core.seeding import sha256_hex, stable_int
from environments.appworld import paths
from environments.appworld.env import AppWorldEnv


class AppWorldPlugin(Plugin):
    name = "appworld"
    description = "AppWorld: 9 simulated apps, 457 APIs, benchmark tasks from the user's data download"
    contract_sources = ("schemas",)

    def make(self, **options: Any) -> AppWorldEnv:
        return AppWorldEnv(**options)

    def unavailable(self) -> str | None:
        """AppWorld's own venv and app code must be set up (the tools work without the task download)."""
        if not paths.is_set_up():
            return f"AppWorld is not set up: {paths.SETUP_HINT}"
        return None

    def tool_schemas(self, env: Environment) -> Mapping[str, Mapping[str, Any]]:
        """``{api name: JSON Schema of its success (200) response}``, from the bridge at run time."""
        if not isinstance(env, AppWorldEnv):
            raise TypeError(f"appworld plugin got a {type(env).__name__}")
        return env.success_schemas()

    def select(self, env: Environment, rule: str, params: Mapping[str, Any], seed: int) -> list[Task] | None:
        """``hash_sample``: ``n`` tasks of ``split`` ranked by stable_int(seed, salt, task_id)."""
        if rule != "hash_sample":
            return None
        split, n, salt = (
            str(params.get("split", "test_normal")),
            int(params.get("n", 32)),
            str(params.get("salt", "appworld")),
        )
        ranked = sorted(env.tasks(split), key=lambda t: (stable_int(seed, salt, t.task_id), t.task_id))
        return ranked[:n]

    def presentation(self, env: Environment) -> Mapping[str, Any]:
        return {
            "endpoint": "AppWorld's own state-based evaluation (all of the task's unit tests pass)",
            "unit": "task family",
            "paper": "appworld",
            "notes": [],
        }

    def data_digest(self, env: Environment) -> str | None:
        """A hash of the pinned AppWorld venv and, when present, of the task folder's file names and sizes."""
        lock = (paths.PACKAGE_DIR / "requirements.lock").read_text()
        tasks = (
            sorted(
                (str(p.relative_to(paths.tasks_dir())), p.stat().st_size)
                for p in paths.tasks_dir().rglob("*")
                if p.is_file()
            )
            if paths.has_task_data()
            else None
        )
        return sha256_hex(
            {"appworld": paths.APPWORLD_VERSION, "lock": sha256_hex(lock.encode()), "tasks": tasks}
        )


PLUGIN = AppWorldPlugin()
