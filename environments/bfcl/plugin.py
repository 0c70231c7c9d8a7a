"""BFCL multi-turn's plugin: what a study needs to know about this world (see ``core.plugin``).

Contracts come from the tools' documented ``response`` schemas (less the few types the package's own
ground-truth results contradict: ``contract_schemas``) and from clean traces of the ground truth, mined
per fold so a task is checked by contracts of other tasks. Players (``players.py``) plan each turn from its
ground truth and take every value that came from an earlier result out of the results they were shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from core.plugin import Plugin, PolicyFactory
from core.protocol import ToolCall


class BfclPlugin(Plugin):
    name = "bfcl"
    description = (
        "BFCL multi-turn (bfcl-eval 2026.3.23, imported from the pinned wheel): 8 stateful API classes, "
        "128 tools with documented responses, 200 tasks per category; option "
        "category=base|long_context|miss_func|miss_param"
    )
    contract_sources = ("traces", "schemas")

    def make(self, category: str = "base", **options: Any) -> Any:
        """The wheel's folder is not an option: it is $BFCL_DATA or data/bfcl for the whole process."""
        if options:
            raise TypeError(
                f"bfcl takes only 'category' (the wheel's folder is $BFCL_DATA), got {sorted(options)}"
            )
        from environments.bfcl.env import BfclEnv

        return BfclEnv(category=category)

    def unavailable(self) -> str | None:
        from environments.bfcl.paths import unavailable

        return unavailable()

    def select(self, env: Any, rule: str, params: Mapping[str, Any], seed: int) -> list | None:
        """``bfcl_hash``: the ``n`` tasks with the smallest stable_int(seed, salt, task_id); with
        ``carried: true`` only among tasks whose ground truth passes a value read from an earlier read
        result (``players.carried_from_reads``: elsewhere an observation fault cannot reach the grade)."""
        if rule != "bfcl_hash":
            return None
        from core.seeding import stable_int

        salt = str(params.get("salt", "bfcl"))
        pool = env.tasks()
        if params.get("carried"):
            from environments.bfcl.players import carried_from_reads

            pool = [t for t in pool if carried_from_reads(t.task_id)]
        ranked = sorted(pool, key=lambda t: stable_int(seed, salt, t.task_id))
        n = int(params.get("n", len(ranked)))
        if n > len(ranked):
            raise ValueError(f"bfcl_hash: asked for {n} tasks, the rule leaves {len(ranked)}")
        return ranked[:n]

    def clean_traces(
        self, env: Any, categories: Iterable[str] | None = None, **options: Any
    ) -> Iterable[Mapping[str, Any]]:
        """Every ground-truth call of the world's category (or ``categories``) with its result."""
        if options:
            raise TypeError(f"bfcl clean_traces takes only categories; got {sorted(options)}")
        from environments.bfcl.traces import traces

        cats = tuple(categories) if categories else (env.category,)
        return traces(cats)

    def tool_schemas(self, env: Any) -> Mapping[str, Mapping[str, Any]]:
        from environments.bfcl.contracts import contract_schemas

        return contract_schemas(env)

    def presentation(self, env: Any) -> Mapping[str, Any]:
        return {
            "endpoint": f"BFCL multi-turn checker ({env.category}): the episode's calls, replayed turn by turn "
            "on fresh instances, leave the same state as the ground truth's and include every result it "
            "returned (an observation fault changes the grade only through the calls the agent makes next)",
            "unit": "task",
            "paper": None,
            "notes": [
                "paper: not studied (the paper ran no BFCL study; nothing here is compared)",
                "the scripted players plan each turn from its ground truth (which tool, which argument) and take "
                "every value that came from an earlier result out of the results this episode showed them; "
                "recovery goes through the world's tools: a test of the harness, not of a model",
            ],
        }

    def data_digest(self, env: Any) -> str:
        from environments.bfcl.paths import SHA256

        return f"bfcl-eval:{SHA256}:{env.category}"

    def oracle(self, env: Any, task_id: str) -> list[ToolCall]:
        from environments.bfcl.calls import parse

        entry = env.entry(task_id)
        return [
            parse(text, call_id=f"gt-{k}-{i}")
            for k, turn in enumerate(entry.ground_truth)
            for i, text in enumerate(turn)
        ]

    def scripted_policies(self) -> Mapping[str, PolicyFactory]:
        from environments.bfcl.players import POLICIES

        return dict(POLICIES)


PLUGIN = BfclPlugin()
