"""Clean traces: every ground-truth call of a category's tasks with the result it returns.

Each task's ground truth runs on fresh instances through the package's executor, as an episode would
run it; one row per call: ``{tool, arguments, result, status, task_id, group_id, source}``. A task's
``group_id`` (``bfcl-<index>``) is its fold: the monitor checks a task with contracts mined from the
other folds' tasks.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from environments.bfcl import checker
from environments.bfcl.calls import parse
from environments.bfcl.data import entries


def traces(categories: tuple[str, ...] = ("base",)) -> Iterator[dict[str, Any]]:
    for category in categories:
        for entry in entries(category):
            name = checker.unique_name("traces")
            try:
                for turn in entry.ground_truth:
                    for text in turn:
                        call = parse(text)
                        (raw,), _ = checker.execute(entry, name, [text])
                        content, is_error = checker.parse_result(raw)
                        yield {
                            "tool": call.name,
                            "arguments": dict(call.arguments),
                            "result": content,
                            "status": "error" if is_error else "ok",
                            "task_id": entry.id,
                            "group_id": f"bfcl-{entry.index}",
                            "source": "ground_truth",
                        }
            finally:
                checker.release(name)
