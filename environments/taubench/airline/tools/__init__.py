"""The 14 airline tools: the 11 of this folder (one file each) and the three both domains share."""

from __future__ import annotations

from environments.taubench.airline.tools.book_reservation import BookReservation
from environments.taubench.airline.tools.cancel_reservation import CancelReservation
from environments.taubench.airline.tools.get_reservation_details import GetReservationDetails
from environments.taubench.airline.tools.get_user_details import GetUserDetails
from environments.taubench.airline.tools.list_all_airports import ListAllAirports
from environments.taubench.airline.tools.search_direct_flight import SearchDirectFlight
from environments.taubench.airline.tools.search_onestop_flight import SearchOnestopFlight
from environments.taubench.airline.tools.send_certificate import SendCertificate
from environments.taubench.airline.tools.update_reservation_baggages import UpdateReservationBaggages
from environments.taubench.airline.tools.update_reservation_flights import UpdateReservationFlights
from environments.taubench.airline.tools.update_reservation_passengers import UpdateReservationPassengers
from environments.taubench.tools import SHARED, Tool

TOOLS: dict[str, type[Tool]] = {
    t.name: t
    for t in sorted(
        (
            *SHARED,
            BookReservation,
            CancelReservation,
            GetReservationDetails,
            GetUserDetails,
            ListAllAirports,
            SearchDirectFlight,
            SearchOnestopFlight,
            SendCertificate,
            UpdateReservationBaggages,
            UpdateReservationFlights,
            UpdateReservationPassengers,
        ),
        key=lambda t: t.name,
    )
}
