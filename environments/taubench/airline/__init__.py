"""tau-bench airline: 500 users, 2,000 reservations, 300 flights (May 2024), 14 tools, 50 test tasks.

The domain's pieces: ``tools/`` (one file per tool, written from upstream's behaviour),
``schemas.py`` (result schemas), ``random_calls.py`` (seeded reads and invalid calls for clean
traces; valid writes for database post-states), ``cards.py`` (user cards from the ground truth).
The data (database, policy, the test task list) is loaded by the shared ``data`` module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from environments.taubench.airline.random_calls import invalid_call, valid_read, valid_write
from environments.taubench.airline.schemas import RESULT_SCHEMAS
from environments.taubench.airline.tools import TOOLS
from environments.taubench.airline.tools.search_direct_flight import on_date
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


def search_views(
    collections: Mapping[str, Any],
) -> tuple[dict[str, dict[str, Any]], dict[str, list[tuple[str, str]]]]:
    """What a flight search can return, as records: every flight on every day it is available (the flight's
    record without its calendar, merged with that day's status, seats and prices), bound to both searches."""
    days = {
        f"{number}~{day}": on_date(flight, day)
        for number, flight in collections["flights"].items()
        for day, entry in flight["dates"].items()
        if entry["status"] == "available"
    }
    bindings = {
        "search_direct_flight": [("flight_days", "$[*]")],
        "search_onestop_flight": [("flight_days", "$[*][*]")],
    }
    return {"flight_days": days}, bindings


DOMAIN = Domain(
    name="airline",
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
    views=search_views,
)
