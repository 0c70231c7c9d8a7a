"""The 16 retail tools (one file each) and how a call runs: upstream's ``Env.step`` mechanics.

``execute`` returns upstream's string: the tool's own result or ``Error: ...`` string, any
exception raised inside a tool as ``Error: <exception>``, and ``Unknown action <name>`` for a
name that is no tool. ``to_result`` turns that string into a protocol ``ToolResult``. Knows
nothing about episodes, users or rewards.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from core.protocol import ToolResult, ToolSpec
from environments.taubench.schemas import RESULT_SCHEMAS
from environments.taubench.tools._base import Tool
from environments.taubench.tools.calculate import Calculate
from environments.taubench.tools.cancel_pending_order import CancelPendingOrder
from environments.taubench.tools.exchange_delivered_order_items import ExchangeDeliveredOrderItems
from environments.taubench.tools.find_user_id_by_email import FindUserIdByEmail
from environments.taubench.tools.find_user_id_by_name_zip import FindUserIdByNameZip
from environments.taubench.tools.get_order_details import GetOrderDetails
from environments.taubench.tools.get_product_details import GetProductDetails
from environments.taubench.tools.get_user_details import GetUserDetails
from environments.taubench.tools.list_all_product_types import ListAllProductTypes
from environments.taubench.tools.modify_pending_order_address import ModifyPendingOrderAddress
from environments.taubench.tools.modify_pending_order_items import ModifyPendingOrderItems
from environments.taubench.tools.modify_pending_order_payment import ModifyPendingOrderPayment
from environments.taubench.tools.modify_user_address import ModifyUserAddress
from environments.taubench.tools.return_delivered_order_items import ReturnDeliveredOrderItems
from environments.taubench.tools.think import Think
from environments.taubench.tools.transfer_to_human_agents import TransferToHumanAgents

_ALL: tuple[type[Tool], ...] = (
    Calculate,
    CancelPendingOrder,
    ExchangeDeliveredOrderItems,
    FindUserIdByEmail,
    FindUserIdByNameZip,
    GetOrderDetails,
    GetProductDetails,
    GetUserDetails,
    ListAllProductTypes,
    ModifyPendingOrderAddress,
    ModifyPendingOrderItems,
    ModifyPendingOrderPayment,
    ModifyUserAddress,
    ReturnDeliveredOrderItems,
    Think,
    TransferToHumanAgents,
)
TOOLS: dict[str, type[Tool]] = {t.name: t for t in _ALL}
WRITE_TOOLS = frozenset(n for n, t in TOOLS.items() if t.category == "write")
TERMINAL_TOOLS = frozenset(n for n, t in TOOLS.items() if t.category == "terminal")
ERROR_PREFIX = "Error: "


def specs() -> dict[str, ToolSpec]:
    """Public specs; JSON-returning tools carry their result schema as ``output_schema``."""
    return {
        name: dataclasses.replace(tool.spec(), output_schema=RESULT_SCHEMAS.get(name))
        for name, tool in TOOLS.items()
    }


def execute(db: Any, name: str, arguments: Any) -> str:
    """Run one call on ``db`` as upstream's step does; never raises."""
    tool = TOOLS.get(name)
    if tool is None:
        return f"Unknown action {name}"
    try:
        return tool.invoke(db, **arguments)
    except Exception as exc:  # upstream turns any exception into the observation
        return f"{ERROR_PREFIX}{exc}"


def to_result(name: str, raw: str) -> ToolResult:
    """The protocol result of upstream's string: parsed JSON for JSON-returning tools, else the text."""
    tool = TOOLS.get(name)
    if tool is None:
        return ToolResult(raw, status="error", meta={"unknown_tool": True})
    if raw.startswith(ERROR_PREFIX):
        return ToolResult(raw, status="error", terminal=tool.category == "terminal")
    content: Any = json.loads(raw) if tool.returns == "json" else raw
    return ToolResult(content, status="ok", terminal=tool.category == "terminal")
