"""Helpers the retail tools share: addresses, item selection, the modify/exchange price difference."""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import string

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
