"""Routes and prose (wide vocabulary only): a tool whose results take one form per resource an
argument names learns per route beside its pooled rules; long text keeps its numbers' signs, its
length and its dates' order."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from outcome_monitor import Monitor, Registry, learn
from outcome_monitor.checking.routes import route_keys
from outcome_monitor.registry_format import schema
from outcome_monitor.text.prose import prose_params

SITE = "http://127.0.0.1:8000"


def _product(rng: random.Random, i: int) -> dict[str, Any]:
    return {
        "sku": f"SKU-{10000 + i}",
        "price": round(rng.uniform(20, 600), 2),
        "stock": rng.randrange(5, 400),
    }


REVIEWERS = ("Bo", "Ada", "Ines", "Chidi", "Dmitri", "Valentina", "Bartholomew")


def _page(rng: random.Random, i: int) -> str:
    month, day = rng.randrange(1, 5), rng.randrange(10)
    lines = [
        f"# Review {i}",
        f"Published 2025-0{month}-1{day} by {rng.choice(REVIEWERS)}. Updated 2025-0{month + 4}-2{day}.",
    ]
    lines += [
        f"It scored {rng.randrange(1, 100)} of 100 and costs {rng.uniform(5, 90):.2f} EUR." for _ in range(3)
    ]
    return "\n\n".join(lines) + "\n"


def _fetches(n: int = 60, seed: int = 3) -> list[dict[str, Any]]:
    """A fetch tool: JSON records after a header line under /api, markdown reviews under /reviews."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        if i % 2:
            url = f"{SITE}/api/products/SKU-{10000 + i}.json"
            text = f"Contents of {url}:\n" + json.dumps(_product(rng, i))
        else:
            url = f"{SITE}/reviews/{i:02d}-a-review.html"
            text = f"Contents of {url}:\n" + _page(rng, i)
        rows.append({"tool": "fetch", "arguments": {"url": url}, "result": text})
    return rows


def _fired(reg: Registry, url: str, text: str) -> list[str]:
    ann = Monitor(reg).annotate("fetch", {"url": url}, text)
    return [v.sentence for v in ann.violations] if ann.fired else []


def test_route_keys_name_a_resource_by_its_place() -> None:
    assert route_keys("http://h:1/api/products/SKU-1.json") == (
        "h:1/api/products/SKU-1.json",
        "h:1/api/products/*.json",
    )
    assert route_keys("/srv/docs/guide.md") == ("/srv/docs/guide.md", "/srv/docs/*.md")
    assert route_keys("http://h/") == ("h/", "h/*")
    assert route_keys("file:///srv/data/orders-1.csv") == ("/srv/data/orders-1.csv", "/srv/data/*.csv")
    assert route_keys("data:text/csv;base64,YSxiCjEsMgo=") == ("data:text/csv", "data:text/csv")
    assert route_keys("a sentence, not a path") is None
    assert route_keys(42) is None


def test_a_routed_tool_checks_each_form_by_its_own_rules() -> None:
    rows = _fetches()
    reg = learn(rows)
    assert set(reg.meta["routes"]["fetch"]["families"]) == {
        "127.0.0.1:8000/api/products/*.json",
        "127.0.0.1:8000/reviews/*.html",
    }
    url = f"{SITE}/api/products/SKU-20001.json"
    good = {"sku": "SKU-20001", "price": 12.5, "stock": 40}
    assert _fired(reg, url, f"Contents of {url}:\n" + json.dumps(good)) == []
    dropped = {k: v for k, v in good.items() if k != "price"}
    assert any("price" in s for s in _fired(reg, url, f"Contents of {url}:\n" + json.dumps(dropped)))
    negated = {**good, "price": -12.5}
    assert _fired(reg, url, f"Contents of {url}:\n" + json.dumps(negated))
    # pooled over both forms (the paper's vocabulary, or no routes) a dropped field passes
    assert (
        not Monitor(learn(rows, vocabulary="paper"))
        .annotate("fetch", {"url": url}, f"Contents of {url}:\n" + json.dumps(dropped))
        .fired
    )


def test_a_route_never_met_falls_back_to_the_tools_own_rules() -> None:
    reg = learn(_fetches())
    url = f"{SITE}/elsewhere/thing.txt"
    assert _fired(reg, url, f"Contents of {url}:\nplain words, nothing else here at all to see\n") == []
    assert _fired(reg, url, "<html><body><h1>502 Bad Gateway</h1></body></html>")


