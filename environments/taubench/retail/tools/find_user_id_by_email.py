"""find_user_id_by_email: the user id whose email matches (case-insensitive); read."""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import Tool, obj, string


class FindUserIdByEmail(Tool):
    name = "find_user_id_by_email"
    category = "read"
    returns = "text"
    description = "Look up a user's id by their email address. Returns the user id."
    parameters = obj(email=string("The user's email, e.g. 'something@example.com'."))

    @staticmethod
    def invoke(db: Any, email: Any) -> str:
        for user_id, profile in db.users.items():
            if profile["email"].lower() == email.lower():
                return user_id
        return "Error: user not found"
