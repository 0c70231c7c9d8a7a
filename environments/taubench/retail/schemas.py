"""JSON Schemas of the JSON tool results (users, orders, products, the catalogue list).

Written from the documented domains: id formats, the 7 order statuses, transaction types,
payment sources. Deliberately loose where post-states differ from the initial database: amounts
may be 0.0 and unrounded, gift-card balances may exceed 100 and be floats, an order may ship to
any address. Text results (look-ups, calculate, think, transfer) have no schema. Knows nothing
about tools' code.
"""

from __future__ import annotations

from typing import Any

ORDER_STATUSES = (
    "pending",
    "processed",
    "delivered",
    "cancelled",
    "pending (item modified)",
    "return requested",
    "exchange requested",
)

USER_ID = {"type": "string", "pattern": r"^[a-z]+_[a-z]+_\d{4}$"}
ORDER_ID = {"type": "string", "pattern": r"^#W\d{7}$"}
TEN_DIGITS = {"type": "string", "pattern": r"^\d{10}$"}
PAYMENT_ID = {"type": "string", "pattern": r"^(gift_card|credit_card|paypal)_\d{7}$"}
OPTIONS = {"type": "object", "additionalProperties": {"type": "string"}}
ID_LIST = {"type": "array", "items": TEN_DIGITS}


def _object(required: tuple[str, ...], **props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(required)}


ADDRESS = _object(
    ("address1", "address2", "city", "country", "state", "zip"),
    address1={"type": "string"},
    address2={"type": "string"},
    city={"type": "string"},
    country={"type": "string"},
    state={"type": "string"},
    zip={"type": "string", "pattern": r"^\d{5}$"},
)

ITEM = _object(
    ("name", "product_id", "item_id", "price", "options"),
    name={"type": "string"},
    product_id=TEN_DIGITS,
    item_id=TEN_DIGITS,
    price={"type": "number", "exclusiveMinimum": 0},
    options=OPTIONS,
)

TRANSACTION = _object(
    ("transaction_type", "amount", "payment_method_id"),
    transaction_type={"type": "string", "enum": ["payment", "refund"]},
    amount={"type": "number", "minimum": 0},
    payment_method_id=PAYMENT_ID,
)

FULFILLMENT = _object(
    ("tracking_id", "item_ids"),
    tracking_id={"type": "array", "items": {"type": "string", "pattern": r"^\d{12}$"}},
    item_ids=ID_LIST,
)

ORDER = _object(
    ("order_id", "user_id", "address", "items", "fulfillments", "status", "payment_history"),
    order_id=ORDER_ID,
    user_id=USER_ID,
    address=ADDRESS,
    items={"type": "array", "items": ITEM, "minItems": 1},
    fulfillments={"type": "array", "items": FULFILLMENT},
    status={"type": "string", "enum": list(ORDER_STATUSES)},
    payment_history={"type": "array", "items": TRANSACTION, "minItems": 1},
    cancel_reason={"type": "string", "enum": ["no longer needed", "ordered by mistake"]},
    return_items=ID_LIST,
    return_payment_method_id=PAYMENT_ID,
    exchange_items=ID_LIST,
    exchange_new_items=ID_LIST,
    exchange_payment_method_id=PAYMENT_ID,
    exchange_price_difference={"type": "number"},
)

PAYMENT_METHOD = _object(
    ("source", "id"),
    source={"type": "string", "enum": ["gift_card", "credit_card", "paypal"]},
    id=PAYMENT_ID,
    brand={"type": "string", "enum": ["visa", "mastercard"]},
    last_four={"type": "string", "pattern": r"^\d{4}$"},
    balance={"type": "number", "minimum": 0},
)

USER = _object(
    ("name", "address", "email", "payment_methods", "orders"),
    name=_object(("first_name", "last_name"), first_name={"type": "string"}, last_name={"type": "string"}),
    address=ADDRESS,
    email={"type": "string", "pattern": r"^[a-z]+\.[a-z]+\d{4}@example\.com$"},
    payment_methods={"type": "object", "additionalProperties": PAYMENT_METHOD},
    orders={"type": "array", "items": ORDER_ID},
)

VARIANT = _object(
    ("item_id", "options", "available", "price"),
    item_id=TEN_DIGITS,
    options=OPTIONS,
    available={"type": "boolean"},
    price={"type": "number", "exclusiveMinimum": 0},
)

PRODUCT = _object(
    ("name", "product_id", "variants"),
    name={"type": "string"},
    product_id=TEN_DIGITS,
    variants={"type": "object", "additionalProperties": VARIANT},
)

PRODUCT_TYPES = {"type": "object", "additionalProperties": TEN_DIGITS}

RESULT_SCHEMAS: dict[str, dict[str, Any]] = {
    "get_user_details": USER,
    "modify_user_address": USER,
    "get_product_details": PRODUCT,
    "list_all_product_types": PRODUCT_TYPES,
    **{
        t: ORDER
        for t in (
            "get_order_details",
            "cancel_pending_order",
            "modify_pending_order_address",
            "modify_pending_order_payment",
            "modify_pending_order_items",
            "return_delivered_order_items",
            "exchange_delivered_order_items",
        )
    },
}
