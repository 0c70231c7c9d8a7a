"""mcp-sympy (PyPI, FastMCP 3 on the SDK 1.x): a first-year mathematics course's problem sheets, worked through with
SymPy: polynomials factored, expanded and solved, rational functions split, derivatives, integrals, limits, series
and sums, small matrices, number theory, a few differential equations and the answers typeset.

Its results are one string wrapped in structure, ``{"result": "<text>"}`` (an ``outputSchema`` of one string), the
same text in its block: SymPy's printed form of what was asked, so numbers are strings inside expressions
(``(x - 3)*(x + 2)``, ``-x*cos(x) + sin(x)``, ``1 + x + x**2/2 + O(x**3)``, ``3/4``, ``sqrt(2)``, ``oo``), solutions as
printed lists or sets (``[-2, 3]``, ``{-2, 3}``), root multiplicities and eigenvalues as printed dicts (``{2: 1, 3:
1}``), prime factorizations and divisors the same way, matrices as ``Matrix([[1, 2], [3, 4]])``, truth values as
``True``/``False``, floats to the asked number of digits, LaTeX source, a differential equation's general solution
as ``Eq(f(x), C1*exp(2*x))``. The fixture holds no file: a seeded sheet of forty problems (a polynomial with integer
roots, a rational function with distinct linear factors, a product to differentiate and integrate, a limit, a series,
a sum, a 2x2 or 3x3 integer matrix with a nonzero determinant, an integer, a first- or second-order linear equation
with constant coefficients) that the workload draws from; no call asks for a set of symbols (printed in hash order).
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

QUIET = ("FASTMCP_CHECK_FOR_UPDATES=off", "FASTMCP_SHOW_SERVER_BANNER=false")
FUNCS = ("sin(x)", "cos(x)", "exp(x)", "log(x)", "exp(-x)", "sin(2*x)", "cos(3*x)", "sqrt(x)")
LIMITS = (("sin({a}*x)/x", "0"), ("(1 - cos(x))/x**2", "0"), ("(exp({a}*x) - 1)/x", "0"), ("(1 + {a}/x)**x", "oo"),
          ("({a}*x**2 + 1)/(x**2 - {a})", "oo"), ("x*log(x)", "0"), ("(x**2 - {a}**2)/(x - {a})", "{a}"),
          ("tan(x)/x", "0"))  # fmt: skip
SERIES = ("exp(x)", "sin(x)", "cos(x)", "log(1 + x)", "1/(1 - x)", "atan(x)", "exp(x)*sin(x)", "sqrt(1 + x)")
SUMS = (("k", "1", "n"), ("k**2", "1", "n"), ("k**3", "1", "n"), ("1/2**k", "0", "oo"), ("1/k**2", "1", "oo"),
        ("{a}*k + 1", "1", "{b}"), ("k*(k + 1)", "1", "{b}"), ("1/(k*(k + 1))", "1", "n"))  # fmt: skip
CONSTANTS = ("pi", "E", "sqrt(2)", "sqrt(3)", "log(2)", "EulerGamma", "GoldenRatio", "pi**2/6", "exp(pi)")


def _poly(roots: list[int], lead: int = 1) -> str:
    """The expanded polynomial lead*(x - r1)(x - r2)... as SymPy prints it back."""
    coeffs = [lead]
    for r in roots:
        coeffs = [a - r * b for a, b in zip([*coeffs, 0], [0, *coeffs], strict=True)]
    terms = []
    for power, c in zip(range(len(coeffs) - 1, -1, -1), coeffs, strict=True):
        if c == 0:
            continue
        mag = abs(c)
        body = "x" if power == 1 else f"x**{power}" if power else ""
        text = body if mag == 1 and body else f"{mag}*{body}" if body else str(mag)
        terms.append(("-" if c < 0 else "+", text))
    first_sign, first = terms[0]
    return ("-" if first_sign == "-" else "") + first + "".join(f" {s} {t}" for s, t in terms[1:])


def _factored(roots: list[int]) -> str:
    return "*".join(f"(x - {r})" if r > 0 else f"(x + {-r})" if r < 0 else "x" for r in roots)


def _matrix(rng: random.Random) -> list[list[int]]:
    n = rng.choice((2, 2, 3))
    while True:
        m = [[rng.randrange(-5, 8) for _ in range(n)] for _ in range(n)]
        if n == 2 and m[0][0] * m[1][1] - m[0][1] * m[1][0] != 0:
            return m
        if n == 3:
            det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                   + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))  # fmt: skip
            if det != 0:
                return m


def algebra_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    sheet = []
    for _ in range(40):
        roots = sorted(rng.sample(range(-6, 7), rng.choice((2, 2, 3, 3, 4))))
        p, q = rng.sample([k for k in range(-5, 6) if k], 2)
        a, b = rng.randrange(2, 6), rng.randrange(5, 30)
        sheet.append({
            "roots": roots, "lead": rng.choice((1, 1, 1, 2, 3)), "poles": [p, q], "num": [rng.randrange(1, 7), rng.randrange(-6, 7)],
            "product": rng.choice(("x", "x**2", "x**3")) + "*" + rng.choice(FUNCS), "a": a, "b": b,
            "limit": rng.randrange(len(LIMITS)), "series": rng.choice(SERIES), "sum": rng.randrange(len(SUMS)),
            "matrix": _matrix(rng), "n": rng.randrange(12, 5000), "m": rng.randrange(12, 5000),
            "ode": rng.choice(("first", "first", "second", "forced")),
        })  # fmt: skip
    return Fixture(["env", *QUIET, *binary], {"sheet": sheet})


def _matrix_text(m: list[list[int]]) -> str:
    return "Matrix([" + ", ".join("[" + ", ".join(map(str, row)) + "]" for row in m) + "])"


def algebra_call(rng: random.Random, fx: Fixture) -> Call:
    pb = rng.choice(fx.facts["sheet"])
    roots, lead, a, b = pb["roots"], pb["lead"], pb["a"], pb["b"]
    expanded = _poly(roots, lead)
    r = rng.random()
    if r < 0.08:
        return "sympy_factor", {"expr": expanded}
    if r < 0.13:
        return "sympy_expand", {"expr": (f"{lead}*" if lead > 1 else "") + _factored(roots)}
    if r < 0.2:
        eq = expanded if rng.random() < 0.6 else f"Eq({expanded}, 0)"
        return "sympy_solve", {"equation": eq, **({"variables": "x"} if rng.random() < 0.6 else {})}
    if r < 0.24:
        return "sympy_solveset", {"equation": expanded, **({"variable": "x"} if rng.random() < 0.5 else {})}
    if r < 0.28:
        return "sympy_roots", {"expr": expanded}
    if r < 0.3:
        if rng.random() < 0.5:
            return "sympy_degree", {"expr": expanded, **({"variable": "x"} if rng.random() < 0.5 else {})}
        return "sympy_coeff", {"expr": expanded, "x": "x", "n": rng.randrange(1, len(roots) + 1)}
    (p, q), (c, d) = pb["poles"], pb["num"]
    den = f"(x - {p})*(x - {q})".replace("- -", "+ ")
    if r < 0.36:
        return "sympy_apart", {"expr": f"({c}*x + {d})/({den})"}
    if r < 0.4:
        return rng.choice(("sympy_together", "sympy_cancel")), {
            "expr": f"{c}/(x - {p}) + {a}/(x - {q})".replace("- -", "+ ")
        }
    if r < 0.48:
        args: dict[str, object] = {"expr": pb["product"]}
        if rng.random() < 0.6:
            args["variable"] = "x"
        if rng.random() < 0.4:
            args["order"] = rng.randrange(1, 4)
        return "sympy_diff", args
    if r < 0.56:
        expr = (
            pb["product"]
            if "sqrt" not in pb["product"] and "log" not in pb["product"]
            else f"x**2*exp({a}*x)"
        )
        return "sympy_integrate", {"expr": rng.choice((expr, f"1/(x**2 + {a**2})", f"x/(x**2 + {a})", expanded)),
                                   **({"variable": "x"} if rng.random() < 0.6 else {})}  # fmt: skip
    if r < 0.62:
        form, point = LIMITS[pb["limit"]]
        args = {"expr": form.format(a=a), "variable": "x", "point": point.format(a=a)}
        if point == "0" and "log" not in form and rng.random() < 0.3:
            args["direction"] = rng.choice(("+", "-"))
        return "sympy_limit", args
    if r < 0.67:
        args = {"expr": pb["series"]}
        if rng.random() < 0.6:
            args["order"] = rng.randrange(3, 9)
        if rng.random() < 0.5:
            args["variable"] = "x"
        return "sympy_series", args
    if r < 0.71:
        form, low, high = SUMS[pb["sum"]]
        return "sympy_sum", {
            "expr": form.format(a=a),
            "variable": "k",
            "lower": low,
            "upper": high.format(b=b),
        }
    matrix = _matrix_text(pb["matrix"])
    if r < 0.79:
        tool = rng.choice(("sympy_matrix_determinant", "sympy_matrix_determinant", "sympy_matrix_inverse",
                           "sympy_matrix_transpose", "sympy_matrix_eigenvals"))  # fmt: skip
        if tool == "sympy_matrix_eigenvals" and len(pb["matrix"]) == 3:
            tool = "sympy_matrix_determinant"
        return tool, {"matrix": matrix}
    if r < 0.81:
        other = _matrix_text(
            rng.choice([s["matrix"] for s in fx.facts["sheet"] if len(s["matrix"]) == len(pb["matrix"])])
        )
        return rng.choice(("sympy_matrix_multiply", "sympy_matrix_add")), {
            "matrix1": matrix,
            "matrix2": other,
        }
    n, m = str(pb["n"]), str(pb["m"])
    if r < 0.9:
        tool = rng.choice(("sympy_factorint", "sympy_isprime", "sympy_divisors", "sympy_totient", "sympy_nextprime",
                           "sympy_gcd", "sympy_lcm", "sympy_binomial", "sympy_fibonacci"))  # fmt: skip
        if tool in ("sympy_gcd", "sympy_lcm"):
            return tool, {"a": n, "b": m}
        if tool == "sympy_binomial":
            return tool, {"n": str(b + 10), "k": str(a)}
        if tool == "sympy_fibonacci":
            return tool, {"n": str(b + a)}
        return tool, {"n": n}
    if r < 0.94:
        k = {"n": rng.choice((5, 10, 15, 20, 30))} if rng.random() < 0.7 else {}
        return rng.choice(("sympy_evalf", "sympy_n")), {"expr": rng.choice(CONSTANTS), **k}
    if r < 0.96:
        return "sympy_latex", {
            "expr": rng.choice(
                (pb["product"], f"({c}*x + {d})/({den})", expanded, f"Integral({pb['product']}, x)")
            )
        }
    if r < 0.98:
        return "sympy_subs", {"expr": expanded, "old_new": f"x:{rng.randrange(-9, 10)}"}
    ode = {"first": f"Derivative(f(x), x) - {a}*f(x)", "second": f"Derivative(f(x), x, 2) + {a**2}*f(x)",
           "forced": f"Derivative(f(x), x) + {a}*f(x) - {b}"}[pb["ode"]]  # fmt: skip
    return "sympy_dsolve", {"eq": ode, "func": "f(x)"}
