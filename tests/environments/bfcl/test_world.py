"""The world against the package: replay of every ground truth, the grade's agreement, episodes, instances."""

from __future__ import annotations

import asyncio

import pytest

from tests.environments.bfcl.conftest import require_bfcl

require_bfcl()

from core.protocol import ToolCall  # noqa: E402
from environments.bfcl import checker  # noqa: E402
from environments.bfcl.calls import parse  # noqa: E402
from environments.bfcl.data import CATEGORIES, entries  # noqa: E402
from environments.bfcl.replay import replay  # noqa: E402


def _live_names() -> list[str]:
    from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_utils

    return [k for k in vars(multi_turn_utils) if k.startswith("om_")]


def test_every_ground_truth_passes_and_the_world_agrees():
    for category in CATEGORIES:
        rep = replay(category)
        assert len(rep.rows) == 200
        assert rep.passed == 200, [r.task_id for r in rep.rows if not r.package]
        # the world disagrees only where a ground truth calls a withheld function before its turn
        assert rep.agree + len(rep.explained) == 200, [r.task_id for r in rep.rows if r.package != r.world]
        assert [r.task_id for r in rep.explained] == (
            ["multi_turn_miss_func_49"] if category == "miss_func" else []
        )
        # an agent that drops each task's last call fails every one
        assert rep.droppable == 200 and rep.dropped_fail == 200
    assert _live_names() == []  # every episode's and grade's instances were released


def test_an_agent_that_calls_nothing_passes_none():
    for category in ("base", "long_context"):
        assert not any(checker.grade(e, [[] for _ in e.ground_truth]).get("valid") for e in entries(category))


def test_cli_prints_the_count(capsys):
    from environments.bfcl.__main__ import main

    assert main(["replay", "--category", "base", "--task", "multi_turn_base_3"]) == 0
    out = capsys.readouterr().out
    assert "1/1 ground truths pass" in out and "agrees with the package's on 1/1" in out
    assert main(["replay", "--task", "nope"]) == 2


def test_an_episode_plays_turn_by_turn(base_env):
    task = base_env.tasks()[0]
    entry = base_env.entry(task.task_id)

    async def run():
        ep = base_env.episode(task.task_id)
        tools = {t.name for t in ep.tools()}
        assert not (tools & entry.excluded)  # excluded functions are not offered
        opening = await ep.open()
        assert opening == entry.turns[0] and task.query == opening
        bad = await ep.call(ToolCall("no_such_tool", {}))
        assert bad.status == "error" and bad.meta.get("validation_error")
        for k, turn in enumerate(entry.ground_truth):
            for text in turn:
                res = await ep.call(parse(text))
                assert res.status == "ok"
            nxt = await ep.say("done")
            if k + 1 < len(entry.turns):
                assert nxt.text == entry.turns[k + 1] and not nxt.done
            else:
                assert nxt.done
        live = _live_names()
        assert live  # the episode's instances exist under its own name while it runs
        out = await ep.score()
        await ep.close()
        await ep.close()  # twice is harmless
        return out, live

    out, live = asyncio.run(run())
    assert out.success and out.details["turns_reached"] == len(entry.turns)
    assert _live_names() == []


def test_two_episodes_of_one_task_do_not_share_state(base_env):
    task_id = "multi_turn_base_0"

    async def run():
        a, b = base_env.episode(task_id), base_env.episode(task_id)
        await a.open(), await b.open()
        await a.call(ToolCall("cd", {"folder": "document"}))
        await a.call(ToolCall("mkdir", {"dir_name": "temp"}))
        ls_a = await a.call(ToolCall("ls", {}))
        await b.call(ToolCall("cd", {"folder": "document"}))
        ls_b = await b.call(ToolCall("ls", {}))
        await a.close(), await b.close()
        return ls_a.content, ls_b.content

    ls_a, ls_b = asyncio.run(run())
    assert "temp" in ls_a["current_directory_content"] and "temp" not in ls_b["current_directory_content"]


def test_tools_and_categories(base_env):
    specs = base_env.tool_specs()
    assert len(specs) == 128
    assert all(s.output_schema and s.output_schema["type"] == "object" for s in specs.values())
    assert all(s.parameters["type"] == "object" for s in specs.values())
    price = specs["place_order"].parameters["properties"]["price"]
    assert price["type"] == "number"  # documented as float
    assert {specs[n].category for n in ("ls", "cat", "get_stock_info", "add")} == {"read"}
    assert {specs[n].category for n in ("cd", "mkdir", "place_order", "send_message")} == {"write"}
    with pytest.raises(ValueError, match="miss_param"):
        from environments.bfcl.env import BfclEnv

        BfclEnv("nope")


