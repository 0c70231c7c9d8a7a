"""send_certificate: give a user a travel certificate of some amount; write.

The certificate takes the first free id of certificate_3221322, _3221323, _3221324 (upstream's fixed
ids). Upstream returns nothing when all three are taken (its step then fails); here that call is an
error result and changes nothing.
"""

from __future__ import annotations

from typing import Any

from environments.taubench.airline.tools._common import USER_ID
from environments.taubench.tools._base import Tool, obj

IDS = (3221322, 3221323, 3221324)


class SendCertificate(Tool):
    name = "send_certificate"
    category = "write"
    returns = "text"
    description = (
        "Send a travel certificate of some amount to a user, e.g. as a gesture after a cancelled or delayed "
        "flight when the policy allows it. Be careful."
    )
    parameters = obj(
        user_id=USER_ID,
        amount={"type": "number", "description": "The certificate's amount."},
    )

    @staticmethod
    def invoke(db: Any, user_id: Any, amount: Any) -> str:
        if user_id not in db.users:
            return "Error: user not found"
        for number in IDS:
            payment_id = f"certificate_{number}"
            if payment_id not in db.users[user_id]["payment_methods"]:
                user = db.writable("users", user_id)
                user["payment_methods"][payment_id] = {
                    "source": "certificate",
                    "amount": amount,
                    "id": payment_id,
                }
                return f"Certificate {payment_id} added to user {user_id} with amount {amount}."
        return (
            f"Error: user {user_id} already holds certificates {', '.join(f'certificate_{n}' for n in IDS)}"
        )
