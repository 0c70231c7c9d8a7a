"""oyemi-mcp (PyPI, mcp.server.fastmcp on the SDK 1.x): a regional paper's letters desk, its readers' letters and the
words its subeditors weigh, worked against the Oyemi lexicon the oyemi package ships (WordNet synsets as codes):
words encoded, letters scored for valence, pairs of words compared, synonyms and antonyms found, lists of words
encoded at once.

Its results are one indented JSON text block and no structured content: a word's code as ``HHHH-LLLLL-P-A-V`` with
its superclass, synset id, part of speech, abstractness and valence as words, or every sense's; a letter's word
counts, a valence score and sentiment word, positive, negative and neutral shares in percent to two places and its
words sorted into lists by valence (the unknown ones too, repeats and all); a pair's similarity and distance to four
places, antonym, shared-superclass and same-part-of-speech flags and a relationship phrase; synonyms and antonyms as
lists with counts; a batch's totals and per-word codes; the lexicon's word and mapping counts and code legend. The
fixture holds no file: a seeded pile of letters made from the desk's word lists (every word one the lexicon holds)
that the workload draws from.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import FIRST, Fixture

NOUNS = ("harvest", "market", "river", "bridge", "council", "school", "hospital", "library", "festival", "garden",
         "railway", "harbour", "village", "election", "budget", "weather", "flood", "drought", "museum", "theatre",
         "factory", "farmer", "teacher", "nurse", "bakery", "traffic", "parking", "park", "church", "castle",
         "orchestra", "football", "stadium", "forest", "meadow", "storm", "winter", "summer", "tourist", "ferry")  # fmt: skip
ADJECTIVES = ("happy", "sad", "good", "bad", "cold", "hot", "quiet", "loud", "clean", "dirty", "cheap", "expensive",
              "safe", "dangerous", "beautiful", "ugly", "kind", "cruel", "honest", "careless", "generous", "angry",
              "proud", "weak", "strong", "late", "early", "friendly", "hostile", "wonderful", "terrible", "bright",
              "dark", "fresh", "stale", "busy", "empty", "fair", "unfair", "brave")  # fmt: skip
VERBS = ("praise", "complain", "welcome", "ignore", "build", "close", "repair", "destroy", "celebrate", "mourn",
         "support", "oppose", "improve", "damage", "thank", "blame", "enjoy", "hate", "protect", "neglect")  # fmt: skip
# pairs whose antonyms the lexicon holds, and pairs a subeditor weighs against each other
OPPOSITES = ("happy", "good", "cold", "hot", "quiet", "loud", "clean", "dirty", "cheap", "safe", "beautiful", "kind",
             "honest", "generous", "weak", "strong", "early", "late", "friendly", "bright", "dark", "fresh", "fair",
             "brave", "praise", "build", "close", "enjoy")  # fmt: skip
OPENINGS = ("Dear editor,", "Sir,", "Madam,", "To the letters page:")
FRAMES = (
    "the {a} {n} near the {n2} made everyone {a2}",
    "I {v} the council for the {a} {n} this {season}",
    "our {n} was {a} and the {n2} felt {a2}",
    "why does nobody {v} the {a} state of the {n}",
    "the new {n} is {a}, but the {n2} remains {a2}",
    "we should {v} the {n} before the {season} {n2}",
)  # fmt: skip


def _letter(rng: random.Random) -> str:
    lines = [rng.choice(OPENINGS)]
    for _ in range(rng.randrange(1, 4)):
        frame = rng.choice(FRAMES)
        lines.append(frame.format(a=rng.choice(ADJECTIVES), a2=rng.choice(ADJECTIVES), n=rng.choice(NOUNS),
                                  n2=rng.choice(NOUNS), v=rng.choice(VERBS), season=rng.choice(("winter", "summer")))
                     + ".")  # fmt: skip
    return " ".join(lines)


def lexicon_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    letters = [{"from": FIRST[i % len(FIRST)], "text": _letter(rng)} for i in range(36)]
    return Fixture([*binary], {"letters": letters})


def lexicon_call(rng: random.Random, fx: Fixture) -> Call:
    r = rng.random()
    if r < 0.22:
        word = rng.choice(rng.choice((NOUNS, ADJECTIVES, VERBS)))
        return "encode_word", {"word": word, **({"all_senses": True} if rng.random() < 0.35 else {})}
    if r < 0.44:
        letter = rng.choice(fx.facts["letters"])
        return "analyze_text", {
            "text": letter["text"],
            **({"min_word_length": 4} if rng.random() < 0.3 else {}),
        }
    if r < 0.6:
        pool = rng.choice((NOUNS, ADJECTIVES, VERBS))
        a, b = rng.sample(pool, 2)
        return "semantic_similarity", {"word1": a, "word2": b}
    if r < 0.74:
        word = rng.choice(rng.choice((NOUNS, ADJECTIVES, VERBS)))
        return "find_synonyms", {
            "word": word,
            **({"limit": rng.choice((3, 5, 8))} if rng.random() < 0.5 else {}),
        }
    if r < 0.86:
        return "find_antonyms", {"word": rng.choice(OPPOSITES)}
    if r < 0.98:
        words = rng.sample(NOUNS + ADJECTIVES + VERBS, rng.randrange(2, 7))
        return "batch_encode", {"words": words}
    return "get_lexicon_info", {}
