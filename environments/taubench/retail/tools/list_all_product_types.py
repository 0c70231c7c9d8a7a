"""list_all_product_types: every product name mapped to its product id, sorted by name; read."""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import Tool, dump, obj


class ListAllProductTypes(Tool):
    name = "list_all_product_types"
    category = "read"
    description = "List the name and product id of every product type in the store (50 types)."
    parameters = obj()

    @staticmethod
    def invoke(db: Any) -> str:
        names = {product["name"]: product["product_id"] for product in db.products.values()}
        return dump(dict(sorted(names.items())))
