"""find_user_id_by_name_zip: the user id with this first/last name (case-insensitive) and zip (exact); read."""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import Tool, obj, string


class FindUserIdByNameZip(Tool):
    name = "find_user_id_by_name_zip"
    category = "read"
    returns = "text"
    description = (
        "Look up a user's id by first name, last name and zip code. Use this when the user cannot "
        "or will not give an email. Returns the user id."
    )
    parameters = obj(
        first_name=string("The user's first name, e.g. 'John'."),
        last_name=string("The user's last name, e.g. 'Doe'."),
        zip=string("The user's zip code, e.g. '12345'."),
    )

    @staticmethod
    def invoke(db: Any, first_name: Any, last_name: Any, zip: Any) -> str:
        for user_id, profile in db.users.items():
            name = profile["name"]
            if (
                name["first_name"].lower() == first_name.lower()
                and name["last_name"].lower() == last_name.lower()
                and profile["address"]["zip"] == zip
            ):
                return user_id
        return "Error: user not found"
