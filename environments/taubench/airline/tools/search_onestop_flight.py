"""search_onestop_flight: pairs of connecting flights from one airport to another, leaving on a date; read.

Upstream's rules, kept as they are: the second leg leaves the day after when the first lands after
midnight (its arrival time carries ``+1``; the next day is written ``2024-05-<day + 1>`` without zero
padding); a pair is dropped when the first leg's scheduled arrival sorts after the second leg's
scheduled departure (the times compared as text); both legs must be available on their dates; and
the second leg's entry shows the first leg's date's seats and prices (a missing date fails with an
error naming it) while its ``date`` says its own day.
"""

from __future__ import annotations

from typing import Any

from environments.taubench.airline.tools._common import AIRPORT, DATE
from environments.taubench.airline.tools.search_direct_flight import on_date
from environments.taubench.tools._base import Tool, dump, obj, string


class SearchOnestopFlight(Tool):
    name = "search_onestop_flight"
    category = "read"
    description = (
        "Search itineraries with one stop between two airports, leaving on a date: pairs of connecting "
        "flights, each leg with its date, seats left and prices per cabin."
    )
    parameters = obj(origin=string(AIRPORT), destination=string(AIRPORT), date=string(DATE))

    @staticmethod
    def invoke(db: Any, origin: Any, destination: Any, date: Any) -> str:
        found = []
        arriving = [f for f in db.flights.values() if f["destination"] == destination]  # order kept
        for first in db.flights.values():
            if first["origin"] != origin:
                continue
            for second in arriving:
                if first["destination"] != second["origin"]:
                    continue
                overnight = "+1" in first["scheduled_arrival_time_est"]
                day2 = f"2024-05-{int(date[-2:]) + 1}" if overnight else date
                if first["scheduled_arrival_time_est"] > second["scheduled_departure_time_est"]:
                    continue
                if date in first["dates"] and day2 in second["dates"]:
                    if (
                        first["dates"][date]["status"] == "available"
                        and second["dates"][day2]["status"] == "available"
                    ):
                        leg1 = on_date(first, date)
                        leg1["date"] = date
                        leg2 = on_date(second, date)  # upstream merges the first leg's date here
                        leg2["date"] = day2
                        found.append([leg1, leg2])
        return dump(found)
