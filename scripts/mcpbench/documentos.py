"""brasil-mcp-essentials (PyPI, mcp.server.fastmcp on the SDK 1.x): a São Paulo web shop's back office, its customers'
documents checked, its boletos and PIX charges read back and its delivery dates counted in business days.

Its results are structured content (an ``outputSchema`` of an object of any keys) beside the same object as indented
JSON: a document number's verdict with its masked form ("529.982.247-25", "11.222.333/0001-81"), the raw input, an
error object or null (a code and the message in Portuguese and in English) and, by kind, the CNPJ's format, a
card's brand, a phone's international and E.164 forms, DDD and kind; a boleto's bank code and name, amount in cents,
due-date factor and ISO due date, barcode and typed line; a PIX BR Code's key, key type, payee, city, amount in
cents, txid and CRC, or a made BR Code (an EMV string of tag-length-values) with null QR fields; a wa.me link; a
holiday check, the next business day with the days skipped, a business-day count with the holidays met, a year's
holidays by sphere (national or state) with English names. The fixture holds no file: a seeded customer list
(names, CPF or CNPJ, mobile numbers, cards), open boletos and PIX charges, that the workload draws from, now and then
with a digit mistyped; the server's online lookups are never called.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import FIRST, LAST, Fixture

BANKS = ("001", "033", "104", "237", "341", "260", "077", "748", "756", "422")
UFS = ("SP", "RJ", "MG", "RS", "PR", "BA", "PE", "SC", "GO", "CE", "DF", "AM")
CITIES = ("SAO PAULO", "CAMPINAS", "SANTOS", "RIO DE JANEIRO", "BELO HORIZONTE", "CURITIBA", "PORTO ALEGRE")
DDDS = ("11", "11", "19", "13", "21", "31", "41", "51", "61", "71", "81", "85")
CARDS = (
    ("4", 16),
    ("51", 16),
    ("55", 16),
    ("37", 15),
    ("6062", 16),
    ("636368", 16),
)  # Visa, Master, Amex, Hiper, Elo
BASE = dt.date(2025, 2, 22)  # a boleto's due-date factor 1000 since FEBRABAN's reset


def _dv11(digits: str, weights: list[int]) -> str:
    s = sum(int(d) * w for d, w in zip(digits, weights, strict=True)) % 11
    return "0" if s < 2 else str(11 - s)


def _cpf(rng: random.Random) -> str:
    d = "".join(str(rng.randrange(10)) for _ in range(9))
    d += _dv11(d, list(range(10, 1, -1)))
    d += _dv11(d, list(range(11, 1, -1)))
    return f"{d[:3]}.{d[3:6]}.{d[6:9]}-{d[9:]}" if rng.random() < 0.7 else d


def _cnpj(rng: random.Random) -> str:
    d = "".join(str(rng.randrange(10)) for _ in range(8)) + "0001"
    d += _dv11(d, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    d += _dv11(d, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    return f"{d[:2]}.{d[2:5]}.{d[5:8]}/{d[8:12]}-{d[12:]}" if rng.random() < 0.7 else d


def _pis(rng: random.Random) -> str:
    d = "".join(str(rng.randrange(10)) for _ in range(10))
    s = 11 - sum(int(c) * w for c, w in zip(d, [3, 2, 9, 8, 7, 6, 5, 4, 3, 2], strict=True)) % 11
    return d + str(0 if s >= 10 else s)


def _renavam(rng: random.Random) -> str:
    d = "".join(str(rng.randrange(10)) for _ in range(10))
    s = sum(int(c) * w for c, w in zip(d[::-1], [2, 3, 4, 5, 6, 7, 8, 9, 2, 3], strict=True)) * 10 % 11
    return d + str(0 if s == 10 else s)


def _card(rng: random.Random) -> str:
    prefix, length = rng.choice(CARDS)
    d = prefix + "".join(str(rng.randrange(10)) for _ in range(length - len(prefix) - 1))
    total = sum(int(c) * (2 if i % 2 == 0 else 1) // 10 + int(c) * (2 if i % 2 == 0 else 1) % 10
                for i, c in enumerate(reversed(d)))  # fmt: skip
    d += str(-total % 10)
    return " ".join(d[i : i + 4] for i in range(0, len(d), 4)) if rng.random() < 0.5 else d


def _phone(rng: random.Random) -> str:
    ddd, n = rng.choice(DDDS), f"9{rng.randrange(6000, 10000)}{rng.randrange(10000):04d}"
    return rng.choice((f"({ddd}) {n[:5]}-{n[5:]}", f"+55 {ddd} {n[:5]}-{n[5:]}", ddd + n, f"{ddd} {n}"))


def _mod10(digits: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        p = int(ch) * (2 if i % 2 == 0 else 1)
        total += p // 10 + p % 10
    return str(-total % 10)


def _boleto(rng: random.Random, due: dt.date, cents: int) -> str:
    """A bank boleto's typed line (47 digits, spaced as printed) or its barcode (44 digits)."""
    bank, free = rng.choice(BANKS), "".join(str(rng.randrange(10)) for _ in range(25))
    body = f"{bank}9" + f"{1000 + (due - BASE).days:04d}{cents:010d}" + free
    weights, total = [2, 3, 4, 5, 6, 7, 8, 9] * 6, 0
    for ch, w in zip(reversed(body), weights, strict=False):
        total += int(ch) * w
    dv = 11 - total % 11
    barcode = body[:4] + str(1 if dv in (0, 10, 11) else dv) + body[4:]
    if rng.random() < 0.25:
        return barcode
    f1, f2, f3 = barcode[0:4] + barcode[19:24], barcode[24:34], barcode[34:44]
    f1, f2, f3 = f1 + _mod10(f1), f2 + _mod10(f2), f3 + _mod10(f3)
    return f"{f1[:5]}.{f1[5:]} {f2[:5]}.{f2[5:]} {f3[:5]}.{f3[5:]} {barcode[4]} {barcode[5:19]}"


