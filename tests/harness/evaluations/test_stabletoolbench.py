import json

import pytest

from harness.evaluations.stabletoolbench import (
    iter_cache,
    organic_fire_rate,
    parse_arguments,
    parse_response,
    split,
)


class KeysLearner:
    """A stand-in monitor: a result must carry every top-level key all training results carried."""

    def __call__(self, traces):
        self.required = {}
        for t in traces:
            keys = set(t["result"]) if isinstance(t["result"], dict) else set()
            self.required[t["tool"]] = self.required.get(t["tool"], keys) & keys
        return self

    def check(self, tool, arguments, result):
        have = set(result) if isinstance(result, dict) else set()
        return sorted(self.required.get(tool, set()) - have)


def _write_cache(root, n=40):
    """Two tools; weather's 'current' API drops 'temp' for city c7 only."""
    api = root / "Weather" / "weatherapi" / "current.json"
    api.parent.mkdir(parents=True)
    entries = {}
    for i in range(n):
        body = {"city": f"c{i}", "temp": 10 + i} if i != 7 else {"city": f"c{i}"}
        entries[str({"city": f"c{i}"})] = {"error": "", "response": json.dumps(body)}
    entries[str({"city": "bad"})] = {"error": "Rate limit", "response": ""}
    api.write_text(json.dumps(entries))
    api2 = root / "Finance" / "quotes" / "get_quote.json"
    api2.parent.mkdir(parents=True)
    api2.write_text(
        json.dumps(
            {json.dumps({"symbol": f"S{i}"}): {"error": "", "response": {"price": i + 1.5}} for i in range(n)}
        )
    )
    (root / "Finance" / "quotes" / "broken.json").write_text("{not json")


def test_parsers():
    assert parse_arguments("{'city': 'Paris', 'n': 2}") == {"city": "Paris", "n": 2}
    assert parse_arguments('{"a": 1}') == {"a": 1}
    assert parse_arguments("city=Paris") == {"_raw": "city=Paris"}
    assert parse_response('{"x": [1]}') == {"x": [1]} and parse_response("plain text") == "plain text"


def test_reader_and_split(tmp_path):
    _write_cache(tmp_path)
    rows = list(iter_cache(tmp_path))
    assert len(rows) == 81 and sum(r.organic for r in rows) == 80
    assert {r.name for r in rows} == {"Weather/weatherapi/current", "Finance/quotes/get_quote"}
    train, test = split([r for r in rows if r.organic], 0.5, seed=0)
    assert len(train) + len(test) == 80 and train and test
    again, _ = split([r for r in rows if r.organic], 0.5, seed=0)
    assert [r.key for r in train] == [r.key for r in again]
    with pytest.raises(FileNotFoundError):
        list(iter_cache(tmp_path / "absent"))


def test_fire_rate_by_tool(tmp_path):
    _write_cache(tmp_path)
    rows = [r for r in iter_cache(tmp_path) if r.organic]
    # pick the first seed whose split puts the one incomplete weather response on the checked side
    seed = next(
        s
        for s in range(100)
        if any(r.tool == "weatherapi" and "temp" not in r.response for r in split(rows, 0.5, s)[1])
    )
    _, test = split(rows, 0.5, seed)
    report = organic_fire_rate(tmp_path, seed=seed, learner=KeysLearner())
    assert report["organic"] == 80 and report["checked"] == len(test) and report["apis"] == 2
    assert report["fired"] == 1 and report["tools_with_fires"] == 1
    assert report["by_tool"]["Weather/weatherapi"]["fired"] == 1
    assert report["by_tool"]["Finance/quotes"]["fired"] == 0
    assert report["fire_rate_pct"] == pytest.approx(100 / len(test))


def test_with_the_real_monitor(tmp_path):
    _write_cache(tmp_path, n=60)
    report = organic_fire_rate(tmp_path, seed=0)
    assert report["checked"] > 0 and 0 <= report["fired"] <= report["checked"]
    assert set(report["by_tool"]) == {"Weather/weatherapi", "Finance/quotes"}
