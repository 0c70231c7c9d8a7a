"""mcp-gnu-units (PyPI, mcp.server.fastmcp on the SDK 1.x): a process plant's commissioning sheet, its readings
converted between units, reduced to SI base units and looked up in the GNU units database.

Its results are one text block of indented JSON and no structured content: a conversion's two expressions echoed,
the result as a string with the target unit ("88.51392 km/hour"), the same magnitude as a float and an exactness
flag; a reduction to base units with its dimension signature ("kg m^2 / s^2", "1" when dimensionless); a unit's
definition text, kind (unit, primitive, prefix, function, table), dimension and base value, with a function's
signature for a nonlinear unit (tempF); a search's count and matches; the prefixes with their multipliers as
strings of digits. The fixture holds no file: a seeded sheet of forty readings (a quantity, its value, the unit it
was read in and the units it is reported in) that the workload draws from, now and then with a fresh reading.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

# per quantity: the units a reading is taken in and reported in (every pair conformable, every name the
# database's own: 'hour', never 'h', which is Planck's constant), and the range of a reading
QUANTITIES: dict[str, tuple[tuple[str, ...], float, float]] = {
    "length": (("m", "ft", "inch", "mile", "km", "yard", "mm", "furlong", "nauticalmile"), 0.5, 900),
    "mass": (("kg", "lb", "ounce", "tonne", "gram", "shortton", "grain", "stone"), 0.1, 500),
    "volume": (("liter", "gallon", "m^3", "ft^3", "quart", "barrel", "cup", "brgallon"), 0.2, 400),
    "pressure": (("psi", "bar", "kPa", "atm", "mmHg", "inHg", "Pa", "torr"), 0.5, 250),
    "energy": (("kW*hour", "J", "btu", "kcal", "therm", "MJ", "erg", "eV"), 0.5, 700),
    "power": (("kW", "horsepower", "W", "btu/hour", "kcal/hour", "MW"), 1, 400),
    "speed": (("mile/hour", "km/hour", "m/s", "knot", "ft/s", "furlong/fortnight"), 1, 120),
    "flow": (("gallon/min", "liter/s", "m^3/hour", "ft^3/min", "barrel/day"), 1, 300),
    "density": (("kg/m^3", "lb/ft^3", "g/cm^3", "lb/gallon"), 0.5, 90),
    "area": (("m^2", "acre", "hectare", "ft^2", "km^2", "mile^2"), 1, 600),
    "data": (("GB", "GiB", "MB", "MiB", "TB", "bit", "byte"), 1, 800),
    "force": (("newton", "lbf", "kgf", "dyne", "kip"), 1, 900),
    "torque": (("newton*m", "ft*lbf", "inch*lbf"), 5, 400),
    "temperature": (("tempC", "tempF"), -30, 220),
}
EQUIPMENT = ("boiler", "pump", "heat exchanger", "chiller", "compressor", "tank", "turbine", "conveyor", "mixer",
             "separator", "dryer", "kiln", "fan", "valve", "column")  # fmt: skip
SI_ONLY = ("kW*hour", "horsepower", "psi", "btu/hour", "gallon/min", "furlong/fortnight", "acre*ft", "lbf",
           "ft*lbf", "kcal/hour", "mile/gallon", "lb/ft^3", "atm*liter", "therm", "knot", "slug")  # fmt: skip
DEFINE = ("horsepower", "furlong", "psi", "btu", "tempF", "tempC", "newton", "kilo", "mebi", "acre", "knot",
          "barrel", "therm", "slug", "torr", "lightyear", "parsec", "calorie", "fortnight", "hectare", "gallon",
          "brgallon", "pound", "ounce", "grain", "stone", "c", "G", "atm", "erg", "dyne", "tonne", "kip")  # fmt: skip
FIND = ("horsepower", "pressure", "gallon", "byte", "newton", "meter", "calorie", "watt", "pound", "barrel",
        "knot", "acre", "temp", "light", "second", "ohm", "tesla", "ton", "inch", "liter")  # fmt: skip


def _value(rng: random.Random, low: float, high: float) -> float:
    return round(rng.uniform(low, high), rng.choice((0, 1, 2, 3)))


def _number(v: float) -> str:
    return str(int(v)) if v == int(v) else str(v)


def dimensions_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    readings = []
    for i in range(40):
        quantity = rng.choice(sorted(QUANTITIES))
        units, low, high = QUANTITIES[quantity]
        read, report = rng.sample(units, 2)
        readings.append({"tag": f"{rng.choice(EQUIPMENT)} {100 + i}", "quantity": quantity,
                         "value": _value(rng, low, high), "unit": read, "report": report})  # fmt: skip
    return Fixture([*binary], {"readings": readings})


def dimensions_call(rng: random.Random, fx: Fixture) -> Call:
    reading = dict(rng.choice(fx.facts["readings"]))
    units, low, high = QUANTITIES[reading["quantity"]]
    if rng.random() < 0.25:  # a fresh reading of the same gauge
        reading["value"] = _value(rng, low, high)
    r = rng.random()
    if r < 0.5:
        to = (
            reading["report"]
            if rng.random() < 0.6
            else rng.choice([u for u in units if u != reading["unit"]])
        )
        source = f"{_number(reading['value'])} {reading['unit']}"
        if reading["quantity"] == "temperature":  # a nonlinear unit takes its value in parentheses
            source = f"{reading['unit']}({_number(reading['value'])})"
        elif rng.random() < 0.08:
            source = reading["unit"]  # one of the unit
        return "convert", {"from_expr": source, "to_expr": to}
    if r < 0.68:
        unit = reading["unit"] if reading["quantity"] != "temperature" else rng.choice(SI_ONLY)
        expr = rng.choice((f"{_number(reading['value'])} {unit}", unit, rng.choice(SI_ONLY)))
        return "convert_to_si", {"expr": expr}
    if r < 0.84:
        return "define_unit", {"name": rng.choice(DEFINE)}
    if r < 0.97:
        query = rng.choice(FIND)
        return "find_units", {
            "query": query,
            **({"limit": rng.randrange(1, 16)} if rng.random() < 0.8 else {}),
        }
    return "list_prefixes", {}
