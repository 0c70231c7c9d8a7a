"""axiom-calculator-mcp (PyPI, FastMCP 3 on the SDK 1.x): a housing counsellor's caseload, worked in plain
arithmetic: mortgages with their amortization, renting against buying, savings growth, FIRE numbers, returns after
inflation, two loan offers side by side, a store plan's true cost and a debt's payoff.

Its results are structured content (an ``outputSchema`` of an object of any keys) beside the same object as
indented JSON: dollar amounts as numbers rounded to cents (payments, totals, interest, equity, net worth), rates and
percentages, months and years as integers, yearly schedules as lists of objects with a year and balances,
plain-language verdicts and explanations as strings ("Buying", "Option A saves $4,210"), an implied APR. The fixture
holds no file: a seeded caseload of households (home price, down payment, rate, term, rent, savings, expenses, card
balances, two loan offers, a store plan) that the workload draws from; every payment beats its interest, every store
plan costs more than its price, every term and rate stays in a household's range.
"""

from __future__ import annotations

import random
from pathlib import Path

from mcpbench.client import Call
from mcpbench.fixture import Fixture

# no update check, no banner; PORT empty, so the server speaks stdio (a set PORT would make it serve HTTP)
QUIET = ("FASTMCP_CHECK_FOR_UPDATES=off", "FASTMCP_SHOW_SERVER_BANNER=false", "PORT=")


def mortgages_setup(work: Path, rng: random.Random, binary: list[str]) -> Fixture:
    cases = []
    for _ in range(40):
        price = rng.randrange(180, 1200) * 1000
        balance = rng.randrange(2, 40) * 500
        card_rate = rng.choice((14.99, 18.9, 21.5, 24.99, 29.9))
        store_price = rng.randrange(300, 4000)
        months = rng.choice((6, 12, 18, 24, 36))
        cases.append({
            "price": price, "down": rng.choice((5, 10, 15, 20, 25)), "rate": round(rng.uniform(2.5, 8.5), 2),
            "years": rng.choice((15, 20, 25, 30)), "rent": round(price * rng.uniform(0.0028, 0.0055), -1),
            "savings": rng.randrange(0, 400) * 1000, "expenses": rng.randrange(24, 120) * 1000,
            "contribution": rng.choice((0, 100, 250, 500, 1000)), "balance": balance, "card_rate": card_rate,
            "payment": round(balance * (card_rate / 1200 * 1.5 + rng.uniform(0.02, 0.08)), 2),
            "loan": rng.randrange(5, 80) * 1000, "offers": [(round(rng.uniform(3, 12), 2), rng.choice((3, 4, 5, 7)))
                                                           for _ in range(2)],
            "store": {"price": store_price, "months": months,
                      "payment": round(store_price * rng.uniform(1.02, 1.35) / months, 2)},
        })  # fmt: skip
    return Fixture(["env", *QUIET, *binary], {"cases": cases})


def mortgages_call(rng: random.Random, fx: Fixture) -> Call:
    c = rng.choice(fx.facts["cases"])
    home = {
        "home_price": c["price"],
        "down_payment_pct": c["down"],
        "annual_rate_pct": c["rate"],
        "years": c["years"],
    }
    r = rng.random()
    if r < 0.18:
        extra = {"monthly_extras": rng.choice((100, 250, 500))} if rng.random() < 0.3 else {}
        return "mortgage_calculator", {**home, **extra}
    if r < 0.3:
        args: dict[str, object] = {
            **home,
            "years": rng.choice((5, 7, 10, c["years"])),
            "monthly_rent": c["rent"],
        }
        if rng.random() < 0.4:
            args["annual_home_appreciation_pct"] = rng.choice((1.5, 2.5, 3.5, 5.0))
        if rng.random() < 0.4:
            args["annual_rent_increase_pct"] = rng.choice((2.0, 3.0, 4.0))
        return "rent_vs_buy", args
    if r < 0.44:
        args = {"principal": c["savings"] or 5000, "annual_rate_pct": rng.choice((3.0, 4.5, 5.0, 6.5, 7.0, 8.0)),
                "years": rng.randrange(5, 41)}  # fmt: skip
        if c["contribution"]:
            args["monthly_contribution"] = c["contribution"]
        if rng.random() < 0.5:
            args["compounding_frequency"] = rng.choice(("monthly", "quarterly", "annually"))
        return "compound_interest", args
    if r < 0.56:
        args = {"annual_expenses": c["expenses"]}
        for key, values in (("withdrawal_rate_pct", (3.0, 3.5, 4.0)), ("current_savings", (c["savings"],)),
                            ("annual_savings", (12000, 24000, 36000)), ("expected_return_pct", (5.0, 6.0, 7.0)),
                            ("inflation_pct", (2.0, 2.5, 3.0))):  # fmt: skip
            if rng.random() < 0.5:
                args[key] = rng.choice(values)
        return "fire_number", args
    if r < 0.66:
        nominal = rng.choice((4.0, 5.5, 7.0, 8.0, 10.0))
        args = {"nominal_return_pct": nominal, "inflation_rate_pct": rng.choice((1.5, 2.0, 3.0, 4.0)),
                "years": rng.randrange(1, 31)}  # fmt: skip
        if rng.random() < 0.5:
            args["initial_amount"] = c["savings"] or 10000
        return "inflation_adjusted_return", args
    if r < 0.8:
        (ra, ya), (rb, yb) = c["offers"]
        args = {"loan_amount": c["loan"], "option_a_rate_pct": ra, "option_a_years": ya, "option_b_rate_pct": rb,
                "option_b_years": yb}  # fmt: skip
        if rng.random() < 0.4:
            args["option_a_fees"] = rng.choice((0, 150, 400))
            args["option_b_fees"] = rng.choice((0, 250, 900))
        return "loan_comparison", args
    if r < 0.9:
        s = c["store"]
        args = {"purchase_price": s["price"], "monthly_payment": s["payment"], "num_payments": s["months"]}
        if rng.random() < 0.3:
            args["upfront_fees"] = rng.choice((25, 49, 99))
        return "true_credit_cost", args
    args = {"balance": c["balance"], "annual_rate_pct": c["card_rate"], "monthly_payment": c["payment"]}
    if rng.random() < 0.4:
        args["extra_monthly"] = rng.choice((25, 50, 100))
    return "debt_payoff_plan", args
