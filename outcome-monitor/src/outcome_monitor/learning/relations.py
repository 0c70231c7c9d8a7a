"""Relations between fields of one context, searched in phase 1: echoes of arguments, equalities,
``a == k*b + c``, ``a == b*c``, ``a == b + c``, date orderings, and entries an argument selects
(``contains``). Dense numeric columns are compared in array passes with numpy when it is importable,
else in plain Python passes doing the same arithmetic element for element (so the same candidates
and the same registry); sparse ones pair by pair. numpy is optional: it only makes learning faster."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING, Any, Protocol

from outcome_monitor.checking.paths import ARG, KEY
from outcome_monitor.checking.values import MISSING, cached_date_key, is_number
from outcome_monitor.learning.candidates import Candidate, Collected, template

if TYPE_CHECKING:
    import numpy as np

# up to this many elements a rows x columns x columns comparison is done in one array pass
_CUBE_MAX = 1 << 16

# the array passes when numpy is importable; False forces the plain passes (tests, benchmark)
USE_NUMPY = True


@functools.cache
def _numpy_importable() -> bool:
    # imported on first learning, not with the module: checking alone never pays numpy's import
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


def collect_selections(
    tool: str, context: str, cols: dict[str, list[Any]], kinds: dict[str, set[type]], out: Collected
) -> None:
    """An entry selected by an argument: the call names an id and the result's collection holds
    it, as a map's key (``keys(variants)`` holds ``arg.item_id``) or as a field of a list's
    element (``each(payment_history[*].payment_method_id)`` holds ``arg.payment_method_id``)."""
    args = [f for f in cols if f.startswith(ARG) and kinds[f] and kinds[f] <= {str, int}]
    if not args:
        return
    for f, col in cols.items():
        if not f or f.startswith(ARG) or "(" in f or f == KEY or not kinds[f] <= {list, dict, type(None)}:
            continue
        holders: list[tuple[str, list[set[Any] | None]]] = []
        if kinds[f] == {dict} and f"len({f})" in cols:  # a map (flatten gave it a length)
            holders.append((f"keys({f})", [set(v) if type(v) is dict else None for v in col]))
        elif kinds[f] == {list}:
            lists = [v for v in col if type(v) is list]
            if not lists or not all(type(e) is dict for v in lists for e in v):
                continue
            keys = sorted({k for v in lists for e in v for k, x in e.items() if type(x) in (str, int)})
            for k in keys:
                holders.append(
                    (
                        f"each({f}[*].{k})",
                        [{e.get(k) for e in v} if type(v) is list else None for v in col],
                    )
                )
        for holder, sets in holders:
            for a in args:
                n, seen, ok = 0, set(), True
                for held, x in zip(sets, cols[a], strict=True):
                    if held is None or x is MISSING or x is None:
                        continue
                    if x not in held:
                        ok = False
                        break
                    n += 1
                    seen.add(x)
                params = {"form": "contains"}
                if not ok:
                    out.falsified.add(template("relation", context, (holder, a), params))
                elif n:
                    out.candidates.append(
                        Candidate(
                            tool, "relation", context, (holder, a), params, {"n": n, "distinct": len(seen)}
                        )
                    )


def _pairs(ca: list[Any], cb: list[Any]) -> list[tuple[Any, Any]]:
    return [
        (a, b)
        for a, b in zip(ca, cb, strict=True)
        if a is not MISSING and b is not MISSING and a is not None and b is not None
    ]


def _count_if_equal(ca: list[Any], cb: list[Any]) -> int:
    """The number of rows where both are present if ``_equal`` holds on every one of them, -1 at
    the first row where it does not (a falsified pair needs no count), 0 when none has both."""
    m = 0
    for a, b in zip(ca, cb, strict=True):
        if a is MISSING or b is MISSING or a is None or b is None:
            continue
        if not _equal(a, b):
            return -1
        m += 1
    return m


def _equal(x: Any, y: Any) -> bool:
    if is_number(x) and is_number(y):
        return bool(abs(x - y) <= 1e-9 * max(1.0, abs(y)))
    if isinstance(x, bool) or isinstance(y, bool) or isinstance(x, (dict, list)):
        return False
    return type(x) is type(y) and x == y


def collect_equalities(
    tool: str,
    context: str,
    cols: dict[str, list[Any]],
    numeric: dict[str, list[Any]],
    stats: dict[str, tuple[float, int, bool]],
    nested: set[str],
    out: Collected,
) -> None:
    # a map entry's key is compared like an argument: variants.*.item_id == #key
    args = [f for f in cols if f.startswith(ARG) or f == KEY]
    scalars = [f for f in cols if not f.startswith(ARG) and f and f != KEY and f not in nested]
    names = sorted(numeric)
    floats = {
        f: [float(v) if v is not MISSING and v is not None else math.nan for v in numeric[f]] for f in names
    }
    # a column is dense (no NaN among its floats) when every row holds a number: finite values
    # convert to finite floats, and only absent or null cells become NaN
    dense = {f for f in names if stats[f][2]}
    n = len(floats[names[0]]) if names else 0
    distinct = {f: stats[f][1] for f in names}
    quanta = {f: stats[f][0] for f in names}
    passes: _DensePasses = (
        _ArrayPasses(names, floats, dense, quanta)
        if USE_NUMPY and _numpy_importable()
        else _PlainPasses(floats, dense, quanta, n)
    )

    def equal_pair(a: str, b: str) -> tuple[bool, int] | None:
        if a in dense and b in dense:
            return passes.equal(a, b), n
        m = _count_if_equal(cols[a], cols[b])
        return (m > 0, m) if m else None

    # echo: result field == argument (numbers through the matrix, strings pairwise); a falsified
    # template is recorded by its key alone
    falsified, candidates = out.falsified, out.candidates
    for a in scalars:
        d = -1
        for x in args:
            res = equal_pair(a, x)
            if res is None:
                continue
            ok, m = res
            if not ok:
                falsified.add(template("echo", context, (a, x), {}))
                continue
            if d < 0:
                d = (
                    distinct[a]
                    if a in distinct
                    else len({v for v in cols[a] if v is not MISSING and v is not None})
                )
            candidates.append(Candidate(tool, "echo", context, (a, x), {}, {"n": m, "distinct": d}))
    res_num = sorted(f for f in numeric if not f.startswith(ARG))
    # a == b between result numbers (list lengths included: count == len(items))
    for a, b in combinations(res_num, 2):
        res = equal_pair(a, b)
        if res is None:
            continue
        if not res[0]:
            falsified.add(template("relation", context, (a, b), {"form": "eq"}))
            continue
        params = {"form": "eq", "quanta": [quanta[a], quanta[b]]}
        candidates.append(
            Candidate(tool, "relation", context, (a, b), params, {"n": res[1], "distinct": distinct[a]})
        )
    # affine and product: list lengths excluded (a small integer fits some line of any money field
    # within its rounding tolerance by coincidence)
    operands = sorted(f for f in numeric if not f.startswith("len("))
    targets = [f for f in operands if not f.startswith(ARG)]
    affine_ok = passes.affine_ok
    for a in targets:
        for b in operands:
            if b == a or (not b.startswith(ARG) and b < a):
                continue
            cand = _affine(tool, context, a, b, numeric, quanta) if affine_ok(a, b) else None
            if not b.startswith(ARG) and (cand is None or abs(cand.params["k"]) < 1):
                # one direction per pair: the one with |k| >= 1 reads naturally (F = 1.8 C + 32)
                cand = (_affine(tool, context, b, a, numeric, quanta) if affine_ok(b, a) else None) or cand
            if cand is not None:
                out.candidates.append(cand)
    _collect_products(tool, context, targets, operands, numeric, floats, passes, dense, quanta, out)


class _DensePasses(Protocol):
    """The comparisons of dense columns (every row a number), all rows at once."""

    def equal(self, a: str, b: str) -> bool:
        """a == b on every row (relative 1e-9, relative to b)."""
        ...

    def affine_ok(self, a: str, b: str) -> bool:
        """The prefilter of a == k*b + c (True for a pair not both dense)."""
        ...

    def screen(
        self, targets: list[str], dpairs: list[tuple[str, str]]
    ) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """For each target a, the indexes into dpairs of (b, c) with a == b*c, and a == b + c."""
        ...


class _ArrayPasses:
    """The dense passes over one rows x columns float matrix (numpy)."""

    def __init__(
        self, names: list[str], floats: dict[str, list[float]], dense: set[str], quanta: dict[str, float]
    ) -> None:
        import numpy as np

        self.mat = np.array([floats[f] for f in names]).T
        self.idx = {f: i for i, f in enumerate(names)}
        self.quanta = quanta
        self._eq: np.ndarray | None = None
        self.affine_ok = _dense_affine(self.mat, self.idx, dense, quanta)

    def equal(self, a: str, b: str) -> bool:
        if self._eq is None:  # pairwise equality of every dense numeric column at once
            self._eq = _all_rows_close(self.mat)
        return bool(self._eq[self.idx[a], self.idx[b]])

    def screen(
        self, targets: list[str], dpairs: list[tuple[str, str]]
    ) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        import numpy as np

        mat, idx, quanta = self.mat, self.idx, self.quanta
        bi = np.array([idx[b] for b, _ in dpairs])
        ci = np.array([idx[c] for _, c in dpairs])
        xb, xc = mat[:, bi], mat[:, ci]
        qb = np.array([quanta[b] for b, _ in dpairs])
        qc = np.array([quanta[c] for _, c in dpairs])
        return _screen_dense(
            mat,
            [idx[a] for a in targets],
            np.array([quanta[a] for a in targets]),
            targets,
            xb * xc,
            0.5 * (np.abs(xc) * qb + np.abs(xb) * qc),
            xb + xc,
            0.5 * (qb + qc),
        )


class _PlainPasses:
    """The dense passes in plain Python: per pair (or triple) of columns, row by row, stopping at
    the first row that fails; each comparison the same float arithmetic as the array passes'."""

    def __init__(
        self, floats: dict[str, list[float]], dense: set[str], quanta: dict[str, float], n: int
    ) -> None:
        self.floats, self.dense, self.quanta, self.n = floats, dense, quanta, n
        self._ends: dict[str, tuple[int, int]] = {}
        self._scale: dict[str, float] = {}

    def equal(self, a: str, b: str) -> bool:
        return all(
            abs(x - y) <= 1e-9 * max(1.0, abs(y)) for x, y in zip(self.floats[a], self.floats[b], strict=True)
        )

    def affine_ok(self, a: str, b: str) -> bool:
        # as _dense_affine: k and c through b's first lowest and first highest rows, the tolerance
        # widened by a's largest magnitude, and residuals in its order of operations
        dense = self.dense
        if not (a in dense and b in dense):
            return True
        if len(dense) < 2 or self.n < 3:
            return False
        xa, xb = self.floats[a], self.floats[b]
        ends = self._ends.get(b)
        if ends is None:
            rows = range(self.n)
            ends = self._ends[b] = (min(rows, key=xb.__getitem__), max(rows, key=xb.__getitem__))
        lo, hi = ends
        span = xb[hi] - xb[lo]
        if span == 0:  # numpy's k would be inf or NaN
            return False
        k = (xa[hi] - xa[lo]) / span
        if not math.isfinite(k):
            return False
        c = xa[lo] - k * xb[lo]
        scale = self._scale.get(a)
        if scale is None:
            scale = self._scale[a] = max(max(1.0, abs(x)) for x in xa)
        tol = 0.5 * (self.quanta[a] + abs(k) * self.quanta[b]) + 1e-6 * scale
        bound = tol * 1.001 + 1e-9
        return all(abs(x - k * y - c) <= bound for x, y in zip(xa, xb, strict=True))

    def screen(
        self, targets: list[str], dpairs: list[tuple[str, str]]
    ) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        # every target against a pair's first row, inline (most fail there); survivors on all rows
        floats, quanta = self.floats, self.quanta
        mul: dict[str, list[int]] = {}
        add: dict[str, list[int]] = {}
        slack = {a: [1e-9 * max(1.0, abs(x)) for x in floats[a]] for a in targets}
        firsts = [(a, floats[a][0], 0.5 * quanta[a], slack[a][0]) for a in targets]
        for j, (b, c) in enumerate(dpairs):
            xb, xc = floats[b], floats[c]
            qb, qc = quanta[b], quanta[c]
            y0, z0 = xb[0], xc[0]
            prod, tol_bc = y0 * z0, 0.5 * (abs(z0) * qb + abs(y0) * qc)
            total, tol_add = y0 + z0, 0.5 * (qb + qc)
            for a, x0, half, s0 in firsts:
                if abs(x0 - prod) <= half + tol_bc + s0 and all(
                    abs(x - y * z) <= half + 0.5 * (abs(z) * qb + abs(y) * qc) + s
                    for x, y, z, s in zip(floats[a], xb, xc, slack[a], strict=True)
                ):
                    mul.setdefault(a, []).append(j)
                if abs(x0 - total) <= half + tol_add + s0 and all(
                    abs(x - (y + z)) <= half + tol_add + s
                    for x, y, z, s in zip(floats[a], xb, xc, slack[a], strict=True)
                ):
                    add.setdefault(a, []).append(j)
        return mul, add


