"""list_all_airports: the 20 airports the airline serves, code -> city; read."""

from __future__ import annotations

from typing import Any

from environments.taubench.tools._base import Tool, dump, obj

# the same pairs, in the same order, as upstream's tool lists them (LGA's "city" is LaGuardia there too)
AIRPORTS = (
    ("SFO", "San Francisco"),
    ("JFK", "New York"),
    ("LAX", "Los Angeles"),
    ("ORD", "Chicago"),
    ("DFW", "Dallas"),
    ("DEN", "Denver"),
    ("SEA", "Seattle"),
    ("ATL", "Atlanta"),
    ("MIA", "Miami"),
    ("BOS", "Boston"),
    ("PHX", "Phoenix"),
    ("IAH", "Houston"),
    ("LAS", "Las Vegas"),
    ("MCO", "Orlando"),
    ("EWR", "Newark"),
    ("CLT", "Charlotte"),
    ("MSP", "Minneapolis"),
    ("DTW", "Detroit"),
    ("PHL", "Philadelphia"),
    ("LGA", "LaGuardia"),
)


class ListAllAirports(Tool):
    name = "list_all_airports"
    category = "read"
    description = "List every airport the airline serves, as a map from its code to its city."
    parameters = obj()

    @staticmethod
    def invoke(db: Any) -> str:
        return dump(dict(AIRPORTS))
