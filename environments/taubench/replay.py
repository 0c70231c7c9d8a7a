"""The ground-truth agent: a task's upstream actions run through a real episode, then its outputs said.

Upstream's ground truth has no ``respond`` actions, so a task with required outputs would fail
its own check; this agent ends with one message holding every required output (a fair stand-in
for an agent that reports what it found). Knows nothing about the harness.
"""

from __future__ import annotations

from environments.taubench.env import TauBenchEnv
from environments.taubench.episode import TauBenchEpisode


def run_ground_truth(env: TauBenchEnv, task_id: str) -> TauBenchEpisode:
    """A finished-by-hand episode of ``task_id``: every ground-truth call, then the outputs message."""
    ep = env.episode(task_id)
    record = env.record(task_id)
    for action in record.actions:
        ep.call_sync(action["name"], action["kwargs"])
    if record.outputs:
        ep.record_text("Here is what you asked for: " + "; ".join(record.outputs))
    return ep