def _all_rows_close(mat: np.ndarray) -> np.ndarray:
    """[i, j]: column i equals column j on every row (relative 1e-9). Small matrices compare every
    row at once (fewer array calls); large ones are screened on the first row and only survivors
    compared on the rest. Element for element the same arithmetic, so the same answer."""
    import numpy as np

    if mat.size * mat.shape[1] <= _CUBE_MAX:
        close: np.ndarray = (
            np.abs(mat[:, :, None] - mat[:, None, :]) <= 1e-9 * np.maximum(1.0, np.abs(mat))[:, None, :]
        ).all(axis=0)
        return close
    m = mat.shape[1]
    first = mat[0]
    ii, jj = np.nonzero(
        np.abs(first[:, None] - first[None, :]) <= 1e-9 * np.maximum(1.0, np.abs(first[None, :]))
    )
    if mat.shape[0] > 1 and len(ii):
        rest_i, rest_j = mat[1:, ii], mat[1:, jj]
        keep = (np.abs(rest_i - rest_j) <= 1e-9 * np.maximum(1.0, np.abs(rest_j))).all(axis=0)
        ii, jj = ii[keep], jj[keep]
    eq = np.zeros((m, m), dtype=bool)
    eq[ii, jj] = True
    return eq


def _dense_affine(
    mat: np.ndarray, idx: dict[str, int], dense: set[str], quanta: dict[str, float]
) -> Callable[[str, str], bool]:
    """A prefilter: whether a == k*b + c could hold (always True for sparse columns)."""
    import numpy as np

    cols = sorted(dense, key=idx.__getitem__)  # dense columns are among idx's
    if len(cols) < 2 or mat.shape[0] < 3:
        return lambda a, b: not (a in dense and b in dense) and True
    sub = mat[:, [idx[f] for f in cols]]
    lo, hi = sub.argmin(axis=0), sub.argmax(axis=0)
    cols_i = np.arange(len(cols))
    xb_lo, xb_hi = sub[lo, cols_i], sub[hi, cols_i]  # per b
    xa_lo, xa_hi = sub[lo, :].T, sub[hi, :].T  # [a, b]: a's value at b's extreme rows
    with np.errstate(divide="ignore", invalid="ignore"):
        k = (xa_hi - xa_lo) / (xb_hi - xb_lo)[None, :]
        c = xa_lo - k * xb_lo[None, :]
        q = np.array([quanta[f] for f in cols])
        tol = (
            0.5 * (q[:, None] + np.abs(k) * q[None, :])
            + 1e-6 * np.maximum(1.0, np.abs(sub)).max(axis=0)[:, None]
        )
        bound = tol * 1.001 + 1e-9
        # every row at once when small (as in _all_rows_close); else screened on the first row and
        # survivors tested on the rest: the same per-element arithmetic either way
        if sub.size * sub.shape[1] <= _CUBE_MAX:
            ok = np.isfinite(k) & (np.abs(sub[:, :, None] - k * sub[:, None, :] - c) <= bound).all(axis=0)
        else:
            ok = np.isfinite(k) & (np.abs(sub[0][:, None] - k * sub[0][None, :] - c) <= bound)
            ii, jj = np.nonzero(ok)
            if sub.shape[0] > 1 and len(ii):
                kk, cc = k[ii, jj], c[ii, jj]
                bad = ~(np.abs(sub[1:, ii] - kk * sub[1:, jj] - cc) <= bound[ii, jj]).all(axis=0)
                ok[ii[bad], jj[bad]] = False
    pos = {f: i for i, f in enumerate(cols)}
    return lambda a, b: bool(ok[pos[a], pos[b]]) if a in pos and b in pos else True


