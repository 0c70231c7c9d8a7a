"""subnet-calculator-mcp (PyPI, mcp.server.fastmcp on the SDK 1.x): a campus network's IPv4 address plan, sized and
checked: subnets for a host count, networks from an address and mask, OSPF wildcard masks, addresses checked
against subnets and the nth usable host.

Its results are structured content (an ``outputSchema`` of an object of any keys) beside the same object as indented
JSON: dotted-quad addresses and masks (network, first and last usable, broadcast, wildcard), CIDR prefixes, address
and usable-host counts as integers, an address's membership flag with its network and suggested gateway, a binary
mask string, an OSPF ``network ... area 0`` command, the nth host's address and position. The fixture holds no
file: a seeded plan of buildings, each with its allocation from 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16 and a
list of rooms with host counts, which the workload draws from; every host count fits, every position is a usable
host of its network.
"""

from __future__ import annotations

import ipaddress
import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

ROOMS = (
    "lab",
    "library",
    "office",
    "lecture hall",
    "dorm",
    "server room",
    "cafeteria",
    "gym",
    "studio",
    "clinic",
)


def subnets_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    buildings = []
    for _ in range(24):
        space = rng.choice(("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"))
        prefix = rng.choice((16, 18, 20, 22)) if space != "192.168.0.0/16" else rng.choice((20, 22, 23))
        parent = ipaddress.IPv4Network(space)
        count = 2 ** (prefix - parent.prefixlen)
        block = ipaddress.IPv4Network(
            (int(parent.network_address) + rng.randrange(count) * 2 ** (32 - prefix), prefix)
        )
        rooms = [{"room": rng.choice(ROOMS), "hosts": rng.choice((2, 6, 12, 25, 50, 60, 100, 120, 200, 250, 500, 1000))}
                 for _ in range(rng.randrange(3, 8))]  # fmt: skip
        buildings.append({"block": str(block), "rooms": rooms})
    return Fixture([*binary], {"buildings": buildings})


def _address(rng: random.Random, net: ipaddress.IPv4Network) -> str:
    return str(net.network_address + rng.randrange(1, net.num_addresses - 1))


def subnets_call(rng: random.Random, fx: Fixture) -> Call:
    b = rng.choice(fx.facts["buildings"])
    block = ipaddress.IPv4Network(b["block"])
    room = rng.choice(b["rooms"])
    prefix = rng.randrange(block.prefixlen + 1, 31)
    sub = ipaddress.IPv4Network((int(block.network_address) + rng.randrange(2 ** (prefix - block.prefixlen))
                                 * 2 ** (32 - prefix), prefix))  # fmt: skip
    r = rng.random()
    if r < 0.28:
        args: dict[str, object] = {"network_base": _address(rng, block), "hosts_needed": room["hosts"]}
        if rng.random() < 0.5:
            args["return_format"] = rng.choice(("detailed", "simple"))
        return "calculate_subnet", args
    if r < 0.44:
        args = {"ip_address": _address(rng, sub), "cidr_prefix": prefix}
        if rng.random() < 0.4:
            args["include_ospf_command"] = rng.random() < 0.5
        return "calculate_wildcard_mask", args
    if r < 0.64:
        inside = rng.random() < 0.65
        other = ipaddress.IPv4Network((int(sub.network_address) ^ (1 << (32 - prefix)), prefix))
        args = {"ip_address": _address(rng, sub if inside else other), "network": str(sub)}
        if rng.random() < 0.4:
            args["return_gateway"] = rng.random() < 0.5
        return "validate_ip_in_subnet", args
    if r < 0.8:
        return "calculate_subnet_from_mask", {
            "ip_address": _address(rng, sub),
            "subnet_mask": str(sub.netmask),
        }
    usable = sub.num_addresses - 2
    position = rng.choice((1, 2, usable, rng.randrange(1, usable + 1)))
    return "get_nth_usable_ip", {"network": str(sub), "position": position}
