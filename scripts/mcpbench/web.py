"""mcp-server-fetch (PyPI) in front of a real HTTP server on 127.0.0.1 that serves a seeded shop's site.

Its results are bare text: ``Contents of URL:`` then an HTML page simplified to markdown (articles, product
pages with spec tables), or after one more header line a JSON or CSV body as it was served; a paged fetch
ends with the server's ``<error>Content truncated...</error>`` note. The site's HTTP server runs in this
process (a daemon thread, loopback only, for the whole run); the fetch server is started with
``--allow-private-ips`` (it refuses loopback addresses otherwise) and checks the site's ``robots.txt``,
which allows everything. Node is kept off the fetch server's ``PATH``: its HTML extractor (readabilipy)
would otherwise run ``npm install`` at the first page; without Node it takes its pure-Python path.
"""

from __future__ import annotations

import datetime as dt
import functools
import html
import json
import random
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import Fixture

AUTHORS = ("Ada Quinn", "Bo Lindqvist", "Chidi Okafor", "Dana Varga")
ADJ = ("Red", "Compact", "Deluxe", "Silent", "Smart", "Solar", "Travel", "Classic", "Pro", "Mini")
NOUN = ("Kettle", "Lamp", "Backpack", "Drill", "Speaker", "Blender", "Tent", "Monitor", "Chair", "Camera")
STATUS = ("in stock", "backorder", "discontinued")
TOPICS = ("How we test {}s", "Five {} myths", "Choosing a {}", "Repairing a {}", "The {} buyer's guide")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        pass


def serve(root: Path) -> str:
    """Serve ``root`` on a free loopback port for the rest of the process; the site's base URL."""
    handler = functools.partial(_Quiet, directory=str(root))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True, name="mcpbench-site").start()
    return f"http://127.0.0.1:{httpd.server_address[1]}"


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title></head>\n"
            f"<body><nav><a href=\"/\">Shop</a> | <a href=\"/articles/\">Articles</a></nav>\n<main>{body}</main>\n"
            "<footer>Example shop, fixture pages</footer></body></html>\n")  # fmt: skip


def _product(rng: random.Random, sku: str, name: str, day0: dt.date) -> dict[str, Any]:
    return {
        "sku": sku,
        "name": name,
        "price": round(rng.uniform(5, 600), 2),
        "stock": rng.randrange(0, 400),
        "status": rng.choice(STATUS),
        "rating": round(rng.uniform(2.5, 5), 1),
        "updated": (day0 + dt.timedelta(days=rng.randrange(330))).isoformat(),
    }


def _product_page(p: dict[str, Any]) -> str:
    rows = "".join(
        f"<tr><th>{k}</th><td>{html.escape(str(p[k]))}</td></tr>" for k in ("sku", "price", "stock", "status",
                                                                              "rating", "updated")
    )  # fmt: skip
    body = (f"<article><h1>{html.escape(p['name'])}</h1><p>The {html.escape(p['name'])} costs {p['price']:.2f} EUR; "
            f"{p['stock']} left in the warehouse as of {p['updated']}.</p><table>{rows}</table></article>")  # fmt: skip
    return _page(p["name"], body)


def _article(rng: random.Random, title: str, day: dt.date, products: list[dict[str, Any]]) -> str:
    paras = []
    for _ in range(rng.randrange(3, 6)):
        p = rng.choice(products)
        paras.append(f"<p>We tried the {html.escape(p['name'])} for {rng.randrange(2, 40)} days; it scored "
                     f"{rng.randrange(40, 100)} of 100 and costs {p['price']:.2f} EUR.</p>")  # fmt: skip
    points = "".join(
        f"<li>{rng.choice(NOUN)}: {rng.randrange(1, 60)} tested</li>" for _ in range(rng.randrange(2, 5))
    )
    body = (f"<article><h1>{html.escape(title)}</h1><p>Published {day.isoformat()} by {rng.choice(AUTHORS)}. "
            f"Updated {(day + dt.timedelta(days=rng.randrange(1, 60))).isoformat()}.</p>{''.join(paras)}"
            f"<h2>What we counted</h2><ul>{points}</ul></article>")  # fmt: skip
    return _page(title, body)


