"""The speed-ups change no behaviour: generated check code against each rule's own closure, and
the first-row screens and one-pass comparisons of mining against the full rows x columns
comparisons they replace (both paths: small matrices take the one-pass one)."""

from __future__ import annotations

import copy
import gc
import importlib.util

import fixtures as syn
import pytest
from outcome_monitor import learn
from outcome_monitor.checking import plancode
from outcome_monitor.checking.paths import iter_context
from outcome_monitor.checking.values import type_ok
from outcome_monitor.learning.executions import gc_paused
from outcome_monitor.registry import Registry, _compile_tool, _violation

# the array screens of mining are numpy's: without numpy (it is optional) there is nothing to compare
needs_numpy = pytest.mark.skipif(importlib.util.find_spec("numpy") is None, reason="numpy is not installed")

TRACES = syn.traces(n_workflows=40, calls_per_workflow=6, seed=3)
REG = learn(TRACES)


_PLANS: dict = {}


def reference_check(reg, tool, args, result):
    """The check as one loop over every rule's compiled closure, in plan order (no generated code)."""
    rules = reg.rules.get(tool)
    if not rules:
        return []
    found = []
    if (id(reg), tool) not in _PLANS:
        _PLANS[(id(reg), tool)] = _compile_tool(rules)
    for plan in _PLANS[(id(reg), tool)]:
        for element, index in ((result, ()),) if not plan.chains else iter_context(result, plan.chains):
            if plan.shape_types is not None:
                py, names, c = plan.shape_types
                if type(element) not in py and not type_ok(element, names):
                    found.append(_violation(c, index, element))
                    continue
            if type(element) is dict:
                vals = dict(element)
                for f, g in plan.getters:
                    vals[f] = g(element)
            else:
                vals = {"": element}
            # the registry's _run: a value that is no record skips the records' required fields
            records = type(element) is dict or (not plan.chains and isinstance(element, dict))
            ordered = (
                [c for _, c in plan.required if records]
                + [t[-1] for t in plan.typed]
                + [t[-1] for t in plan.positive]
                + [t[-1] for t in plan.domain]
                + plan.checks
            )
            for c in ordered:
                hit = c.fn(vals, args)
                if hit is not None:
                    found.append(_violation(c, index, hit[0]))
    return found


def _mutants(result, r):
    """Perturbed copies: dropped keys, wrong types, sign flips, shifted numbers and dates."""
    out = []
    if not isinstance(result, dict):
        return [None, "x", [result]]
    for k, v in result.items():
        m = copy.deepcopy(result)
        del m[k]
        out.append(m)
        swaps = ["x", None, True, [], {}, -1, 0]
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            swaps += [v * 2 + 1, -v, v + r.choice([0.5, 0.01, 7])]
        if isinstance(v, str):
            swaps += [v + "1", "2099-12-31", "1999-01-01T00:00"]
        if isinstance(v, list) and v and isinstance(v[0], dict):
            for kk in v[0]:
                m = copy.deepcopy(result)
                m[k][0][kk] = r.choice(["x", None, -3, 0.5])
                out.append(m)
        for w in swaps:
            m = copy.deepcopy(result)
            m[k] = w
            out.append(m)
    return out


@pytest.mark.parametrize("code", ["straight-line", "table loops"])
def test_generated_checks_equal_rule_closures_on_clean_and_perturbed_results(code, monkeypatch):
    if code == "table loops":  # what thousands of id-keyed rules in one context get
        monkeypatch.setattr(plancode, "LOOP_AT", 0)
    reg = Registry([r for rs in REG.rules.values() for r in rs], REG.meta)  # plans compile afresh
    r = syn.rng(7, "speedups")
    n_checked = n_fired = 0
    for row in TRACES[:80]:
        args = row.get("arguments") or {}
        for res in [row["result"], *_mutants(row["result"], r)]:
            got = reg.check(row["tool"], args, res)
            assert got == reference_check(reg, row["tool"], args, res)
            n_checked += 1
            n_fired += bool(got)
        bad_args = {k: ("zz" if isinstance(v, str) else -5) for k, v in args.items()}
        assert reg.check(row["tool"], bad_args, row["result"]) == reference_check(
            reg, row["tool"], bad_args, row["result"]
        )
    assert n_fired > 0 and n_fired < n_checked  # both branches exercised
    classes = {
        v.rule_class
        for row in TRACES[:80]
        for res in _mutants(row["result"], r)
        for v in reg.check(row["tool"], row.get("arguments") or {}, res)
    }
    assert {"type", "domain", "positive"} <= classes  # each looped class fired somewhere


def _matrix(seed: int, rows: int, cols: int):
    import numpy as np

    g = np.random.default_rng(syn.stable_int(seed, "speedups-matrix"))
    mat = np.round(g.uniform(-50, 50, size=(rows, cols)), 2)
    mat[:, 1] = mat[:, 0]  # exact copy
    mat[:, 2] = mat[:, 0] * (1 + 1e-12)  # equal within tolerance
    mat[:, 3] = 1.8 * mat[:, 0] + 32  # affine
    mat[:, 4] = mat[:, 5] * mat[:, 6]  # product
    mat[:, 7] = mat[:, 5] + mat[:, 6]  # sum
    if rows > 1:
        mat[-1, 2] += 1.0 if seed % 2 else 0.0  # sometimes broken on a later row only
    return mat


