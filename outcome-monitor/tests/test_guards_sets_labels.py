"""What the once held-out eight taught (wide vocabulary): a field that held both a number and a
string is no echo of a string argument, a domain inside a well-known set (parts of speech, the
planets) is that set, a list named for exceptions may be empty, and a string is no number where a
field of its name held a label that reads as none. Each pairs the clean case that fired before with
a fault the rules still catch."""

from __future__ import annotations

import json
import random
from typing import Any

from outcome_monitor import Monitor, learn


def _ids(reg: Any, tool: str, args: dict[str, Any], result: Any) -> list[str]:
    return [v.rule_id for v in Monitor(reg).annotate(tool, args, result).violations]


def _lookups() -> list[dict[str, Any]]:
    """Two tools of one shape: a requirement's ``id`` is its label (the query), a property's its number."""
    rng = random.Random(3)
    props = {"Content Type": 3, "Response Topic": 8, "User Property": 38, "Topic Alias": 35}
    rows = []
    for call in range(30):
        label = f"R-{rng.randrange(1, 9)}.{rng.randrange(1, 20)}-{call}"
        rows.append({"tool": "lookup", "arguments": {"query": label}, "result": {"id": label, "kind": "req"}})
        rows.append({"tool": "find", "arguments": {"query": label}, "result": {"id": label, "kind": "req"}})
        if call % 3 == 0:
            name = rng.choice(sorted(props))
            rows.append(
                {
                    "tool": "lookup",
                    "arguments": {"query": name},
                    "result": {"id": props[name], "kind": "prop"},
                }
            )
    return rows


def test_a_field_that_held_a_number_and_a_label_echoes_no_string_argument() -> None:
    reg = learn(_lookups())
    echoes = {r.tool for rs in reg.rules.values() for r in rs if r.cls == "echo" and r.fields[0] == "id"}
    assert "lookup" not in echoes  # its id was a number on a property's calls
    assert not _ids(reg, "lookup", {"query": "Will Delay Interval"}, {"id": 24, "kind": "prop"})
    # the sibling whose ids were all labels keeps the echo: a swapped label fires there
    assert any(
        "echo" in i for i in _ids(reg, "find", {"query": "R-1.1-99"}, {"id": "R-2.2-5", "kind": "req"})
    )


def _senses() -> list[dict[str, Any]]:
    rng = random.Random(4)
    rows = []
    for call in range(60):  # the desk looked up nouns, verbs and adjectives only
        pos = rng.choice(("noun", "verb", "adjective"))
        planet = rng.choice(("Mercury", "Venus", "Mars", "Jupiter"))
        rows.append(
            {
                "tool": "encode",
                "arguments": {"word": f"w{call}"},
                "result": {"pos": pos, "ruler": planet, "unknown_words": [f"x{call}"], "codes": [f"c{call}"]},
            }
        )
    return rows


def test_a_domain_inside_a_well_known_set_is_that_set() -> None:
    reg = learn(_senses())
    ok = {"pos": "adverb", "ruler": "Saturn", "unknown_words": ["y"], "codes": ["c"]}
    assert not _ids(reg, "encode", {"word": "quickly"}, ok)
    # a value of no such set still fires
    assert any("domain" in i for i in _ids(reg, "encode", {"word": "q"}, {**ok, "pos": "UNKNOWN"}))


def test_a_list_named_for_exceptions_may_be_empty() -> None:
    reg = learn(_senses())
    base = {"pos": "noun", "ruler": "Mars", "unknown_words": [], "codes": ["c"]}
    assert not _ids(reg, "encode", {"word": "known"}, base)
    # a list named for what was found keeps its non-empty rule
    assert any("len(codes)" in i for i in _ids(reg, "encode", {"word": "known"}, {**base, "codes": []}))


def _outlines() -> list[dict[str, Any]]:
    """An outline in JSON text: the parent's label was "3.2" or "5" (numbers, read alone), the
    children's labels go deeper ("4.7.1") and name their parent."""
    rng = random.Random(5)
    rows = []
    for call in range(40):
        top = rng.randrange(1, 8)
        parent = f"{top}.{rng.randrange(1, 14)}" if call % 3 else str(top)
        kids = [{"section": f"{parent}.{i}", "parent": parent} for i in range(1, rng.randrange(3, 6))]
        text = json.dumps({"parent": {"section": parent}, "sections": kids, "depth": parent.count(".") + 1})
        rows.append({"tool": "outline", "arguments": {"parent": parent}, "result": text})
    return rows


def test_a_label_is_no_number_where_its_namesake_held_one_that_reads_as_none() -> None:
    reg = learn(_outlines())
    # the children name their parent by its label too (every clean one was a section's label)
    deeper = {
        "parent": {"section": "3.2.2.3"},
        "sections": [{"section": "3.2.2.3.1", "parent": "3.2.2.3"}],
        "depth": 4,
    }
    assert not _ids(reg, "outline", {"parent": "3.2.2.3"}, json.dumps(deeper))
    # the depth, a number every time, is read still: a depth that is text fires
    assert _ids(reg, "outline", {"parent": "3.2.2.3"}, json.dumps({**deeper, "depth": "four"}))


def _lookups_with_excerpts() -> list[dict[str, Any]]:
    """A lookup whose summaries were all short, beside excerpts it cut with "..."."""
    rng = random.Random(6)
    rows = []
    for call in range(30):
        words = " ".join(rng.choice(("packet", "client", "server", "session", "topic")) for _ in range(12))
        rows.append(
            {
                "tool": "lookup",
                "arguments": {"name": f"P{call}"},
                "result": {"summary": f"P{call}: {words}.", "excerpt": f"{words} {call}..."},
            }
        )
    return rows


