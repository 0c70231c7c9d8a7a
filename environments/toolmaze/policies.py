"""Scripted test policies for the environment's own checks (they read hidden task data; NOT agents).

- ``oracle``: follows the shortest valid path; retries a perturbed call in transient modes,
  switches to another route of the slot in permanent modes, aborts in C1 permanent modes.
- ``naive``: follows the shortest path and trusts every result; on an error it stops (done).
- ``retry_only``: like naive, but calls a tool once more when its result is an error or
  perturbed (it peeks at the hidden ``perturbed`` flag); never switches routes, never aborts.
- ``retry_once``: the control that detects nothing: calls every read tool twice and trusts the
  second answer, whatever either said; never switches routes, never aborts.
"""

from __future__ import annotations

from typing import Any

from core.protocol import Outcome, ToolCall, ToolResult
from environments.toolmaze.catalog import FINISH, build_catalog
from environments.toolmaze.dag import Route, build_arguments

POLICIES = ("oracle", "naive", "retry_only", "retry_once")


def _shortest(routes, exclude: set[str] = frozenset()) -> Route | None:
    cands = [r for r in routes if r.route_id not in exclude]
    return min(cands, key=lambda r: len(r.tools)) if cands else None


def _finish(ep, status: str, answer: str, reason: str = "") -> None:
    ep.call(ToolCall(FINISH, {"status": status, "answer": answer, "reason": reason}))


def _play(ep, policy: str) -> None:
    inst = ep.instance
    catalog = build_catalog()
    query: dict[str, Any] = dict(inst.base.inputs)
    fields: dict[str, Any] = {}
    transient = bool(inst.task.meta["transient"])
    codes: list[str] = []
    for slot in inst.base.slots:
        tried: set[str] = set()
        route = _shortest(slot.routes)
        while route is not None:
            switched = False
            for name in route.tools:
                args = build_arguments(catalog[name], query, fields)
                if args is None:
                    return _finish(ep, "done", "missing inputs")
                res: ToolResult = ep.call(ToolCall(name, args))
                if policy == "retry_once" and catalog[name].kind in ("source", "processor"):
                    res = ep.call(ToolCall(name, args))
                bad = res.status != "ok" or res.meta.get("perturbed")
                if bad and (policy == "retry_only" or (policy == "oracle" and transient)):
                    res = ep.call(ToolCall(name, args))
                    bad = res.status != "ok" or res.meta.get("perturbed")
                if bad and policy == "oracle":
                    if inst.base.complexity == "C1":
                        return _finish(
                            ep,
                            "aborted",
                            f"Task aborted: {name} keeps failing",
                            f"{name} returned a failed or corrupted result and has no alternative",
                        )
                    tried.add(route.route_id)
                    route = _shortest(slot.routes, tried)
                    switched = True
                    break
                if res.status != "ok":
                    return _finish(ep, "done", "incomplete")
                fields.update(res.content)
                if "confirmation_code" in res.content:
                    codes.append(res.content["confirmation_code"])
            if not switched:
                break
        if route is None:
            return _finish(ep, "aborted", "Task aborted: no route left", "every route failed")
    _finish(ep, "done", " ".join(codes))


def run_policy(env, task_id: str, policy_name: str, seed: int = 0) -> tuple[Outcome, list]:
    if policy_name not in POLICIES:
        raise KeyError(f"unknown policy '{policy_name}'; known: {', '.join(POLICIES)}")
    ep = env.start(task_id, seed=seed)
    _play(ep, policy_name)
    return ep.score(), list(ep.history)
