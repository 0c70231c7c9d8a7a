"""String shapes (Auto-Validate-style patterns kept only where held-out values match) and placeholders."""

from __future__ import annotations

import random
import re
import uuid
from collections.abc import Callable

import pytest
from outcome_monitor.checking.shapes import _infer as shared_runs  # the guard is what rejects, not alignment
from outcome_monitor.checking.shapes import (
    compile_shape,
    infer_shape,
    no_placeholder_params,
    placeholder_kind,
    shape_expected,
    shape_sentence,
    token_fits,
    token_params,
)
from outcome_monitor.checking.values import MISSING

Gen = Callable[[random.Random], str]
_UP = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_FIRST = ["mia", "noah", "liam", "olivia", "emma", "ava", "yusuf", "raj", "sofia", "ivan", "chen", "amara"]
_LAST = ["garcia", "smith", "kim", "patel", "nguyen", "lopez", "li", "okafor", "rossi", "muller"]


def _date(rng: random.Random) -> str:
    return f"{rng.randrange(2019, 2031)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"


# realistic generated columns: each must get a shape from 60 values and pass 500 further values
GENERATORS: dict[str, Gen] = {
    "order id W0100123": lambda r: f"W{r.randrange(10**7):07d}",
    "order id #W2378156": lambda r: f"#W{r.randrange(10**7):07d}",
    "uuid4": lambda r: str(uuid.UUID(int=r.getrandbits(128), version=4)),
    "commit sha": lambda r: f"{r.getrandbits(160):040x}",
    "short sha": lambda r: f"{r.getrandbits(28):07x}",
    "iso date": _date,
    "iso datetime": lambda r: (
        f"{_date(r)}T{r.randrange(24):02d}:{r.randrange(60):02d}:{r.randrange(60):02d}Z"
    ),
    "e-mail": lambda r: f"{r.choice(_FIRST)}.{r.choice(_LAST)}{r.randrange(1, 10000)}@example.com",
    "amount $1,234.50": lambda r: f"${10 ** r.uniform(0, 4.5):,.2f}",
    "amount 12.50 USD": lambda r: f"{r.uniform(1, 900):.2f} USD",
    "code HAT123": lambda r: "".join(r.choice(_UP) for _ in range(3)) + f"{r.randrange(1000):03d}",
    "airport SFO": lambda r: "".join(r.choice(_UP) for _ in range(3)),
    "phone": lambda r: f"+1-{r.randrange(200, 1000)}-{r.randrange(200, 1000)}-{r.randrange(10000):04d}",
    "counter id ORD-n": lambda r: f"ORD-{r.randrange(1, 10**6)}",
}