def _collect_products(
    tool: str,
    context: str,
    targets: list[str],
    operands: list[str],
    numeric: dict[str, list[Any]],
    floats: dict[str, list[float]],
    passes: _DensePasses,
    dense: set[str],
    quanta: dict[str, float],
    out: Collected,
) -> None:
    pairs = list(combinations(operands, 2))
    dpairs = [(b, c) for b, c in pairs if b in dense and c in dense]
    n = len(floats[operands[0]]) if operands else 0
    out.dense[context] = frozenset(dense)
    sparse_pairs = [(b, c) for b, c in pairs if not (b in dense and c in dense)]
    hits_mul: dict[str, list[int]] = {}
    hits_add: dict[str, list[int]] = {}
    dense_targets = [a for a in targets if a in dense]
    if dense_targets and dpairs and n:
        hits_mul, hits_add = passes.screen(dense_targets, dpairs)
    for a in targets:
        if a in dense and dpairs:
            for j in hits_mul.get(a, ()):
                b, c = dpairs[j]
                if a not in (b, c):
                    cand = _product(tool, context, a, b, c, numeric, quanta)
                    if cand is not None and cand.ev:
                        out.candidates.append(cand)
            # a == b + c (total_due == subtotal + fees): dense columns only
            for j in hits_add.get(a, ()):
                b, c = dpairs[j]
                if a not in (b, c) and not b.startswith(ARG) and not c.startswith(ARG):
                    out.candidates.append(_addition(tool, context, a, b, c, floats, quanta))
            rest = sparse_pairs
        else:
            rest = pairs
        for b, c in rest:
            if a in (b, c):
                continue
            cand = _product(tool, context, a, b, c, numeric, quanta)
            if cand is None:
                continue
            if cand.ev:
                out.candidates.append(cand)
            else:
                out.falsified.add(cand.key)


