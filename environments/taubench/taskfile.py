"""Upstream's task modules read as data: the syntax tree's ``Task(...)`` / ``Action(...)`` literals -> JSON rows.

Upstream ships each task list as a Python module (``TASKS = [Task(annotator=..., user_id=...,
instruction=..., actions=[Action(name=..., kwargs={...}), ...], outputs=[...]), ...]``). This
parses the source with ``ast`` and takes only literal values (``ast.literal_eval`` of each
keyword); nothing of the file is imported or executed, and anything that is not a literal fails
with one line naming the place. ``to_json`` writes the rows as the project's task-list JSON:
``json.dumps(rows, indent=1, ensure_ascii=False)``, no trailing newline, keys in the order
``annotator, user_id, instruction, actions, outputs``. Knows nothing about downloads or tools.
"""

from __future__ import annotations

import ast
import json
from typing import Any

TASK_KEYS = ("annotator", "user_id", "instruction", "actions", "outputs")
REQUIRED = ("user_id", "instruction", "actions", "outputs")
ACTION_KEYS = ("name", "kwargs")


class TaskFileError(ValueError):
    """The module is not a list of literal ``Task(...)`` calls."""


def convert(source: str | bytes, label: str = "task module") -> list[dict[str, Any]]:
    """The task rows of an upstream task module's source text."""
    try:
        tree = ast.parse(source, filename=label)
    except SyntaxError as exc:
        raise TaskFileError(f"{label}: not valid Python (line {exc.lineno}: {exc.msg})") from None
    lists = [
        node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.List)
        and all(isinstance(t, ast.Name) for t in node.targets)
    ]
    if len(lists) != 1:
        raise TaskFileError(f"{label}: expected one top-level list of tasks, found {len(lists)}")
    return [_task(node, label) for node in lists[0].elts]


def _call(node: ast.AST, func: str, label: str) -> dict[str, ast.AST]:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == func):
        raise TaskFileError(f"{label}, line {getattr(node, 'lineno', '?')}: expected a {func}(...) call")
    if node.args or any(k.arg is None for k in node.keywords):
        raise TaskFileError(f"{label}, line {node.lineno}: {func}(...) must take keyword arguments only")
    return {k.arg: k.value for k in node.keywords if k.arg is not None}


def _literal(node: ast.AST, label: str) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise TaskFileError(f"{label}, line {getattr(node, 'lineno', '?')}: not a literal value") from None


def _task(node: ast.AST, label: str) -> dict[str, Any]:
    kw = _call(node, "Task", label)
    unknown = sorted(set(kw) - set(TASK_KEYS))
    missing = [k for k in REQUIRED if k not in kw]
    if unknown or missing:
        raise TaskFileError(
            f"{label}, line {node.lineno}: Task(...) with "
            + "; ".join(
                part
                for part in (f"unknown {unknown}" if unknown else "", f"missing {missing}" if missing else "")
                if part
            )
        )
    row: dict[str, Any] = {}
    for key in TASK_KEYS:
        if key not in kw:
            continue
        if key == "actions":
            if not isinstance(kw[key], ast.List):
                raise TaskFileError(f"{label}, line {kw[key].lineno}: actions must be a list of Action(...)")
            row[key] = [_action(a, label) for a in kw[key].elts]
        else:
            row[key] = _literal(kw[key], label)
    return row


def _action(node: ast.AST, label: str) -> dict[str, Any]:
    kw = _call(node, "Action", label)
    if set(kw) != set(ACTION_KEYS):
        raise TaskFileError(f"{label}, line {node.lineno}: Action(...) needs exactly name= and kwargs=")
    return {key: _literal(kw[key], label) for key in ACTION_KEYS}


def to_json(rows: list[dict[str, Any]]) -> str:
    return json.dumps(rows, indent=1, ensure_ascii=False)
