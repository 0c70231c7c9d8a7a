"""SQL rows printed as Python ``repr`` (``datetime.date(...)``, ``Decimal('...')``) read without eval,
and tuple rows named by the columns their query selects (the wide vocabulary's views)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from outcome_monitor import Monitor, learn
from outcome_monitor.text.pyrepr import FAIL, read_repr
from outcome_monitor.text.sqlnames import select_names
from outcome_monitor.text.views import apply_view, infer_root_view, misreads


def test_repr_calls_read_to_their_values():
    text = "[(1, 'a', datetime.date(2025, 3, 1), Decimal('12.50'), Decimal('3'), None, -2)]"
    assert read_repr(text) == [[1, "a", "2025-03-01", 12.5, 3, None, -2]]
    stamp = "[(datetime.datetime(2024, 3, 27, 10, 5, tzinfo=datetime.timezone.utc),)]"
    assert read_repr(stamp) == [["2024-03-27T10:05:00+00:00"]]
    assert read_repr("{'id': UUID('12345678-1234-5678-1234-567812345678')}") == {
        "id": "12345678-1234-5678-1234-567812345678"
    }
    assert read_repr("[datetime.timedelta(days=1, seconds=5), datetime.time(9, 30)]") == [86405, "09:30:00"]


@pytest.mark.parametrize(
    "text",
    [
        "[os.system('true')]",
        "[__import__('os')]",
        "[1 + 2]",
        "[datetime.date(2025, 13, 1)]",  # no such day
        "[Decimal('NaN')]",
        "[x]",
        "[decimal.date(2025, 1, 1)]",  # a constructor under another module
        "[b'bytes']",
        "not a container",
        "[(1, 2]",
    ],
)
def test_anything_else_is_unreadable(text):
    assert read_repr(text) is FAIL


def test_select_list_names():
    assert select_names("SELECT id, customer AS who, o.qty FROM orders o") == ["id", "who", "qty"]
    assert select_names("select category, ROUND(AVG(price), 2) AS avg_price, count(*) n from t") == [
        "category",
        "avg_price",
        "n",
    ]
    assert select_names('SELECT EXTRACT(YEAR FROM d) AS y, "a, b" FROM t') == ["y", "a, b"]
    assert select_names("SELECT * FROM products") is None
    assert select_names("SELECT a, a FROM t") is None  # two columns of one name
    assert select_names("UPDATE t SET a = 1") is None
    assert select_names("SELECT DISTINCT ON (a) a, b FROM t") == ["a", "b"]
    assert select_names("select top 5 x, y from t") == ["x", "y"]


_CUSTOMERS = ["Dmitri Sato", "Carla Novak", "Farid Quispe", "Hugo Okoye", "Ines Rossi", "Liam Varga"]
_STATUS = ["pending", "shipped", "delivered", "returned", "cancelled"]


def _order_row(rng: random.Random, who: str, order_id: int) -> str:
    return (
        f"({order_id}, {who!r}, {rng.randint(1, 9)}, "
        f"datetime.date(2024, {rng.randint(1, 12)}, {rng.randint(1, 28)}), {rng.choice(_STATUS)!r})"
    )


def _orders_call(rng: random.Random) -> dict[str, Any]:
    who = rng.choice(_CUSTOMERS)
    rows = ", ".join(_order_row(rng, who, i) for i in rng.sample(range(1000, 1300), rng.randint(1, 4)))
    q = f"SELECT id, customer, qty, placed_on, status FROM orders WHERE customer = '{who}' ORDER BY id"
    return {"tool": "query", "arguments": {"query": q}, "result": f"[{rows}]"}


def _products_call(rng: random.Random) -> dict[str, Any]:
    # no date among these columns: the recording already read them as a literal (a list, not text)
    n = rng.randint(1, 4)
    ids, names = rng.sample(range(1, 120), n), rng.sample(range(1, 99), n)
    rows = [[i, f"Item {k}", round(rng.uniform(5, 400), 2)] for i, k in zip(ids, names, strict=True)]
    q = f"SELECT id, name, price FROM products ORDER BY price DESC LIMIT {n + rng.randint(0, 3)}"
    return {"tool": "query", "arguments": {"query": q}, "result": rows}


def _recording(seed: int, n: int = 120) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [(_orders_call if rng.random() < 0.6 else _products_call)(rng) for _ in range(n)]


def test_mixed_text_and_lists_read_as_named_rows():
    rows = _recording(0)
    view = infer_root_view([r["result"] for r in rows], [r["arguments"] for r in rows])
    assert view is not None and view["columns"] == "query"
    orders = next(r for r in rows if type(r["result"]) is str)
    read = apply_view(view, orders["result"], orders["arguments"])
    first = read["items"][0]
    assert set(first) == {"id", "customer", "qty", "placed_on", "status"}
    assert type(first["placed_on"]) is str and first["placed_on"].startswith("2024-")
    products = next(r for r in rows if type(r["result"]) is list)
    assert set(apply_view(view, products["result"], products["arguments"])["items"][0]) == {
        "id",
        "name",
        "price",
    }
    # lists the recording read itself are not misread text
    assert misreads(view, products["result"]) == []


def test_paper_vocabulary_reads_no_rows():
    reg = learn(_recording(0), vocabulary="paper")
    assert not reg.meta.get("views")


def _fires(reg: Any, call: dict[str, Any]) -> bool:
    return Monitor(reg).annotate(call["tool"], call["arguments"], call["result"]).fired


def test_faults_inside_repr_rows_fire_and_clean_rows_pass():
    reg = learn(_recording(0))
    held_out = _recording(1, 60)
    assert not any(_fires(reg, c) for c in held_out)
    call = next(c for c in held_out if type(c["result"]) is str)
    text = call["result"]
    date = re.search(r"datetime\.date\(\d+, \d+, \d+\)", text)
    assert date is not None
    faulted = {
        # a column dropped from a row: the row is no longer as wide as the query names
        "drop": text.replace(f", {date.group()}", "", 1),
        # a date become a placeholder, or None; an id negative; a count a string
        "placeholder": text.replace(date.group(), "'N/A'", 1),
        "wrong_type": text.replace(date.group(), "None", 1),
        "negative": text.replace(f"({text[2:6]}, ", f"(-{text[2:6]}, ", 1),
        "string_count": re.sub(r"^(\[\(\d+, '[^']+', )(\d)", r"\1'\2'", text),
        "error": "Database error: database is locked",
    }
    for kind, result in faulted.items():
        assert result != text, kind
        assert read_repr(result) is not FAIL or kind == "error", kind
        assert _fires(reg, {**call, "result": result}), kind


def test_rows_wider_than_the_query_names_stay_unnamed():
    rows = _recording(0)
    view = infer_root_view([r["result"] for r in rows], [r["arguments"] for r in rows])
    assert view is not None
    call = next(r for r in rows if type(r["result"]) is list and r["result"])
    wider = [[*call["result"][0], "extra"]]
    assert type(apply_view(view, wider, call["arguments"])["items"][0]) is list
    # a query that names no column (SELECT *) names its rows by position
    star = apply_view(view, [[1, "a", 2.5]], {"query": "SELECT * FROM products"})
    assert star["items"][0] == {"pos0": 1, "pos1": "a", "pos2": 2.5}


def _dict_call(rng: random.Random) -> dict[str, Any]:
    cols = rng.choice([["id", "name"], ["id", "name", "price"], ["name", "qty"]])
    n = rng.randint(1, 4)
    ids = rng.sample(range(1, 500), n)
    rows = [
        {c: (i if c == "id" else f"Item {i}" if c == "name" else rng.randint(1, 90)) for c in cols}
        for i in ids
    ]
    return {
        "tool": "read_query",
        "arguments": {"query": f"SELECT {', '.join(cols)} FROM t LIMIT {n}"},
        "result": rows,
    }


def test_object_rows_without_a_column_their_query_selects_fire():
    rng = random.Random(5)
    reg = learn([_dict_call(rng) for _ in range(90)])
    assert reg.meta["views"]["read_query"]["columns"] == "query"
    other = random.Random(6)
    held = [_dict_call(other) for _ in range(40)]
    assert not any(_fires(reg, c) for c in held)
    call = next(c for c in held if len(c["result"][0]) == 3)
    dropped = [dict(list(call["result"][0].items())[:2]), *call["result"][1:]]
    assert _fires(reg, {**call, "result": dropped})


def test_select_star_rows_keep_the_columns_their_table_always_gave():
    from outcome_monitor.text.sqlnames import star_table

    assert star_table("SELECT * FROM products WHERE id = 3") == "products"
    assert star_table("SELECT id FROM products") is None
    rng = random.Random(8)

    def star_call(i: int) -> dict[str, Any]:
        row = {"id": i, "name": f"Item {i}", "stock": rng.randint(1, 99)}
        return {
            "tool": "read_query",
            "arguments": {"query": f"SELECT * FROM products WHERE id = {i}"},
            "result": [row],
        }

    calls = [_dict_call(rng) for _ in range(60)] + [star_call(i) for i in range(1, 30)]
    reg = learn(calls)
    assert reg.meta["views"]["read_query"]["star"] == {"products": ["id", "name", "stock"]}
    held = star_call(77)
    assert not _fires(reg, held)
    dropped = [{k: v for k, v in held["result"][0].items() if k != "stock"}]
    assert _fires(reg, {**held, "result": dropped})
    jsonschema = pytest.importorskip("jsonschema")
    from outcome_monitor.registry_format import schema

    jsonschema.Draft202012Validator(schema()).validate(reg.to_json())