def _screen_dense(
    mat: np.ndarray,
    ai: list[int],
    qa: np.ndarray,
    names: list[str],
    prod: np.ndarray,
    tol_bc: np.ndarray,
    total: np.ndarray,
    tol_add: np.ndarray,
) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """For every dense target a, the dense pairs (b, c) with a == b*c (and a == b + c) on all rows
    within tolerance, in pair order. Small inputs test every row at once; large ones screen every
    target on the first row (most pairs fail there) and test only survivors on the other rows.
    Element for element the same arithmetic as testing each target on all rows."""
    import numpy as np

    xa = mat[:, ai]
    half = 0.5 * qa
    slack = 1e-9 * np.maximum(1.0, np.abs(xa))
    # products and sums side by side: one pass of array operations instead of two
    n_pairs = prod.shape[1]
    rhs = np.concatenate([prod, total], axis=1)
    tol2 = np.empty_like(rhs)
    tol2[:, :n_pairs] = tol_bc
    tol2[:, n_pairs:] = tol_add
    if xa.size * rhs.shape[1] <= _CUBE_MAX:
        ti, pj = np.nonzero(
            (
                np.abs(xa[:, :, None] - rhs[:, None, :])
                <= half[None, :, None] + tol2[:, None, :] + slack[:, :, None]
            ).all(axis=0)
        )
    else:
        ti, pj = np.nonzero(
            np.abs(xa[0][:, None] - rhs[0][None, :]) <= half[:, None] + tol2[0][None, :] + slack[0][:, None]
        )
        if mat.shape[0] > 1 and len(ti):
            keep = (np.abs(xa[1:, ti] - rhs[1:, pj]) <= half[ti] + tol2[1:, pj] + slack[1:, ti]).all(axis=0)
            ti, pj = ti[keep], pj[keep]
    mul: dict[str, list[int]] = {}
    add: dict[str, list[int]] = {}
    for t, j in zip(ti.tolist(), pj.tolist(), strict=True):
        if j < n_pairs:
            mul.setdefault(names[t], []).append(j)
        else:
            add.setdefault(names[t], []).append(j - n_pairs)
    return mul, add


