"""Worlds inside the bridge: a seeded offline world (in-memory databases filled by the package's own
data factories) and a benchmark task world (needs the user's data download).

Runs inside the AppWorld venv. AppWorld mocks time process-wide, so one world per process.
"""

from __future__ import annotations

import inspect
import random
from typing import Any

from fastpath import FastRequester

# models whose factories need hand-made context (a file system tree, an admin's own accounts)
_SKIP_MODELS = {"SQLModel", "_SQLModel"}


ROADS = ("fast", "appworld")


def _call(
    requester: Any, fast: Any, app: str, api: str, args: dict[str, Any], road: str = "fast"
) -> tuple[int, Any]:
    """Status code and JSON body of one API call; an exception inside the app code is a 500.

    ``road="fast"`` drives the app in this thread (``fastpath.FastRequester``); ``"appworld"`` takes
    AppWorld's own request path (its TestClient). Both give the same answer; the second is kept for
    the equivalence tests and the benchmark's side-by-side baseline.
    """
    if road not in ROADS:
        raise ValueError(f"unknown road {road!r}: expected one of {', '.join(ROADS)}")
    try:
        if road == "fast":
            resp = fast.request(app, api, args)
        else:
            resp = requester._request(_app_name=app, _api_name=api, **args)
    except Exception as exc:  # noqa: BLE001 (the in-process test client re-raises the app's own errors)
        return 500, {"message": f"{type(exc).__name__}: {exc}"[:500]}
    return resp.status_code, requester.response_to_json(resp)


class SeededWorld:
    """All apps on in-memory databases; per app one verified, logged-in user and some objects.

    Every response comes from the real app code (FastAPI routes, pydantic response models), so
    successes and 401/409/422 failures are genuine; the values are the factories' random ones.
    """

    def __init__(self, seed: int, n_objects: int = 4, frozen_time: str | None = None):
        from datetime import datetime

        from appworld.apps import get_all_apps
        from appworld.collections.apis import ApiCollection
        from appworld.common.random import set_random_seed
        from appworld.common.utils import import_models_module

        set_random_seed(seed, python=True, faker_=True, model_factory=True)
        self.rng = random.Random(seed)
        self.apps = [a for a in get_all_apps() if a not in ("api_docs", "supervisor")]
        _, self.requester = ApiCollection.load(
            to_db_home_path=":memory:",
            from_db_home_path=":memory:",
            load_apps=None,
            # a frozen clock (as in a task world) makes two worlds of one seed answer alike
            date_and_time=datetime.fromisoformat(frozen_time) if frozen_time else None,
            raise_on_failure=False,
            show_api_response_schemas=False,
            add_login_shortcut=False,
            allow_datetime_change=True,
            parse_datetimes=False,
            max_num_requests=None,
            munchify_response=False,
        )
        self.fast = FastRequester(self.requester)
        self.models = {a: import_models_module(a) for a in [*self.apps, "admin"]}
        for m in self.models.values():
            m.SQLModel.create_db()
        self.users: dict[str, dict[str, Any]] = {}
        self.tokens: dict[str, str] = {}
        self.ids: dict[str, dict[str, list[int]]] = {}  # app -> model name -> ids
        for app in self.apps:
            self._seed_app(app, n_objects)

    # ----------------------------------------------------------------------------- seeding

    def _classes(self, app: str) -> dict[str, type]:
        mod = self.models[app]
        return {
            n: c
            for n, c in inspect.getmembers(mod, inspect.isclass)
            if n not in _SKIP_MODELS and hasattr(c, "factory") and c.__module__ == mod.__name__
        }

    def _create(self, app: str, cls: type, depth: int = 0, **overrides: Any) -> Any:
        """One saved object of ``cls``; required ``*_id`` fields point to existing objects (or new ones)."""
        classes = self._classes(app)
        schema = cls.schema()
        required = set(schema.get("required") or [])
        mapping = cls.field_mapping()
        fields = dict(overrides)
        for name in cls.__fields__:
            if name in fields or name not in required or not (name.endswith("_id") or name.endswith("_ids")):
                continue
            target = mapping.get(name, name).removesuffix("_ids").removesuffix("_id")
            tcls = classes.get("".join(p.title() for p in target.split("_")))
            if tcls is None or tcls is cls or depth > 4:
                raise LookupError(f"{app}.{cls.__name__}.{name}")
            pool = self.ids.get(app, {}).get(tcls.__name__)
            ref = self.rng.choice(pool) if pool else self._create(app, tcls, depth + 1).id
            fields[name] = [ref] if name.endswith("_ids") else ref
        last: Exception | None = None
        for _ in range(10):  # factories sometimes draw a duplicate unique value: draw again
            obj = cls.factory().build(**fields)
            try:
                cls.save_all([obj])
            except Exception as exc:  # noqa: BLE001 (the app raises HTTPException on conflicts)
                last = exc
                continue
            self.ids.setdefault(app, {}).setdefault(cls.__name__, []).append(obj.id)
            return obj
        raise RuntimeError(f"could not save a {app}.{cls.__name__}: {last}")

    def _seed_app(self, app: str, n: int) -> None:
        classes = self._classes(app)
        user_cls = classes.get("User")
        user = None
        if user_cls is not None:
            extra = {"verified": True} if "verified" in user_cls.__fields__ else {}
            user = self._create(app, user_cls, **extra)
            self.users[app] = {
                k: getattr(user, k) for k in ("id", "email", "phone_number", "first_name") if hasattr(user, k)
            }
            username = getattr(user, "email", None) or getattr(user, "phone_number", None)
            resp = self.requester._request(
                _app_name=app, _api_name="login", username=username, password=user.password
            )
            if resp.status_code == 200:
                self.tokens[app] = resp.json()["access_token"]
        for _name, cls in sorted(classes.items()):
            if cls is user_cls:
                continue
            own = {"user_id": user.id} if user is not None and "user_id" in cls.__fields__ else {}
            for _ in range(n):
                try:
                    self._create(app, cls, **own)
                except Exception:  # noqa: BLE001 (a model that needs context we do not build: skip it)
                    break

    # ----------------------------------------------------------------------------- calls

    def call(self, app: str, api: str, args: dict[str, Any], road: str = "fast") -> tuple[int, Any]:
        return _call(self.requester, self.fast, app, api, args, road)

    def describe(self) -> dict[str, Any]:
        return {"users": self.users, "tokens": self.tokens, "ids": self.ids}

    def close(self) -> None:
        from appworld.collections.apis import ApiCollection

        ApiCollection.close_all()


