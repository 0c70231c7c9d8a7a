"""tau-bench retail: 500 users, 1,000 orders, 50 products (591 variants), 16 tools, 635 tasks.

The domain's pieces: ``tools/`` (one file per tool), ``schemas.py`` (result schemas),
``random_calls.py`` (seeded calls for clean traces), ``cards.py`` (user cards from the ground
truth). The data (database, policy, task lists) is loaded by the shared ``data`` module.
"""

from __future__ import annotations

from environments.taubench.domains import Domain
from environments.taubench.retail.random_calls import invalid_call, valid_read
from environments.taubench.retail.schemas import RESULT_SCHEMAS
from environments.taubench.retail.tools import TOOLS

ORDER_TOOLS = (
    "get_order_details",
    "cancel_pending_order",
    "modify_pending_order_address",
    "modify_pending_order_payment",
    "modify_pending_order_items",
    "return_delivered_order_items",
    "exchange_delivered_order_items",
)

DOMAIN = Domain(
    name="retail",
    tools=TOOLS,
    record_of={
        "get_user_details": ("users", "user_id"),
        "modify_user_address": ("users", "user_id"),
        "get_product_details": ("products", "product_id"),
        **{t: ("orders", "order_id") for t in ORDER_TOOLS},
    },
    result_schemas=RESULT_SCHEMAS,
    trace_split="train",
    valid_read=valid_read,
    invalid_call=invalid_call,
)