def _log_chance(tol: float, targets: list[float], n_points: int) -> float:
    """log P(an equation with tolerance held on n_points by chance): a target drawn at random over
    its observed range lands within +-tol of the prediction with probability 2*tol/range."""
    spread = max(targets) - min(targets) if targets else 0.0
    if spread <= 0:
        return 0.0
    p = min(1.0, 2 * tol / spread)
    return -1e9 if p == 0.0 else n_points * math.log(p)


def _affine(
    tool: str, context: str, a: str, b: str, numeric: dict[str, list[Any]], quanta: dict[str, float]
) -> Candidate | None:
    pairs = _pairs(numeric[a], numeric[b])  # present values of numeric columns are finite numbers
    if len(pairs) < 3:
        return None
    lo = min(pairs, key=lambda p: p[1])
    hi = max(pairs, key=lambda p: p[1])
    if hi[1] == lo[1]:
        return None
    k = (hi[0] - lo[0]) / (hi[1] - lo[1])
    c = lo[0] - k * lo[1]
    if abs(k) < 1e-12 or (abs(k - 1) < 1e-9 and abs(c) < 1e-9):
        return None
    k, c = _snap(k), _snap(c)  # round constants the data cannot tell apart (1.8, not 1.7999999)
    tol = 0.5 * (quanta[a] + abs(k) * quanta[b])
    if any(abs(x - (k * y + c)) > tol + 1e-9 * max(1.0, abs(x)) for x, y in pairs):
        return None
    params = {"form": "affine", "k": k, "c": c, "quanta": [quanta[a], quanta[b]]}
    ev = {
        "n": len(pairs),
        "distinct": len({y for _, y in pairs}),
        "logp": _log_chance(tol, [x for x, _ in pairs], len(set(pairs)) - 2),
        # a is no function of b: the wide vocabulary keeps no such fit (admit.py)
        "spread": int(_not_a_function(pairs, quanta[a])),
    }  # two points fit k and c
    return Candidate(tool, "relation", context, (a, b), params, ev)


