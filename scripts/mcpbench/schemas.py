"""mcp-graphql-schema (npm, the TypeScript SDK): a freight company's GraphQL schema, read by its root fields,
types and names.

Its results are one bare text block and no structured content: root fields or type names joined by ``, ``, one
field's or type's definition printed back in GraphQL's schema language (arguments with defaults, non-null and list
markers, descriptions in block strings, ``@deprecated`` reasons, enums, inputs, interfaces and unions), a type's
fields as ``name: Type`` lines, a search's two lines (``Matching types: ...``, ``Matching fields: Type.field,
...``, ``None`` when nothing matches), and a sentence for a name it does not have. The schema is written here,
seeded: about seventy object, input, enum, interface and union types around shipments, with query, mutation and
subscription roots; the server reads it at start.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

ENTITIES = ("Shipment", "Parcel", "Depot", "Carrier", "Driver", "Vehicle", "Route", "Customer", "Invoice", "Claim",
            "Pallet", "Manifest", "Stop", "Tariff", "Warehouse", "Container", "Booking", "Quote", "Contract",
            "Incident", "Dock", "Trailer")  # fmt: skip
TYPES = {"code": "String!", "weight": "Float", "statusNote": "String", "notes": "[String!]", "createdAt": "DateTime!",
         "eta": "DateTime", "price": "Float", "volume": "Float", "region": "String", "priority": "Int",
         "rating": "Int", "fragile": "Boolean!"}  # fmt: skip
WORDS = tuple(TYPES)
VERBS = ("create", "update", "cancel", "assign", "archive", "approve")
SEARCH = ("ship", "depot", "^Cr", "At$", "status", "price", "Input", "Status", "driver", "route|stop", "zzz")


def _schema(rng: random.Random) -> tuple[str, dict[str, list[str]]]:
    out = ["scalar DateTime", ""]
    names = {"object": [], "enum": [], "input": [], "query": [], "mutation": [], "subscription": []}
    for e in ENTITIES:
        statuses = sorted(
            rng.sample(("DRAFT", "OPEN", "IN_TRANSIT", "HELD", "DELIVERED", "LOST", "CLOSED"), 4)
        )
        out += [f"enum {e}Status {{", *(f"  {s}" for s in statuses), "}", ""]
        names["enum"].append(f"{e}Status")
    out += ["interface Node {", "  id: ID!", "}", ""]
    for e in ENTITIES:
        fields = ["  id: ID!", f"  status: {e}Status!"]
        for w in rng.sample(WORDS, rng.randrange(3, 8)):
            dep = f' @deprecated(reason: "use {w}V2")' if rng.random() < 0.12 else ""
            fields.append(f"  {w}: {TYPES[w]}{dep}")
        for other in rng.sample(ENTITIES, rng.randrange(0, 3)):
            many = rng.random() < 0.5
            lower = other[0].lower() + other[1:]
            fields.append(
                f"  {lower}s(first: Int = {rng.choice((10, 20, 50))}): [{other}!]!"
                if many
                else f"  {lower}: {other}"
            )
        out += ['"""', f"A {e.lower()} of the network, tracked since its first scan.", '"""']
        out += [f"type {e} implements Node {{", *fields, "}", ""]
        names["object"].append(e)
        inputs = [f"  {w}: {TYPES[w].rstrip('!')}" for w in rng.sample(WORDS, rng.randrange(2, 5))]
        out += [f"input {e}Input {{", *inputs, "}", ""]
        names["input"].append(f"{e}Input")
    out += [f"union SearchResult = {' | '.join(rng.sample(ENTITIES, 4))}", ""]
    query = []
    for e in ENTITIES:
        lower = e[0].lower() + e[1:]
        query.append(f"  {lower}(id: ID!): {e}")
        query.append(f"  {lower}s(status: {e}Status, first: Int = 20, after: String): [{e}!]!")
    query.append(
        '  "Full-text search across the network"\n  search(text: String!, limit: Int = 10): [SearchResult!]!'
    )
    out += ["type Query {", *query, "}", ""]
    mutation = [
        f"  {v}{e}(input: {e}Input!): {e}" for e in ENTITIES for v in rng.sample(VERBS, rng.randrange(1, 4))
    ]
    out += ["type Mutation {", *mutation, "}", ""]
    subs = [f"  {e[0].lower() + e[1:]}Changed(id: ID): {e}!" for e in rng.sample(ENTITIES, 5)]
    out += ["type Subscription {", *subs, "}", ""]
    names["query"] = [q.split("(")[0].strip().split("\n")[-1].strip() for q in query]
    names["mutation"] = [m.split("(")[0].strip() for m in mutation]
    names["subscription"] = [s.split("(")[0].strip() for s in subs]
    return "\n".join(out), names


def schemas_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    text, names = _schema(rng)
    path = work / "freight.graphqls"
    path.write_text(text)
    return Fixture([*binary, str(path)], names)


def _near(rng: random.Random, name: str) -> str:
    """Now and then a name one letter off, as a caller mistypes it."""
    if rng.random() < 0.05:
        i = rng.randrange(len(name))
        return name[:i] + name[i + 1 :]
    return name


def schemas_call(rng: random.Random, fx: Fixture) -> Call:
    f = fx.facts
    r = rng.random()
    if r < 0.04:
        return rng.choice(
            ("list-query-fields", "list-mutation-fields", "list-subscription-fields", "list-types")
        ), {}
    if r < 0.3:
        return "get-query-field", {"fieldName": _near(rng, rng.choice(f["query"]))}
    if r < 0.42:
        return "get-mutation-field", {"fieldName": _near(rng, rng.choice(f["mutation"]))}
    if r < 0.46:
        return "get-subscription-field", {"fieldName": _near(rng, rng.choice(f["subscription"]))}
    if r < 0.64:
        kind = rng.choice(("object", "object", "enum", "input"))
        return "get-type", {"typeName": _near(rng, rng.choice(f[kind]))}
    if r < 0.8:
        kind = rng.choice(("object", "object", "object", "input"))
        return "get-type-fields", {"typeName": _near(rng, rng.choice(f[kind]))}
    if rng.random() < 0.4:
        return "search-schema", {"pattern": rng.choice(SEARCH)}
    name = rng.choice((*ENTITIES, *WORDS))  # a piece of a name, as a caller half remembers it
    i = rng.randrange(max(1, len(name) - 3))
    return "search-schema", {"pattern": name[i : i + rng.randrange(3, 6)]}
