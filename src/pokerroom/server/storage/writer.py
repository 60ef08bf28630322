"""Group commit: store writes from every room, batched into one transaction on one thread.

Why: a write must finish before its change is published (so a crash never loses what players saw),
but doing it on the event loop lets one slow disk operation (or database round trip) freeze every room,
and one thread writing one transaction per change is throttled by GIL hand-offs with the busy event loop.
Here each caller awaits a future while the thread takes *everything* pending, commits it at once, and
resolves all.

Settling is per operation: when the store refuses some rooms' writes by their fencing token
(:class:`~pokerroom.server.storage.base.Fenced`), only those rooms' callers get ``Fenced`` (naming their
room alone); every other caller in the batch succeeds, because their writes were committed. Any other error
fails the whole batch (nothing was committed) and reaches every caller.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Protocol

from pokerroom.server.storage.base import Fenced, Op, op_code


class BatchStore(Protocol):
    """The one thing the writer needs from a store."""

    def apply_batch(self, ops: list[Op]) -> None: ...


class GroupWriter:
    """One writer thread for a store; :meth:`submit` from the event loop awaits the commit."""

    def __init__(self, store: BatchStore) -> None:
        self._store = store
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
            self._cond.notify()
        await future

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed:
                    self._cond.wait()
                if not self._pending:
                    return
                batch, self._pending = self._pending, []
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
