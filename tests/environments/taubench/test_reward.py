"""Reward: ground truth scores 1 on every task; a wrong write or a missing output scores 0; hashes."""

from __future__ import annotations

import itertools
import json

import pytest

from core.seeding import rng
from environments.taubench import reward
from environments.taubench.db import exact_digest
from environments.taubench.replay import run_ground_truth


def _sample(env, k=40):
    ids = [t.task_id for t in env.tasks("all")]
    return sorted(rng("taubench-test-sample").sample(ids, k))


def _check_ground_truth(env, task_ids):
    failed = [tid for tid in task_ids if run_ground_truth(env, tid).outcome(require_done=False).score != 1.0]
    assert failed == []


def test_ground_truth_scores_one_on_a_seeded_sample(env):
    _check_ground_truth(env, _sample(env))


@pytest.mark.slow
def test_ground_truth_scores_one_on_every_task(env):
    ids = [t.task_id for t in env.tasks("all")]
    assert len(ids) == 635
    _check_ground_truth(env, ids)


def test_base_is_never_mutated(env):
    before = {c: exact_digest(v) for c, v in env.data.base.collections.items()}
    for tid in _sample(env, 60):
        run_ground_truth(env, tid)
    assert {c: exact_digest(v) for c, v in env.data.base.collections.items()} == before


def test_digest_agrees_with_upstream_one_string_hash(env):
    """Equal merkle digests exactly when upstream's sha256(str(nested tuples)) are equal."""
    writer = next(t.task_id for t in env.tasks("test") if t.strata["writes"] == "yes")
    a = run_ground_truth(env, writer).db
    b, _ = reward.replay(env.domain, env.data.base, env.record(writer))
    fresh = env.data.base.fresh()
    assert (a.digest() == b.digest()) and (a.upstream_hash() == b.upstream_hash())
    assert (a.digest() != fresh.digest()) and (a.upstream_hash() != fresh.upstream_hash())
    assert fresh.upstream_hash() == exact_digest(json.loads(json.dumps(env.data.base.collections)))


def _writing_task_with(env, tool):
    for t in env.tasks("test"):
        names = [a["name"] for a in env.record(t.task_id).actions]
        if tool in names and not env.record(t.task_id).outputs:
            return t.task_id
    raise AssertionError(tool)


def test_wrong_write_scores_zero(env):
    tid = _writing_task_with(env, "cancel_pending_order")
    ep = env.episode(tid)
    for a in env.record(tid).actions:
        kwargs = dict(a["kwargs"])
        if a["name"] == "cancel_pending_order":  # the other reason: a different final database
            kwargs["reason"] = (
                "no longer needed" if kwargs["reason"] == "ordered by mistake" else "ordered by mistake"
            )
        ep.call_sync(a["name"], kwargs)
    d = ep.outcome(require_done=False).details
    assert d["reward"] == 0.0 and not d["r_actions"] and not d["semantic_match"]


def test_missing_write_and_extra_write_score_zero(env):
    tid = _writing_task_with(env, "cancel_pending_order")
    assert env.episode(tid).outcome(require_done=False).score == 0.0  # did nothing
    ep = run_ground_truth(env, tid)
    uid = env.record(tid).user_id
    addr = {
        "address1": "1 A St",
        "address2": "",
        "city": "X",
        "state": "CA",
        "country": "USA",
        "zip": "00001",
    }
    ep.call_sync("modify_user_address", {"user_id": uid, **addr})
    assert ep.outcome(require_done=False).score == 0.0


def test_outputs_required_case_insensitive_commas_stripped(env):
    tid = next(t.task_id for t in env.tasks("test") if env.record(t.task_id).outputs)
    outputs = env.record(tid).outputs
    ep = env.episode(tid)
    for a in env.record(tid).actions:
        ep.call_sync(a["name"], a["kwargs"])
    d = ep.outcome(require_done=False).details
    assert d["r_actions"] and not d["r_outputs"] and d["reward"] == 0.0
    assert d["outputs"] == {o: False for o in outputs}
    ep.record_text(" and ".join(o.upper() for o in outputs))
    assert ep.outcome(require_done=False).score == 1.0