def _column(gen: Gen, seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return [gen(rng) for _ in range(n)]


def _fires(params: dict[str, object], values: list[str]) -> list[str]:
    check = compile_shape("f", params)
    return [v for v in values if check({"f": v}, {}) is not None]


# ---------------------------------------------------------------------------- shapes


@pytest.mark.parametrize(
    ("name", "example"),
    [
        ("order id W0100123", "W<7 digits>"),
        ("order id #W2378156", "#W<7 digits>"),
        ("uuid4", "<8 hex digits>-<4 hex digits>-<4 hex digits>-<4 hex digits>-<12 hex digits>"),
        ("commit sha", "<40 hex digits>"),
        ("iso date", "<4 digits>-<2 digits>-<2 digits>"),
        ("iso datetime", "<4 digits>-<2 digits>-<2 digits>T<2 digits>:<2 digits>:<2 digits>Z"),
        ("e-mail", "<lower-case letters>.<lower-case letters><digits>@example.com"),
        ("amount $1,234.50", "$<number>.<2 digits>"),
        ("amount 12.50 USD", "<digits>.<2 digits> USD"),
        ("code HAT123", "<3 capital letters><3 digits>"),
        ("airport SFO", "<3 capital letters>"),
        ("phone", "+<digit>-<3 digits>-<3 digits>-<4 digits>"),
    ],
)
def test_useful_shapes(name: str, example: str) -> None:
    shape = infer_shape(_column(GENERATORS[name], 0, 60))
    assert shape is not None and shape["form"] == "shape"
    assert shape["example"] == example


def test_fixed_parts_are_kept_literally() -> None:
    shape = infer_shape([f"HAT{n:03d}" for n in range(100, 160, 3)])
    assert shape is not None and shape["example"] == "HAT<3 digits>"
    emails = [f"{f}.{last}@example.com" for f in _FIRST[:4] for last in _LAST[:4]]
    shape = infer_shape(emails)
    assert shape is not None and shape["example"] == "<lower-case letters>.<lower-case letters>@example.com"
    commits = [f"Commit {random.Random(i).getrandbits(160):040x}" for i in range(12)]
    shape = infer_shape(commits)
    assert shape is not None and shape["example"] == "Commit <40 hex digits>"


def test_a_constant_number_is_not_taken_literally() -> None:
    # every clean date in 2024: next year's dates are clean too (digits move with time)
    dates = [f"2024-{m:02d}-{d:02d}" for m in (3, 4, 5) for d in (2, 9, 17, 25)]
    shape = infer_shape(dates)
    assert shape is not None and re.fullmatch(shape["pattern"], "2025-01-30")


@pytest.mark.parametrize(
    "values",
    [
        # free text with varying token sequences
        [
            "The order shipped today.",
            "Refund issued",
            "Customer asked about a late delivery, escalated",
            "ok",
            "Item out of stock; offered a substitute",
            "Called back, no answer",
            "Address updated to the new apartment",
            "Exchanged for a larger size",
            "Gift card applied",
            "Cancelled at the customer's request",
            "Waiting on the warehouse",
        ],
        # names with varying word counts
        ["Mia Garcia", "Noah Kim", "Ava Lopez", "Liam Smith", "Emma Patel", "Raj Nguyen"]
        + ["Olivia de la Cruz", "Yusuf Kim", "Sofia Smith", "Ivan Lopez", "Ana Maria Lopez"],
        # names, all of two words: mere words, no shape
        ["Mia Garcia", "Noah Kim", "Ava Lopez", "Liam Smith", "Emma Patel", "Raj Nguyen"]
        + ["Olivia Cruz", "Yusuf Kim", "Sofia Smith", "Ivan Lopez", "Ana Lopez"],
        # one word each (a status): the domain rule's business
        ["pending", "delivered", "cancelled", "processed", "returned", "exchanged"]
        + ["shipped", "lost", "held", "refunded"],
        # mixed formats
        [f"2024-05-{d:02d}" for d in range(1, 7)] + [f"05/{d:02d}/2024" for d in range(1, 7)],
        [f"W{n:07d}" for n in range(100, 106)] + [f"#W{n:07d}" for n in range(100, 106)],
        ["12", "7", "3.5", "-2", "100", "41", "0.25", "9", "18", "1e3"],
    ],
)
def test_no_shape_for_text_names_and_mixed_formats(values: list[str]) -> None:
    assert infer_shape(values) is None


def test_too_few_distinct_values() -> None:
    ids = [f"W{n:07d}" for n in range(9)]
    assert infer_shape(ids * 5) is None
    assert infer_shape(ids + ["W0000042"]) is not None
    assert infer_shape(ids, min_distinct=5) is not None


def test_held_out_guard() -> None:
    # sorted, the values alternate: "100000", "1000001", "200000", "20000011", ... The even half is
    # all six digits long, the odd half varies; one half's pattern ([0-9]{6}) fails the other.
    accidental = [f"{i}00000" for i in range(1, 7)] + [f"{i}00000" + "1" * i for i in range(1, 7)]
    assert sorted(accidental)[0::2] == [f"{i}00000" for i in range(1, 7)]
    assert shared_runs(sorted(accidental)) is not None and infer_shape(accidental) is None
    # both halves varying in length: a shape of digits of any length
    varying = [f"{i}0000" + "1" * (i % 3) for i in range(1, 13)]
    shape = infer_shape(varying)
    assert shape is not None and shape["pattern"] == "[0-9]+"
    # a capital letter in half the ids (in alternate sorted order: the other half never had one)
    letters = [f"{i:02d}A" if i % 2 == 0 else f"{i:02d}7" for i in range(10, 22)]
    assert shared_runs(sorted(letters)) is not None and infer_shape(letters) is None


def test_deterministic() -> None:
    for name, gen in GENERATORS.items():
        values = _column(gen, 3, 60)
        shuffled = list(values)
        random.Random(9).shuffle(shuffled)
        first = infer_shape(values)
        assert first == infer_shape(shuffled) == infer_shape(values), name


@pytest.mark.parametrize("bad", ["W01X0123", "", "N/A", "W010012", "W01001234", "w0100123", " W0100123"])
def test_mutated_ids_fire(bad: str) -> None:
    shape = infer_shape(_column(GENERATORS["order id W0100123"], 1, 60))
    assert shape is not None
    check = compile_shape("order_id", shape)
    assert check({"order_id": bad}, {}) == (bad,)
    assert check({"order_id": "W0100123"}, {}) is None


def test_only_strings_are_judged() -> None:
    for params in (infer_shape(_column(GENERATORS["iso date"], 2, 60)), {"form": "no_placeholder"}):
        assert params is not None
        check = compile_shape("d", params)
        for v in (None, 20240513, 1.5, True, ["N/A"], {"a": "N/A"}):
            assert check({"d": v}, {}) is None
        assert check({}, {}) is None and check({"d": MISSING}, {}) is None
        assert check({"d": "N/A"}, {}) == ("N/A",)
    with pytest.raises(ValueError):
        compile_shape("d", {"form": "nope"})


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_no_false_alarm_on_further_clean_values(name: str) -> None:
    # infer on 60 values, check 500 further values of the same generator, over several seeds
    for seed in range(5):
        values = _column(GENERATORS[name], seed, 560)
        shape = infer_shape(values[:60])
        assert shape is not None, (name, seed)
        assert _fires(shape, values[60:]) == [], (name, seed, shape)


# ---------------------------------------------------------------------------- placeholders


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("N/A", "null"),
        ("n/a", "null"),
        ("NA", "null"),
        (" none ", "null"),
        ("None", "null"),
        ("NULL", "null"),
        ("nil", "null"),
        ("undefined", "null"),
        ("NaN", "null"),
        ("#N/A", "null"),
        ("-", "null"),
        ("--", "null"),
        ("?", "null"),
        ("TBD", "todo"),
        ("TODO", "todo"),
        ("todo: fill in", "todo"),
        ("FIXME", "todo"),
        ("XXX", "todo"),
        ("placeholder", "template"),
        ("<customer name>", "template"),
        ("{{name}}", "template"),
        ("Dear ${first_name}", "template"),
        ("{name}", "template"),
        ("[object Object]", "template"),
        ("Lorem ipsum dolor sit amet", "lorem"),
        ("lorem", "lorem"),
        ("cafÃ©", "mojibake"),
        ("donâ€™t", "mojibake"),
        ("bad \ufffd byte", "mojibake"),
        ("Great product, would buy...", "truncated"),
        ("Great product, would buy\u2026", "truncated"),
        ("", "empty"),
        ("   ", "empty"),
    ],
)
def test_placeholders(value: str, kind: str) -> None:
    assert placeholder_kind(value) == kind