def test_reconciled_schemas_only_drop_what_results_contradict(base_env):
    from environments.bfcl.contracts import contract_schemas, reconciled

    drops = set(reconciled())
    assert ("send_message", "message_id", "type") in drops
    assert ("cd", "current_working_directory", "optional") in drops
    schemas = contract_schemas(base_env)
    assert "type" not in schemas["send_message"]["properties"]["message_id"]
    assert "current_working_directory" not in schemas["cd"].get("required", [])
    assert "file_content" in schemas["cat"]["required"]
    documented = contract_schemas(base_env, documented=True)
    assert "current_working_directory" in documented["cd"]["required"]


def test_live_results_are_the_replays_results(base_env):
    """What the agent saw (clean) is what the grade's replay computes from the same call strings."""
    for task in base_env.tasks()[:40]:
        entry = base_env.entry(task.task_id)

        async def run(task_id=task.task_id, entry=entry):
            ep = base_env.episode(task_id)
            shown = []
            try:
                await ep.open()
                for turn in entry.ground_truth:
                    for text in turn:
                        shown.append((await ep.call(parse(text))).content)
                    await ep.say("done")
                return shown, [c for t in ep.calls for c in t]
            finally:
                await ep.close()

        shown, calls = asyncio.run(run())
        name = checker.unique_name("test")
        try:
            replayed, _ = checker.execute(entry, name, calls)
        finally:
            checker.release(name)
        assert [checker.parse_result(r)[0] for r in replayed] == shown, task.task_id


def test_plugin_selection_and_presentation(base_env):
    from core.worlds import get_plugin

    plugin = get_plugin("bfcl")
    assert plugin.unavailable() is None
    a = plugin.select(base_env, "bfcl_hash", {"n": 5, "salt": "s"}, 0)
    b = plugin.select(base_env, "bfcl_hash", {"n": 5, "salt": "s"}, 0)
    c = plugin.select(base_env, "bfcl_hash", {"n": 5, "salt": "s"}, 1)
    assert [t.task_id for t in a] == [t.task_id for t in b] and len(a) == 5
    assert [t.task_id for t in a] != [t.task_id for t in c]
    assert plugin.select(base_env, "other_rule", {}, 0) is None
    with pytest.raises(ValueError, match="leaves 200"):
        plugin.select(base_env, "bfcl_hash", {"n": 201}, 0)
    from environments.bfcl.players import carried_from_reads

    carried = plugin.select(base_env, "bfcl_hash", {"n": 50, "salt": "s", "carried": True}, 0)
    assert len(carried) == 50 and all(carried_from_reads(t.task_id) for t in carried)
    assert not carried_from_reads("multi_turn_base_0")  # its values are the user's or its own
    assert ((3, 0), "value") in carried_from_reads("multi_turn_base_49")  # wc's count feeds logarithm
    shown = plugin.presentation(base_env)
    assert shown["paper"] is None and any(n.startswith("paper: not studied") for n in shown["notes"])
    oracle = plugin.oracle(base_env, "multi_turn_base_1")
    assert [c.name for c in oracle] == ["ls", "cd", "mv", "cd", "grep", "tail"]
    with pytest.raises(TypeError, match="BFCL_DATA"):
        plugin.make(data_dir="/x")


def test_miss_func_offers_a_withheld_function_from_its_turn_and_says_so():
    from bfcl_eval.constants.default_prompts import DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC

    from environments.bfcl.data import ADDED_FUNCTIONS_PROMPT
    from environments.bfcl.env import BfclEnv

    assert ADDED_FUNCTIONS_PROMPT == DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC  # the package's own words
    env = BfclEnv("miss_func")
    entry = env.entry("multi_turn_miss_func_0")
    ((at, names),) = entry.missed.items()  # {3: ("sort",)}

    async def run():
        ep = env.episode(entry.id)
        offered, said = [], [await ep.open()]
        try:
            for k in range(len(entry.turns)):
                offered.append({t.name for t in ep.tools()})
                if k == 0:
                    early = await ep.call(ToolCall(names[0], {"file_name": "x"}))
                    assert early.status == "error" and early.meta.get("validation_error")
                nxt = await ep.say("done")
                said.append(nxt.text)
        finally:
            await ep.close()
        return offered, said

    offered, said = asyncio.run(run())
    assert all((names[0] in o) == (k >= at) for k, o in enumerate(offered))
    assert said[at] == ADDED_FUNCTIONS_PROMPT and entry.turns[at] == ""
    assert said[:at] == list(entry.turns[:at])
