"""tau-bench's plugin: what a study needs to know about this world (see ``core.plugin``).

One world, two domains: the option ``domain`` (``retail``, the default, or ``airline``) picks the
database, tools, tasks and policy; the user simulation, the reward, the fetch, the card user and
the scripted players are shared. Contracts come from clean traces (ground-truth replays plus seeded
random calls) and from the public database with post-states (retail: a split's ground-truth
writes; airline, which has only a test split: seeded random valid writes, so no studied task's
ground truth enters the shared contracts), with bindings saying which tool returns which record.
Scripted agents live in ``players/``, the card user in ``users/`` (cards in ``cards/``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from core.plugin import Database, Plugin, PolicyFactory
from core.protocol import ToolCall
from environments.taubench.domains import DEFAULT
from environments.taubench.env import MAX_STEPS, TauBenchEnv


class TauBenchPlugin(Plugin):
    name = "taubench"
    description = (
        "tau-bench (offline re-implementation): retail (500 users, 1,000 orders, 50 products, 16 tools) "
        "and airline (500 users, 2,000 reservations, 300 flights, 14 tools); option domain=retail|airline"
    )
    contract_sources = ("traces", "database")

    def make(
        self,
        data_dir: str | None = None,
        max_steps: int = MAX_STEPS,
        domain: str = DEFAULT,
        **options: Any,
    ) -> TauBenchEnv:
        if options:
            raise TypeError(
                f"taubench takes only 'data_dir', 'max_steps' and 'domain', got {sorted(options)}"
            )
        return TauBenchEnv(data_dir=data_dir, max_steps=max_steps, domain=domain)

    def published_traffic(self, **options: Any) -> tuple[str, str]:
        """tau-bench's published GPT-4o airline runs (``make data-taubench`` fetches them, pinned)."""
        from environments.taubench.data import ENV_VAR, resolve_root

        domain = options.get("domain", "airline")
        if domain != "airline":
            raise NotImplementedError(f"tau-bench publishes GPT-4o runs for airline here, not {domain!r}")
        path = resolve_root(options.get("data_dir")) / "historical" / "gpt-4o-airline.json"
        return str(path), f"run `make data-taubench` (or set {ENV_VAR} to the data root, or pass --file)"

    def unavailable(self) -> str | None:
        """The default domain's pinned files must be there (their sha256 is checked when the world starts)."""
        from environments.taubench.data import FIX, SHA256, resolve_dir

        folder = resolve_dir()
        missing = [name for name in sorted(SHA256[DEFAULT]) if not (folder / name).is_file()]
        if missing:
            return f"tau-bench data missing in {folder} ({', '.join(missing[:3])}{'...' if len(missing) > 3 else ''}): {FIX}"
        return None

    def select(self, env: Any, rule: str, params: Mapping[str, Any], seed: int) -> list | None:
        """``carded_hash``: the ``n`` tasks of ``split`` with the smallest stable_int(seed, salt, task_id),
        among tasks that have a user card (``carded: false`` ranks every task of the split)."""
        if rule != "carded_hash":
            return None
        from core.seeding import stable_int
        from environments.taubench.cards import cards_of

        split = str(params.get("split", "test"))
        tasks = env.tasks(split)
        if params.get("carded", True):
            have = {c["task_id"] for c in cards_of(split, env.domain.name)["cards"]}
            tasks = [t for t in tasks if t.task_id in have]
        salt = str(params.get("salt", "taubench"))
        ranked = sorted(tasks, key=lambda t: stable_int(seed, salt, t.task_id))
        n = int(params.get("n", len(ranked)))
        if n > len(ranked):
            raise ValueError(f"carded_hash: asked for {n} tasks, split {split!r} has {len(ranked)} eligible")
        return ranked[:n]

    def clean_traces(
        self, env: Any, split: str | None = None, seed: int = 0, random_calls: int = 4, **options: Any
    ) -> Iterable[Mapping[str, Any]]:
        """Ground-truth calls and seeded random calls of ``split`` (default: the domain's, retail train and
        airline test; a task is then checked by contracts mined from other customers' folds)."""
        if options:
            raise TypeError(f"taubench clean_traces takes split, seed, random_calls; got {sorted(options)}")
        from environments.taubench.traces import traces

        return traces(env, split=split, seed=seed, random_calls=random_calls)

    def tool_schemas(self, env: Any) -> Mapping[str, Mapping[str, Any]]:
        return {name: spec.output_schema for name, spec in env.tool_specs().items() if spec.output_schema}

    def database(self, env: Any, split: str | None = "default") -> Database:
        """The initial records, plus post-states keyed ``<id>~<source>``: each record a ``split``'s ground
        truth changes, or each record the domain's seeded random valid writes change (``"random"``).
        ``"default"`` is retail's train split, and random writes for airline (its only split is the
        one studied); ``None``: the initial records alone.

        Post-states matter: refunds, cancelled statuses, new records and changed balances occur only
        after writes, so contracts learned from the initial records alone would flag them.
        """
        from environments.taubench import reward

        domain = env.domain
        base = env.data.base.collections
        collections = {name: dict(records) for name, records in base.items()}
        if split == "default":
            split = "train" if "train" in domain.splits else "random"
        if split == "random":
            from environments.taubench.writes import random_writes

            post = random_writes(env)
        else:
            post = (
                (task.task_id, reward.replay(domain, env.data.base, env.record(task.task_id))[0])
                for task in (env.tasks(split) if split else [])
            )
        for label, db in post:
            for coll, key in db.changed():
                collections[coll][f"{key}~{label}"] = db.collection(coll)[key]
        bindings: dict[str, list[tuple[str, str]]] = {
            tool: [(coll, "$")] for tool, (coll, _) in domain.record_of.items()
        }
        if domain.views is not None:  # e.g. airline's flight days, the records a search returns
            views, view_bindings = domain.views(base)
            collections.update(views)
            for tool, places in view_bindings.items():
                bindings.setdefault(tool, []).extend(places)
        return Database(collections=collections, bindings=bindings)

    def presentation(self, env: Any) -> Mapping[str, Any]:
        """What a tau-bench run's tables say beside their rows: the endpoint, the unit, the paper's figures
        (retail only) and the two limits of the offline players."""
        notes = [
            "the scripted user's cards are built from each task's ground-truth writes (the write tool's name "
            "included), which makes scripted baselines near perfect: a test of the harness, not of a model",
            "the skeptic player knows the domain's status values (and, for airline, its cabins) by name",
        ]
        retail = env.domain.name == "retail"
        if not retail:
            notes.append("paper: retail only (the paper ran no airline study; nothing here is compared)")
        return {
            "endpoint": f"database reward (tau-bench), {env.domain.name}: the final database equals the "
            "ground truth's, and every required output was said",
            "unit": "user",
            "paper": "taubench-retail" if retail else None,
            "notes": notes,
        }

    def data_digest(self, env: Any) -> str:
        return env.data.folder_sha256()

    def oracle(self, env: Any, task_id: str) -> list[ToolCall]:
        return [
            ToolCall(a["name"], dict(a["kwargs"]), call_id=f"gt-{i}")
            for i, a in enumerate(env.record(task_id).actions)
        ]

    def scripted_policies(self) -> Mapping[str, PolicyFactory]:
        from environments.taubench.players import POLICIES

        return dict(POLICIES)

    def scripted_users(self) -> Mapping[str, PolicyFactory]:
        from environments.taubench.users.card_user import CardUser

        return {"card-user": CardUser}  # the first entry is the default simulated user


PLUGIN = TauBenchPlugin()
