"""The same call gives the same answer (``collection`` form ``same_answer``): learned where repeats
showed a tool a function of its arguments, nothing in the recording wrote and no answer reads like a
clock; a recorded call answered otherwise fires, a call never recorded is not judged."""

from __future__ import annotations

from typing import Any

from outcome_monitor import Registry, learn
from outcome_monitor.learning.same_answers import names_a_clock


def _sums(
    repeats: int, pairs: list[tuple[int, int]], say: str = "The sum of {a} and {b} is {s}."
) -> list[dict]:
    rows = []
    for a, b in pairs:
        text = say.format(a=a, b=b, s=a + b)
        rows += [{"tool": "get_sum", "arguments": {"a": a, "b": b}, "result": text}] * repeats
    return rows


PAIRS = [(1, 2), (30, 4), (5, 600), (7, 8), (9, 10)]


def _fires(reg: Registry, args: dict[str, Any], result: Any) -> bool:
    return any(":same_answer" in v.rule_id for v in reg.check("get_sum", args, result))


def test_a_recorded_call_answered_otherwise_fires():
    reg = learn(_sums(3, PAIRS))
    assert _fires(reg, {"a": 30, "b": 4}, "The sum of -30 and 4 is 34.")
    assert _fires(reg, {"a": 30, "b": 4}, "The sum of 30 and 4")
    assert _fires(reg, {"a": 30, "b": 4}, "N/A")
    assert not _fires(reg, {"a": 30, "b": 4}, "The sum of 30 and 4 is 34.")
    assert not _fires(reg, {"a": 31, "b": 4}, "anything at all")  # a call never recorded
    rule = next(r for r in reg.rules_for("get_sum") if r.params.get("form") == "same_answer")
    assert "The sum" not in str(rule.params)  # digests, never the answers


def test_no_rule_where_the_world_could_move():
    def forms(rows: list[dict]) -> set[str]:
        return {str(r.params.get("form")) for r in learn(rows).rules_for("get_sum")}

    assert "same_answer" in forms(_sums(3, PAIRS))
    clock = "The sum of {a} and {b} is {s}, at 9:09:22 PM."
    assert "same_answer" not in forms(_sums(3, PAIRS, clock))  # an answer that names the time
    twice = _sums(3, PAIRS) + [{"tool": "get_sum", "arguments": {"a": 1, "b": 2}, "result": "3"}]
    assert "same_answer" not in forms(twice)  # one call answered two ways
    assert "same_answer" not in forms(_sums(20, PAIRS[:1]))  # one call repeated alone
    assert "same_answer" not in forms(_sums(2, PAIRS[:3]))  # 3 repeats: too few


def test_a_call_naming_what_a_write_was_given_is_not_judged():
    reads = [
        {"tool": "read_file", "arguments": {"path": f"/{d}/{f}.md"}, "result": f"text of {d}/{f}"}
        for d in ("notes", "scratch")
        for f in ("a", "b", "c", "d")
    ] * 3
    writes = [
        {"tool": "write_file", "arguments": {"path": "/scratch/b.md", "content": "new"}, "result": "ok"},
        {"tool": "create_directory", "arguments": {"path": "/scratch/c.md"}, "result": "ok"},
    ]
    reg = learn(reads + writes)
    rule = next(r for r in reg.rules_for("read_file") if r.params.get("form") == "same_answer")
    judged = set(rule.params["answers"])
    assert '{"path":"/notes/a.md"}' in judged and '{"path":"/scratch/a.md"}' in judged
    assert '{"path":"/scratch/b.md"}' not in judged and '{"path":"/scratch/c.md"}' not in judged
    assert reg.check("read_file", {"path": "/scratch/b.md"}, "rewritten") == []
    assert reg.check("read_file", {"path": "/notes/a.md"}, "text of notes/")
    assert not any(r.params.get("form") == "same_answer" for r in reg.rules_for("write_file"))


def test_a_clock_is_read_in_any_string_of_the_answer():
    assert names_a_clock({"text": "created at 21:09"}) and names_a_clock(["x", {"d": "at 9:09:22 PM"}])
    assert not names_a_clock({"n": 3, "d": "2026-12-06", "t": "The sum of 1 and 2 is 3."})


def test_a_call_showing_a_time_is_left_out_and_the_others_judged():
    """A converter's feed shows its items' publication times: that one document is not judged (it
    could be a clock), the other documents are; a tool whose answers mostly show a time gets none."""
    rows = _sums(3, PAIRS)
    feed = {
        "tool": "get_sum",
        "arguments": {"a": 0, "b": 0},
        "result": "Published on Mon, 28 Jul 2025 09:00:00",
    }
    reg = learn(rows + [feed] * 3)
    assert _fires(reg, {"a": 30, "b": 4}, "The sum of 30 and 4 is 35.")
    assert not _fires(reg, {"a": 0, "b": 0}, "Published on Mon, 28 Jul 2025 09:01:00")
    clocks = [{**feed, "arguments": {"a": i, "b": 0}} for i in range(50, 56)] * 3
    assert not any(r.params.get("form") == "same_answer" for r in learn(rows + clocks).rules_for("get_sum"))


def test_clearing_a_cache_changes_no_answer():
    reads = [
        {"tool": "get_file", "arguments": {"project": "shop", "path": p}, "result": f"text of {p}"}
        for p in ("a.py", "b.py", "c.py", "d.py")
    ] * 3
    clear = {"tool": "clear_cache", "arguments": {"project": "shop"}, "result": "ok"}
    remove = {"tool": "remove_project", "arguments": {"project": "shop"}, "result": "ok"}
    assert any(r.params.get("form") == "same_answer" for r in learn(reads + [clear]).rules_for("get_file"))
    assert not any(
        r.params.get("form") == "same_answer" for r in learn(reads + [remove]).rules_for("get_file")
    )


def test_a_call_that_once_showed_a_time_is_left_out_whichever_answer_came_first():
    rows = _sums(3, PAIRS)
    plain = {"tool": "get_sum", "arguments": {"a": 0, "b": 0}, "result": "The sum of 0 and 0 is 0."}
    timed = {**plain, "result": "The sum of 0 and 0 is 0, at 9:09."}
    for first, then in ((plain, timed), (timed, plain)):
        reg = learn(rows + [first, then])
        assert _fires(reg, {"a": 30, "b": 4}, "The sum of 30 and 4 is 35.")  # the tool keeps its rule
        assert not _fires(reg, {"a": 0, "b": 0}, "anything at all")  # that call is not judged
