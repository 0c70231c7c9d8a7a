"""cymraeg-mcp (PyPI, mcp.server.fastmcp on the SDK 1.x): a Welsh-medium newsletter's drafts, proofread before
they go out.

Its results are structured content (an ``outputSchema`` of its pydantic reports) beside the same object as indented
JSON for the spelling, mutation and full proofing passes: an ok flag, counts of words or tokens checked, issues with
the word, its character offsets, suggestions, and for a mutation the trigger word, the mutation's name (soft, nasal,
aspirate), the rule in English and in Welsh, a confidence word and an explanation, a fixed note, a summary sentence
in both languages; a word's explanation is indented JSON alone (no structured content): found or not, its possible
analyses (mutation and radical), the radical's four forms, the trigger with its rule and an example, a verdict. The
fixture holds no file: forty seeded draft sentences (a learner's missed mutations and typing slips among the right
forms) that the workload proofreads one to four at a time, now and then one written afresh.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

# radical: (soft, nasal, aspirate, feminine); None where the mutation leaves the word as it is
WORDS: dict[str, tuple[str | None, str | None, str | None, bool]] = {
    "cath": ("gath", "nghath", "chath", True), "ci": ("gi", "nghi", "chi", False),
    "tad": ("dad", "nhad", "thad", False), "mam": ("fam", None, None, True), "tŷ": ("dŷ", "nhŷ", "thŷ", False),
    "bara": ("fara", "mara", None, False), "llyfr": ("lyfr", None, None, False),
    "gardd": ("ardd", "ngardd", None, True), "pont": ("bont", "mhont", "phont", True),
    "dafad": ("ddafad", "nafad", None, True), "car": ("gar", "nghar", "char", False),
    "bws": ("fws", "mws", None, False), "te": ("de", "nhe", "the", False), "coffi": ("goffi", "nghoffi", "choffi", False),
    "brawd": ("frawd", "mrawd", None, False), "desg": ("ddesg", "nesg", None, True),
    "gwlad": ("wlad", "ngwlad", None, True), "papur": ("bapur", "mhapur", "phapur", False),
    "cegin": ("gegin", "nghegin", "chegin", True), "tref": ("dref", "nhref", "thref", True),
    "merch": ("ferch", None, None, True), "bachgen": ("fachgen", "machgen", None, False),
    "ffenest": (None, None, None, True), "stryd": (None, None, None, True),
}  # fmt: skip
PLACES: dict[str, tuple[str | None, str | None]] = {  # radical: (soft, nasal)
    "Caerdydd": ("Gaerdydd", "Nghaerdydd"), "Bangor": ("Fangor", "Mangor"), "Pontypridd": ("Bontypridd", "Mhontypridd"),
    "Tregaron": ("Dregaron", "Nhregaron"), "Dinbych": ("Ninbych", "Nimbych"), "Llanelli": ("Lanelli", None),
    "Casnewydd": ("Gasnewydd", "Nghasnewydd"), "Penarth": ("Benarth", "Mhenarth"), "Merthyr": ("Ferthyr", None),
    "Caernarfon": ("Gaernarfon", "Nghaernarfon"), "Porthmadog": ("Borthmadog", "Mhorthmadog"),
    "Bethesda": ("Fethesda", "Methesda"), "Dolgellau": ("Ddolgellau", "Nolgellau"),
}  # fmt: skip
PREPOSITIONS = ("i", "o", "am", "ar", "at", "dan", "dros", "drwy", "heb", "wrth", "gan")
WHEN = ("yfory", "heddiw", "ddoe", "heno", "bore ma", "dydd Sadwrn", "wythnos nesa", "y penwythnos")
ADJECTIVES = ("mawr", "bach", "newydd", "hen", "prysur", "tawel", "hyfryd", "oer", "cynnes", "glân")
SLIPS = {
    "mynd": "mynnd",
    "Mae": "Mea",
    "gyda": "gdya",
    "hyfryd": "hyfrid",
    "yfory": "yforu",
    "prysur": "prysyr",
}


def _pick(rng: random.Random, right: str | None, radical: str) -> str:
    """The right form mostly; the radical where a learner forgot the mutation."""
    return radical if right is None or rng.random() < 0.3 else right


def _sentence(rng: random.Random) -> tuple[str, str]:
    """A sentence and the word in it a mutation rule is about."""
    k = rng.randrange(6)
    if k == 0:
        place = rng.choice(sorted(PLACES))
        word = _pick(rng, PLACES[place][0], place)
        return f"Dw i'n mynd i {word} {rng.choice(WHEN)}.", word
    if k == 1:
        place = rng.choice(sorted(PLACES))
        word = _pick(rng, PLACES[place][1], place)
        who = rng.choice(("Rydyn ni'n", "Mae hi'n", "Mae fy mrawd yn", "Roedden nhw'n"))
        return f"{who} byw yn {word}.", word
    noun = rng.choice(sorted(WORDS))
    soft, nasal, aspirate, feminine = WORDS[noun]
    if k == 2:
        possessive, form = rng.choice(
            (("fy", nasal), ("dy", soft), ("ei", soft), ("ei", aspirate), ("ein", None))
        )
        word = _pick(rng, form, noun)
        return f"Mae {possessive} {word} yn {rng.choice(ADJECTIVES)}.", word
    if k == 3:
        word = _pick(rng, soft if feminine else None, noun)
        return f"Mae'r {word} yn {rng.choice(ADJECTIVES)} {rng.choice(WHEN)}.", word
    if k == 4:
        prep = rng.choice(PREPOSITIONS)
        word = _pick(rng, soft, noun)
        return f"Aeth y plant {prep} {word} gyda'r athro.", word
    other = rng.choice(sorted(WORDS))
    word = _pick(rng, WORDS[other][2], other)
    return f"Prynais i {noun} a {word} yn y dref.", word


def _slipped(rng: random.Random, text: str) -> str:
    if rng.random() < 0.2:
        for right, wrong in SLIPS.items():
            if right in text.split() or right + "." in text.split():
                return text.replace(right, wrong, 1)
    return text


def welsh_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    drafts = []
    for _ in range(40):
        text, word = _sentence(rng)
        drafts.append([_slipped(rng, text), word])
    return Fixture([*binary], {"drafts": drafts})


def welsh_call(rng: random.Random, fx: Fixture) -> Call:
    drafts = fx.facts["drafts"]
    if rng.random() < 0.15:  # a sentence written afresh
        text, word = _sentence(rng)
        picked = [[_slipped(rng, text), word]]
    else:
        picked = rng.sample(drafts, rng.choice((1, 1, 2, 3, 4)))
    text = " ".join(t for t, _ in picked)
    r = rng.random()
    if r < 0.25:
        return "cymraeg_check_spelling", {"text": text}
    if r < 0.55:
        low = {"include_low_confidence": rng.random() < 0.5} if rng.random() < 0.5 else {}
        return "cymraeg_check_mutations", {"text": text, **low}
    if r < 0.75:
        sentence, word = rng.choice(picked)
        return "cymraeg_explain_mutation", {"word": word, "context": sentence}
    low = {"include_low_confidence": rng.random() < 0.5} if rng.random() < 0.4 else {}
    return "cymraeg_proof_text", {"text": text, **low}
