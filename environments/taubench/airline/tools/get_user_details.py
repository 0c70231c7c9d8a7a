"""get_user_details: a user's profile (name, address, email, date of birth, payment methods, membership,
saved passengers, reservation ids); read."""

from __future__ import annotations

from typing import Any

from environments.taubench.airline.tools._common import USER_ID
from environments.taubench.tools._base import Tool, dump, obj


class GetUserDetails(Tool):
    name = "get_user_details"
    category = "read"
    description = (
        "Get a user's details: name, address, email, date of birth, payment methods (with gift-card and "
        "certificate balances), membership tier, saved passengers and reservation ids."
    )
    parameters = obj(user_id=USER_ID)

    @staticmethod
    def invoke(db: Any, user_id: Any) -> str:
        if user_id in db.users:
            return dump(db.users[user_id])
        return "Error: user not found"
