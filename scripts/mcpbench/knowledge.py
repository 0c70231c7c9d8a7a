"""@modelcontextprotocol/server-memory (npm): a knowledge graph of people, organisations, projects and cities.

Its results are structured JSON with an ``outputSchema`` (``{"entities": [...], "relations": [...]}``) while
its text block shows a part of that (the bare list of created entities, the message of a deletion). The
graph is built once through the server's own tools, kept as a pristine copy, and every server start (each
session: recording, clean replay, faulted replay) begins from that copy, so the writes of the workload
leave every session's results the same given the seed.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

from mcpbench.client import Call, session
from mcpbench.fixture import FIRST, LAST, Fixture

ORGS = ("Acme Robotics", "Bluefin Labs", "Cobalt Foods", "Delta Freight", "Evergreen Clinics", "Fjord Energy")
PROJECTS = ("Atlas", "Beacon", "Cascade", "Dynamo", "Ember", "Falcon", "Glacier")
CITIES = ("Lisbon", "Osaka", "Nairobi", "Toronto", "Krakow", "Valparaiso")
LANGS = ("Python", "Rust", "Go", "TypeScript", "Kotlin", "SQL")
TOPICS = (
    "the roadmap",
    "hiring",
    "the budget",
    "a customer escalation",
    "the release plan",
    "security review",
)
PROJECT_STATUS = ("active", "paused", "done", "planned")
# start each session from the pristine graph: the server then reads and writes its own copy
RESET = 'cp "$0" "$1" && MEMORY_FILE_PATH="$1" exec "$2"'


def _date(rng: random.Random, year: int) -> str:
    return f"{year}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"


def memory_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    people = rng.sample([f"{f} {last}" for f in FIRST for last in LAST], 14)
    entities: list[dict[str, Any]] = []
    relations: list[dict[str, str]] = []
    for org in ORGS:
        city = rng.choice(CITIES)
        entities.append({"name": org, "entityType": "organization", "observations": [
            f"founded in {rng.randrange(1960, 2021)}", f"has {rng.randrange(12, 4000)} employees",
            f"headquartered in {city}"]})  # fmt: skip
        relations.append({"from": org, "to": city, "relationType": "located_in"})
    for name in PROJECTS:
        sponsor = rng.choice(ORGS)
        entities.append({"name": name, "entityType": "project", "observations": [
            f"started on {_date(rng, rng.randrange(2021, 2026))}", f"budget {rng.randrange(5, 900) * 1000} EUR",
            f"status: {rng.choice(PROJECT_STATUS)}", f"written in {rng.choice(LANGS)}"]})  # fmt: skip
        relations.append({"from": sponsor, "to": name, "relationType": "sponsors"})
    for city in CITIES:
        entities.append({"name": city, "entityType": "city", "observations": [
            f"population {rng.randrange(200, 9000) * 1000}"]})  # fmt: skip
    for person in people:
        org, city = rng.choice(ORGS), rng.choice(CITIES)
        entities.append({"name": person, "entityType": "person", "observations": [
            f"joined {org} in {rng.randrange(2008, 2026)}", f"speaks {rng.choice(LANGS)}",
            f"prefers {rng.choice(('tea', 'coffee', 'mate'))}", f"lives in {city}"]})  # fmt: skip
        relations.append({"from": person, "to": org, "relationType": "works_at"})
        relations.append({"from": person, "to": city, "relationType": "lives_in"})
        for project in rng.sample(PROJECTS, rng.randrange(1, 3)):
            relations.append({"from": person, "to": project, "relationType": "contributes_to"})
    pristine, graph = work / "graph.pristine.jsonl", work / "graph.jsonl"
    command = ["sh", "-c", RESET, str(pristine), str(graph), *binary]
    calls: list[Call] = [
        ("create_entities", {"entities": entities}),
        ("create_relations", {"relations": relations}),
    ]
    with (work / "setup.log").open("w") as log:
        session(
            ["env", f"MEMORY_FILE_PATH={graph}", *binary], calls, errlog=log
        )  # no proxy: nothing recorded
    shutil.copyfile(graph, pristine)
    facts = {
        "people": people,
        "names": [e["name"] for e in entities],
        "observations": {e["name"]: e["observations"] for e in entities},
    }
    return Fixture(command, facts)


def memory_call(rng: random.Random, fx: Fixture) -> Call:
    people: list[str] = fx.facts["people"]
    names: list[str] = fx.facts["names"]
    r = rng.random()
    if r < 0.1:
        return "read_graph", {}
    if r < 0.4:
        query = rng.choice(
            (rng.choice(("person", "project", "organization", "city")), rng.choice(CITIES), rng.choice(LANGS),
             rng.choice(("tea", "coffee", "founded", "budget", "status")), rng.choice(people).split()[1],
             rng.choice(ORGS).split()[0])
        )  # fmt: skip
        return "search_nodes", {"query": query}
    if r < 0.7:
        chosen = rng.sample(names, rng.randrange(1, 4))
        if rng.random() < 0.1:
            chosen.append(
                f"{rng.choice(FIRST)} Nobody"
            )  # asked for, not in the graph: left out of the result
        return "open_nodes", {"names": chosen}
    if r < 0.84:
        person = rng.choice(people)
        note = f"met on {_date(rng, 2026)} about {rng.choice(TOPICS)}"
        return "add_observations", {"observations": [{"entityName": person, "contents": [note]}]}
    if r < 0.93:
        relation = {"from": rng.choice(people), "to": rng.choice(PROJECTS), "relationType": "reviews"}
        return "create_relations", {"relations": [relation]}
    name = rng.choice(names)
    gone = rng.choice(fx.facts["observations"][name])
    return "delete_observations", {"deletions": [{"entityName": name, "observations": [gone]}]}