def _not_a_function(pairs: list[tuple[Any, Any]], qa: float) -> bool:
    """Two rows with one ``b`` and ``a`` apart by more than a's rounding: ``a`` is no function of
    ``b``, whatever band b's rounding would allow (bytes of 92 and 113 for one line of text)."""
    span: dict[Any, tuple[Any, Any]] = {}
    for x, y in pairs:
        lo, hi = span.get(y, (x, x))
        span[y] = (min(lo, x), max(hi, x))
    return any(hi - lo > qa for lo, hi in span.values())


def _snap(x: float) -> float:
    r = round(x, 6)
    return r if abs(r - x) <= 1e-9 * max(1.0, abs(x)) else x


def _product(
    tool: str, context: str, a: str, b: str, c: str, numeric: dict[str, list[Any]], quanta: dict[str, float]
) -> Candidate | None:
    ca, cb, cc = numeric[a], numeric[b], numeric[c]
    qa, qb, qc = quanta[a], quanta[b], quanta[c]
    n = 0
    points: set[tuple[Any, Any]] = set()
    tol_max = 0.0
    echoes = [True, True]  # a == b, a == c on every row so far
    for x, y, z in zip(ca, cb, cc, strict=True):
        if x is MISSING or y is MISSING or z is MISSING or x is None or y is None or z is None:
            continue
        tol = 0.5 * (qa + abs(z) * qb + abs(y) * qc) + 1e-9 * max(1.0, abs(x))
        if abs(x - y * z) > tol:
            # falsified: most candidates die on their first row; recorded so pooling sees it
            return Candidate(tool, "relation", context, (a, b, c), {"form": "product"}, {})
        n += 1
        points.add((y, z))
        tol_max = max(tol_max, tol)
        echoes = [echoes[0] and abs(x - y) <= 0.5 * qa, echoes[1] and abs(x - z) <= 0.5 * qa]
    if n == 0:
        return None
    ev = {
        "n": n,
        "points": len(points),
        "bd": len({y for y, _ in points}),
        "cd": len({z for _, z in points}),
        "logp": _log_chance(tol_max, [x for x in ca if x is not MISSING and x is not None], len(points)),
        # a copy of one operand, the other a factor near 1 within a's rounding (a charge echoed,
        # times an abundance of 0.8 to 1): the wide vocabulary leaves it to the echo (admit.py)
        "copies": int(any(echoes)),
    }
    return Candidate(tool, "relation", context, (a, b, c), {"form": "product", "quanta": [qa, qb, qc]}, ev)