@pytest.fixture(params=["one-pass", "screened"])
def array_path(request, monkeypatch):
    from outcome_monitor.learning import relations

    if request.param == "screened":
        monkeypatch.setattr(relations, "_CUBE_MAX", 0)
    return request.param


@needs_numpy
def test_column_equality_screen_equals_full_comparison(array_path):
    import numpy as np
    from outcome_monitor.learning.relations import _all_rows_close

    for seed, rows in ((0, 1), (1, 2), (2, 9), (3, 40)):
        mat = _matrix(seed, rows, 9)
        full = (
            np.abs(mat[:, :, None] - mat[:, None, :]) <= 1e-9 * np.maximum(1.0, np.abs(mat[:, None, :]))
        ).all(axis=0)
        got = _all_rows_close(mat)
        assert (got == full).all() and got[0, 1] and got[1, 0]


@needs_numpy
def test_affine_prefilter_screen_equals_full_residuals(array_path):
    import numpy as np
    from outcome_monitor.learning.relations import _dense_affine

    for seed, rows in ((4, 3), (5, 12), (6, 50)):
        mat = _matrix(seed, rows, 9)
        names = [f"f{i}" for i in range(9)]
        idx = {f: i for i, f in enumerate(names)}
        quanta = {f: 0.01 for f in names}
        ok = _dense_affine(mat, idx, set(names), quanta)
        lo, hi = mat.argmin(axis=0), mat.argmax(axis=0)
        ci = np.arange(9)
        with np.errstate(divide="ignore", invalid="ignore"):
            k = (mat[hi, :].T - mat[lo, :].T) / (mat[hi, ci] - mat[lo, ci])[None, :]
            c = mat[lo, :].T - k * mat[lo, ci][None, :]
            q = np.full(9, 0.01)
            tol = (
                0.5 * (q[:, None] + np.abs(k) * q[None, :])
                + 1e-6 * np.maximum(1.0, np.abs(mat)).max(axis=0)[:, None]
            )
            resid = np.abs(mat[:, :, None] - k[None] * mat[:, None, :] - c[None])
            full = np.isfinite(k) & (resid <= tol[None] * 1.001 + 1e-9).all(axis=0)
        assert all(ok(a, b) == bool(full[idx[a], idx[b]]) for a in names for b in names)
        assert ok("f3", "f0")


@needs_numpy
def test_product_and_sum_screen_equals_per_target_test(array_path):
    import numpy as np
    from outcome_monitor.learning.relations import _screen_dense

    for seed, rows in ((8, 1), (9, 4), (10, 30)):
        mat = _matrix(seed, rows, 9)
        names = [f"f{i}" for i in range(9)]
        pairs = [(b, c) for b in range(9) for c in range(b + 1, 9)]
        bi, ci = np.array([b for b, _ in pairs]), np.array([c for _, c in pairs])
        xb, xc = mat[:, bi], mat[:, ci]
        q = np.full(len(pairs), 0.01)
        prod, total = xb * xc, xb + xc
        tol_bc, tol_add = 0.5 * (np.abs(xc) * q + np.abs(xb) * q), 0.5 * (q + q)
        mul, add = _screen_dense(mat, list(range(9)), np.full(9, 0.01), names, prod, tol_bc, total, tol_add)
        for a in range(9):
            xa = mat[:, a][:, None]
            ok = (np.abs(xa - prod) <= 0.5 * 0.01 + tol_bc + 1e-9 * np.maximum(1.0, np.abs(xa))).all(axis=0)
            ok_add = (np.abs(xa - total) <= 0.5 * 0.01 + tol_add + 1e-9 * np.maximum(1.0, np.abs(xa))).all(
                axis=0
            )
            assert mul.get(names[a], []) == np.flatnonzero(ok).tolist()
            assert add.get(names[a], []) == np.flatnonzero(ok_add).tolist()
        assert pairs.index((5, 6)) in mul["f4"] and pairs.index((5, 6)) in add["f7"]


def test_gc_pause_restores_the_previous_state():
    was = gc.isenabled()
    try:
        gc.enable()
        with gc_paused():
            assert not gc.isenabled()
        assert gc.isenabled()
        gc.disable()
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_relearning_with_warm_memo_caches_gives_the_same_registry():
    # the date / rounding memos are module-level: a second run must not differ from the first
    assert learn(TRACES).to_json() == REG.to_json() and REG.n_rules > 0


@needs_numpy
def test_screened_and_one_pass_mining_learn_the_same_registry(monkeypatch):
    from outcome_monitor.learning import relations

    monkeypatch.setattr(relations, "_CUBE_MAX", 0)
    assert learn(TRACES).to_json() == REG.to_json()


def test_gc_pause_leaves_survivors_collectable():
    # survivors are moved to the oldest generation, not frozen: a cycle made inside is still freed
    import weakref

    class Node:
        pass

    with gc_paused():
        a, b = Node(), Node()
        a.other, b.other = b, a
        ref = weakref.ref(a)
    del a, b
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert ref() is None