@pytest.mark.parametrize(
    "value",
    [
        "delivered",
        "Mia Garcia",
        "Nan",  # a name
        "Nil",
        "Na",
        "Unknown",
        "none of the above",
        "Todos",
        "W0100123",
        "#W2378156",
        "0",
        "-5",
        "3.14",
        "$1,234.50",
        "2024-05-13",
        "2024-05-13T10:00:00Z",
        "XXXX-XXXX-XXXX-1234",  # a masked card number
        "café",
        "naïve",
        "São Paulo",
        "SÃO PAULO",
        "Zürich \u2013 Genève",
        "北京",
        "a - b",
        "Notes: fine.",
        "\u2026and more",
        "Loremaster",
    ],
)
def test_not_placeholders(value: str) -> None:
    assert placeholder_kind(value) is None


def test_no_placeholder_params() -> None:
    names = ["Mia Garcia", "Noah Kim", "Ava Lopez", "Liam Smith", "Emma Patel", "Raj Nguyen", "Yusuf Kim"]
    assert no_placeholder_params(names) == {"form": "no_placeholder"}
    assert no_placeholder_params(names[:6] * 3) is None  # six distinct values
    assert no_placeholder_params(names + ["N/A"]) is None  # a clean value was a placeholder
    check = compile_shape("name", {"form": "no_placeholder"})
    assert check({"name": "Mia Garcia"}, {}) is None
    for bad in ("N/A", "null", "TODO", "Lorem ipsum", "MÃ¼ller", "Mia Gar...", ""):
        assert check({"name": bad}, {}) == (bad,)


