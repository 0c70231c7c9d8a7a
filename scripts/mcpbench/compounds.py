"""mcp-molecules (PyPI, mcp.server.fastmcp on the SDK 1.x): a teaching lab's stockroom, its reagents weighed,
their isotope patterns drawn for the mass spectrometer and their names and formulas looked up.

Its results are one text block of indented JSON and no structured content: a formula's weight in the asked unit as
an unrounded float, with its uncertainty or null, its atom tally, three mass flavours (nominal, average,
monoisotopic) each with a formatted string ("74.093 ± 0.004 g/mol") and, when asked, a percent composition per
element; an isotope pattern's monoisotopic and average masses, its base peak and its peaks (nominal mass, exact
mass, m/z for an ion or null, relative intensity to three places, abundance); a lookup's interpretation (name or
formula), the Hill-normalized formula or null, its matches (name and formula, isomers for a formula) and the
bundled source and licence. The server runs with its online fallback off (MCP_MOLECULES_ONLINE=0) and its cache in
the fixture's folder. The fixture is a seeded shelf list of thirty reagents from the server's bundled names
(name, Hill formula, a formula as a chemist writes it) that the workload draws from, now and then a salt or an ion
off the list.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

# (name as the stockroom writes it, the Hill formula the bundled database holds, the formula as written)
REAGENTS = (
    ("aspirin", "C9H8O4", "C9H8O4"), ("caffeine", "C8H10N4O2", "C8H10N4O2"), ("ethanol", "C2H6O", "C2H5OH"),
    ("methanol", "CH4O", "CH3OH"), ("acetone", "C3H6O", "(CH3)2CO"), ("glucose", "C6H12O6", "C6H12O6"),
    ("sucrose", "C12H22O11", "C12H22O11"), ("benzene", "C6H6", "C6H6"), ("toluene", "C7H8", "C6H5CH3"),
    ("acetic acid", "C2H4O2", "CH3COOH"), ("sodium chloride", "ClNa", "NaCl"), ("water", "H2O", "H2O"),
    ("ammonia", "H3N", "NH3"), ("urea", "CH4N2O", "CO(NH2)2"), ("glycerol", "C3H8O3", "C3H5(OH)3"),
    ("ibuprofen", "C13H18O2", "C13H18O2"), ("paracetamol", "C8H9NO2", "C8H9NO2"), ("citric acid", "C6H8O7", "C6H8O7"),
    ("lactic acid", "C3H6O3", "CH3CH(OH)COOH"), ("ethylene glycol", "C2H6O2", "HOCH2CH2OH"), ("phenol", "C6H6O", "C6H5OH"),
    ("formaldehyde", "CH2O", "HCHO"), ("hydrogen peroxide", "H2O2", "H2O2"), ("sulfuric acid", "H2O4S", "H2SO4"),
    ("nitric acid", "HNO3", "HNO3"), ("calcium carbonate", "CCaO3", "CaCO3"), ("menthol", "C10H20O", "C10H20O"),
    ("vanillin", "C8H8O3", "C8H8O3"), ("nicotine", "C10H14N2", "C10H14N2"), ("cholesterol", "C27H46O", "C27H46O"),
    ("naphthalene", "C10H8", "C10H8"), ("styrene", "C8H8", "C6H5CHCH2"), ("chloroform", "CHCl3", "CHCl3"),
    ("isopropyl alcohol", "C3H8O", "(CH3)2CHOH"), ("hexane", "C6H14", "CH3(CH2)4CH3"), ("cyclohexane", "C6H12", "C6H12"),
    ("glycine", "C2H5NO2", "NH2CH2COOH"), ("alanine", "C3H7NO2", "C3H7NO2"), ("sodium hydroxide", "HNaO", "NaOH"),
    ("copper sulfate", "CuO4S", "CuSO4"), ("ethyl acetate", "C4H8O2", "CH3COOC2H5"),
    ("dimethyl sulfoxide", "C2H6OS", "(CH3)2SO"), ("pyridine", "C5H5N", "C5H5N"), ("aniline", "C6H7N", "C6H5NH2"),
    ("benzoic acid", "C7H6O2", "C6H5COOH"), ("salicylic acid", "C7H6O3", "C7H6O3"), ("dopamine", "C8H11NO2", "C8H11NO2"),
    ("serotonin", "C10H12N2O", "C10H12N2O"), ("adrenaline", "C9H13NO3", "C9H13NO3"),
    ("testosterone", "C19H28O2", "C19H28O2"), ("camphor", "C10H16O", "C10H16O"), ("thymol", "C10H14O", "C10H14O"),
    ("eugenol", "C10H12O2", "C10H12O2"), ("propane", "C3H8", "CH3CH2CH3"), ("octane", "C8H18", "C8H18"),
    ("carbon dioxide", "CO2", "CO2"), ("nitrous oxide", "N2O", "N2O"), ("glutamic acid", "C5H9NO4", "C5H9NO4"),
    ("oxalic acid", "C2H2O4", "(COOH)2"), ("lactose", "C12H22O11", "C12H22O11"), ("sorbitol", "C6H14O6", "C6H14O6"),
    ("saccharin", "C7H5NO3S", "C7H5NO3S"),
)  # fmt: skip
# salts, ions and labelled compounds off the shelf list: weighed and patterned, never looked up
OFF_LIST = ("Ca(OH)2", "Fe2(SO4)3", "(NH4)2SO4", "Mg(NO3)2", "NaHCO3", "KMnO4", "Al2(SO4)3", "D2O", "Na2CO3",
            "K2Cr2O7", "CuCl2", "AgNO3", "BaSO4", "KH2PO4", "Na3PO4", "C6D6", "CDCl3", "ZnSO4", "NH4Cl", "C6H5Br",
            "CH2Cl2", "C2H5Br", "SnCl4", "Pb(NO3)2", "Ca3(PO4)2")  # fmt: skip
UNITS = ("g/mol", "g/mol", "g/mol", "kg/mol", "Da", "u", "kDa")
SYNONYMS = {"paracetamol": "acetaminophen", "isopropyl alcohol": "isopropanol", "adrenaline": "epinephrine"}


def _shuffled(rng: random.Random, hill: str) -> str:
    """A Hill formula with its element groups in another order ('O4C9H8'): the server normalizes it back."""
    groups, i = [], 0
    while i < len(hill):
        j = i + 1
        while j < len(hill) and not hill[j].isupper():
            j += 1
        groups.append(hill[i:j])
        i = j
    rng.shuffle(groups)
    return "".join(groups)


def compounds_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    shelf = [list(r) for r in rng.sample(REAGENTS, 30)]
    env = ["MCP_MOLECULES_ONLINE=0", f"XDG_CACHE_HOME={work / 'cache'}"]
    return Fixture(["env", *env, *binary], {"shelf": shelf})


def compounds_call(rng: random.Random, fx: Fixture) -> Call:
    name, hill, written = rng.choice(fx.facts["shelf"])
    formula = rng.choice(OFF_LIST) if rng.random() < 0.2 else rng.choice((written, written, hill))
    r = rng.random()
    if r < 0.45:
        args: dict[str, object] = {"formula": formula}
        if rng.random() < 0.5:
            args["unit"] = rng.choice(UNITS)
        for flag, p in (("uncertainty", 0.35), ("monoisotopic", 0.25), ("composition", 0.4)):
            if rng.random() < p:
                args[flag] = rng.random() < 0.8
        return "molecular_weight_calculator", args
    if r < 0.7:
        args = {"formula": formula}
        if rng.random() < 0.35:
            args["charge"] = rng.choice((1, 1, 2, -1, 3))
        if rng.random() < 0.3:
            args["threshold"] = rng.choice((0.0, 0.5, 1.0, 5.0))
        if rng.random() < 0.5:
            args["limit"] = rng.randrange(1, 13)
        if rng.random() < 0.3:
            args["grouping"] = rng.choice(("unit", "exact"))
        return "isotope_distribution", args
    if r < 0.98:
        k = rng.random()
        if k < 0.45:
            query, by = rng.choice((name, name, name.title(), SYNONYMS.get(name, name))), "name"
        elif k < 0.8:
            query, by = rng.choice((hill, hill, _shuffled(rng, hill))), "formula"
        else:
            query, by = rng.choice((name, hill)), "auto"
        args = {"query": query, **({"by": by} if rng.random() < 0.6 else {})}
        if rng.random() < 0.3:
            args["limit"] = rng.randrange(1, 8)
        return "find_chemical_compound", args
    return "info", {}
