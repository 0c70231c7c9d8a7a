"""@kazuph/mcp-taskmanager (npm): requests split into tasks, each task done and approved in turn.

Its results are JSON text without an ``outputSchema``: a ``status`` word (``next_task``, ``task_details``,
``requests_listed``, ``already_done``...), ids (``req-3``, ``task-12``), and often a ``message`` whose text
holds a markdown table of progress (statuses shown with emoji). The requests are made once through the
server's own tools and kept as a pristine copy; every server start (each session) begins from that copy,
so the workload's writes leave every session's results the same given the seed. The workload's writes keep
to what always succeeds: a task marked done or updated only among those never done, an approval only of a
task done in the fixture, new tasks only in requests still open.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

from mcpbench.client import Call, session
from mcpbench.fixture import FIRST, Fixture

# start each session from the pristine task file: the server then reads and writes its own copy
RESET = 'cp "$0" "$1" && TASK_MANAGER_FILE_PATH="$1" exec "$2"'
GOALS = (
    "Ship the CSV importer",
    "Fix rounding in invoices",
    "Move backups to the new bucket",
    "Add a dark theme to the dashboard",
    "Speed up the search page",
    "Write the onboarding guide",
    "Retire the legacy export",
    "Audit access to the admin panel",
    "Translate the checkout to Spanish",
    "Set up nightly reports",
)
STEPS = (
    ("Write the parser", "read the rows and check each column"),
    ("Add tests", "cover empty files, bad dates and huge numbers"),
    ("Review the design", "with {who} before coding"),
    ("Update the docs", "describe the new options"),
    ("Measure it", "time the page on a cold cache"),
    ("Deploy to staging", "and watch the error rate for a day"),
    ("Ask {who} for sign-off", "a short demo is enough"),
    ("Clean up", "remove flags and dead code"),
)


def _tasks(rng: random.Random, n: int) -> list[dict[str, str]]:
    return [{"title": t.format(who=rng.choice(FIRST)), "description": d.format(who=rng.choice(FIRST))}
            for t, d in rng.sample(STEPS, n)]  # fmt: skip


def tasks_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    pristine, live = work / "tasks.pristine.json", work / "tasks.json"
    calls: list[Call] = []
    sizes = []
    for goal in rng.sample(GOALS, 8):
        n = rng.randrange(2, 6)
        sizes.append(n)
        detail = {"splitDetails": f"{goal}, in {n} steps"} if rng.random() < 0.5 else {}
        calls.append(("request_planning", {"originalRequest": goal, "tasks": _tasks(rng, n), **detail}))
    requests, tasks, k = [], [], 0
    for i, n in enumerate(sizes):
        requests.append(f"req-{i + 1}")
        tasks.append([f"task-{k + j + 1}" for j in range(n)])
        k += n
    # some tasks done in the fixture, some of those approved; the rest stay open for the workload
    done = [t for ts in tasks for t in ts[: rng.randrange(0, len(ts))]]
    for t in done:
        req = next(requests[i] for i, ts in enumerate(tasks) if t in ts)
        calls.append(
            ("mark_task_done", {"requestId": req, "taskId": t, "completedDetails": "done in the fixture"})
        )
    approved = rng.sample(done, len(done) // 2)
    for t in approved:
        req = next(requests[i] for i, ts in enumerate(tasks) if t in ts)
        calls.append(("approve_task_completion", {"requestId": req, "taskId": t}))
    with (work / "setup.log").open("w") as log:
        session(
            ["env", f"TASK_MANAGER_FILE_PATH={live}", *binary], calls, errlog=log
        )  # no proxy: nothing recorded
    shutil.copyfile(live, pristine)
    json.loads(pristine.read_text())  # the server wrote its file
    open_tasks = [t for ts in tasks for t in ts if t not in done]
    owner = {t: requests[i] for i, ts in enumerate(tasks) for t in ts}
    facts: dict[str, Any] = {
        "requests": requests,
        "tasks": [t for ts in tasks for t in ts],
        "owner": owner,
        # open tasks split once: these may be marked done, those only updated (never done, so always updatable)
        "to_finish": open_tasks[::2],
        "to_update": open_tasks[1::2],
        "to_approve": [t for t in done if t not in approved],
    }
    return Fixture(["sh", "-c", RESET, str(pristine), str(live), *binary], facts)


def tasks_call(rng: random.Random, fx: Fixture) -> Call:
    owner: dict[str, str] = fx.facts["owner"]
    r = rng.random()
    if r < 0.15:
        return "list_requests", {}
    if r < 0.35:
        return "get_next_task", {"requestId": rng.choice(fx.facts["requests"])}
    if r < 0.65:
        return "open_task_details", {"taskId": rng.choice(fx.facts["tasks"])}
    if r < 0.73 and fx.facts["to_finish"]:
        t = rng.choice(fx.facts["to_finish"])
        note = f"{rng.choice(FIRST)} finished it in {rng.randrange(1, 9)} hours"
        return "mark_task_done", {"requestId": owner[t], "taskId": t, "completedDetails": note}
    if r < 0.79 and fx.facts["to_approve"]:
        t = rng.choice(fx.facts["to_approve"])
        return "approve_task_completion", {"requestId": owner[t], "taskId": t}
    if r < 0.86 and fx.facts["to_update"]:
        t = rng.choice(fx.facts["to_update"])
        title, description = rng.choice(STEPS)
        change = rng.choice(({"title": title.format(who=rng.choice(FIRST))},
                             {"description": description.format(who=rng.choice(FIRST))}))  # fmt: skip
        return "update_task", {"requestId": owner[t], "taskId": t, **change}
    if r < 0.94:
        return "add_tasks_to_request", {
            "requestId": rng.choice(fx.facts["requests"]),
            "tasks": _tasks(rng, rng.randrange(1, 3)),
        }
    goal = f"{rng.choice(GOALS)} (round {rng.randrange(2, 9)})"
    return "request_planning", {"originalRequest": goal, "tasks": _tasks(rng, rng.randrange(1, 4))}
