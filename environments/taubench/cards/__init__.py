"""User cards: what a scripted tau-bench retail user knows and wants, one card per task.

A card holds the identity the instruction gives (email, or name and zip), and the ordered goals
(one per ground-truth write) in the user's terms: order ids, product names with option values,
payment methods by kind (and last four digits), addresses and reasons as text. Items are never
named by item id. Cards are built by rule from the ground-truth writes replayed on the public
database (``build``), written once to ``<split>.json`` beside this module and committed as data;
``lookup`` finds the card of an instruction (by its sha256: the files hold no instruction text). Knows nothing about the harness or about agents.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from environments.taubench.tools import execute

HERE = Path(__file__).resolve().parent
WRITES = (
    "cancel_pending_order",
    "modify_pending_order_address",
    "modify_pending_order_payment",
    "modify_pending_order_items",
    "return_delivered_order_items",
    "exchange_delivered_order_items",
    "modify_user_address",
)
READS = (
    "find_user_id_by_email",
    "find_user_id_by_name_zip",
    "get_user_details",
    "get_order_details",
    "get_product_details",
    "list_all_product_types",
    "calculate",
    "think",
)
ADDRESS = ("address1", "address2", "city", "state", "country", "zip")


def _item(order: dict, item_id: str) -> dict:
    for it in order["items"]:
        if it["item_id"] == item_id:
            return {"product": it["name"], "options": dict(it["options"])}
    raise KeyError(item_id)


def _variant(products: dict, item_id: str) -> dict:
    for p in products.values():
        if item_id in p["variants"]:
            return {"product": p["name"], "options": dict(p["variants"][item_id]["options"])}
    raise KeyError(item_id)


def _payment(user: dict, pm_id: str) -> dict:
    pm = user["payment_methods"][pm_id]
    same = [m for m in user["payment_methods"].values() if m["source"] == pm["source"]]
    out = {"source": pm["source"]}
    if pm["source"] == "credit_card":
        out.update(brand=pm.get("brand"), last_four=pm.get("last_four"))
    elif len(same) > 1:  # several gift cards or PayPal accounts: only the id tells them apart
        out["id"] = pm_id
    return out


def _identity(record: Any, user: dict) -> dict:
    if user["email"].lower() in record.instruction.lower():
        return {"email": user["email"]}
    return {
        "first_name": user["name"]["first_name"],
        "last_name": user["name"]["last_name"],
        "zip": user["address"]["zip"],
    }


def build(env: Any, task_id: str) -> tuple[dict | None, str]:
    """The card of one task, or (None, why there is none)."""
    record = env.record(task_id)
    if record.outputs:
        return None, "the task asks the agent to report values (outputs); the card user does not check them"
    names = [a["name"] for a in record.actions]
    if "transfer_to_human_agents" in names:
        return None, "the ground truth transfers to a human"
    unknown = [n for n in names if n not in WRITES and n not in READS]
    if unknown:
        return None, f"unsupported actions {unknown}"
    db = env.data.base.fresh()
    user = db.collection("users")[record.user_id]
    goals: list[dict] = []
    for a in record.actions:
        name, kw = a["name"], dict(a["kwargs"])
        if name in WRITES:
            goal: dict[str, Any] = {"action": name}
            try:
                if name == "modify_user_address":
                    goal["address"] = {k: kw[k] for k in ADDRESS}
                else:
                    order = db.collection("orders")[kw["order_id"]]
                    goal["order_id"] = kw["order_id"]
                    if name == "cancel_pending_order":
                        goal["reason"] = kw["reason"]
                    if name == "modify_pending_order_address":
                        goal["address"] = {k: kw[k] for k in ADDRESS}
                    if "item_ids" in kw:
                        goal["items"] = [_item(order, i) for i in kw["item_ids"]]
                    if "new_item_ids" in kw:
                        goal["new_items"] = [
                            _variant(db.collection("products"), i) for i in kw["new_item_ids"]
                        ]
                    if "payment_method_id" in kw:
                        goal["payment"] = _payment(user, kw["payment_method_id"])
            except (KeyError, TypeError) as e:
                return None, f"ground-truth write {name} refers to something missing: {e}"
            goals.append(goal)
        execute(db, name, kw)
    if not goals:
        return None, "no write in the ground truth"
    card = {
        "task_id": task_id,
        "user_id": record.user_id,
        "instruction_sha256": instruction_key(record.instruction),
        "identity": _identity(record, user),
        "goals": goals,
        "unknown": ["item ids", "payment method ids", "order ids the instruction does not give"],
    }
    return card, ""


def build_split(env: Any, split: str) -> tuple[list[dict], dict[str, str]]:
    cards, missing = [], {}
    for task in env.tasks(split):
        card, why = build(env, task.task_id)
        if card is None:
            missing[task.task_id] = why
        else:
            cards.append(card)
    return cards, missing


def write(env: Any, split: str, folder: Path = HERE) -> Path:
    cards, missing = build_split(env, split)
    path = folder / f"{split}.json"
    path.write_text(json.dumps({"split": split, "cards": cards, "missing": missing}, indent=1) + "\n")
    return path


def instruction_key(instruction: str) -> str:
    """Cards are keyed by a digest of the instruction, so the files hold no upstream text."""
    return hashlib.sha256(instruction.strip().encode()).hexdigest()


@cache
def _index() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for path in sorted(HERE.glob("*.json")):
        for card in json.loads(path.read_text())["cards"]:
            out.setdefault(card["instruction_sha256"], card)  # duplicated instructions: the first card
    return out


def lookup(instruction: str) -> dict | None:
    return _index().get(instruction_key(instruction))


def cards_of(split: str) -> dict[str, Any]:
    return json.loads((HERE / f"{split}.json").read_text())
