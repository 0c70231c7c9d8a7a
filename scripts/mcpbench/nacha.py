"""achlens (PyPI, the SDK 2.x's MCPServer): a payroll bureau's outgoing ACH files, checked before they go to the
bank, and the bank's returns file read back.

Its results are structured content (an ``outputSchema`` of an object of any keys) beside the same object as indented
JSON: a validation's findings (rule ids, severities, line and column positions, field names, messages and hints,
sensitive values masked) with counts by severity; a summary's counts, totals in cents beside dollar strings
("$12,345.67"), SEC codes, YYMMDD effective dates, company names, batches, returns and notices of change; parsed
records a page at a time (each field's name, raw fixed-width text, value and its columns) with a next offset or
null; control totals stated against recomputed (counts, entry hashes as sums of routing prefixes, amounts in cents)
with a match flag and an explanation; an ABA check digit's verdict; a reference code's title and description; a
synthetic file's text with its totals; a repair's changes; a diff's field-level differences. The fixture is a
folder of seeded NACHA files (94-column records in blocks of ten: payroll credits, collections debits, a returns
file with R-code addenda, one file whose batch control was typed by hand and one whose padding is short), read by
path (under ACHLENS_ALLOWED_ROOTS) or sent as text.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

COMPANIES = ("ACME PAYROLL", "NORTHWIND LLC", "BLUE RIVER CO", "SUNSET DENTAL", "METRO TRANSIT", "OAK & PINE INC",
             "HARBOR FOODS", "CEDAR SCHOOLS")  # fmt: skip
DESCRIPTIONS = {"PPD": ("PAYROLL", "PAYROLL", "DUES", "REFUND"), "CCD": ("VENDOR PAY", "INVOICES", "RENT"),
                "WEB": ("SUBSCRIBE", "DONATION"), "TEL": ("PHONE PAY",)}  # fmt: skip
RETURNS = ("R01", "R02", "R03", "R04", "R07", "R08", "R10", "R16", "R20", "R29")
LOOKUPS = {
    "return": (*RETURNS, "R05", "R06", "R09", "R11", "R12", "R13", "R14", "R15", "R17", "R23", "R24"),
    "noc": ("C01", "C02", "C03", "C04", "C05", "C06", "C07", "C09"),
    "transaction": ("22", "23", "27", "28", "32", "37", "42", "52"),
    "sec": ("PPD", "CCD", "CTX", "WEB", "TEL", "IAT", "POS", "ARC", "BOC"),
    "service_class": ("200", "220", "225", "280"),
}
RULES = ("S001", "S005", "S011", "FH003", "BH004", "ED001", "ED004", "ED012", "AD004", "BC003", "BC005", "FC002",
         "FC004", "FC006")  # fmt: skip


def _aba(rng: random.Random) -> str:
    """A nine-digit routing number whose ABA check digit holds."""
    head = f"{rng.choice((0, 0, 1, 2, 3)):01d}{rng.randrange(10**7):07d}"
    d = [int(c) for c in head]
    check = -(3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5])) % 10
    return head + str(check)


def _f(value: object, width: int, right: bool = False, fill: str = " ") -> str:
    text = str(value)[:width]
    return text.rjust(width, fill) if right else text.ljust(width, fill)


def _file(rng: random.Random, odfi: str, kind: str, day: int) -> tuple[str, dict]:
    """One ACH file's text (its lines of 94 columns, padded to a block of ten) and what it holds."""
    created = f"2603{day:02d}"
    lines = ["101" + _f(" " + _aba(rng), 10) + _f(" " + odfi, 10) + created + _f(f"{rng.randrange(24):02d}{rng.randrange(60):02d}", 4)
             + rng.choice("ABC") + "094101" + _f("FEDERAL RESERVE BANK", 23) + _f("FIRST COMMUNITY BANK", 23) + _f("", 8)]  # fmt: skip
    batches, hashes, debit, credit, count = [], 0, 0, 0, 0
    for b in range(1, rng.randrange(2, 4) + (kind == "returns")):
        sec = "PPD" if kind in ("payroll", "returns") else rng.choice(("CCD", "WEB", "TEL", "PPD"))
        service = "220" if kind == "payroll" else "225" if kind == "collections" else "200"
        company, company_id = rng.choice(COMPANIES), f"1{rng.randrange(10**9):09d}"
        effective = f"2603{min(day + rng.randrange(1, 3), 28):02d}"
        lines.append("5" + service + _f(company, 16) + _f("", 20) + company_id + sec + _f(rng.choice(DESCRIPTIONS[sec]), 10)
                     + _f("", 6) + effective + "   1" + odfi[:8] + f"{b:07d}")  # fmt: skip
        entries, b_hash, b_debit, b_credit, rows = [], 0, 0, 0, 0
        for e in range(1, rng.randrange(2, 9)):
            rdfi = _aba(rng)
            code = {"payroll": "22", "collections": "27"}.get(kind, rng.choice(("22", "27", "32", "37")))
            cents = rng.randrange(1500, 480000) if code in ("22", "32") else rng.randrange(999, 25000)
            trace = odfi[:8] + f"{b * 100 + e:07d}"
            name = f"{rng.choice(FIRST)} {rng.choice(LAST)}".upper()
            back = kind == "returns"
            lines.append("6" + code + rdfi + _f(f"{rng.randrange(10**10, 10**12)}", 17) + f"{cents:010d}"
                         + _f(f"EMP{rng.randrange(10**5):05d}", 15) + _f(name, 22) + ("S " if sec == "WEB" else "  ") + ("1" if back else "0") + trace)  # fmt: skip
            rows += 1
            if back:
                reason = rng.choice(RETURNS)
                original = f"{_aba(rng)[:8]}{rng.randrange(10**7):07d}"
                lines.append("799" + reason + original + _f("", 6) + rdfi[:8] + _f("", 44) + trace)
                rows += 1
            b_hash += int(rdfi[:8])
            if code in ("22", "32"):
                b_credit += cents
            else:
                b_debit += cents
            entries.append({"trace": trace, "rdfi": rdfi, "cents": cents, "name": name})
        if kind == "typed" and b == 1:  # the control keyed by hand: its credit total off by a few cents
            b_credit += rng.choice((-100, 1, 10, 900))
        lines.append("8" + service + f"{rows:06d}" + f"{b_hash % 10**10:010d}" + f"{b_debit:012d}" + f"{b_credit:012d}"
                     + company_id + _f("", 19) + _f("", 6) + odfi[:8] + f"{b:07d}")  # fmt: skip
        hashes, debit, credit, count = hashes + b_hash, debit + b_debit, credit + b_credit, count + rows
        batches.append({"number": b, "sec": sec, "company": company, "entries": entries})
    blocks = -(-(len(lines) + 1) // 10)
    lines.append("9" + f"{len(batches):06d}" + f"{blocks:06d}" + f"{count:08d}" + f"{hashes % 10**10:010d}"
                 + f"{debit:012d}" + f"{credit:012d}" + _f("", 39))  # fmt: skip
    pad = blocks * 10 - len(lines) - (kind == "short")
    lines += ["9" * 94] * pad
    return "\n".join(lines) + "\n", {"batches": batches, "records": len(lines)}


def nacha_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    folder = work / "ach"
    folder.mkdir(parents=True, exist_ok=True)
    odfi = _aba(rng)
    files = []
    kinds = ["payroll", "payroll", "collections", "mixed", "mixed", "returns", "typed", "short"]
    for i, kind in enumerate(kinds):
        text, held = _file(rng, odfi, kind, 2 + 3 * i)
        path = folder / f"{kind}-{i + 1:02d}.ach"
        path.write_text(text)
        files.append({"path": str(path), "kind": kind, **held})
    env = [f"ACHLENS_ALLOWED_ROOTS={folder}", "ACHLENS_LOG_LEVEL=ERROR"]
    return Fixture(["env", *env, *binary, "serve"], {"files": files, "odfi": odfi})


def _source(rng: random.Random, spec: dict) -> dict[str, str]:
    if rng.random() < 0.7:
        return {"path": spec["path"]}
    return {"content": Path(spec["path"]).read_text()}


def nacha_call(rng: random.Random, fx: Fixture) -> Call:
    spec = rng.choice(fx.facts["files"])
    r = rng.random()
    if r < 0.2:
        args: dict[str, object] = _source(rng, spec)
        if rng.random() < 0.3:
            args["min_severity"] = rng.choice(("error", "warning", "info"))
        if rng.random() < 0.15:
            args["rule_ids"] = rng.sample(RULES, rng.randrange(1, 5))
        return "validate_ach_file", args
    if r < 0.36:
        return "summarize_ach_file", _source(rng, spec)
    if r < 0.52:
        args = _source(rng, spec)
        types = (
            rng.sample(("1", "5", "6", "7", "8", "9"), rng.randrange(1, 4)) if rng.random() < 0.4 else None
        )
        if types:
            args["record_types"] = types
        if rng.random() < 0.6:
            args["limit"] = rng.randrange(1, 25)
        if rng.random() < 0.3:
            args["offset"] = rng.randrange(0, spec["records"] // 2)
        return "parse_ach_file", args
    if r < 0.64:
        args = _source(rng, spec)
        if rng.random() < 0.4:
            args["batch_number"] = rng.choice(spec["batches"])["number"]
        return "explain_control_totals", args
    if r < 0.76:
        entry = rng.choice(rng.choice(spec["batches"])["entries"])
        number = rng.choice((entry["rdfi"], entry["rdfi"], fx.facts["odfi"], entry["rdfi"][:8]))
        if rng.random() < 0.15:  # a digit mistyped
            i = rng.randrange(9 if len(number) == 9 else 8)
            number = number[:i] + str((int(number[i]) + rng.randrange(1, 10)) % 10) + number[i + 1 :]
        return "check_routing_number", {"routing_number": number}
    if r < 0.86:
        kind = rng.choice(sorted(LOOKUPS))
        return "lookup_ach_code", {"kind": kind, "code": rng.choice(LOOKUPS[kind])}
    if r < 0.92:
        sec = rng.choice(("PPD", "CCD", "CTX", "TEL", "WEB"))
        args = {"sec_code": sec, "batches": rng.randrange(1, 4), "entries_per_batch": rng.randrange(1, 9),
                "seed": rng.randrange(1000)}  # fmt: skip
        if rng.random() < 0.4:
            args["service_class"] = rng.choice((200, 220, 225))
        if rng.random() < 0.3:
            args["include_addenda"] = True
            if sec == "CTX" and rng.random() < 0.5:
                args["addenda_per_entry"] = rng.randrange(1, 4)
        if rng.random() < 0.3:
            args["effective_date"] = f"2603{rng.randrange(1, 29):02d}"
        return "generate_test_ach_file", args
    if r < 0.96:
        left = Path(spec["path"]).read_text()
        right = Path(rng.choice(fx.facts["files"])["path"]).read_text()
        return "diff_ach_files_tool", {"left_content": left, "right_content": right}
    if r < 0.99:
        return "repair_control_records_tool", {"content": Path(spec["path"]).read_text()}
    return "server_status", {}
