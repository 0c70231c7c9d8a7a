"""Stopping a run on SIGINT or SIGTERM: finished episodes stay recorded, the rest wait for a rerun.

One process: SIGINT and SIGTERM cancel the running episodes (none of them is recorded: a rerun runs
them), the records file is closed after every task has ended, and ``Interrupted`` reaches the CLI,
which says in a few lines what is recorded and how to go on (exit 130 or 143, no traceback).
Forked workers ignore SIGINT and die quietly on SIGTERM: their parent, the one record writer,
terminates them, keeps every record they had sent, and stops the same way. A worker whose parent
is gone (``kill -9``) leaves quietly at its next record.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Iterator, Sequence
from typing import Any

SIGNALS = (signal.SIGINT, signal.SIGTERM)
EXIT_STATUS: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}


class Interrupted(BaseException):
    """The run was stopped by a signal (a BaseException: nothing between here and the CLI swallows it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return EXIT_STATUS.get(self.signum, 128 + self.signum)


_REQUESTED: list[int] = []  # the signal that asked this process to stop, once one has


def requested() -> int | None:
    return _REQUESTED[0] if _REQUESTED else None


def check() -> None:
    """Raise ``Interrupted`` if a stop was asked for (a library may have swallowed the first raise)."""
    if _REQUESTED:
        raise Interrupted(_REQUESTED[0])


def _raise(signum: int, frame: object) -> None:
    if not _REQUESTED:
        _REQUESTED.append(signum)
    raise Interrupted(signum)


def install() -> None:
    """From now on SIGINT and SIGTERM raise ``Interrupted`` in the main thread and are remembered."""
    for s in SIGNALS:
        signal.signal(s, _raise)


@contextlib.contextmanager
def raising_on_signals() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise ``Interrupted`` (for synchronous code in the main thread)."""
    handler = _raise

    try:
        old = {s: signal.signal(s, handler) for s in SIGNALS}
    except ValueError:  # not the main thread: leave signals to whoever owns them
        yield
        return
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


class TaskStop:
    """SIGINT and SIGTERM cancel ``tasks`` on the running loop; ``raise_if_stopped`` then says so."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._installed: list[int] = []

    def install(self, tasks: Sequence[asyncio.Task[Any]]) -> None:
        loop = asyncio.get_running_loop()

        def stop(signum: int) -> None:
            if self.signum is None:
                self.signum = signum
                if not _REQUESTED:
                    _REQUESTED.append(signum)
                for task in tasks:
                    task.cancel()

        if _REQUESTED:  # asked before the episodes started
            stop(_REQUESTED[0])
        for s in SIGNALS:
            try:
                loop.add_signal_handler(s, stop, s)
                self._installed.append(s)
            except (ValueError, RuntimeError, NotImplementedError):  # not the main thread or loop
                pass

    def remove(self) -> None:
        loop = asyncio.get_running_loop()
        for s in self._installed:
            loop.remove_signal_handler(s)
            signal.signal(s, _raise)  # asyncio put the default back: keep stopping cleanly afterwards
        self._installed.clear()

    def raise_if_stopped(self) -> None:
        if self.signum is not None:
            raise Interrupted(self.signum)


def as_worker() -> None:
    """A forked worker: the terminal's SIGINT is its parent's business, SIGTERM ends it quietly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def leave_quietly() -> None:
    """A worker whose parent is gone: nothing to report to, nothing to clean (no asyncio shutdown noise)."""
    os._exit(0)