def test_routes_survive_the_registry_file(tmp_path: Any) -> None:
    reg = learn(_fetches())
    path = tmp_path / "reg.json"
    reg.save(path)
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(json.loads(path.read_text()), schema())  # routes and a skip view are in the schema
    back = Registry.load(path)
    url = f"{SITE}/api/products/SKU-20001.json"
    dropped = {"sku": "SKU-20001", "stock": 40}
    assert _fired(back, url, f"Contents of {url}:\n" + json.dumps(dropped)) == _fired(
        reg, url, f"Contents of {url}:\n" + json.dumps(dropped)
    )
    assert _fired(back, url, f"Contents of {url}:\n" + json.dumps(dropped))


def test_prose_keeps_signs_and_dates_and_a_short_text_fires() -> None:
    reg = learn(_fetches())
    route = "fetch @ 127.0.0.1:8000/reviews/*.html"
    forms = {r.params.get("form") for r in reg.rules_for(route) if r.cls == "text"}
    assert {"no_negative", "min_length", "dates_order"} <= forms
    url = f"{SITE}/reviews/90-a-review.html"
    text = f"Contents of {url}:\n" + _page(random.Random(5), 90)
    assert _fired(reg, url, text) == []
    assert _fired(reg, url, text.replace("costs ", "costs -", 1))
    published, updated = (
        text[i : i + 10] for i in (text.index("Published ") + 10, text.index("Updated ") + 8)
    )
    swapped = text.replace(published, "@").replace(updated, published).replace("@", updated)
    assert _fired(reg, url, swapped)  # the two dates out of order
    assert _fired(reg, url, text[: len(text) // 3])  # cut short


def test_prose_params_guards() -> None:
    rng = random.Random(1)
    texts = [_page(rng, i) for i in range(20)]
    forms = {p["form"] for p in prose_params(texts, 7)}
    assert "no_negative" in forms
    # one text with a legitimate negative number: no sign rule
    assert "no_negative" not in {
        p["form"] for p in prose_params([*texts, texts[0] + " Down -3 points.\n"], 7)
    }
    # too few texts: nothing
    assert prose_params(texts[:3], 7) == []
    # short values are values, not text
    assert prose_params(["a b 1"] * 20, 7) == []
    # dates rising in every text, and one text falling: no order rule
    rising = [
        f"From 2025-01-0{i % 9 + 1} to 2025-02-1{i % 9} we tried {i} things in the lab.\n" for i in range(12)
    ]
    assert {"form": "dates_order", "order": "rising"} in prose_params(rising, 7)
    mixed = [*rising, "From 2025-03-01 back to 2025-02-11 we tried 4 things in the lab.\n"]
    assert all(p["form"] != "dates_order" for p in prose_params(mixed, 7))


def test_identical_texts_keep_a_length_floor_only_with_twice_the_support() -> None:
    page = "Articles\n\n" + "\n".join(f"* {i:02d}-an-article-about-things" for i in range(20)) + "\n"
    assert {p["form"] for p in prose_params([page] * 14, 7)} >= {"min_length"}
    assert "min_length" not in {p["form"] for p in prose_params([page] * 10, 7)}
    floor = next(p["min"] for p in prose_params([page] * 14, 7) if p["form"] == "min_length")
    assert floor < len(page) and len("Articles\n\n") < floor


def _counts(values: list[int]) -> Registry:
    return learn(
        [
            {"tool": "stock", "arguments": {"sku": f"S{i}"}, "result": {"left": v}}
            for i, v in enumerate(values)
        ]
    )


def test_a_count_reaching_toward_zero_may_be_zero_but_never_negative() -> None:
    rng = random.Random(4)
    near = [3, *(rng.randrange(4, 360) for _ in range(25))]  # a gap of about 14 between values: 3 is close
    far = [rng.randrange(200, 400) for _ in range(26)]  # nothing near 0
    for values, zero_fires in ((near, False), (far, True)):
        reg = _counts(values)
        assert Monitor(reg).annotate("stock", {"sku": "S0"}, {"left": 0}).fired is zero_fires
        assert Monitor(reg).annotate("stock", {"sku": "S0"}, {"left": -5}).fired


def test_a_position_named_like_one_seen_at_zero_may_be_zero() -> None:
    """A column deeper in a tree was always indented, but the same name was 0 nearer the top."""
    rng = random.Random(5)
    rows = []
    for i in range(30):
        inner = [{"column": rng.randrange(4, 40)} for _ in range(3)]
        rows.append(
            {"tool": "ast", "arguments": {"path": f"f{i}.py"}, "result": {"column": 0, "children": inner}}
        )
    reg = learn(rows)

    def column_fires(inner: int) -> bool:
        got = reg.check("ast", {"path": "g.py"}, {"column": 0, "children": [{"column": inner}]})
        return any("column" in v.rule_id for v in got)

    assert not column_fires(0)
    assert column_fires(-4)


def _events_by_detail(n: int = 60, seed: int = 5) -> list[dict[str, Any]]:
    """A calendar tool whose ``detail`` argument picks the answer's form: a brief record, a full
    record, or markdown text."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        brief = {
            "uid": f"ev-{1000 + i}",
            "summary": rng.choice(REVIEWERS),
            "start": f"2025-03-{1 + i % 28:02d}",
        }
        detail = ("brief", "full", "markdown")[i % 3]
        if detail == "brief":
            result: Any = brief
        elif detail == "full":
            result = {
                **brief,
                "location": rng.choice(("Room 1", "Hall", "Online")),
                "attendees": ["a", "b"][: i % 3],
            }
        else:
            result = f"## {brief['summary']}\n**When:** {brief['start']}\n**UID:** {brief['uid']}\n"
        rows.append(
            {"tool": "get_event", "arguments": {"uid": brief["uid"], "detail": detail}, "result": result}
        )
    return rows


def test_a_mode_argument_routes_its_forms(tmp_path: Any) -> None:
    reg = learn(_events_by_detail())
    assert reg.meta["routes"]["get_event"] == {
        "arg": "detail",
        "exact": ["detail=brief", "detail=full", "detail=markdown"],
        "families": [],
        "mode": True,
    }
    path = tmp_path / "reg.json"
    reg.save(path)
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(json.loads(path.read_text()), schema())
    mon = Monitor(Registry.load(path))
    full = {"uid": "ev-2000", "summary": "Ada", "start": "2025-03-02", "location": "Hall", "attendees": ["a"]}
    assert not mon.annotate("get_event", {"uid": "ev-2000", "detail": "full"}, full).fired
    # a full record without its location: required on the route, not in the tool's pooled rules
    short = {k: v for k, v in full.items() if k != "location"}
    assert mon.annotate("get_event", {"uid": "ev-2000", "detail": "full"}, short).fired
    # the markdown form is text, and a brief record no object of the full one's fields
    md = "## Ada\n**When:** 2025-03-02\n**UID:** ev-2000\n"
    assert not mon.annotate("get_event", {"uid": "ev-2000", "detail": "markdown"}, md).fired
    brief = {"uid": "ev-2000", "summary": "Ada", "start": "2025-03-02"}
    assert not mon.annotate("get_event", {"uid": "ev-2000", "detail": "brief"}, brief).fired
    # a record's required fields hold where the tool's results were records and text alike
    assert mon.annotate("get_event", {"uid": "ev-2000", "detail": "brief"}, {"uid": "ev-2000"}).fired
    assert mon.annotate("get_event", {"uid": "ev-2000", "detail": "other"}, {"uid": "ev-2000"}).fired


def test_an_argument_whose_values_share_one_form_is_no_mode() -> None:
    rows = _events_by_detail()
    for r in rows:  # every detail answers the brief record: nothing to route
        r["result"] = {"uid": r["arguments"]["uid"], "summary": "Ada", "start": "2025-03-02"}
    assert "get_event" not in (learn(rows).meta.get("routes") or {})
    assert not learn(_events_by_detail(), vocabulary="paper").meta.get("routes")


def test_a_routes_relation_stays_contradicted_by_its_tools_other_forms() -> None:
    rng = random.Random(12)
    rows = []
    for i in range(36):
        detail = ("brief", "full", "markdown")[i % 3]
        a = rng.choice([0, 0, 1, 2, 5])
        if detail == "markdown":
            result: Any = f"## {a}\n"
        elif detail == "full":  # two counts that were equal on this route's few calls
            result = {"uid": f"u{i}", "outliers": a, "negatives": a, "rows": rng.randint(10, 99)}
        else:
            result = {"uid": f"u{i}", "outliers": a, "negatives": rng.randint(0, 9)}
        rows.append({"tool": "stats", "arguments": {"col": f"c{i}", "detail": detail}, "result": result})
    reg = learn(rows)
    assert "stats" in reg.meta["routes"]
    route = [r for t, rs in reg.rules.items() if t.startswith("stats @ ") for r in rs]
    assert any(r.cls == "required" and r.fields == ("rows",) for r in route)  # its form: its own
    assert not any(r.cls == "relation" for r in route)  # a coincidence the tool's other calls contradict
