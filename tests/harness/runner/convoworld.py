"""A second world that lives only in the tests: a refund desk with a simulated customer.

It exercises what ToolMaze does not: the customer opens the conversation and answers the agent
(through the harness-supplied user model), two tools (``lookup_order`` read, ``refund_order``
write) act on the world's own state, ``episode.state`` lets a fault corrupt that state, and task
``desk-boom`` fails inside the world. The plugin ships its own scripted agent and customer.
The harness knows nothing of it: a study points ``study.env.name`` at ``convoworld:PLUGIN``.
"""

from __future__ import annotations

import copy
import json
import os
import re
import signal
import time
from typing import Any

from core.plugin import Plugin
from core.protocol import (
    Outcome,
    Task,
    ToolCall,
    ToolResult,
    ToolSpec,
    UserModel,
    UserTurn,
    validate_arguments,
)
from core.seeding import sha256_hex, stable_int

STOP = "###STOP###"
N_TASKS = 6
TOOLS = {
    "lookup_order": ToolSpec(
        "lookup_order",
        "Look up an order: its status and total.",
        {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
        category="read",
    ),
    "refund_order": ToolSpec(
        "refund_order",
        "Refund an order's total to the customer.",
        {
            "type": "object",
            "properties": {"order_id": {"type": "string"}, "amount": {"type": "number"}},
            "required": ["order_id", "amount"],
        },
        category="write",
    ),
}


def orders() -> dict[str, dict[str, Any]]:
    return {
        f"O-{k}": {
            "order_id": f"O-{k}",
            "status": "delivered",
            "total": round(20 + stable_int("desk", k) % 8000 / 100, 2),
        }
        for k in range(N_TASKS)
    }


class DeskState:
    """The world's state behind StateAccess: a result path ``$.total`` of a lookup maps to the stored order."""

    def __init__(self) -> None:
        self.orders = orders()

    def locate(self, call: ToolCall, result: ToolResult, path: str) -> tuple[str, str] | None:
        order = self.orders.get(str(call.arguments.get("order_id")))
        field = path[2:] if path.startswith("$.") else None
        return (order["order_id"], field) if order is not None and field in order else None

    def corrupt(self, ref: tuple[str, str], value: Any) -> None:
        self.orders[ref[0]][ref[1]] = value

    def digest(self) -> str:
        return sha256_hex(self.orders)


class DeskEpisode:
    def __init__(self, task: Task, user: UserModel, instruction: str, order: str):
        self.task, self.user, self.instruction, self.order = task, user, instruction, order
        self.state = DeskState()
        self.said: list[dict] = []  # the customer's own view: it speaks as "assistant"
        self.refunds: list[tuple[str, float]] = []

    def tools(self) -> list[ToolSpec]:
        return list(TOOLS.values())

    def _customer_view(self) -> list[dict]:
        return [{"role": "system", "content": f"You are a customer. {self.instruction}"}, *self.said]

    async def open(self) -> str:
        text = await self.user(self._customer_view())
        self.said.append({"role": "assistant", "content": text})
        return text

    async def call(self, call: ToolCall) -> ToolResult:
        spec = TOOLS.get(call.name)
        if spec is None:
            return ToolResult({"error": f"unknown tool {call.name}"}, "error")
        if validate_arguments(spec, call.arguments):
            return ToolResult({"error": "invalid arguments"}, "error")
        if self.task.task_id == "desk-boom":
            raise RuntimeError("the desk's order database is down")
        order = self.state.orders.get(str(call.arguments["order_id"]))
        if order is None:
            return ToolResult({"error": "no such order"}, "error")
        if call.name == "lookup_order":
            return ToolResult(copy.deepcopy(order))
        self.refunds.append((order["order_id"], float(call.arguments["amount"])))
        order["status"] = "refunded"
        return ToolResult({"order_id": order["order_id"], "refunded": float(call.arguments["amount"])})

    async def say(self, text: str) -> UserTurn:
        self.said.append({"role": "user", "content": text})
        reply = await self.user(self._customer_view())
        self.said.append({"role": "assistant", "content": reply})
        return UserTurn(reply.replace(STOP, "").strip() or None, done=STOP in reply)

    async def score(self) -> Outcome:
        want = self.order
        ok = self.refunds == [(want, orders()[want]["total"])]
        return Outcome(ok, float(ok), {"refunds": self.refunds, "state_digest": self.state.digest()})

    async def close(self) -> None:
        return None


class DeskWorld:
    name = "convoworld"
    needs_user = True

    def __init__(self) -> None:
        self._tasks, self._hidden = {}, {}  # the customer's instruction never leaves the world
        for k in range(N_TASKS):
            tid = "desk-boom" if k == N_TASKS - 1 else f"desk-{k}"
            self._tasks[tid] = Task(tid, f"customer-{k % 3}", "", "convoworld", strata={"desk": "refunds"})
            self._hidden[tid] = (f"You want a refund for order O-{k}.", f"O-{k}")

    def tasks(self, split: str = "all") -> list[Task]:
        return list(self._tasks.values())

    def task(self, task_id: str) -> Task:
        return self._tasks[task_id]

    def episode(self, task_id: str, seed: int = 0, user: UserModel | None = None) -> DeskEpisode:
        if user is None:
            raise ValueError("the refund desk needs a user model")
        return DeskEpisode(self._tasks[task_id], user, *self._hidden[task_id])

    def tool_specs(self) -> dict[str, ToolSpec]:
        return dict(TOOLS)


# --------------------------------------------------------------------------------------------
# scripted players: they see only chat messages, as a model would


def _msg(content: str | None = None, call: tuple[str, dict] | None = None) -> dict:
    calls = (
        [{"id": "", "type": "function", "function": {"name": call[0], "arguments": json.dumps(call[1])}}]
        if call
        else []
    )
    return {"role": "assistant", "content": content, "tool_calls": calls}


class DeskAgent:
    """Looks the order up, asks to confirm, refunds the looked-up total, says so. Trusts every result."""

    def respond(self, messages: list[dict], tools: list[dict], rng: Any) -> dict:
        said = " ".join(m.get("content") or "" for m in messages if m["role"] == "user")
        order = re.search(r"O-\d+", said)
        results = [
            json.loads(m["content"]) for m in messages if m["role"] == "tool" and m["content"].startswith("{")
        ]
        looked = [r for r in results if "total" in r]
        refunded = [r for r in results if "refunded" in r]
        last = messages[-1]
        if refunded:
            return _msg(f"Refunded {refunded[-1]['refunded']} for {refunded[-1]['order_id']}.")
        if order is None:
            return _msg("Which order should I refund?")
        if not looked:
            return _msg(call=("lookup_order", {"order_id": order.group(0)}))
        if last["role"] == "user" and "yes" in (last.get("content") or "").lower():
            return _msg(call=("refund_order", {"order_id": order.group(0), "amount": looked[-1]["total"]}))
        return _msg(f"Order {order.group(0)} totals {looked[-1]['total']}. Shall I refund it? (yes/no)")


class DeskCrasher(DeskAgent):
    """A desk agent whose process dies (SIGKILL) on order O-3, once per marker file: a killed sweep job.

    With ``DESK_HANG_MARKER`` instead, the first job to reach O-3 creates that file (writing the SLURM
    variables it runs under, as JSON) and then waits forever: a job running until it is cancelled.
    """

    def respond(self, messages: list[dict], tools: list[dict], rng: Any) -> dict:
        marker = os.environ.get("DESK_CRASH_MARKER")
        said = " ".join(m.get("content") or "" for m in messages if m["role"] == "user")
        if marker and "O-3" in said and not os.path.exists(marker):
            open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        hang = os.environ.get("DESK_HANG_MARKER")
        if hang and "O-3" in said:
            try:  # the lock stays: only one job, once, ever hangs on this marker
                os.close(os.open(hang + ".lock", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:  # another job (or an earlier run) hung already: go on
                pass
            else:
                slurm = {k: v for k, v in os.environ.items() if k.startswith("SLURM_")}
                with open(hang + ".tmp", "w") as f:
                    json.dump(slurm, f)
                os.rename(hang + ".tmp", hang)  # whole when it appears
                while True:
                    time.sleep(1)
        return super().respond(messages, tools, rng)


class DeskCustomer:
    """Asks for the refund its instruction names, confirms, and leaves once refunded."""

    def respond(self, messages: list[dict], tools: list[dict], rng: Any) -> dict:
        order = re.search(r"O-\d+", messages[0]["content"]).group(0)  # type: ignore[union-attr]
        heard = messages[-1]["content"] if messages[-1]["role"] == "user" else ""
        if len(messages) == 1:
            return _msg(f"Hi, I'd like a refund for order {order}.")
        if "Shall I refund" in heard:
            return _msg("yes")
        if heard.startswith("Refunded"):
            return _msg(f"Thanks! {STOP}")
        return _msg(f"It is order {order}.")


class DeskPlugin(Plugin):
    name = "convoworld"
    contract_sources = ("traces",)

    def make(self) -> DeskWorld:
        return DeskWorld()

    def clean_traces(self, env: Any, **options: Any):
        for k, order in enumerate(orders().values()):
            yield {
                "tool": "lookup_order",
                "arguments": {"order_id": order["order_id"]},
                "result": order,
                "status": "ok",
                "task_id": f"desk-{k}",
                "group_id": f"customer-{k % 3}",
            }

    def scripted_policies(self):
        return {"trusting": DeskAgent, "receipt-aware": DeskCrasher}

    def scripted_users(self):
        return {"customer": DeskCustomer}


PLUGIN = DeskPlugin()