def _tlv(tag: str, value: str) -> str:
    return f"{tag}{len(value):02d}{value}"


def _brcode(key: str, name: str, city: str, cents: int | None, txid: str) -> str:
    """A static PIX BR Code (EMV tag-length-values closed by a CRC16-CCITT)."""
    body = _tlv("00", "01") + _tlv("26", _tlv("00", "BR.GOV.BCB.PIX") + _tlv("01", key)) + _tlv("52", "0000")
    body += _tlv("53", "986") + (_tlv("54", f"{cents / 100:.2f}") if cents else "") + _tlv("58", "BR")
    body += _tlv("59", name[:25]) + _tlv("60", city[:15]) + _tlv("62", _tlv("05", txid)) + "6304"
    crc = 0xFFFF
    for byte in body.encode():
        crc ^= byte << 8
        for _ in range(8):
            crc = (crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return body + f"{crc:04X}"


def _slip(rng: random.Random, value: str) -> str:
    """One digit mistyped (the check digits then disagree)."""
    spots = [i for i, c in enumerate(value) if c.isdigit()]
    i = rng.choice(spots)
    return value[:i] + str((int(value[i]) + rng.randrange(1, 10)) % 10) + value[i + 1 :]


def documentos_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    customers = []
    for _ in range(30):
        company = rng.random() < 0.3
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}" + (" LTDA" if company else "")
        customers.append({"name": name, "doc": _cnpj(rng) if company else _cpf(rng), "company": company,
                          "phone": _phone(rng), "card": _card(rng), "pis": _pis(rng), "renavam": _renavam(rng),
                          "uf": rng.choice(UFS)})  # fmt: skip
    charges = []
    for i in range(25):
        due = dt.date(2026, 1, 2) + dt.timedelta(days=rng.randrange(0, 360))
        cents = rng.randrange(990, 250000)
        key = rng.choice(
            ("loja@exemplo.com.br", "+5511987654321", "12345678000195", "pedidos@exemplo.com.br")
        )
        pix = _brcode(
            key, "LOJA EXEMPLO", rng.choice(CITIES), cents if rng.random() < 0.8 else None, f"PED{i:05d}"
        )
        charges.append({"due": due.isoformat(), "cents": cents, "boleto": _boleto(rng, due, cents), "pix": pix,
                        "key": key, "txid": f"PED{i:05d}"})  # fmt: skip
    env = ["BRASIL_MCP_TELEMETRY=0", f"XDG_DATA_HOME={work / 'data'}", f"XDG_CACHE_HOME={work / 'cache'}"]
    return Fixture(["env", *env, *binary], {"customers": customers, "charges": charges})


def documentos_call(rng: random.Random, fx: Fixture) -> Call:
    who, charge = rng.choice(fx.facts["customers"]), rng.choice(fx.facts["charges"])
    typo = rng.random() < 0.12
    r = rng.random()
    if r < 0.36:
        tool, field = rng.choice((("validate_cnpj" if who["company"] else "validate_cpf", "doc"),) * 3
                                 + (("validate_telefone", "phone"), ("validate_credit_card", "card"),
                                    ("validate_pis", "pis"), ("validate_renavam", "renavam")))  # fmt: skip
        return tool, {"value": _slip(rng, who[field]) if typo else who[field]}
    if r < 0.5:
        return "parse_boleto", {"value": _slip(rng, charge["boleto"]) if typo else charge["boleto"]}
    if r < 0.6:
        return "parse_pix_brcode", {"value": charge["pix"]}
    if r < 0.68:
        args: dict[str, object] = {
            "chave": charge["key"],
            "nome_beneficiario": who["name"],
            "cidade": rng.choice(CITIES),
        }
        if rng.random() < 0.8:
            args["valor"] = charge["cents"]
        if rng.random() < 0.6:
            args["txid"] = charge["txid"]
        if rng.random() < 0.3:
            args["descricao"] = f"Pedido {charge['txid'][3:]}"
        return "generate_pix_brcode", args
    due = dt.date.fromisoformat(charge["due"])
    uf = {"uf": who["uf"]} if rng.random() < 0.6 else {}
    if r < 0.76:
        return "is_feriado_nacional", {"date": due.isoformat(), **uf}
    if r < 0.84:
        today = {"include_today": rng.random() < 0.5} if rng.random() < 0.4 else {}
        return "proximo_dia_util", {"date": due.isoformat(), **uf, **today}
    if r < 0.92:
        end = due + dt.timedelta(days=rng.randrange(1, 75))
        inclusive = {"inclusive_end": rng.random() < 0.5} if rng.random() < 0.4 else {}
        return "contar_dias_uteis", {
            "start_date": due.isoformat(),
            "end_date": end.isoformat(),
            **uf,
            **inclusive,
        }
    if r < 0.97:
        return "listar_feriados", {"year": rng.choice((2025, 2026, 2026, 2027)), **uf}
    message = {"mensagem": f"Seu pedido {charge['txid']} vence em {due:%d/%m}."} if rng.random() < 0.7 else {}
    return "generate_whatsapp_qr", {"telefone": who["phone"], **message}
