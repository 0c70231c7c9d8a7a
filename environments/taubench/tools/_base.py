"""What every retail tool file declares, and small helpers the tools share.

A tool is a class with ``name``, ``description``, ``parameters`` (JSON Schema), ``category``
(read | write | terminal), ``returns`` ("json" when upstream returns ``json.dumps`` of a value,
else "text") and a static ``invoke(db, **kwargs) -> str`` that returns upstream's string: checks
first, in upstream's order, each failing with its ``Error: ...`` string; mutation only after the
last check. Knows nothing about episodes or rewards.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from core.protocol import ToolSpec


class Tool:
    name: ClassVar[str]
    description: ClassVar[str]
    parameters: ClassVar[dict[str, Any]]
    category: ClassVar[str] = "read"
    returns: ClassVar[str] = "json"

    invoke: ClassVar[Any]  # staticmethod (db, **kwargs) -> str

    @classmethod
    def spec(cls) -> ToolSpec:
        return ToolSpec(
            name=cls.name,
            description=cls.description,
            parameters=cls.parameters,
            category=cls.category,
            domain="retail",
            kind=cls.category,
        )


def obj(required: list[str] | None = None, **props: dict[str, Any]) -> dict[str, Any]:
    """A parameters schema: every listed property is required unless ``required`` says otherwise."""
    return {"type": "object", "properties": props, "required": list(props) if required is None else required}


def string(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def strings(description: str) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string"}, "description": description}


def dump(value: Any) -> str:
    """Upstream's result form: ``json.dumps`` with its default separators."""
    return json.dumps(value)


ADDRESS_FIELDS = ("address1", "address2", "city", "state", "country", "zip")

ADDRESS_PARAMS: dict[str, dict[str, Any]] = {
    "address1": string("First line of the address, e.g. '123 Main St'."),
    "address2": string("Second line of the address, e.g. 'Apt 1' or 'Suite 200'; may be empty."),
    "city": string("City, e.g. 'San Francisco'."),
    "state": string("State as a two-letter code, e.g. 'CA'."),
    "country": string("Country, e.g. 'USA'."),
    "zip": string("Five-digit zip code, e.g. '12345'."),
}


def address(address1: Any, address2: Any, city: Any, state: Any, country: Any, zip: Any) -> dict[str, Any]:
    """A new address object with upstream's key order (address1, address2, city, state, country, zip)."""
    return {
        "address1": address1,
        "address2": address2,
        "city": city,
        "state": state,
        "country": country,
        "zip": zip,
    }


def first_item(order: dict[str, Any], item_id: Any) -> dict[str, Any]:
    """The first item of ``order`` with this id (upstream's selection; duplicates are taken in turn)."""
    return [item for item in order["items"] if item["item_id"] == item_id][0]


def missing_item(order: dict[str, Any], item_ids: Any) -> Any | None:
    """The first requested id asked for more often than the order holds it, or None."""
    held = [item["item_id"] for item in order["items"]]
    for item_id in item_ids:
        if item_ids.count(item_id) > held.count(item_id):
            return item_id
    return None


def price_difference(
    db: Any, order: dict[str, Any], item_ids: Any, new_item_ids: Any
) -> tuple[Any, str | None]:
    """Sum of (new variant price - old item price) over the pairs, from int 0, unrounded; or an error.

    The new item must be an available variant of the old item's own product.
    """
    diff: Any = 0
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=False):
        item = first_item(order, item_id)
        variants = db.products[item["product_id"]]["variants"]
        if not (new_item_id in variants and variants[new_item_id]["available"]):
            return diff, f"Error: new item {new_item_id} not found or available"
        diff += variants[new_item_id]["price"] - item["price"]
    return diff, None
