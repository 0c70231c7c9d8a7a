"""The 16 retail tools: the 13 of this folder (one file each) and the three both domains share."""

from __future__ import annotations

from environments.taubench.retail.tools.cancel_pending_order import CancelPendingOrder
from environments.taubench.retail.tools.exchange_delivered_order_items import ExchangeDeliveredOrderItems
from environments.taubench.retail.tools.find_user_id_by_email import FindUserIdByEmail
from environments.taubench.retail.tools.find_user_id_by_name_zip import FindUserIdByNameZip
from environments.taubench.retail.tools.get_order_details import GetOrderDetails
from environments.taubench.retail.tools.get_product_details import GetProductDetails
from environments.taubench.retail.tools.get_user_details import GetUserDetails
from environments.taubench.retail.tools.list_all_product_types import ListAllProductTypes
from environments.taubench.retail.tools.modify_pending_order_address import ModifyPendingOrderAddress
from environments.taubench.retail.tools.modify_pending_order_items import ModifyPendingOrderItems
from environments.taubench.retail.tools.modify_pending_order_payment import ModifyPendingOrderPayment
from environments.taubench.retail.tools.modify_user_address import ModifyUserAddress
from environments.taubench.retail.tools.return_delivered_order_items import ReturnDeliveredOrderItems
from environments.taubench.tools import SHARED, Tool

TOOLS: dict[str, type[Tool]] = {
    t.name: t
    for t in sorted(
        (
            *SHARED,
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
        ),
        key=lambda t: t.name,
    )
}
