"""Support thresholds for keeping a mined rule, with the reasoning behind each number.

Every rule must hold on *every* qualifying training example; on top of that it needs enough
evidence that it did not hold by coincidence. Following Daikon, a rule is kept only if the chance
that a property which is really a coin flip per independent observation (q0 = 1/2) held on all of
them is below 1 - confidence. With confidence 0.99 that needs n with (1/2)^n < 0.01, i.e. n >= 7.
Evidence counts *distinct* values (or distinct executions), never raw samples, so a constant or
repeated field cannot accumulate evidence by being copied (Daikon ICSE'00; AGORA's vacuity fix).

Evidence is pooled across tools that carry the same field names (see mine.py): a template such as
``valid_from <= valid_to`` is admitted only if *no* tool's clean example contradicts it and the
summed evidence passes the threshold below. Equations with a tolerance (affine, product) must also
beat chance: a target drawn at random over its observed range would land within +-tol of the
prediction with p = 2*tol/range, and p**(distinct points) must stay below 1 - confidence (for an
affine rule two points are spent fitting k and c). Orderings need overlapping value ranges
(AGORA), and only fields of the same kind are compared (numbers with numbers, ISO dates with ISO
dates, strings with arguments of the same type).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any


def coincidence_floor(confidence: float = 0.99, q0: float = 0.5) -> int:
    """Smallest n with q0**n < 1 - confidence (7 for the defaults)."""
    return math.floor(math.log(1.0 - confidence) / math.log(q0)) + 1


def constant_floor(th: Thresholds) -> int:
    """Distinct executions a one-value domain needs: an unseen value's chance after n identical ones
    is 1 / (n + 1) (Laplace's rule of succession), which must fall below 1 - confidence."""
    return math.ceil(1 / (1 - th.confidence))


@dataclass(frozen=True)
class Thresholds:
    confidence: float = 0.99
    # required / type / non-empty list: distinct executions in which the parent was present.
    min_presence: int = coincidence_floor()
    # positive / non-negative: distinct numeric values (the sign of each is the coin flip).
    min_distinct_sign: int = coincidence_floor()
    # categorical domain: at most this many values (TFDV caps at 100; agent receipts need small),
    max_domain: int = 10
    # ...except from a public database: its records are the population, not a sample, so a state, a
    # brand or an airport code is a closed set up to TFDV's cap (receipts show a bounded list)
    max_domain_records: int = 100
    # every value seen at least twice (Good-Turing: estimated unseen mass f1/n is then 0),
    min_count_per_value: int = 2
    # ...or, when > 0 (a database's records), singletons allowed while that unseen mass f1/n stays
    # below this (from_records sets 1 - confidence: a catalog's one-off colour is still a colour)
    max_unseen_mass: float = 0.0
    # at least this many observations per category, and the coincidence floor overall;
    min_per_category: int = 4
    # ...and the domain must be smaller than half the distinct argument tuples that produced it,
    # so a field that merely copies its inputs (a name per city) is not read as a closed set.
    domain_arg_ratio: float = 0.5
    max_domain_string: int = 40
    # equalities (echo, a == b): distinct shared values; 3 rules out constants and 0/1 flags.
    min_distinct_eq: int = 3
    # pairwise / ternary rules also need the coincidence floor of co-present executions.
    min_pair_samples: int = coincidence_floor()
    # affine a == k*b + c has 2 parameters: k + 1 = 3 distinct b values (DIG's rule).
    min_distinct_affine: int = 3
    # product a == b*c: at least 4 distinct (b, c) points, and each operand takes >= 3 values
    # (a 0/1 or 1/2 flag times a total is an affine rule in disguise, usually a coincidence).
    min_distinct_product: int = 4
    # date ordering a <= b: distinct (a, b) pairs with overlapping ranges (AGORA's filter).
    min_distinct_dates: int = coincidence_floor()
    # a map keyed by ids (variants by item id): objects at one path hold on average at most this
    # share of all the keys seen there (a record repeats its field names; a map's keys come and go)
    map_key_share: float = 0.5

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


DEFAULT = Thresholds()
