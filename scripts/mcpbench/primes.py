"""mcp-gmpy2 (PyPI, FastMCP 3 on the SDK 1.x, gmpy2): a number theory course's exercise sheets worked with
arbitrary-precision integers: toy RSA keys built and checked, numbers factored and tested for primality, divisor
functions, modular roots and symbols, factorials, Fibonacci and Lucas numbers, binomials and partitions.

Its results are the value wrapped in structure, ``{"result": ...}`` with an ``outputSchema``, beside the same value
as compact JSON text in its block: integers of any length as strings of digits (``"121932631356500531347203"``), a
fraction as ``"3/4"``, a float to the asked precision as a string, true or false, small counts and symbols
(-1, 0, 1) as numbers, lists of primes or divisors as lists of digit strings, a factorisation as a list of
``{"prime": 2, "exp": 3}`` objects, an extended gcd as ``{"g": ..., "x": ..., "y": ...}`` and an integer root as
``{"root": ..., "exact": ...}`` unwrapped, numbers there as JSON numbers. The fixture holds no file: a seeded set of
exercise sheets (primes found by Miller-Rabin here, RSA moduli and exponents, composites small enough to factor by
trial division in a moment, quadratic residues) the workload draws from; every argument is one each tool accepts
(divisors and moduli non-zero, roots of non-negative numbers, Legendre symbols over odd primes, inverses of
coprime pairs).
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

from mcpbench.client import Call
from mcpbench.fixture import Fixture

QUIET = ("FASTMCP_CHECK_FOR_UPDATES=off", "FASTMCP_SHOW_SERVER_BANNER=false")
WITNESSES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # decide every n < 3.3e24


def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for the sizes used here (the sheets are made without the server)."""
    if n < 2:
        return False
    for p in WITNESSES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in WITNESSES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _prime(rng: random.Random, digits: int) -> int:
    n = rng.randrange(10 ** (digits - 1), 10**digits) | 1
    while not is_prime(n):
        n += 2
    return n


def _sheet(rng: random.Random) -> dict[str, object]:
    """One student's sheet: a toy RSA key, numbers to factor and test, a prime with its residues."""
    p, q = _prime(rng, rng.randrange(6, 14)), _prime(rng, rng.randrange(6, 14))
    phi = (p - 1) * (q - 1)
    e = next(k for k in (65537, 257, 17, 5, 3, 7, 11) if math.gcd(k, phi) == 1)
    small = _prime(rng, rng.randrange(3, 7))
    smooth = math.prod(rng.choice((2, 3, 5, 7, 11, 13)) for _ in range(rng.randrange(3, 12)))
    return {
        "p": p, "q": q, "n": p * q, "phi": phi, "e": e, "d": pow(e, -1, phi),
        "message": rng.randrange(3, p * q), "small_prime": small,
        "residues": sorted({rng.randrange(1, small) ** 2 % small for _ in range(4)} - {0}),
        "composites": [rng.randrange(10**4, 10**9) for _ in range(3)] + [smooth],
        "big": [rng.randrange(10**20, 10**60) for _ in range(3)],
        "odd": [rng.randrange(3, 10**7) | 1 for _ in range(3)],
    }  # fmt: skip


def primes_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    return Fixture(["env", *QUIET, *binary], {"sheets": [_sheet(rng) for _ in range(30)]})


def _number(rng: random.Random, s: dict[str, Any]) -> int:
    keys = ("p", "q", "n", "phi", "d", "message")
    return int(rng.choice([*(s[k] for k in keys), *s["composites"], *s["big"], *s["odd"]]))


