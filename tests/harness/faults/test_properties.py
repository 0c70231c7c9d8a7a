"""Property checks over generated JSON results: every class corrupts what it says it can, and only there."""

import copy

from faults_fakes import Ctx, FakeEpisode, make_task
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.protocol import ToolCall, ToolResult
from core.seeding import rng
from harness.faults import paths
from harness.faults.classes import CLASSES, MISSING
from harness.faults.inject import FaultInjector

keys = st.sampled_from(["price", "total", "status", "city", "order_id", "created_at", "qty", "note", "items"])
scalars = st.one_of(
    st.integers(-5, 10_000),
    st.floats(0.01, 1e5, allow_nan=False).map(lambda x: round(x, 2)),
    st.sampled_from(["shipped", "USD", "Paris", "ORD-1042", "2026-01-05", "Left at the door", "Zoë"]),
    st.booleans(),
)
docs = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=12,
).filter(lambda d: isinstance(d, dict))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(doc=docs, seed=st.integers(0, 3))
def test_every_eligible_path_is_changed(doc, seed):
    for name, fc in CLASSES.items():
        for path in fc.eligible(doc, {"order_id": "ORD-1042"}, None)[:3]:
            work = copy.deepcopy(doc)
            applied = fc.apply(work, path, {"order_id": "ORD-1042"}, rng(seed, name, path), {})
            assert applied.content != doc or applied.corrupted != applied.original, (name, path)
            if applied.corrupted not in (MISSING,) and name not in (
                "renamed_field",
                "duplicated_record",
                "empty_or_truncated_list",
                "cached_error_page",
            ):
                assert paths.get(applied.content, applied.path) == applied.corrupted, (name, path)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(doc=docs)
def test_injector_never_mutates_the_callers_result(doc):
    task = make_task()
    for name in CLASSES:
        original = ToolResult(content=copy.deepcopy(doc), meta={"note": {"k": 1}})
        before = (copy.deepcopy(original.content), copy.deepcopy(original.meta))
        out = FaultInjector({"fault_class": name}, seed=0)(
            ToolCall("t", {}), original, Ctx(FakeEpisode(task), task, 0, 0)
        )
        assert (original.content, original.meta) == before
        assert ("injected_fault" in out.meta) == bool(
            FaultInjector({"fault_class": name}).eligible_paths(ToolCall("t", {}), copy.deepcopy(doc), None)
        )
