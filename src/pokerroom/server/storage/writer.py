"""Group commit: store writes from every room, batched into one transaction on one thread.

Why: a write must finish before its change is published (so a crash never loses what players saw),
but doing it on the event loop lets one slow disk operation (or database round trip) freeze every room,
and one thread writing one transaction per change is throttled by GIL hand-offs with the busy event loop.
Here each caller awaits a future while the thread takes *everything* pending, commits it at once, and
resolves all.

A store whose transactions cost much more than their operations (PostgreSQL: a round trip, a commit and a
WAL flush each) may ask the writer to *gather* (``gather_s``, a store attribute, 0 for SQLite): once an
operation is pending, the thread waits up to that long after it arrived for others to join its batch, so a
busy node commits several rooms' changes per transaction instead of one. Only while busy: when the writes of
the last second arrived too seldom for a window to catch another one (a quiet night's few tables), waiting
would only delay them, and each is committed at once (decision 0059).

Settling is per operation: when the store refuses some rooms' writes by their fencing token
(:class:`~pokerroom.server.storage.base.Fenced`), only those rooms' callers get ``Fenced`` (naming their
room alone); every other caller in the batch succeeds, because their writes were committed. Any other error
fails the whole batch (nothing was committed) and reaches every caller.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any, Protocol

from pokerroom.server.storage.base import Fenced, Op, op_code


class BatchStore(Protocol):
    """The one thing the writer needs from a store."""

    def apply_batch(self, ops: list[Op]) -> None: ...


#: a gathering batch is committed at once when it holds this many operations
GATHER_MAX = 64
#: gather only when a window is expected to catch at least this many more operations (arrival rate x window)
GATHER_WORTH = 0.25
#: the arrival rate is counted over periods of this many seconds
RATE_PERIOD_S = 1.0


class GroupWriter:
    """One writer thread for a store; :meth:`submit` from the event loop awaits the commit.

    ``gather_s``: how long a pending operation may wait for others to join its transaction (None: the
    store's own ``gather_s``, else 0), while the arrival rate (counted over ``rate_period_s``) makes it
    worth it."""

    def __init__(self, store: BatchStore, gather_s: float | None = None,
                 rate_period_s: float = RATE_PERIOD_S) -> None:
        self._store = store
        self._gather_s = float(getattr(store, "gather_s", 0.0) if gather_s is None else gather_s)
        self._first_at = 0.0  # when the oldest pending operation was queued (monotonic)
        self._rate = 0.0  # operations per second over the last full period (read and written by the thread)
        self._rate_period_s = rate_period_s
        self._period_start = time.monotonic()
        self._period_ops = 0
        self._pending: list[tuple[str, tuple[Any, ...], asyncio.Future[None]]] = []
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="pokerroom-store", daemon=True)
        self._thread.start()

    async def submit(self, op: str, *args: Any) -> None:
        """Queue one prepared operation (``op``, ``args``) and wait until it is committed (or refused)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._cond:
            if self._closed:
                raise RuntimeError("the store writer is closed")
            self._pending.append((op, args, future))
            waiting = len(self._pending)
            if waiting == 1:
                self._first_at = time.monotonic()
            # only the first operation wakes the thread, and a full batch ends its gathering: the others
            # would wake it to find its wait not over
            if waiting == 1 or waiting == GATHER_MAX:
                self._cond.notify()
        await future

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed:
                    self._cond.wait()
                if not self._pending:
                    return
                if self._gather_s > 0 and self._rate * self._gather_s >= GATHER_WORTH:
                    deadline = self._first_at + self._gather_s
                    while not self._closed and len(self._pending) < GATHER_MAX:
                        left = deadline - time.monotonic()
                        if left <= 0:
                            break
                        self._cond.wait(left)
                batch, self._pending = self._pending, []
            self._count(len(batch))
            error: BaseException | None = None
            refused: frozenset[str] = frozenset()
            try:
                self._store.apply_batch([(op, args) for op, args, _ in batch])
            except Fenced as exc:
                refused = exc.codes
            except BaseException as exc:
                error = exc
            # one wake-up of each event loop per batch, not one per operation: every
            # ``call_soon_threadsafe`` writes to the loop's self-pipe and costs it a pass through its
            # selector, so a batch of twenty rooms' writes woke the loop twenty times
            settled: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], BaseException | None]]]
            settled = {}
            for op, args, future in batch:
                outcome = error
                if outcome is None and refused:
                    code = op_code((op, args))
                    outcome = Fenced(frozenset({code})) if code in refused else None
                settled.setdefault(future.get_loop(), []).append((future, outcome))
            for loop, outcomes in settled.items():
                try:
                    loop.call_soon_threadsafe(_settle_all, outcomes)
                except RuntimeError:  # that loop is closed: nobody awaits its futures any more
                    pass

    def _count(self, ops: int) -> None:
        """Count a batch's operations into the arrival rate (once a period is over, its rate is the one)."""
        self._period_ops += ops
        now = time.monotonic()
        if now - self._period_start >= self._rate_period_s:
            self._rate = self._period_ops / (now - self._period_start)
            self._period_start, self._period_ops = now, 0

    def close(self) -> None:
        """Finish what is pending, then stop the thread."""
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join(timeout=30)


def _settle_all(outcomes: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for future, error in outcomes:
        _settle(future, error)


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