def primes_call(rng: random.Random, fx: Fixture) -> Call:
    s = rng.choice(fx.facts["sheets"])
    a, b = _number(rng, s), _number(rng, s)
    small = int(rng.choice(s["composites"] + s["odd"]))
    r = rng.random()
    if r < 0.2:  # arithmetic on big integers
        tool = rng.choice(("add", "sub", "mul", "div", "mod", "gcd", "lcm", "gcdext"))
        return tool, {"a": str(a), "b": str(b)}
    if r < 0.32:  # the RSA key: encrypt, decrypt, inverse, moduli
        what = rng.choice(("encrypt", "decrypt", "invert", "pow"))
        if what == "encrypt":
            return "powmod", {"base": str(s["message"]), "exp": str(s["e"]), "mod": str(s["n"])}
        if what == "decrypt":
            c = pow(int(s["message"]), int(s["e"]), int(s["n"]))
            return "powmod", {"base": str(c), "exp": str(s["d"]), "mod": str(s["n"])}
        if what == "invert":
            return "invert", {"a": str(s["e"]), "m": str(s["phi"])}
        return "pow", {"base": str(rng.randrange(2, 1000)), "exp": str(rng.randrange(2, 120))}
    if r < 0.47:  # primality
        tool = rng.choice(("is_prime", "is_probable_prime", "miller_rabin", "next_prime", "prev_prime"))
        n = rng.choice((a, s["p"], s["q"], small))
        args: dict[str, object] = {"n": str(n)}
        if tool in ("is_probable_prime", "miller_rabin") and rng.random() < 0.5:
            args["rounds"] = rng.randrange(5, 50)
        return tool, args
    if r < 0.62:  # factoring and divisor functions, on numbers trial division finishes at once
        tool = rng.choice(
            ("prime_factors", "mobius", "phi", "divisors", "num_divisors", "sum_divisors", "is_smooth")
        )
        n = small if tool != "divisors" else small % 10**7 + 2
        if tool == "is_smooth":
            return tool, {"n": str(n), "bound": rng.choice((7, 13, 100, 1000))}
        return tool, {"n": str(n)}
    if r < 0.74:  # modular square roots and symbols over the sheet's small prime
        p = int(s["small_prime"])
        tool = rng.choice(("legendre", "jacobi", "kronecker", "tonelli"))
        if tool == "tonelli":  # a residue's root: every residue on the sheet is a square mod p
            return tool, {"n": str(rng.choice(s["residues"])), "p": str(p)}
        if tool == "jacobi":
            return tool, {"a": str(rng.randrange(1, 10**6)), "n": str(rng.choice(s["odd"]))}
        return tool, {"a": str(rng.randrange(1, 10**6)), ("p" if tool == "legendre" else "n"): str(p)}
    if r < 0.86:  # roots, sizes and shapes of a number
        tool = rng.choice(("sqrt", "is_square", "is_power", "iroot", "num_digits", "num_bits", "mpz"))
        n = rng.choice((a, a * a, rng.randrange(2, 40) ** rng.randrange(2, 9)))
        if tool == "iroot":
            return tool, {"n": str(n), "r": rng.randrange(2, 8)}
        if tool == "num_digits" and rng.random() < 0.5:
            return tool, {"n": str(n), "base": rng.choice((2, 8, 16, 36))}
        return tool, {"n": str(n)}
    tool = rng.choice(("fac", "fib", "luc", "binomial", "partition", "sieve", "mpq", "mpfr", "is_sophie_germain",
                       "is_safe_prime", "lucas_lehmer"))  # fmt: skip
    if tool == "binomial":
        n = rng.randrange(5, 400)
        return tool, {"n": str(n), "k": str(rng.randrange(0, n + 1))}
    if tool == "mpq":
        return tool, {"numer": str(rng.randrange(-(10**6), 10**6)), "denom": str(rng.randrange(1, 10**4))}
    if tool == "mpfr":
        args = {"n": f"{rng.randrange(10**6)}.{rng.randrange(10**8):08d}"}
        return tool, {**args, **({"prec": rng.choice((32, 53, 64, 128, 512))} if rng.random() < 0.6 else {})}
    if tool in ("is_sophie_germain", "is_safe_prime"):
        return tool, {"p": str(rng.choice((s["small_prime"], s["p"] if int(s["p"]) < 10**9 else small)))}
    if tool == "lucas_lehmer":
        return tool, {"p": str(rng.choice((3, 5, 7, 11, 13, 17, 19, 23, 31, 61, 89, 107, 127, 521, 607)))}
    if tool == "sieve":
        return tool, {"limit": str(rng.randrange(2, 600))}
    upper = {"fac": 300, "fib": 1500, "luc": 1500, "partition": 300}[tool]
    return tool, {"n": str(rng.randrange(0, upper))}
