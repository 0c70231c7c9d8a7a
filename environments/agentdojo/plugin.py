"""AgentDojo's plugin: what a study needs to know about this world (see ``core.plugin``).

The world runs the ``agentdojo`` package's suites (this folder's hash-locked ``requirements.txt``; ``make worlds``).
Contracts come from the tools' declared return types (pydantic models: a JSON Schema each) and from
clean traces of other tasks (ground-truth calls and argument-free reads, five folds by task). The world
ships its own four scripted players (``players.py``): they follow each task's ground-truth plan and take
every value the plan found in an earlier result out of what their own episode read (``provenance.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from core.plugin import Plugin, PolicyFactory
from core.protocol import ToolCall
from environments.agentdojo import package


class AgentDojoPlugin(Plugin):
    name = "agentdojo"
    description = (
        f"AgentDojo (PyPI agentdojo=={package.PACKAGE_VERSION}, benchmark {package.BENCHMARK_VERSION}): four "
        "stateful suites, 97 user tasks, 74 tools, graded by the package's own utility checks; "
        "option suite=workspace|travel|banking|slack|all"
    )
    contract_sources = ("traces", "schemas")

    def make(
        self,
        suite: str = "workspace",
        version: str = package.BENCHMARK_VERSION,
        clock: str | None = None,
        **options: Any,
    ) -> Any:
        if options:
            raise TypeError(f"agentdojo takes only 'suite', 'version' and 'clock', got {sorted(options)}")
        from environments.agentdojo.clock import DEFAULT_START
        from environments.agentdojo.env import AgentDojoWorld

        return AgentDojoWorld(suite=suite, version=version, clock=clock or DEFAULT_START)

    def unavailable(self) -> str | None:
        return package.unavailable()

    def select(self, env: Any, rule: str, params: Mapping[str, Any], seed: int) -> list | None:
        """``agentdojo_hash``: the ``n`` tasks (default all) with the smallest stable_int(seed, salt, task_id);
        ``exclude_no_call`` (default true) first drops the tasks whose check passes with no call;
        ``exclude_no_flow`` (default false) the tasks whose plan carries no value read into a write or
        the answer (a read fault cannot reach their grade through the world's players)."""
        if rule != "agentdojo_hash":
            return None
        from core.seeding import stable_int
        from environments.agentdojo.replay import no_call_tasks

        tasks = env.tasks()
        if params.get("exclude_no_call", True):
            skip = no_call_tasks(env)
            tasks = [t for t in tasks if t.task_id not in skip]
        if params.get("exclude_no_flow", False):
            from environments.agentdojo.provenance import no_flow_tasks

            still = set(no_flow_tasks([t.task_id for t in tasks], env.version))
            tasks = [t for t in tasks if t.task_id not in still]
        salt = str(params.get("salt", "agentdojo"))
        ranked = sorted(tasks, key=lambda t: stable_int(seed, salt, t.task_id))
        n = int(params.get("n", len(ranked)))
        if n > len(ranked):
            raise ValueError(f"agentdojo_hash: asked for {n} tasks, {len(ranked)} are eligible")
        return ranked[:n]

    def clean_traces(
        self, env: Any, seed: int = 0, probes: bool = True, **options: Any
    ) -> Iterable[Mapping[str, Any]]:
        """Each task's ground-truth calls and (``probes``) its suite's argument-free reads, with results."""
        if options:
            raise TypeError(f"agentdojo clean_traces takes seed and probes; got {sorted(options)}")
        from environments.agentdojo.traces import traces

        return traces(env, seed=seed, probes=probes)

    def tool_schemas(self, env: Any) -> Mapping[str, Mapping[str, Any]]:
        """Each tool's declared return type as a JSON Schema (serialization mode: what its JSON result is)."""
        return {name: spec.output_schema for name, spec in env.tool_specs().items() if spec.output_schema}

    def presentation(self, env: Any) -> Mapping[str, Any]:
        from environments.agentdojo.replay import no_call_tasks

        skip = sorted(no_call_tasks(env))
        notes = [
            "paper: not studied (the paper ran no AgentDojo study; nothing here is compared)",
            "scripted players (not models): they follow each task's ground-truth plan (which tool, which "
            "argument) and take every value the plan found in an earlier result out of what their own episode "
            "read, so a silent read fault they believe reaches their write or answer: a test of the harness "
            "and the monitor, not of a model",
            "no prompt injection: every suite runs on its default (benign) injection vectors",
        ]
        if skip:
            notes.append(
                f"{len(skip)} task(s) pass their utility check with no call at all ({', '.join(skip)}); "
                "the agentdojo-faults study leaves them out of its pairs (a fault cannot change their grade)"
            )
        from environments.agentdojo.provenance import no_flow_tasks

        no_flow = [t.task_id for t in env.tasks() if t.task_id not in skip]
        no_flow = no_flow_tasks(no_flow, env.version)
        if no_flow:
            notes.append(
                f"{len(no_flow)} task(s) carry no value read into a write or the answer ({', '.join(no_flow)}); "
                "the agentdojo-faults study leaves them out too (a read fault cannot reach their grade)"
            )
        return {
            "endpoint": f"utility (AgentDojo): the package's own utility check ({env.version}) on the final "
            "answer and the environment before and after the episode",
            "unit": "task",
            "paper": None,
            "notes": notes,
        }

    def scripted_policies(self) -> Mapping[str, PolicyFactory]:
        from environments.agentdojo.players import POLICIES

        return dict(POLICIES)

    def data_digest(self, env: Any) -> str:
        return f"agentdojo=={package.PACKAGE_VERSION}:{env.version}:{env.suite}:{env.clock}"

    def oracle(self, env: Any, task_id: str) -> list[ToolCall]:
        from environments.agentdojo.replay import ground_truth_calls

        return ground_truth_calls(env, task_id)


PLUGIN = AgentDojoPlugin()
