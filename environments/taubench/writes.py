"""Post-states without any task's ground truth: seeded random valid writes of a domain, on fresh databases.

For every customer, ``per_user`` draws of the domain's ``valid_write``, each on its own fresh copy
of the database; a write the tools refuse is skipped (its database is unchanged). Yields
``(label, db)`` with labels ``random-<user_id>-<n>``. Used by the plugin's database source for a
domain whose only task split is the one studied (airline). Knows nothing about monitors.
"""

from __future__ import annotations

from collections.abc import Iterator

from core.seeding import rng
from environments.taubench.db import DB
from environments.taubench.env import TauBenchEnv


def random_writes(env: TauBenchEnv, seed: int = 0, per_user: int = 2) -> Iterator[tuple[str, DB]]:
    domain = env.domain
    if domain.valid_write is None:
        raise ValueError(f"the {domain.name} domain has no random valid writes")
    base = env.data.base
    for user_id in sorted(base.collections["users"]):
        r = rng(f"taubench-{domain.name}-writes", seed, user_id)
        for n in range(per_user):
            db = base.fresh()
            call = domain.valid_write(db, user_id, r)
            if call is not None:
                domain.execute(db, *call)
                yield f"random-{user_id}-{n}", db
