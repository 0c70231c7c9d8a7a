"""Scripted retail agents: trusting, receipt-aware, skeptic and noisy, the four stock behaviours written for this world.

Each sees only what a model sees (chat messages and tool schemas). Each request it rebuilds the
conversation: the user's latest ``REQUEST {...}`` line (identity and one goal in product names and
option values), then the calls and results since. It authenticates, reads the user, the order and
the products it needs, resolves item and payment ids, asks the user to confirm, then writes.

Behaviours on a result:
- ``trusting`` believes every result and reads past receipts; an order status that forbids the goal
  ends the goal ("cannot").
- ``receipt-aware``: a receipt (tool content ``{"tool_result", "outcome_monitor"}``) makes it re-read
  once with the first listed recovery tool; a value still flagged is not believed (the write tool,
  which checks the stored record, decides), and a flagged value is never passed to a write.
- ``skeptic``: as receipt-aware, and an order status outside the statuses it knows is re-read once
  without a receipt, then not believed.
- ``noisy``: per receipt, overreacts (gives up) with ``p_overreact``, else follows with ``p_follow``,
  else ignores; notices an implausible status with ``p_notice``. Draws come from the request's rng
  and are written into its messages (``{judged: <call id>=<choice>}``) so later turns replay them.
Knows nothing about the harness, the database or the ground truth.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

KNOWN_STATUSES = ("pending", "processed", "delivered", "cancelled")
NEEDS = {
    "cancel_pending_order": "pending",
    "modify_pending_order_address": "pending",
    "modify_pending_order_payment": "pending",
    "modify_pending_order_items": "pending",
    "return_delivered_order_items": "delivered",
    "exchange_delivered_order_items": "delivered",
}
_JUDGED = re.compile(r"\{judged: ([^=}]+)=(\w+)\}")


def _text(text: str) -> dict:
    return {"role": "assistant", "content": text, "tool_calls": []}


def _unwrap(content: Any) -> tuple[Any, dict | None]:
    """(result, receipt or None): results are JSON text or plain strings; receipts wrap them."""
    try:
        obj = json.loads(content) if isinstance(content, str) else content
    except (TypeError, ValueError):
        return content, None
    if isinstance(obj, dict) and "outcome_monitor" in obj and "tool_result" in obj:
        inner = obj["tool_result"]
        if isinstance(inner, str):
            try:
                inner = json.loads(inner)
            except ValueError:
                pass
        rec = obj["outcome_monitor"] if isinstance(obj["outcome_monitor"], dict) else {}
        return inner, rec
    return obj, None


class RetailAgent:
    name = "trusting"
    follows_receipts = False
    checks_status = False
    p_notice = p_follow = p_overreact = 1.0
    noisy = False

    def respond(self, messages: list[dict], tools: list[dict], rng: random.Random) -> dict:
        self._rng = rng
        req_at, req = None, None
        for i, m in enumerate(messages):
            if m.get("role") == "user" and "REQUEST " in (m.get("content") or ""):
                try:
                    req_at, req = i, json.loads((m["content"] or "").split("REQUEST ", 1)[1])
                except ValueError:
                    pass
        if req is None:
            return _text("Hello! Could you give me your email, or your name and zip code, and what you need?")
        calls = self._calls(messages)
        judged = {
            k: v
            for m in messages
            if m.get("role") == "assistant"
            for k, v in _JUDGED.findall(m.get("content") or "")
        }
        user_id = next(
            (
                c["result"]
                for c in reversed(calls)
                if c["name"].startswith("find_user_id")
                and isinstance(c["result"], str)
                and not c["result"].startswith("Error")
            ),
            None,
        )
        if user_id is None:
            tried = [c for c in calls if c["name"].startswith("find_user_id") and c["at"] > req_at]
            if tried:
                return _text("I cannot find your account with those details. Is there anything else?")
            ident = req["identity"]
            if "email" in ident:
                return self._call("find_user_id_by_email", {"email": ident["email"]})
            return self._call("find_user_id_by_name_zip", dict(ident))
        seg = [c for c in calls if c["at"] > req_at]
        action = req["action"]
        reads: list[tuple[str, dict]] = [("get_user_details", {"user_id": user_id})]
        if "order_id" in req:
            reads.append(("get_order_details", {"order_id": req["order_id"]}))
        views: dict[str, Any] = {}
        flagged: set[str] = set()
        note = ""
        for name, args in reads:
            got = self._read(seg, name, args, judged)
            if isinstance(got, dict):
                return got
            view, bad, extra = got
            note += extra
            if bad == "abandon":
                return _text(
                    f"{note}I'm sorry, I cannot rely on our records right now. Is there anything else?"
                )
            views[name] = view
            if bad:
                flagged.add(name)
        order = views.get("get_order_details")
        if "order_id" in req:
            if not isinstance(order, dict):
                return _text(f"{note}I cannot find order {req['order_id']}. Is there anything else?")
            if order.get("user_id") not in (None, user_id):
                return _text(
                    f"{note}Order {req['order_id']} is not on your account, so I cannot change it. "
                    "Is there anything else?"
                )
            status = order.get("status")
            if action in NEEDS and status != NEEDS[action] and "get_order_details" not in flagged:
                return _text(
                    f"{note}I'm sorry, order {req['order_id']} is {status}, so I cannot do that. "
                    "Is there anything else?"
                )
        products: dict[str, Any] = {}
        for new in req.get("new_items", []):
            pid = next(
                (it["product_id"] for it in (order or {}).get("items", []) if it["name"] == new["product"]),
                None,
            )
            if pid is None:
                return _text(f"{note}I cannot find {new['product']} in that order. Is there anything else?")
            if pid not in products:
                got = self._read(seg, "get_product_details", {"product_id": pid}, judged)
                if isinstance(got, dict):
                    return got
                products[pid] = got[0]
        args = self._resolve(req, user_id, views.get("get_user_details"), order, products)
        if isinstance(args, str):
            return _text(f"{note}I'm sorry, {args}. Is there anything else?")
        wrote = [c for c in seg if c["name"] == action]
        if wrote:
            res = wrote[-1]["result"]
            if isinstance(res, str) and res.startswith("Error"):
                return _text(f"Sorry, that did not work ({res}). Is there anything else?")
            return _text("Done: your request is complete. Is there anything else I can help you with?")
        asked = any(
            m.get("role") == "assistant" and "Please confirm" in (m.get("content") or "")
            for m in messages[req_at:]
        )
        if not asked:
            return _text(
                f"{note}Please confirm: I will call {action} with {json.dumps(args, sort_keys=True)}. "
                "Shall I proceed (yes/no)?"
            )
        return self._call(action, args, note)

    # ------------------------------------------------------------------ helpers

    def _calls(self, messages: list[dict]) -> list[dict]:
        out: list[dict] = []
        pending: dict[str, dict] = {}
        for i, m in enumerate(messages):
            if m.get("role") == "assistant":
                for tc in m.get("tool_calls") or []:
                    try:
                        args = json.loads(tc["function"]["arguments"] or "{}")
                    except ValueError:
                        args = {}
                    pending[tc["id"]] = {
                        "id": tc["id"],
                        "name": tc["function"]["name"],
                        "args": args,
                        "at": i,
                    }
            elif m.get("role") == "tool" and m.get("tool_call_id") in pending:
                c = pending.pop(m["tool_call_id"])
                c["result"], c["receipt"] = _unwrap(m.get("content"))
                out.append(c)
        return out

    def _call(self, name: str, args: dict, note: str = "") -> dict:
        cid = f"call_{name}_{self._rng.randrange(10**9)}"
        return {
            "role": "assistant",
            "content": note or None,
            "tool_calls": [
                {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            ],
        }

    def _react(self, cid: str, judged: dict, kind: str) -> tuple[str, str]:
        """What this agent does about a receipt (kind 'receipt') or an implausible value ('odd')."""
        if not self.noisy:
            if kind == "receipt":
                return ("follow" if self.follows_receipts else "ignore"), ""
            return ("follow" if self.checks_status else "ignore"), ""
        if cid in judged:
            return judged[cid], ""
        r = self._rng
        if kind == "odd":
            choice = "follow" if r.random() < self.p_notice else "ignore"
        elif r.random() < self.p_overreact:
            choice = "abandon"
        else:
            choice = "follow" if r.random() < self.p_follow else "ignore"
        return choice, f"{{judged: {cid}={choice}}} "

    def _read(self, seg: list[dict], name: str, args: dict, judged: dict) -> Any:
        """(view, flagged|'abandon'|'', note) for a read, or a tool call still to make."""
        done = [
            c
            for c in seg
            if c["args"] == args
            and c["name"]
            in (name,)
            + tuple(t for c2 in seg if c2["receipt"] for t in (c2["receipt"].get("recovery_tools") or [])[:1])
        ]
        if not done:
            return self._call(name, args)
        first, last = done[0], done[-1]
        trouble = None
        if first["receipt"] and first["receipt"].get("violated", True):
            trouble = "receipt"
        elif (
            name == "get_order_details"
            and isinstance(first["result"], dict)
            and first["result"].get("status") not in KNOWN_STATUSES + tuple(self._seen)
        ):
            trouble = "odd"
        if trouble is None:
            if isinstance(last["result"], dict) and name == "get_order_details":
                self._seen.add(str(last["result"].get("status")))
            return last["result"], "", ""
        choice, note = self._react(first["id"], judged, trouble)
        if choice == "ignore":
            return last["result"], "", note
        if choice == "abandon":
            return last["result"], "abandon", note
        if len(done) == 1:
            tool = name
            if trouble == "receipt":
                tool = (first["receipt"].get("recovery_tools") or [name])[0]
            return self._call(tool, args, note)
        still = (last["receipt"] and last["receipt"].get("violated", True)) or (
            trouble == "odd"
            and isinstance(last["result"], dict)
            and last["result"].get("status") not in KNOWN_STATUSES
        )
        return last["result"], ("flagged" if still else ""), note

    _seen: set = set()

    def _resolve(self, req: dict, user_id: str, user: Any, order: Any, products: dict) -> dict | str:
        action = req["action"]
        addr = ("address1", "address2", "city", "state", "country", "zip")
        if action == "modify_user_address":
            return {"user_id": user_id, **{k: req["address"][k] for k in addr}}
        args: dict[str, Any] = {"order_id": req["order_id"]}
        if action == "cancel_pending_order":
            args["reason"] = req["reason"]
        if action == "modify_pending_order_address":
            args.update({k: req["address"][k] for k in addr})
        if "items" in req:
            items = list((order or {}).get("items", []))
            pool, ids = list(items), []
            for want in req["items"]:

                def same(it: dict, want: dict = want) -> bool:
                    return it.get("name") == want["product"] and it.get("options") == want["options"]

                hit = next((it for it in pool if same(it)), None) or next(
                    (it for it in items if same(it)), None
                )
                if hit is None:
                    return f"I cannot find the {want['product']} you describe in order {req['order_id']}"
                if hit in pool:
                    pool.remove(hit)
                ids.append(hit["item_id"])
            args["item_ids"] = ids
        if "new_items" in req:
            new_ids = []
            for want in req["new_items"]:
                prod = next(
                    (
                        p
                        for p in products.values()
                        if isinstance(p, dict) and p.get("name") == want["product"]
                    ),
                    None,
                )
                hit = next(
                    (
                        vid
                        for vid, v in (prod or {}).get("variants", {}).items()
                        if v.get("options") == want["options"]
                    ),
                    None,
                )
                if hit is None:
                    return f"I cannot find a {want['product']} with those options"
                new_ids.append(hit)
            args["new_item_ids"] = new_ids
        if "payment" in req:
            pay = req["payment"]
            methods = (user or {}).get("payment_methods", {}) if isinstance(user, dict) else {}
            hit = pay.get("id") or next(
                (
                    pid
                    for pid, pm in methods.items()
                    if pm.get("source") == pay["source"]
                    and (pay["source"] != "credit_card" or pm.get("last_four") == pay.get("last_four"))
                ),
                None,
            )
            if hit is None:
                return "I cannot find that payment method on your account"
            args["payment_method_id"] = hit
        return args


class Trusting(RetailAgent):
    name = "trusting"


class ReceiptAware(RetailAgent):
    name = "receipt-aware"
    follows_receipts = True


class Skeptic(RetailAgent):
    name = "skeptic"
    follows_receipts = True
    checks_status = True


class Noisy(RetailAgent):
    name = "noisy"
    noisy = True
    p_notice, p_follow, p_overreact = 0.15, 0.70, 0.20


def _fresh(cls: type[RetailAgent]) -> Any:
    def make() -> RetailAgent:
        agent = cls()
        agent._seen = set()
        return agent

    return make


POLICIES = {c.name: _fresh(c) for c in (Trusting, ReceiptAware, Skeptic, Noisy)}