def fetch_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    site = work / "site"
    day0 = dt.date(2025, 1, 1)
    names = rng.sample([f"{a} {n}" for a in ADJ for n in NOUN], 60)
    products = [_product(rng, f"SKU-{rng.randrange(10_000, 99_999)}", n, day0) for n in names]
    pages: dict[str, str] = {"robots.txt": "User-agent: *\nAllow: /\n"}
    for p in products:
        pages[f"products/{p['sku']}.html"] = _product_page(p)
        pages[f"api/products/{p['sku']}.json"] = json.dumps(p) + "\n"
    slugs = []
    for i in range(30):
        title = rng.choice(TOPICS).format(rng.choice(NOUN).lower())
        slug = f"{i + 1:02d}-{title.lower().replace(' ', '-').replace(chr(39), '')}"
        slugs.append(slug)
        pages[f"articles/{slug}.html"] = _article(
            rng, title, day0 + dt.timedelta(days=rng.randrange(330)), products
        )
    links = "".join(f'<li><a href="/articles/{s}.html">{s}</a></li>' for s in slugs)
    pages["articles/index.html"] = _page("Articles", f"<h1>Articles</h1><ul>{links}</ul>")
    items = "".join(f"<li><a href=\"/products/{p['sku']}.html\">{html.escape(p['name'])}</a> "
                    f"{p['price']:.2f} EUR</li>" for p in products)  # fmt: skip
    pages["index.html"] = _page("Shop", f"<h1>Shop</h1><ul>{items}</ul>")
    orders = [{"id": 7001 + i, "sku": rng.choice(products)["sku"], "qty": rng.randrange(1, 6),
               "placed": (day0 + dt.timedelta(days=rng.randrange(330))).isoformat(),
               "status": rng.choice(("pending", "shipped", "delivered"))} for i in range(rng.randrange(6, 12))]  # fmt: skip
    pages["api/orders.json"] = json.dumps({"orders": orders, "count": len(orders)}, indent=1) + "\n"
    sales = ["month,region,amount"] + [f"2025-{m:02d},{rng.choice(('north', 'south', 'east', 'west'))},"
                                       f"{rng.uniform(500, 9000):.2f}" for m in range(1, 13)]  # fmt: skip
    pages["data/sales.csv"] = "\n".join(sales) + "\n"
    for rel, text in pages.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text)
    base = serve(site)
    path_without_node = str(Path(binary[0]).parent)  # the venv's bin: its python, no node
    command = ["env", f"PATH={path_without_node}", *binary, "--allow-private-ips"]
    facts = {"base": base, "skus": [p["sku"] for p in products], "slugs": slugs}
    return Fixture(command, facts)


def fetch_call(rng: random.Random, fx: Fixture) -> Call:
    base, skus, slugs = fx.facts["base"], fx.facts["skus"], fx.facts["slugs"]
    r = rng.random()
    if r < 0.28:
        url = f"{base}/articles/{rng.choice(slugs)}.html"
    elif r < 0.56:
        url = f"{base}/products/{rng.choice(skus)}.html"
    elif r < 0.76:
        url = f"{base}/api/products/{rng.choice(skus)}.json"
    elif r < 0.82:
        url = f"{base}/api/orders.json"
    elif r < 0.86:
        url = f"{base}/data/sales.csv"
    elif r < 0.9:
        url = rng.choice((f"{base}/", f"{base}/articles/index.html"))
    else:  # a page read in parts
        url = f"{base}/articles/{rng.choice(slugs)}.html"
        window = {
            "max_length": rng.randrange(200, 900),
            "start_index": rng.choice((0, 0, rng.randrange(50, 600))),
        }
        return "fetch", {"url": url, **window}
    return "fetch", {"url": url}
