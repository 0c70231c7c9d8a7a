"""A frozen clock for the package's tools: the suites stamp ``datetime.datetime.now()`` on writes
(a sent e-mail's timestamp, a file's ``last_modified``), which would make two runs of one episode
end in different states. While a call runs, every package module that reads the wall clock sees an
episode clock instead: it starts at an instant drawn from the config seed and ticks one second per
reading, so writes keep their order and the same episode always ends in the same state.
"""

from __future__ import annotations

import datetime as _dt
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager

from core.seeding import stable_int

# the suites' own "today" is 2024-05-15 (their data are written around it); the clock starts on that day
DEFAULT_START = "2024-05-15T08:00:00"
WINDOW_S = 10 * 3600  # the start is drawn within ten hours of DEFAULT_START (08:00-18:00)


class EpisodeClock:
    """One episode's time: ``start`` then one second more at each reading."""

    def __init__(self, start: _dt.datetime):
        self.start = start
        self.readings = 0

    @classmethod
    def seeded(cls, base: str, seed: int, task_id: str) -> EpisodeClock:
        """The instant ``base`` plus a draw of whole seconds within ``WINDOW_S`` from (seed, task)."""
        try:
            t0 = _dt.datetime.fromisoformat(base)
        except ValueError:
            raise ValueError(
                f"agentdojo: clock {base!r} is not an ISO date-time such as {DEFAULT_START}"
            ) from None
        return cls(t0 + _dt.timedelta(seconds=stable_int(seed, "agentdojo-clock", task_id) % WINDOW_S))

    def now(self) -> _dt.datetime:
        t = self.start + _dt.timedelta(seconds=self.readings)
        self.readings += 1
        return t


def _clocked_module(clock: EpisodeClock) -> types.ModuleType:
    """A stand-in for the ``datetime`` module whose ``datetime.now``/``today`` read ``clock``."""

    class datetime(_dt.datetime):  # noqa: N801 - it stands in for datetime.datetime
        @classmethod
        def now(cls, tz: _dt.tzinfo | None = None) -> _dt.datetime:  # type: ignore[override]
            t = clock.now()
            return t.replace(tzinfo=tz) if tz is not None else t

        @classmethod
        def today(cls) -> _dt.datetime:  # type: ignore[override]
            return clock.now()

    mod = types.ModuleType("datetime")
    mod.__dict__.update({k: v for k, v in vars(_dt).items() if not k.startswith("__")})
    mod.datetime = datetime  # type: ignore[attr-defined]
    return mod


def _names(code: types.CodeType) -> set[str]:
    out = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out |= _names(const)
    return out


def _reads_clock(module: types.ModuleType) -> bool:
    """Whether a function of ``module`` (or a method of its classes) names ``now`` or ``today``."""
    for value in vars(module).values():
        if getattr(value, "__module__", None) != module.__name__:
            continue
        members = vars(value).values() if isinstance(value, type) else [value]
        for f in members:
            code = getattr(getattr(f, "__func__", f), "__code__", None)
            if code is not None and _names(code) & {"now", "today"}:
                return True
    return False


_READERS: dict[str, bool] = {}


def _clock_readers() -> list[types.ModuleType]:
    """The package's loaded modules that read the wall clock through their global ``datetime``
    (``datetime.datetime.now()`` in the tools that stamp writes); only those are given the episode's clock."""
    out = []
    for name, m in list(sys.modules.items()):
        if not name.startswith("agentdojo.default_suites") or m is None:
            continue
        known = _READERS.get(name)
        if known is None:
            known = _READERS[name] = getattr(m, "datetime", None) is _dt and _reads_clock(m)
        if known:
            out.append(m)
    return out


@contextmanager
def frozen(clock: EpisodeClock) -> Iterator[None]:
    """Within the block, the package's tools read ``clock``; their modules are restored after."""
    readers = _clock_readers()
    stand_in = _clocked_module(clock)
    for m in readers:
        m.datetime = stand_in  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for m in readers:
            m.datetime = _dt  # type: ignore[attr-defined]
