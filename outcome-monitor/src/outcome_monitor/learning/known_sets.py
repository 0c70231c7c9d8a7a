"""Sets every user knows whole (weekdays, months, parts of speech, the planets, the zodiac): a domain
learned from a few of them is that whole set, not a closed domain of those few (a clock that moved two
days, an adverb looked up after nouns and verbs, Saturn met after Jupiter are no faults)."""

from __future__ import annotations

from typing import Any

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
# a dictionary's parts of speech; the classical planets with the sun and moon, as names and as the
# almanac's symbols; the zodiac's signs, as names and symbols
_PARTS_OF_SPEECH = (
    "noun",
    "verb",
    "adjective",
    "adverb",
    "pronoun",
    "preposition",
    "conjunction",
    "interjection",
    "determiner",
)
_BODIES = (
    "Sun",
    "Moon",
    "Mercury",
    "Venus",
    "Earth",
    "Mars",
    "Jupiter",
    "Saturn",
    "Uranus",
    "Neptune",
    "Pluto",
)
_BODY_SYMBOLS = (
    "\u2609",
    "\u263d",
    "\u263f",
    "\u2640",
    "\u2641",
    "\u2642",
    "\u2643",
    "\u2644",
    "\u2645",
    "\u2646",
    "\u2647",
)
_SIGNS = (
    "Aries",
    "Taurus",
    "Gemini",
    "Cancer",
    "Leo",
    "Virgo",
    "Libra",
    "Scorpio",
    "Sagittarius",
    "Capricorn",
    "Aquarius",
    "Pisces",
)
KNOWN_SETS: tuple[tuple[str, ...], ...] = (
    _WEEKDAYS,
    tuple(d[:3] for d in _WEEKDAYS),
    _MONTHS,
    tuple(m[:3] for m in _MONTHS),
    _PARTS_OF_SPEECH,
    _BODIES,
    _BODY_SYMBOLS,
    _SIGNS,
    tuple(chr(0x2648 + i) for i in range(12)),
)


def known_set(values: list[Any]) -> list[str] | None:
    """The well-known set ``values`` are drawn from, written as they are (case kept), or None."""
    if not values or not all(type(v) is str for v in values):
        return None
    for whole in KNOWN_SETS:
        for style in (str, str.lower, str.upper):
            written = [style(x) for x in whole]
            if set(values) <= set(written):
                return written
    return None


__all__ = ["KNOWN_SETS", "known_set"]