def _addition(
    tool: str,
    context: str,
    a: str,
    b: str,
    c: str,
    floats: dict[str, list[float]],
    quanta: dict[str, float],
) -> Candidate:
    xa, xb, xc = floats[a], floats[b], floats[c]
    points = set(zip(xb, xc, strict=True))
    tol = 0.5 * (quanta[a] + quanta[b] + quanta[c])
    ev = {
        "n": len(xa),
        "points": len(points),
        "bd": len({y for y, _ in points}),
        "cd": len({z for _, z in points}),
        "logp": _log_chance(tol, xa, len(points)),
    }
    params = {"form": "add", "quanta": [quanta[a], quanta[b], quanta[c]]}
    return Candidate(tool, "relation", context, (a, b, c), params, ev)


def collect_dates(tool: str, context: str, dates: dict[str, list[Any]], out: Collected) -> None:
    names = sorted(dates)
    for a in names:
        for b in names:
            if a == b or (a.startswith(ARG) and b.startswith(ARG)):
                continue
            # date columns hold only strings with a date key (collect checked them)
            pairs: list[tuple[Any, Any]] = [
                (cached_date_key(x), cached_date_key(y)) for x, y in _pairs(dates[a], dates[b])
            ]
            if not pairs:
                continue
            bad = any(x > y for x, y in pairs)
            ev = {
                "n": len(pairs),
                "distinct": len(set(pairs)),
                "strict": sum(x < y for x, y in pairs),
                "min_b": min(y for _, y in pairs),
                "max_a": max(x for x, _ in pairs),
            }
            if bad:
                out.falsified.add(template("date_order", context, (a, b), {}))
            else:
                out.candidates.append(Candidate(tool, "date_order", context, (a, b), {}, ev))


__all__ = ["collect_dates", "collect_equalities", "collect_selections"]
