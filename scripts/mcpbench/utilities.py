"""@coo-quack/calc-mcp (npm): a toolbox of text utilities asked about a support desk's strings.

Its results are one text block and no structured content: compact JSON text for most tools (a digest with
a warning beside the weak ones, a URL's parts with its query as a map, a version's parts, a comparison as -1,
0 or 1 with a sentence, a colour in three notations with its channels, a Luhn check digit, a document's
validity with its kind and keys, a CSV's row and column counts with its headers), indented JSON for others
(regex matches with their index and captures, text counts, a character's code points with their Unicode
block, a JWT's header and payload with a warning that nothing was verified), and bare text for the rest
(base64 and URL, HTML or unicode escapes both ways, a regex replacement, a line diff marked ``-``/``+``). The
calculator's own kinds (arithmetic, units, dates, cron, networks) are left to the servers that have them:
this workload asks the text tools only. The fixture is what the calls carry: seeded ticket lines, URLs,
versions, colours, card-like numbers and small documents; no file, and no answer depends on the clock
(the tokens' expiry dates lie far from now, and ``datetime`` and ``random`` are never called).
"""

from __future__ import annotations

import base64
import json
import random
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

PRODUCTS = ("kettle", "desk lamp", "drill", "tent", "fan", "chair", "camera", "speaker", "router", "blender")
ISSUES = ("arrived broken", "stopped working", "wrong colour", "missing screws", "late delivery", "refund asked",
          "charged twice", "cannot pair", "loud noise", "display flickers")  # fmt: skip
HOSTS = ("shop.example.org", "help.example.com", "api.example.net", "static.example.org:8443")
ALGORITHMS = ("md5", "sha1", "sha256", "sha512", "crc32")
NAMED = ("teal", "coral", "navy", "gold", "orchid", "salmon", "slategray", "tomato", "wheat", "indigo")
# patterns a desk searches tickets with: (pattern, flags)
PATTERNS = (
    (r"T-(\d{5})", "g"), (r"(\d+)\s*EUR", "g"), (r"[A-Z]{2}\d{3}", "g"), (r"#(\w+)", "g"), (r"(\w+)@example\.(org|com)", "gi"),
    (r"order (\d+)", "i"), (r"^(\w+):", "m"), (r"\b(\d{4})-(\d{2})-(\d{2})\b", "g"), (r"(?<name>[A-Z][a-z]+) [A-Z][a-z]+", ""),
    (r"v(\d+)\.(\d+)", "g"),
)  # fmt: skip
SCRIPTS = "abcdefghijklmnopqrstuvwxyzéüßñçøåœ€£¥°±µ→★✓♥日本語한국어ΑΒΓΔ∑∞"


def _ticket(rng: random.Random, k: int) -> str:
    who = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    mail = f"{who.split()[0].lower()}@example.{rng.choice(('org', 'com'))}"
    day = f"2025-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
    words = (f"T-{10000 + k * 37 + rng.randrange(30)}", f"{day}", f"{who} <{mail}>:", f"my {rng.choice(PRODUCTS)}",
             f"{rng.choice(ISSUES)},", f"order {rng.randrange(100000, 999999)}", f"paid {rng.randrange(5, 900)} EUR",
             f"#{rng.choice(('urgent', 'vip', 'repeat', 'warranty'))}", f"seat {rng.choice('ABCDEF')}{rng.randrange(100, 999)}")  # fmt: skip
    return " ".join(words[:3]) + " " + " ".join(rng.sample(words[3:], rng.randrange(3, len(words) - 2)))


def _url(rng: random.Random) -> str:
    path = "/".join(
        rng.sample(
            ("orders", "v2", "tickets", "items", "help", "search", "en", "account"), rng.randrange(1, 4)
        )
    )
    query = "&".join(f"{k}={rng.choice(('1', 'desc', 'caf%C3%A9', 'a+b', str(rng.randrange(999))))}"
                     for k in rng.sample(("page", "sort", "q", "id", "lang", "ref"), rng.randrange(0, 4)))  # fmt: skip
    fragment = rng.choice(("", "", "#top", "#reviews"))
    return f"https://{rng.choice(HOSTS)}/{path}" + (f"?{query}" if query else "") + fragment


def _version(rng: random.Random) -> str:
    core = f"{rng.randrange(0, 4)}.{rng.randrange(0, 15)}.{rng.randrange(0, 30)}"
    return core + rng.choice(
        ("", "", "", f"-beta.{rng.randrange(1, 5)}", f"-rc.{rng.randrange(1, 3)}", "+build.7")
    )


