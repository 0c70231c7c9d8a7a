"""tau-bench airline: 500 users, 2,000 reservations, 300 flights (May 2024), 14 tools, 50 test tasks.

The domain's pieces: ``tools/`` (one file per tool, written from upstream's behaviour),
``schemas.py`` (result schemas), ``random_calls.py`` (seeded reads and invalid calls for clean
traces; valid writes for database post-states), ``cards.py`` (user cards from the ground truth).
The data (database, policy, the test task list) is loaded by the shared ``data`` module.
"""

from __future__ import annotations

from environments.taubench.airline.random_calls import invalid_call, valid_read, valid_write
from environments.taubench.airline.schemas import RESULT_SCHEMAS
from environments.taubench.airline.tools import TOOLS
from environments.taubench.domains import Domain

RESERVATION_TOOLS = (
    "get_reservation_details",
    "cancel_reservation",
    "update_reservation_baggages",
    "update_reservation_flights",
    "update_reservation_passengers",
    # its record's id is made by the tool, not given: bound for database contracts, never located
    "book_reservation",
)

DOMAIN = Domain(
    name="airline",
    description="tau-bench airline (offline re-implementation): 500 users, 2,000 reservations, 300 flights, 14 tools",
    tools=TOOLS,
    record_of={
        "get_user_details": ("users", "user_id"),
        **{t: ("reservations", "reservation_id") for t in RESERVATION_TOOLS},
    },
    result_schemas=RESULT_SCHEMAS,
    trace_split="test",
    valid_read=valid_read,
    invalid_call=invalid_call,
    valid_write=valid_write,
)
