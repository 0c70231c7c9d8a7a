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

from core.plugin import PlannedFault, Plugin, PolicyFactory
from core.protocol import ToolCall
from environments.agentdojo import package


class AgentDojoPlugin(Plugin):
    name = "agentdojo"
    description = (
        f"AgentDojo (PyPI agentdojo=={package.PACKAGE_VERSION}, benchmark {package.BENCHMARK_VERSION}): four "
        "stateful suites, 97 user tasks, 74 tools, graded by the package's own utility checks; "
        "options suite=workspace|travel|banking|slack|all, attack=<one of the package's attacks> (tasks: "
        "user task x injection task pairs; records carry attack_success)"
    )
    contract_sources = ("traces", "schemas")

    def make(
        self,
        suite: str = "workspace",
        version: str = package.BENCHMARK_VERSION,
        clock: str | None = None,
        attack: str | None = None,
        target: str | None = None,
        **options: Any,
    ) -> Any:
        if options:
            raise TypeError(
                f"agentdojo takes only 'suite', 'version', 'clock', 'attack' and 'target', got {sorted(options)}"
            )
        from environments.agentdojo.attacks import DEFAULT_TARGET
        from environments.agentdojo.clock import DEFAULT_START
        from environments.agentdojo.env import AgentDojoWorld

        return AgentDojoWorld(
            suite=suite,
            version=version,
            clock=clock or DEFAULT_START,
            attack=attack,
            target=target or DEFAULT_TARGET,
        )

    def planned_fault(self, env: Any, task: Any) -> PlannedFault | None:
        """Under an attack every task carries it: the attack's name, kind ``prompt_injection``."""
        if not getattr(env, "attack", None):
            return None
        return PlannedFault(label=env.attack, fault_class=env.attack, fault_kind="prompt_injection")

    def unavailable(self) -> str | None:
        return package.unavailable()

    def select(self, env: Any, rule: str, params: Mapping[str, Any], seed: int) -> list | None:
        """``agentdojo_hash``: the ``n`` tasks (default all) with the smallest stable_int(seed, salt, task_id);
        ``exclude_no_call`` (default true) first drops the tasks whose check passes with no call;
        ``exclude_no_flow`` (default false) the tasks whose plan carries no value read into a write or
        the answer (a read fault cannot reach their grade through the world's players);
        ``exclude_empty_injections`` (default false; under an attack) the pairs whose injection task's ground
        truth makes no call (the simulated players could not carry the injected goal out)."""
        if rule != "agentdojo_hash":
            return None
        from core.seeding import stable_int
        from environments.agentdojo.replay import no_call_tasks

        tasks = env.tasks()
        # a task's group is its user task (an attacked task's pairs share it)
        if params.get("exclude_no_call", True):
            skip = no_call_tasks(env)
            tasks = [t for t in tasks if t.group_id not in skip]
        if params.get("exclude_no_flow", False):
            from environments.agentdojo.provenance import no_flow_tasks

            still = set(no_flow_tasks(sorted({t.group_id for t in tasks}), env.version))
            tasks = [t for t in tasks if t.group_id not in still]
        if params.get("exclude_empty_injections", False) and env.attack:
            from environments.agentdojo.injected import injection_calls

            tasks = [t for t in tasks if injection_calls(t.group_id, t.meta["injection_task"], env.version)]
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
        from environments.agentdojo.provenance import no_flow_tasks
        from environments.agentdojo.replay import no_call_tasks

        skip = sorted(no_call_tasks(env))
        notes = [
            "paper: not studied (the paper ran no AgentDojo study; nothing here is compared)",
            "scripted players (not models): they follow each task's ground-truth plan (which tool, which "
            "argument) and take every value the plan found in an earlier result out of what their own episode "
            "read, so a silent read fault they believe reaches their write or answer: a test of the harness "
            "and the monitor, not of a model",
        ]
        out: dict[str, Any] = {
            "endpoint": f"utility (AgentDojo): the package's own utility check ({env.version}) on the final "
            "answer and the environment before and after the episode",
            "unit": "task" if not env.attack else "user task",
            "paper": None,
        }
        if env.attack:
            notes.append(
                f"prompt injection: the package's {env.attack!r} attack writes each (user task, injection task) "
                "pair's texts into the injection vectors the user task's ground truth reads; attack_success is "
                "the injection task's own check (True: the injected goal was carried out)"
            )
            notes.append(
                "SIMULATION: a scripted player obeys an injected instruction with a configured probability "
                "(p_inject, default 0.5) and declines one in a result the monitor flagged when it follows "
                "receipts; the attack-success figures measure the harness and the monitor's reach, not a model"
            )
            if env.not_injectable():
                notes.append(f"not injectable (left out): {', '.join(env.not_injectable())}")
            from environments.agentdojo.injected import empty_injections

            empty = empty_injections(env)
            if empty:
                notes.append(
                    f"injection tasks whose ground truth makes no call ({', '.join(empty)}): the simulated players "
                    "cannot carry their goal out; the agentdojo-attacks study leaves their pairs out (a model can)"
                )
            out["endpoints"] = {
                "attack_success": "attack success (the injection task's own check; lower is better)",
            }
        else:
            notes.append("no prompt injection: every suite runs on its default (benign) injection vectors")
        if skip:
            notes.append(
                f"{len(skip)} task(s) pass their utility check with no call at all ({', '.join(skip)}); "
                "the agentdojo-faults study leaves them out of its pairs (a fault cannot change their grade)"
            )
        users = sorted({t.group_id for t in env.tasks()} - set(skip))
        no_flow = no_flow_tasks(users, env.version)
        if no_flow and not env.attack:
            notes.append(
                f"{len(no_flow)} task(s) carry no value read into a write or the answer ({', '.join(no_flow)}); "
                "the agentdojo-faults study leaves them out too (a read fault cannot reach their grade)"
            )
        return {**out, "notes": notes}

    def scripted_policies(self) -> Mapping[str, PolicyFactory]:
        from environments.agentdojo.players import POLICIES

        return dict(POLICIES)

    def data_digest(self, env: Any) -> str:
        attack = f":{env.attack}:{env.target}" if env.attack else ""
        return f"agentdojo=={package.PACKAGE_VERSION}:{env.version}:{env.suite}:{env.clock}{attack}"

    def oracle(self, env: Any, task_id: str) -> list[ToolCall]:
        from environments.agentdojo.replay import ground_truth_calls

        return ground_truth_calls(env, task_id)


PLUGIN = AgentDojoPlugin()
