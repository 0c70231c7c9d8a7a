"""modify_user_address: replace a user's default address (no validation); write."""

from __future__ import annotations

from typing import Any

from environments.taubench.retail.tools._common import ADDRESS_PARAMS, address
from environments.taubench.tools._base import Tool, dump, obj, string


class ModifyUserAddress(Tool):
    name = "modify_user_address"
    category = "write"
    description = (
        "Change the default address of a user. The agent must first list the details and obtain the "
        "user's explicit confirmation (yes)."
    )
    parameters = obj(user_id=string("The user id, e.g. 'sara_doe_496'."), **ADDRESS_PARAMS)

    @staticmethod
    def invoke(
        db: Any, user_id: Any, address1: Any, address2: Any, city: Any, state: Any, country: Any, zip: Any
    ) -> str:
        if user_id not in db.users:
            return "Error: user not found"
        user = db.writable("users", user_id)
        user["address"] = address(address1, address2, city, state, country, zip)
        return dump(user)
