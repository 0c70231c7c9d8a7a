"""sqlfluff-mcp-server (PyPI, the SDK 2.x's MCPServer, SQLFluff 4): an analytics team's SQL models linted, fixed
and parsed before review, from their project folders (each with its own ``.sqlfluff``) or pasted with a dialect.

Its results are structured content (an ``outputSchema`` of an object of any keys) beside the same object as
indented JSON: a lint's path or dialect, violation count and violations (a rule code such as ``LT01`` or ``CP01``,
its dotted name, a description, 1-based start line and position, a warning flag, and the fixes it proposes: a type,
the edit's text, start and end lines, positions and file offsets); a fix's fixed SQL with changed and written flags
and the violations left; a parse tree as one string of fixed-width lines (``[L:  1, P:  1]      |    keyword:
'SELECT'``) with the parsing violations; the dialects as a list of objects, one block per item; a cache cleared.
The fixture is three project folders of seeded models (a Postgres warehouse, a BigQuery lake and a MySQL legacy
reporting store; thirty-six queries over a shop's orders, customers, products, payments and shipments, with CTEs,
joins, aggregates, CASE and window functions, written in the styles of several hands: keyword case, comma and
alias habits, indents, trailing spaces, <> against !=, COUNT(1), ordinal GROUP BY) and a shared extra config; the
workload lints, fixes (never writing) and parses them, by path or pasted in several dialects, now and then with a
few rules only.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

PROJECTS = {
    "warehouse": ("postgres", "[sqlfluff]\ndialect = postgres\ntemplater = raw\nmax_line_length = 100\n\n"
                  "[sqlfluff:rules:capitalisation.keywords]\ncapitalisation_policy = upper\n"),
    "lake": ("bigquery", "[sqlfluff]\ndialect = bigquery\ntemplater = raw\nexclude_rules = LT05\n\n"
             "[sqlfluff:indentation]\ntab_space_size = 2\n"),
    "legacy": ("mysql", "[sqlfluff]\ndialect = mysql\ntemplater = raw\nrules = core\n"),
}  # fmt: skip
STRICT = "[sqlfluff]\nmax_line_length = 80\n\n[sqlfluff:rules:aliasing.table]\naliasing = explicit\n"
DIALECTS = ("ansi", "postgres", "postgres", "bigquery", "snowflake", "mysql", "sqlite", "duckdb", "redshift")
RULES = (["LT01"], ["LT02", "LT04"], ["CP01"], ["CP01", "CP02"], ["AL01"], ["CV01", "CV04"], ["ST06"], ["AM06"],
         ["layout"], ["capitalisation"], ["aliasing"], ["convention"], ["core"], ["LT09", "LT12"], ["RF02"])  # fmt: skip
TABLES = {
    "orders": ("order_id", "customer_id", "placed_at", "status", "total_cents", "channel"),
    "customers": ("customer_id", "email", "country", "signed_up_at", "segment"),
    "order_items": ("order_id", "product_id", "quantity", "unit_price_cents"),
    "products": ("product_id", "sku", "category", "list_price_cents"),
    "payments": ("payment_id", "order_id", "method", "amount_cents", "paid_at"),
    "shipments": ("shipment_id", "order_id", "carrier", "shipped_at", "delivered_at"),
}
STATUSES = ("shipped", "delivered", "cancelled", "returned", "pending")


def _style(rng: random.Random) -> dict:
    return {"case": rng.choice(("upper", "upper", "lower", "mixed")), "lead": rng.random() < 0.25,
            "indent": rng.choice(("    ", "    ", "  ", "\t")), "as": rng.random() < 0.7, "ne": rng.choice(("<>", "!=")),
            "count": rng.choice(("COUNT(*)", "COUNT(*)", "COUNT(1)")), "trail": rng.random() < 0.2,
            "ordinal": rng.random() < 0.3, "newline": rng.random() < 0.8}  # fmt: skip


def _kw(st: dict, text: str) -> str:
    if st["case"] == "lower":
        return text.lower()
    if st["case"] == "mixed":
        return " ".join(w.lower() if i % 2 else w for i, w in enumerate(text.split(" ")))
    return text


def _cols(st: dict, cols: list[str]) -> str:
    ind = st["indent"]
    if st["lead"]:
        return "\n".join(f"{ind}{', ' if i else ''}{c}" for i, c in enumerate(cols))
    return ",\n".join(f"{ind}{c}" for c in cols)


def _alias(st: dict, table: str, alias: str) -> str:
    return f"{table} {_kw(st, 'AS') + ' ' if st['as'] else ''}{alias}"


def _query(rng: random.Random, st: dict) -> str:
    k = _kw
    shape = rng.randrange(5)
    status = rng.choice(STATUSES)
    if shape == 0:  # revenue by a customer attribute
        dim = rng.choice(("country", "segment"))
        cols = [
            f"c.{dim}",
            f"{st['count']} {k(st, 'AS')} orders",
            f"SUM(o.total_cents) {k(st, 'AS')} revenue_cents",
        ]
        group = "1" if st["ordinal"] else f"c.{dim}"
        body = (f"{k(st, 'SELECT')}\n{_cols(st, cols)}\n{k(st, 'FROM')} {_alias(st, 'orders', 'o')}\n"
                f"{k(st, 'INNER JOIN')} {_alias(st, 'customers', 'c')} {k(st, 'ON')} o.customer_id = c.customer_id\n"
                f"{k(st, 'WHERE')} o.status {st['ne']} '{status}'\n{k(st, 'GROUP BY')} {group}\n"
                f"{k(st, 'ORDER BY')} revenue_cents {k(st, 'DESC')}")  # fmt: skip
    elif shape == 1:  # a CTE of order totals, then the top customers
        n = rng.randrange(5, 50)
        body = (f"{k(st, 'WITH')} totals {k(st, 'AS')} (\n{st['indent']}{k(st, 'SELECT')} customer_id, "
                f"SUM(total_cents) {k(st, 'AS')} spent\n{st['indent']}{k(st, 'FROM')} orders\n"
                f"{st['indent']}{k(st, 'GROUP BY')} customer_id\n)\n\n{k(st, 'SELECT')}\n"
                f"{_cols(st, ['c.email', 't.spent'])}\n{k(st, 'FROM')} {_alias(st, 'totals', 't')}\n"
                f"{k(st, 'LEFT JOIN')} {_alias(st, 'customers', 'c')} {k(st, 'ON')} t.customer_id = c.customer_id\n"
                f"{k(st, 'ORDER BY')} t.spent {k(st, 'DESC')}\n{k(st, 'LIMIT')} {n}")  # fmt: skip
    elif shape == 2:  # a CASE bucket of order sizes
        cut = rng.choice((1000, 2500, 5000, 10000))
        case = (f"{k(st, 'CASE')} {k(st, 'WHEN')} total_cents < {cut} {k(st, 'THEN')} 'small' {k(st, 'WHEN')} "
                f"total_cents < {cut * 4} {k(st, 'THEN')} 'medium' {k(st, 'ELSE')} 'large' {k(st, 'END')}")  # fmt: skip
        cols = [f"{case} {k(st, 'AS')} size_band", f"{st['count']} {k(st, 'AS')} n"]
        group = "1" if st["ordinal"] else "size_band"
        body = (f"{k(st, 'SELECT')}\n{_cols(st, cols)}\n{k(st, 'FROM')} orders\n"
                f"{k(st, 'WHERE')} channel = '{rng.choice(('web', 'app', 'store'))}'\n{k(st, 'GROUP BY')} {group}")  # fmt: skip
    elif shape == 3:  # a window: each customer's latest order
        body = (f"{k(st, 'SELECT')}\n{_cols(st, ['order_id', 'customer_id', 'placed_at'])}\n{k(st, 'FROM')} (\n"
                f"{st['indent']}{k(st, 'SELECT')}\n{st['indent']}{_cols(st, ['order_id', 'customer_id', 'placed_at', 'ROW_NUMBER() ' + k(st, 'OVER') + ' (' + k(st, 'PARTITION BY') + ' customer_id ' + k(st, 'ORDER BY') + ' placed_at ' + k(st, 'DESC') + ') ' + k(st, 'AS') + ' rn'])}\n"
                f"{st['indent']}{k(st, 'FROM')} orders\n) {k(st, 'AS') + ' ' if st['as'] else ''}ranked\n"
                f"{k(st, 'WHERE')} rn = 1")  # fmt: skip
    else:  # item lines joined to products, payments and shipments
        other, col = rng.choice((("payments", "method"), ("shipments", "carrier")))
        cols = ["p.category", f"x.{col}", f"SUM(i.quantity * i.unit_price_cents) {k(st, 'AS')} gross_cents",
                f"COALESCE(MAX(o.total_cents), 0) {k(st, 'AS')} top_order"]  # fmt: skip
        group = "1, 2" if st["ordinal"] else f"p.category, x.{col}"
        body = (f"{k(st, 'SELECT')}\n{_cols(st, cols)}\n{k(st, 'FROM')} {_alias(st, 'order_items', 'i')}\n"
                f"{k(st, 'JOIN')} {_alias(st, 'products', 'p')} {k(st, 'ON')} i.product_id = p.product_id\n"
                f"{k(st, 'JOIN')} {_alias(st, 'orders', 'o')} {k(st, 'ON')} i.order_id = o.order_id\n"
                f"{k(st, 'LEFT JOIN')} {_alias(st, other, 'x')} {k(st, 'ON')} o.order_id = x.order_id\n"
                f"{k(st, 'WHERE')} o.status {st['ne']} '{status}'\n{k(st, 'GROUP BY')} {group}\n"
                f"{k(st, 'HAVING')} SUM(i.quantity) > {rng.randrange(1, 20)}")  # fmt: skip
    lines = body.split("\n")
    if st["trail"]:
        i = rng.randrange(len(lines))
        lines[i] += " " * rng.randrange(1, 3)
    return "\n".join(lines) + (";\n" if st["newline"] else ";")


def warehouse_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    models = []
    for project, (dialect, config) in PROJECTS.items():
        folder = work / project / "models"
        folder.mkdir(parents=True)
        (work / project / ".sqlfluff").write_text(config)
        for i in range(12):
            sql = _query(rng, _style(rng))
            path = folder / f"{rng.choice(('fct', 'dim', 'rpt', 'stg'))}_{i + 1:02d}.sql"
            path.write_text(sql)
            models.append({"path": str(path), "dialect": dialect, "sql": sql})
    (work / "strict.cfg").write_text(STRICT)
    return Fixture([*binary], {"models": models, "strict": str(work / "strict.cfg")})


def warehouse_call(rng: random.Random, fx: Fixture) -> Call:
    model = rng.choice(fx.facts["models"])
    extra = {"config_path": fx.facts["strict"]} if rng.random() < 0.15 else {}
    r = rng.random()
    if r < 0.26:
        return "lint_file", {"path": model["path"], **extra}
    if r < 0.38:
        return "fix_file", {
            "path": model["path"],
            **({"write": False} if rng.random() < 0.4 else {}),
            **extra,
        }
    if r < 0.46:
        return "parse_file", {"path": model["path"], **extra}
    sql = model["sql"] if rng.random() < 0.6 else _query(rng, _style(rng))
    dialect = model["dialect"] if rng.random() < 0.5 else rng.choice(DIALECTS)
    rules = {"rules": rng.choice(RULES)} if rng.random() < 0.35 else {}
    if r < 0.7:
        return "lint_sql", {"sql": sql, "dialect": dialect, **rules}
    if r < 0.86:
        return "fix_sql", {"sql": sql, "dialect": dialect, **rules}
    if r < 0.97:
        return "parse_sql", {"sql": sql, "dialect": dialect}
    if r < 0.99:
        return "list_dialects", {}
    return "clear_config_cache", {}
