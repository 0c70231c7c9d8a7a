"""get_user_details: a user's profile record (name, address, email, payment methods, orders); read."""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import Tool, dump, obj, string


class GetUserDetails(Tool):
    name = "get_user_details"
    category = "read"
    description = "Get a user's details: name, default address, email, payment methods and order ids."
    parameters = obj(user_id=string("The user id, e.g. 'sara_doe_496'."))

    @staticmethod
    def invoke(db: Any, user_id: Any) -> str:
        if user_id in db.users:
            return dump(db.users[user_id])
        return "Error: user not found"
