"""electronics-mcp-servers (PyPI, mcp.server.fastmcp on the SDK 1.x), its combined server: a repair bench's parts
drawer and boards: resistor colour bands read and written, E-series values, capacitive reactance, RC time
constants, LC resonance and filter capacitors, and the pins of an ESP32, an Arduino UNO and an STM32.

Its results are one string wrapped in structure, ``{"result": "<text>"}`` (an ``outputSchema`` of one string), the
same text in its block: reports with emoji headings and bullet lines of figures with units and SI prefixes
("4.7kΩ ±5%", "Xc = 338.63 Ω", "τ = 1.00 ms", "f₀ = 1.59 kHz"), colour sequences, a standard value beside the
target and its error in percent, a pin's name, functions and flags, lists of PWM, ADC, I2C and SPI pins, a conflict
check's warnings, an ASCII pinout. The fixture holds no file: a seeded drawer of resistors (as colour bands and as
values), capacitors, inductors and filter targets, and per board the pins a project uses (only pins the server's
tables hold), which the workload draws from.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

DIGITS = ("Black", "Brown", "Red", "Orange", "Yellow", "Green", "Blue", "Violet", "Grey", "White")
MULTIPLIERS = ("Black", "Brown", "Red", "Orange", "Yellow", "Green", "Blue", "Gold", "Silver")
TOLERANCES = ("Gold", "Silver", "Brown", "Red")
# the pins each board's table holds (get_pin_info answers no other)
PINS = {
    "ESP32": (0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 18, 19, 21, 22, 23, 25, 26, 27, 32, 33, 34, 35, 36, 39),
    "Arduino UNO": tuple(range(20)),
    "STM32": tuple(range(35)),
}
CAPS = (
    10e-12,
    22e-12,
    100e-12,
    1e-9,
    4.7e-9,
    10e-9,
    47e-9,
    100e-9,
    220e-9,
    1e-6,
    4.7e-6,
    10e-6,
    47e-6,
    100e-6,
)
INDUCTORS = (1e-6, 4.7e-6, 10e-6, 22e-6, 100e-6, 470e-6, 1e-3, 10e-3)
FREQS = (50, 60, 120, 1000, 10_000, 100_000, 1e6, 13.56e6)


def components_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    resistors = []
    for _ in range(40):
        bands = [rng.choice(DIGITS[1:]), rng.choice(DIGITS)]
        if rng.random() < 0.3:
            bands.append(rng.choice(DIGITS))
        bands += [rng.choice(MULTIPLIERS[:7]), rng.choice(TOLERANCES if len(bands) == 2 else TOLERANCES[2:])]
        digits = int("".join(str(DIGITS.index(b)) for b in bands[:-2]))
        resistors.append({"bands": bands, "ohms": digits * 10 ** MULTIPLIERS.index(bands[-2])})
    projects = {
        board: [sorted(rng.sample(pins, rng.randrange(2, 7))) for _ in range(6)]
        for board, pins in PINS.items()
    }
    return Fixture([*binary], {"resistors": resistors, "projects": projects})


def components_call(rng: random.Random, fx: Fixture) -> Call:
    part = rng.choice(fx.facts["resistors"])
    r = rng.random()
    if r < 0.16:
        b = part["bands"]
        if len(b) == 4:
            return "decode_resistor_color_bands", {"band1": b[0], "band2": b[1], "band3": b[2], "band4": b[3]}
        return "decode_resistor_color_bands", {"band1": b[0], "band2": b[1], "band3": b[2], "band4": b[3],
                                               "band5": b[4]}  # fmt: skip
    if r < 0.28:
        args: dict[str, object] = {"resistance_ohms": part["ohms"]}
        if rng.random() < 0.5:
            args["tolerance_percent"] = rng.choice((1.0, 2.0, 5.0, 10.0))
        if rng.random() < 0.4:
            args["bands"] = rng.choice((4, 5))
        return "encode_resistor_value", args
    if r < 0.38:
        target = round(part["ohms"] * rng.uniform(0.85, 1.15), 1)
        return "find_standard_resistor", {"target_ohms": target, **({"series": rng.choice(("E12", "E24", "E96"))}
                                                                     if rng.random() < 0.6 else {})}  # fmt: skip
    if r < 0.46:
        return "calculate_capacitive_reactance", {"capacitance_farads": rng.choice(CAPS),
                                                  "frequency_hz": rng.choice(FREQS)}  # fmt: skip
    if r < 0.54:
        return "calculate_rc_time_constant", {
            "resistance_ohms": part["ohms"],
            "capacitance_farads": rng.choice(CAPS),
        }
    if r < 0.6:
        return "calculate_resonant_frequency", {"inductance_henries": rng.choice(INDUCTORS),
                                                "capacitance_farads": rng.choice(CAPS)}  # fmt: skip
    if r < 0.68:
        args = {"cutoff_frequency_hz": rng.choice((20, 100, 300, 1000, 3400, 10_000, 20_000)),
                "resistance_ohms": part["ohms"]}  # fmt: skip
        if rng.random() < 0.6:
            args["filter_type"] = rng.choice(("low-pass", "high-pass"))
        return "suggest_capacitor_for_filter", args
    board = rng.choice(tuple(PINS))
    if r < 0.8:
        return "get_pin_info", {"board_type": board, "pin_number": rng.choice(PINS[board])}
    if r < 0.9:
        tool = rng.choice(("find_pwm_pins", "find_adc_pins", "find_i2c_pins", "find_spi_pins"))
        return tool, {"board_type": board}
    if r < 0.97:
        return "check_pin_conflict", {
            "board_type": board,
            "pin_list": rng.choice(fx.facts["projects"][board]),
        }
    return "generate_pin_diagram_ascii", {"board_type": board}