class TaskWorld:
    """One benchmark task (``AppWorld(task_id)``): needs ``$APPWORLD_ROOT/data`` (the user's download)."""

    def __init__(self, task_id: str, experiment: str):
        from appworld.environment import AppWorld

        self.world = AppWorld(
            task_id=task_id,
            experiment_name=experiment,
            raise_on_failure=False,
            parse_datetimes=False,
            munchify_response=False,
        )
        self.requester = self.world.requester
        self.fast = FastRequester(self.requester)

    def describe(self) -> dict[str, Any]:
        task = self.world.task
        sup = task.supervisor
        return {
            "task_id": task.id,
            "instruction": task.instruction,
            "allowed_apps": list(task.allowed_apps),
            "datetime": str(task.datetime),
            "supervisor": {
                k: sup[k] for k in ("first_name", "last_name", "email", "phone_number") if k in sup
            },
        }

    def call(self, app: str, api: str, args: dict[str, Any], road: str = "fast") -> tuple[int, Any]:
        try:
            return _call(self.requester, self.fast, app, api, args, road)
        finally:
            # one tool call is one interaction: AppWorld caps API calls per interaction
            self.requester.reset_request_count()

    def completed(self) -> bool:
        return bool(self.world.task_completed())

    def evaluate(self) -> dict[str, Any]:
        # the evaluator reads the end state from disk; AppWorld.execute saves it, direct calls do not
        self.world._save_state(self.world.output_db_home_path_on_disk)
        self.world.save_logs()
        tracker = self.world.evaluate(suppress_errors=True)
        return tracker.to_dict()

    def close(self) -> None:
        self.world.close()