def test_outputs_found_rules():
    assert reward.outputs_found(["1234.56"], ["It costs $1,234.56 in total"]) == {"1234.56": True}
    assert reward.outputs_found(["Polyester"], ["it is POLYESTER"]) == {"Polyester": True}
    assert reward.outputs_found(["10"], ["none here"]) == {"10": False}
    assert reward.outputs_found(["a,b"], ["a,b"]) == {"a,b": False}  # commas go from the message only


def test_semantic_comparison_rounds_to_cents(env):
    """int vs float, and float noise, break the exact hash but not the semantic one."""
    tid = _writing_task_with(env, "cancel_pending_order")
    ep = run_ground_truth(env, tid)
    uid, card = next(
        (u, k)
        for u, rec in env.data.base.collections["users"].items()
        for k, pm in rec["payment_methods"].items()
        if pm["source"] == "gift_card"
        and isinstance(pm["balance"], int)
        and (("users", u) not in set(env.reference(tid).changed))
    )
    ep.db.writable("users", uid)["payment_methods"][card]["balance"] += 0.0  # 51 -> 51.0
    d = ep.outcome(require_done=False).details
    assert not d["r_actions"] and d["semantic_match"] and d["reward"] == 0.0 and d["semantic_reward"] == 1.0
    ep.db.writable("users", uid)["payment_methods"][card]["balance"] += 0.01
    assert not ep.outcome(require_done=False).details["semantic_match"]


def test_changed_records_are_those_whose_content_or_number_type_differs():
    from environments.taubench.db import BaseDB

    base = BaseDB({"users": {"u1": {"balance": 1}, "u2": {"balance": 2}, "u3": {"balance": 3}},
                   "orders": {}, "products": {}})  # fmt: skip
    db = base.fresh()
    db.writable("users", "u1")["balance"] = 1  # taken for writing, left equal: not changed
    db.writable("users", "u2")["balance"] = (
        2.0  # equal under ==, another JSON number: changed, as upstream's hash says
    )
    db.writable("users", "u3")["balance"] = 4
    db.orders["o9"] = {"status": "pending"}
    db.writable("orders", "o9")  # a record the base lacks: changed
    assert db.changed() == [("orders", "o9"), ("users", "u2"), ("users", "u3")]


def test_digest_hashes_what_differs_from_the_base_and_agrees_with_the_one_string_hash():
    """Copies of one base: equal digests exactly when upstream's one-string hashes are equal, whichever
    records were taken for writing, added, restored, retyped or removed."""
    from environments.taubench.db import BaseDB

    data = {"users": {"u1": {"balance": 1, "tags": ["a"]}, "u2": {"balance": 2}}, "orders": {"o1": {"n": 1}}}
    base = BaseDB(data, identity="test")

    def variants():
        yield "untouched", base.fresh()
        touched = base.fresh()
        touched.writable("users", "u1")  # taken for writing, left equal
        yield "touched", touched
        restored = base.fresh()
        restored.writable("users", "u1")["balance"] = 5
        restored.writable("users", "u1")["balance"] = 1
        yield "restored", restored
        retyped = base.fresh()
        retyped.writable("users", "u1")["balance"] = 1.0  # == 1, another JSON number
        yield "retyped", retyped
        added = base.fresh()
        added.insert("orders", "o2", {"n": 2})
        yield "added", added
        added_again = base.fresh()
        added_again.insert("orders", "o2", {"n": 2})
        added_again.writable("users", "u2")
        yield "added, other touched", added_again
        removed = base.fresh()
        del removed.orders["o1"]
        yield "removed", removed
        listed = base.fresh()
        listed.writable("users", "u1")["tags"].append("b")
        yield "listed", listed

    named = list(variants())
    for (na, a), (nb, b) in itertools.combinations(named, 2):
        assert (a.digest() == b.digest()) == (a.upstream_hash() == b.upstream_hash()), (na, nb)
    assert named[0][1].digest() == named[1][1].digest() == named[2][1].digest()
    assert named[4][1].digest() == named[5][1].digest() != named[0][1].digest()
    assert len({db.digest() for _, db in named}) == 5
    other = BaseDB(data, identity="another data folder")
    assert other.fresh().digest() != base.fresh().digest()  # copies of different bases never share a digest