def test_a_tool_that_cuts_its_texts_may_cut_any() -> None:
    reg = learn(_lookups_with_excerpts())
    words = "packet client server session topic packet client server session topic packet"
    cut = {"summary": f"P99: {words}...", "excerpt": f"{words} 99..."}
    assert not [i for i in _ids(reg, "lookup", {"name": "P99"}, cut) if "placeholder" in i]
    # a placeholder of another kind still fires
    assert any("placeholder" in i for i in _ids(reg, "lookup", {"name": "P99"}, {**cut, "summary": "TODO"}))


def _sentiments() -> list[dict[str, Any]]:
    rng = random.Random(9)
    vocab = ("bright", "cold", "fair", "brave", "cruel", "kind", "warm", "grim", "calm", "wild")
    rows = []
    for call in range(30):
        words = rng.sample(vocab, 4)  # no clean text repeated a word
        text = f"Sir, the {words[0]} town was {words[1]}, {words[2]} and {words[3]} ({call})."
        rows.append({"tool": "analyze", "arguments": {"text": text}, "result": {"words": words[:3]}})
    return rows


def test_words_drawn_from_the_calls_text_may_repeat() -> None:
    reg = learn(_sentiments())
    text = "The cold night near the cold sea felt grim."
    assert not _ids(reg, "analyze", {"text": text}, {"words": ["cold", "cold", "grim"]})
    # an element that is an error message still fires
    assert _ids(reg, "analyze", {"text": text}, {"words": ["cold", "Error: lexicon unavailable"]})


def test_a_list_named_for_exceptions_that_a_hundred_calls_never_emptied_stays_non_empty() -> None:
    rows = [
        {
            "tool": "convert",
            "arguments": {"day": d},
            "result": {"day": d, "warnings": ["Dates before 1582 are proleptic."]},
        }
        for d in range(120)
    ]
    reg = learn(rows)
    assert any("len(warnings)" in i for i in _ids(reg, "convert", {"day": 500}, {"day": 500, "warnings": []}))


def _paths() -> list[dict[str, Any]]:
    """A savings path: each year's share of the target as text, growing fast enough never to repeat."""
    rng = random.Random(11)
    rows = []
    for call in range(30):
        share, path = rng.uniform(1, 5), []
        for year in range(1, rng.randrange(6, 12)):
            share *= rng.uniform(1.2, 1.5)
            path.append({"step": f"Y{call}-{year}", "pct": f"{share:.1f}%"})
        rows.append({"tool": "plan", "arguments": {"case": call}, "result": {"path": path}})
    return rows


def test_an_amount_written_out_is_no_name() -> None:
    reg = learn(_paths())
    slow = {
        "path": [
            {"step": "Z-1", "pct": "1.2%"},
            {"step": "Z-2", "pct": "1.2%"},
            {"step": "Z-3", "pct": "1.3%"},
        ]
    }
    assert not [i for i in _ids(reg, "plan", {"case": 99}, slow) if "unique" in i]
    # a step listed twice still fires
    twice = {"path": [slow["path"][0], {**slow["path"][1], "step": "Z-1"}, slow["path"][2]]}
    assert any("unique" in i for i in _ids(reg, "plan", {"case": 99}, twice))


def _calendar() -> list[dict[str, Any]]:
    """A listing whose events sometimes had no location, and a lookup whose events all had one."""
    rng = random.Random(12)
    rooms = ("Room 1", "Room 2", "Clinic A", "Ward 3", "Hall")
    rows = []
    for call in range(30):
        events = [{"uid": f"e{call}-{i}", "location": rng.choice((*rooms, ""))} for i in range(3)]
        rows.append({"tool": "list_events", "arguments": {"day": call}, "result": {"events": events}})
        one = {"uid": f"g{call}", "location": rng.choice(rooms), "minute": rng.randrange(5, 60, 5)}
        rows.append({"tool": "get_event", "arguments": {"uid": f"g{call}"}, "result": one})
    return rows


def test_a_name_held_empty_anywhere_may_be_empty_everywhere() -> None:
    reg = learn(_calendar())
    assert not _ids(reg, "get_event", {"uid": "g99"}, {"uid": "g99", "location": "", "minute": 30})
    # a placeholder of another kind still fires
    assert _ids(reg, "get_event", {"uid": "g99"}, {"uid": "g99", "location": "TODO", "minute": 30})


def test_a_clocks_minute_may_be_zero() -> None:
    reg = learn(_calendar())
    assert not _ids(reg, "get_event", {"uid": "g99"}, {"uid": "g99", "location": "Hall", "minute": 0})
    # a negative minute still fires
    assert any(
        "minute" in i
        for i in _ids(reg, "get_event", {"uid": "g99"}, {"uid": "g99", "location": "Hall", "minute": -5})
    )


def test_a_floats_rounding_of_zero_is_no_negative_number() -> None:
    rng = random.Random(13)
    rows = []
    for call in range(20):
        lengths = [round(rng.uniform(0.01, 0.3), 6) for _ in range(4)]
        newick = f"(A{call}:{lengths[0]},(B:{lengths[1]},(C:{lengths[2]},D:{lengths[3]})));"
        rows.append({"tool": "tree", "arguments": {"n": call}, "result": {"newick": newick}})
    reg = learn(rows)
    noise = "(A99:-6.9388939e-18,(B:0.092741935,(C:0.1155914,D:0.2)));"
    assert not [i for i in _ids(reg, "tree", {"n": 99}, {"newick": noise}) if "no_negative" in i]
    # a negated length still fires
    negated = {"newick": noise.replace("0.092741935", "-0.092741935")}
    assert any("no_negative" in i for i in _ids(reg, "tree", {"n": 99}, negated))
