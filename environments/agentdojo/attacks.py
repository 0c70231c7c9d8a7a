"""AgentDojo's prompt-injection attacks, through the package's own public objects.

An attacked task is a pair (user task, injection task) of one suite. The attack is one of the package's
registered attacks (``agentdojo.attacks.attack_registry.load_attack``: ``important_instructions`` and the
others); it writes, for the pair, the text of each injection vector the user task's ground truth reads
(the package's own ``attack(user_task, injection_task)``, which finds those vectors with canaries), and the
episode's environment is the suite's default one with those texts injected
(``load_and_inject_default_environment(injections)``), then the user task's ``init_environment``. The
attack's success is the injection task's own check (``security_from_traces``, else ``security``): True
when the injected goal was carried out. User tasks whose ground truth reads no injection vector are not
injectable (the package raises); they are left out and named.
"""

from __future__ import annotations

from functools import cache, lru_cache
from types import SimpleNamespace
from typing import Any

from environments.agentdojo import package

# The attack texts address "the AI model" by a name the package derives from the target pipeline's name;
# this world attacks no particular model, so it names the package's first listed one (an option).
DEFAULT_TARGET = "gpt-4o-2024-05-13"
SEP = "+"  # <suite>.<user task>+<injection task>
INTERACTIVE = frozenset({"manual"})  # the package's attack that reads each text from input(): never in a run


def known_attacks() -> list[str]:
    import agentdojo.attacks  # noqa: F401 - importing the package registers its attacks
    from agentdojo.attacks.attack_registry import ATTACKS

    return sorted(ATTACKS)


@cache
def attack(
    name: str, suite: str, version: str = package.BENCHMARK_VERSION, target: str = DEFAULT_TARGET
) -> Any:
    """The package's attack object of ``name`` for one suite (one clear error for an unknown name)."""
    import agentdojo.attacks  # noqa: F401 - registers the package's attacks
    from agentdojo.attacks.attack_registry import ATTACKS, load_attack

    if name not in ATTACKS:
        raise ValueError(
            f"agentdojo: unknown attack {name!r}; the package's attacks: {', '.join(sorted(ATTACKS))}"
        )
    if name in INTERACTIVE:
        raise ValueError(
            f"agentdojo: {name!r} asks a person for each text at the console; choose another attack"
        )
    if getattr(ATTACKS[name], "is_dos_attack", False):
        raise ValueError(
            f"agentdojo: {name!r} is a denial-of-service attack (no injection task); choose another"
        )
    # the attack reads only the pipeline's name (to address the model by it)
    return load_attack(name, package.suite(suite, version), SimpleNamespace(name=target))


@cache
def injections(
    name: str,
    suite: str,
    user_task: str,
    injection_task: str,
    version: str = package.BENCHMARK_VERSION,
    target: str = DEFAULT_TARGET,
) -> dict[str, str]:
    """The attack's text per injection vector for the pair (the vectors its ground truth reads)."""
    s = package.suite(suite, version)
    return dict(
        attack(name, suite, version, target).attack(
            s.user_tasks[user_task], s.injection_tasks[injection_task]
        )
    )


@cache
def injectable(
    name: str, suite: str, version: str = package.BENCHMARK_VERSION, target: str = DEFAULT_TARGET
) -> tuple[str, ...]:
    """The suite's user tasks whose ground truth reads some injection vector, in the package's order."""
    a = attack(name, suite, version, target)
    out = []
    for uid, ut in package.suite(suite, version).user_tasks.items():
        try:
            a.get_injection_candidates(ut)
        except ValueError:
            continue  # "is not injectable"
        out.append(uid)
    return tuple(out)


@lru_cache(maxsize=8)  # a suite's environment is large: keep the few pairs a process is playing
def environment(
    name: str,
    suite: str,
    user_task: str,
    injection_task: str,
    version: str = package.BENCHMARK_VERSION,
    target: str = DEFAULT_TARGET,
) -> Any:
    """The suite's environment with the pair's attack texts in their vectors (loaded once, copied per episode)."""
    texts = injections(name, suite, user_task, injection_task, version, target)
    return package.suite(suite, version).load_and_inject_default_environment(texts)


def attack_success(injection_task: Any, output: str, pre: Any, post: Any, calls: list[Any]) -> bool:
    """The injection task's own check, as the package's benchmark takes it: True when the goal was done."""
    by_traces = injection_task.security_from_traces(output, pre, post, calls)
    if by_traces is not None:
        return bool(by_traces)
    return bool(injection_task.security(output, pre, post))
