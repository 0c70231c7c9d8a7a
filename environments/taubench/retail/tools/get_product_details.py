"""get_product_details: a product record with all its variants (item ids, options, availability, price); read."""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import Tool, dump, obj, string


class GetProductDetails(Tool):
    name = "get_product_details"
    category = "read"
    description = (
        "Get a product type's details and all its variants (item id, options, availability, price). "
        "A product id is not an item id."
    )
    parameters = obj(product_id=string("The product id, e.g. '6086499569'."))

    @staticmethod
    def invoke(db: Any, product_id: Any) -> str:
        if product_id in db.products:
            return dump(db.products[product_id])
        return "Error: product not found"
