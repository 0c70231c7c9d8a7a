"""A list whose clean elements were all strings (names, observations) keeps them strings: a null
or a number among them fires (``collection`` ``elements`` with ``strings``), where the list already
keeps an ``elements`` rule of its own support."""

from __future__ import annotations

import random

from outcome_monitor import learn


def _rows(rng: random.Random) -> list[dict]:
    words = ["speaks Go", "prefers tea", "lives in Lisbon", "joined Acme in 2012", "met on Monday"]
    return [
        {
            "tool": "open_node",
            "arguments": {"name": f"n{i}"},
            "result": {"name": f"n{i}", "observations": rng.sample(words, rng.randint(1, 4)) + [f"id {i}"]},
        }
        for i in range(20)
    ]


def test_a_null_among_strings_fires_and_strings_pass():
    reg = learn(_rows(random.Random(4)))
    rule = next(
        r
        for r in reg.rules_for("open_node")
        if r.params.get("form") == "elements" and r.fields == ("observations",)
    )
    assert rule.params["strings"] is True and "string" in rule.sentence()
    args = {"name": "n3"}
    assert reg.check("open_node", args, {"name": "n3", "observations": ["speaks Go", "a new one"]}) == []
    for odd in (None, 3, {"x": 1}):
        found = reg.check("open_node", args, {"name": "n3", "observations": ["speaks Go", odd]})
        assert any(":elements" in v.rule_id for v in found), odd


def test_a_placeholder_or_a_cut_name_among_names_fires_a_blank_does_not():
    """Seven distinct clean names or more, none a placeholder: ``N/A``, ``TODO`` or a path cut off
    with ``...`` fires; an empty element is not judged (a blank line among a file's lines)."""
    files = [
        f"src/shop/{m}.py" for m in ("models", "orders", "pricing", "shipping", "stock", "cart", "users")
    ]
    rng = random.Random(3)
    rows = [
        {"tool": "list_files", "arguments": {"pattern": f"p{i}"}, "result": {"result": rng.sample(files, 3)}}
        for i in range(12)
    ]
    reg = learn(rows)

    def fires(names: list[str]) -> bool:
        found = reg.check("list_files", {"pattern": "shop/*"}, {"result": names})
        return any(":elements" in v.rule_id for v in found)

    assert not fires(["src/shop/models.py", "src/shop/new.py"])
    assert not fires(["src/shop/models.py", ""])
    for odd in ("N/A", "TODO", "src/shop/...", "Lorem ipsum dolor sit amet"):
        assert fires(["src/shop/models.py", odd]), odd
    few = learn([{**r, "result": {"result": rng.sample(files[:2], 2)}} for r in rows])  # 2 names: no rule
    assert few.check("list_files", {"pattern": "shop/*"}, {"result": ["src/shop/models.py", "N/A"]}) == []
