"""search_direct_flight: the flights from one airport to another that are available on a date; read.

Each result is the flight's record without its calendar, merged with that date's entry (status,
available seats and prices per cabin), in the database's order.
"""

from __future__ import annotations

from typing import Any

from environments.taubench.airline.tools._common import AIRPORT, DATE
from environments.taubench.tools._base import Tool, dump, obj, string


def on_date(flight: dict[str, Any], date: Any) -> dict[str, Any]:
    """A flight's record without ``dates``, with the entry of ``date`` merged in."""
    out = {k: v for k, v in flight.items() if k != "dates"}
    out.update(flight["dates"][date])
    return out


class SearchDirectFlight(Tool):
    name = "search_direct_flight"
    category = "read"
    description = (
        "Search the direct flights between two airports on a date; only flights still available for "
        "booking on that date are listed, with seats left and prices per cabin."
    )
    parameters = obj(origin=string(AIRPORT), destination=string(AIRPORT), date=string(DATE))

    @staticmethod
    def invoke(db: Any, origin: Any, destination: Any, date: Any) -> str:
        found = []
        for flight in db.flights.values():
            if flight["origin"] == origin and flight["destination"] == destination:
                if date in flight["dates"] and flight["dates"][date]["status"] == "available":
                    found.append(on_date(flight, date))
        return dump(found)