def test_receipt_words() -> None:
    shape = infer_shape(_column(GENERATORS["order id W0100123"], 0, 60))
    assert shape is not None
    assert (
        shape_sentence("order_id", shape) == "order_id must look like W<7 digits> (as every clean value did)"
    )
    assert shape_expected(shape) == "shaped like W<7 digits>"
    params = {"form": "no_placeholder"}
    assert shape_sentence("name", params) == "name must not be a placeholder (no clean value was)"
    assert shape_expected(params) == "not a placeholder"


def test_tokens_are_learned_only_from_machine_made_values() -> None:
    ids = [f"UID-{k:04x}a{k}" for k in range(8)]
    assert token_params(ids) == {"form": "token", "digit": True}
    assert token_params(["final", "pending", "void"]) == {"form": "token"}
    assert token_params(["final", "pending"]) is None  # too few distinct values
    # capitalized words may be places or names whose next value has a space ("New York")
    assert token_params(["SFO", "LAX", "JFK"]) is None
    assert token_params(["Paris", "Rome", "Oslo"]) is None
    assert token_params(["in progress", "done", "open"]) is None  # a space: not a token
    lower = token_params([f"user_{c}{k}" for c in "abcdefghij" for k in range(2)])
    assert lower is not None and lower["case"] == "lower"


@pytest.mark.parametrize(
    "bad",
    ["UID-71\u0441c56eff0", "U\ufffdD-9096a5eda4", "NULL", "Headphones", "Grand Plaza", ""],
)
def test_a_homoglyph_a_word_or_a_placeholder_is_not_an_id_token(bad: str) -> None:
    params = token_params([f"UID-{k:04x}a{k}" for k in range(8)])
    assert params is not None
    assert not token_fits(params, bad)
    check = compile_shape("uid", params)
    assert check({"uid": bad}, {}) == (bad,)
    assert check({"uid": "UID-9fe1a77"}, {}) is None
    assert check({"uid": 7}, {}) is None  # only strings are judged
    assert "token" in shape_expected(params) and "token" in shape_sentence("uid", params)


def test_a_placeholder_the_call_sent_is_given_back_without_a_receipt() -> None:
    from outcome_monitor import learn

    rows = [
        {
            "tool": "extract",
            "arguments": {"pointer": f"/lines/{i}"},
            "result": {"pointer": f"/lines/{i}", "n": i},
        }
        for i in range(20)
    ]
    reg = learn(rows)
    assert any(r.params.get("form") == "no_placeholder" for r in reg.rules_for("extract"))
    # the root's pointer, "", echoed: the caller's value, not a fault; the same value unasked fires
    assert not reg.check("extract", {"pointer": ""}, {"pointer": "", "n": 0})
    assert reg.check("extract", {"pointer": "/lines/3"}, {"pointer": "", "n": 3})
