"""An inspect_ai tool with receipts, end to end and offline: inspect's ``mockllm`` model calls a small
task's tool; clean runs are recorded through the wrapper, ``learn`` reads the rows, then a faulted
tool's results reach the model raw and first with a receipt after them, and clean held-out calls
draw none."""

from __future__ import annotations

import json

import pytest

pytest.importorskip(
    "inspect_ai", reason="needs the 'inspect' extra (pip install \"outcome-monitor[inspect]\")"
)

from fixtures import rng  # noqa: E402
from inspect_ai import Task, eval  # noqa: E402
from inspect_ai.dataset import Sample  # noqa: E402
from inspect_ai.model import ChatMessageTool, ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_ai.solver import generate, use_tools  # noqa: E402
from inspect_ai.tool import ContentText, tool  # noqa: E402
from outcome_monitor import Monitor, learn  # noqa: E402
from outcome_monitor.adapters.inspect_tool import PREFIX, monitored, result_value  # noqa: E402

STATUSES = ("pending", "processed", "delivered", "cancelled")


def order(i: int) -> dict:
    r = rng("inspect-integration", i)
    return {"order_id": f"W{i:04d}", "status": r.choice(STATUSES), "total": round(r.uniform(5, 500), 2)}


def order_tool(faulted: bool = False):
    @tool
    def get_order():
        async def execute(order_id: str) -> str:
            """Look up an order by its id.

            Args:
                order_id: The order's id, e.g. W0001.
            """
            row = order(int(order_id[1:]))
            if faulted:  # a silent fault: the total arrives as display text
                row = {**row, "total": f"${row['total']:.2f}"}
            return json.dumps(row)

        return execute

    return get_order()


def policy(messages, tools, tool_choice, config) -> ModelOutput:
    """The mock model: look the order up once, then answer. Its usage is given, so mockllm does not
    count tokens (tiktoken would fetch its encoding from the network)."""
    if isinstance(messages[-1], ChatMessageTool):
        out = ModelOutput.from_content("mockllm/model", "done")
    else:
        order_id = messages[-1].text.strip()
        out = ModelOutput.for_tool_call("mockllm/model", "get_order", {"order_id": order_id})
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return out


def run(the_tool, ids: range, log_dir) -> list[ChatMessageTool]:
    task = Task(
        dataset=[Sample(input=f"W{i:04d}", target="done") for i in ids],
        solver=[use_tools(the_tool), generate()],
    )
    model = get_model("mockllm/model", custom_outputs=policy)
    (log,) = eval(task, model=model, log_dir=str(log_dir), display="none", log_samples=True)
    assert log.status == "success", log.error
    return [m for s in log.samples for m in s.messages if isinstance(m, ChatMessageTool)]


def receipts(messages: list[ChatMessageTool]) -> list[dict]:
    out = []
    for m in messages:
        if isinstance(m.content, list):
            texts = [b.text for b in m.content if isinstance(b, ContentText)]
            out += [json.loads(t[len(PREFIX) :]) for t in texts if t.startswith(PREFIX)]
    return out


@pytest.fixture(scope="module")
def monitor(tmp_path_factory) -> Monitor:
    rows: list[dict] = []
    calls = run(monitored(order_tool(), record=rows.append), range(1, 61), tmp_path_factory.mktemp("rec"))
    assert len(calls) == len(rows) == 60 and not receipts(calls)
    assert rows[0]["tool"] == "get_order" and set(rows[0]["arguments"]) == {"order_id"}
    registry = learn(rows)
    assert registry.rules_for("get_order"), "nothing learned from 60 clean calls"
    return Monitor(registry)


def test_the_wrapped_tool_is_the_same_tool_for_the_model():
    from inspect_ai.tool import ToolDef

    plain, wrapped = ToolDef(order_tool()), ToolDef(monitored(order_tool(), record=lambda row: None))
    assert (wrapped.name, wrapped.description) == (plain.name, plain.description)
    assert wrapped.parameters == plain.parameters


def test_faulted_results_reach_the_model_raw_first_with_a_receipt(monitor, tmp_path):
    calls = run(monitored(order_tool(faulted=True), monitor), range(100, 110), tmp_path)
    assert len(calls) == 10
    for m in calls:
        assert isinstance(m.content, list) and len(m.content) == 2
        raw = json.loads(m.content[0].text)
        assert raw["total"].startswith("$")  # the raw result, unchanged and first
        assert m.content[1].text.startswith(PREFIX)
    got = receipts(calls)
    assert len(got) == 10
    assert all("total" in r["violated"] and r["observed"].startswith("$") for r in got)
    assert all(r["recovery_tools"] == ["get_order"] for r in got)  # no catalog: a retry


def test_clean_held_out_calls_draw_no_receipt(monitor, tmp_path):
    calls = run(monitored(order_tool(), monitor), range(200, 220), tmp_path)
    assert len(calls) == 20 and receipts(calls) == []
    assert all(isinstance(m.content, str) for m in calls)  # a clean result comes back as the tool's


def test_result_value_reads_text_and_blocks():
    assert result_value('{"a": 1}') == {"a": 1}
    assert result_value("[{'id': 1}]") == [{"id": 1}]  # a Python literal, as the proxy reads one
    assert result_value("no rows") == "no rows" and result_value(3) == 3
    assert result_value([ContentText(text="[1]"), ContentText(text="x")]) == [[1], "x"]


def test_a_wrapper_needs_something_to_do():
    with pytest.raises(ValueError, match="needs a monitor"):
        monitored(order_tool())
