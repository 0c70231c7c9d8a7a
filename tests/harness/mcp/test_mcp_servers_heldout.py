"""The once held-out group's later four (usda, mqtt-spec, oyemi, secret-scrub, held out from the night of 2026-12-07,
later, tuned on since late on the night of 2026-12-07): their fixtures and seeded workloads, drawn here without starting a
server (test_mcp_servers_contracts.py records their workloads through the proxy, and checks they are seeded and
varied). Their calls stay offline and within what each server accepts."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "scripts"))

from mcpbench.catalogue import BY_NAME  # noqa: E402

LATER = ("usda", "mqtt-spec", "oyemi", "secret-scrub")


def test_the_later_fours_calls_stay_offline_and_within_what_the_servers_accept(tmp_path):
    """usda asks only foods its table holds, in units of each food's own family, for diets it knows and positive
    targets; mqtt-spec asks each version only for what its specification holds (properties and reason codes of 5.0,
    return codes of 3.1.1); oyemi sends only the desk's words and letters; secret-scrub speaks stdio and is sent only
    the fixture's logs, whole or a run of their lines, whose made-up credentials name no real host."""
    from mcpbench import lexicon, meals, protocols

    fx = {n: BY_NAME[n].setup(tmp_path / n, random.Random(5), [f"/venv/bin/{n}"]) for n in LATER}
    assert all(fx[n].command == [f"/venv/bin/{n}"] for n in LATER)  # no --http, no option: stdio
    assert not any((tmp_path / n).exists() for n in LATER)  # nothing written: all in facts
    units = {name: unit for foods in meals.FOODS.values() for name, unit in foods}
    family = {u: f for f in (meals.MASS, meals.VOLUME) for u in f}
    words = set(lexicon.NOUNS + lexicon.ADJECTIVES + lexicon.VERBS)
    logs = fx["secret-scrub"].facts["logs"]
    hosts = {
        h
        for log in logs
        for h in re.findall(r"(?:https?|postgres(?:ql)?|mysql|redis|mongodb)://[^\s/]+", log)
    }
    assert hosts and all(
        h.split("://")[1].split("@")[-1].split(":")[0].endswith((".invalid", ".internal")) for h in hosts
    ), hosts
    rng = random.Random(6)
    for _ in range(300):
        tool, args = BY_NAME["usda"].workload(rng, fx["usda"])
        if "name" in args:
            name = next(n for n in units if n.lower() == args["name"].lower())
            if "unit" in args:
                assert args["unit"] in family.get(units[name], (units[name],)) and args["amount"] > 0
        assert set(args.get("exclude_tags") or []) <= set(meals.EXCLUDE)
        assert args.get("diet_type", "vegan") in meals.EXCLUDE and set(args.get("tags", [])) <= set(
            meals.TAGS
        )
        assert all(args[k] > 0 for k in ("target_protein", "target_carb", "target_fat") if k in args)
        tool, args = BY_NAME["mqtt-spec"].workload(rng, fx["mqtt-spec"])
        v = args["version"]
        assert args.get("parent", "1") in protocols.PARENTS[v] and args.get("section", "2.4") in (
            *protocols.SECTIONS[v],
            "2.4",
        )
        kind = args.get("kind")
        assert (kind in ("property", "reason_code")) <= (v == "5.0") and (kind == "return_code") <= (
            v == "3.1.1"
        )
        if kind == "requirement":
            assert args["query"] in protocols.REQUIREMENTS[v]
        if kind == "term":
            assert args["query"] in protocols.TERMS[v]
        if kind == "packet":
            assert args["query"] in protocols.PACKETS or (v, args["query"]) == ("5.0", "AUTH")
        tool, args = BY_NAME["oyemi"].workload(rng, fx["oyemi"])
        asked = {args[k] for k in ("word", "word1", "word2") if k in args} | set(args.get("words", []))
        assert asked <= words
        if "text" in args:
            assert args["text"] in {letter["text"] for letter in fx["oyemi"].facts["letters"]}
        tool, args = BY_NAME["secret-scrub"].workload(rng, fx["secret-scrub"])
        if "text" in args:
            assert any(args["text"] in log for log in logs)
            assert args.get("mode", "redact") in ("redact", "mask", "hash")