def _luhn_digit(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return str((10 - total % 10) % 10)


def _b64url(value: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


def _document(rng: random.Random, kind: str) -> str:
    rows = [{"id": rng.randrange(1000), "item": rng.choice(PRODUCTS), "qty": rng.randrange(1, 9)}
            for _ in range(rng.randrange(1, 5))]  # fmt: skip
    if kind == "json":
        return json.dumps(
            rows if rng.random() < 0.5 else {"ticket": rng.randrange(10000, 99999), "lines": rows}
        )
    if kind == "csv":
        return "id,item,qty\n" + "\n".join(f"{r['id']},{r['item']},{r['qty']}" for r in rows)
    if kind == "yaml":
        lines = "".join(f"  - id: {r['id']}\n    item: {r['item']}\n    qty: {r['qty']}\n" for r in rows)
        return f"ticket: {rng.randrange(10000, 99999)}\nlines:\n{lines}"
    return "<order>" + "".join(f"<line id=\"{r['id']}\"><item>{r['item']}</item><qty>{r['qty']}</qty></line>"
                               for r in rows) + "</order>"  # fmt: skip


def utilities_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    tickets = [_ticket(rng, k) for k in range(60)]
    return Fixture([*binary], {"tickets": tickets})


def utilities_call(rng: random.Random, fx: Fixture) -> Call:
    tickets: list[str] = fx.facts["tickets"]
    text = rng.choice(tickets)
    r = rng.random()
    if r < 0.1:
        args: dict[str, Any] = {"input": text, "algorithm": rng.choice(ALGORITHMS)}
        if rng.random() < 0.3:  # a keyed digest: CRC32 has none
            args |= {
                "algorithm": rng.choice(ALGORITHMS[:-1]),
                "action": "hmac",
                "key": f"desk-{rng.randrange(100)}",
            }
        return "hash", args
    if r < 0.17:
        if rng.random() < 0.5:
            return "base64", {"input": text, "action": "encode"}
        return "base64", {"input": base64.b64encode(text.encode()).decode(), "action": "decode"}
    if r < 0.26:
        kind = rng.choice(("url", "html", "unicode"))
        sample = text if kind != "unicode" else "".join(rng.sample(SCRIPTS, rng.randrange(2, 8)))
        if kind == "html":
            sample = f'<p title="{sample[:20]}">{sample[20:60]} & more</p>'
        return "encode", {"input": sample, "action": "encode", "type": kind}
    if r < 0.32:
        return "count", {"text": "\n".join(rng.sample(tickets, rng.randrange(1, 5)))}
    if r < 0.47:
        pattern, flags = rng.choice(PATTERNS)
        action = (
            rng.choice(("match", "matchAll", "test", "replace"))
            if "g" in flags
            else rng.choice(("match", "test"))
        )
        args = {
            "pattern": pattern,
            "text": "\n".join(rng.sample(tickets, rng.randrange(1, 4))),
            "action": action,
        }
        if flags:
            args["flags"] = flags
        if action == "replace":
            args["replacement"] = rng.choice(("[redacted]", "<$1>", "#", "$1"))
        return "regex", args
    if r < 0.54:
        a, b = rng.sample(tickets, 2)
        if rng.random() < 0.5:  # a reply edited: two of its lines changed
            lines = a.split(" ")
            b = "\n".join(lines[:3] + [w.upper() if rng.random() < 0.3 else w for w in lines[3:]])
            a = "\n".join(lines)
        return "diff", {"text1": a[:1000], "text2": b[:1000], "action": rng.choice(("diff", "distance"))}
    if r < 0.62:
        kind = rng.choice(("json", "csv", "yaml", "xml"))
        return "format_validate", {"input": _document(rng, kind), "format": kind}
    if r < 0.67:
        body = "".join(str(rng.randrange(10)) for _ in range(rng.randrange(9, 16)))
        if rng.random() < 0.5:
            return "luhn", {"number": body, "action": "generate"}
        last = _luhn_digit(body) if rng.random() < 0.7 else str((int(_luhn_digit(body)) + 1) % 10)
        return "luhn", {"number": body + last, "action": "validate"}
    if r < 0.74:
        colour = rng.choice((
            f"#{rng.randrange(0x1000000):06x}", f"rgb({rng.randrange(256)}, {rng.randrange(256)}, {rng.randrange(256)})",
            f"hsl({rng.randrange(360)}, {rng.randrange(101)}%, {rng.randrange(101)}%)", rng.choice(NAMED),
        ))  # fmt: skip
        return "color", {
            "color": colour,
            **({"to": rng.choice(("hex", "rgb", "hsl"))} if rng.random() < 0.4 else {}),
        }
    if r < 0.79:
        return "char_info", {"char": "".join(rng.sample(SCRIPTS, rng.randrange(1, 4)))}
    if r < 0.86:
        return "url_parse", {"url": _url(rng)}
    if r < 0.95:
        action = rng.choice(("compare", "valid", "satisfies", "parse"))
        args = {"action": action, "version": _version(rng)}
        if action == "compare":
            args["version2"] = _version(rng)
        if action == "satisfies":
            args["range"] = rng.choice((f"^{rng.randrange(0, 4)}.{rng.randrange(0, 10)}.0", f">={rng.randrange(0, 4)}.0.0",
                                        f"~{rng.randrange(0, 4)}.{rng.randrange(0, 15)}.0", "1.x || 2.x"))  # fmt: skip
        return "semver", args
    who = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    issued = 1_600_000_000 + rng.randrange(0, 100_000_000)
    expiry = rng.choice((issued + 3600, 2_100_000_000 + rng.randrange(10**6)))  # long past, or far ahead
    payload = {"sub": f"u-{rng.randrange(10000)}", "name": who, "iat": issued, "exp": expiry,
               "roles": rng.sample(("agent", "admin", "viewer", "billing"), rng.randrange(1, 3))}  # fmt: skip
    header = {"alg": rng.choice(("HS256", "RS256")), "typ": "JWT"}
    return "jwt_decode", {
        "token": f"{_b64url(header)}.{_b64url(payload)}.{_b64url({'s': rng.randrange(10**6)})}"
    }
