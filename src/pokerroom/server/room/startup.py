"""Stored rooms served again after a restart: in the background, one at a time, a room asked for first.

Why: a process restarting with thousands of rooms in its store used to rebuild every one of them (read its
snapshot and log, replay the rows) before it answered anything, all on the event loop: 1,000 rooms held the
loop for about 2 s, 10,000 for about 20 s, and nobody could reconnect meanwhile. Now ``Rooms.start`` reads
only the stored codes and returns; this restores the rooms in the background, each read from the store on a
worker thread and rebuilt between two turns of the loop (a few milliseconds), so no room's change waits
behind the others' restore. A socket or a page that asks for a room not restored yet gets it restored at
once (:meth:`Restorer.find`), ahead of the queue; two askers share one restore.

A room's time is handled as before: the game clock never runs behind what the room stored, and the time since
the previous run last served it (or since its newest change) is given back to whoever must decide.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable

from pokerroom.server.room.model import Room
from pokerroom.server.storage import RoomStore, StoredRoom

log = logging.getLogger("pokerroom.server")

#: serve one stored room from now on: rebuild it, register it, resume its clock (``since_ms``); raises if
#: it cannot be rebuilt
Serve = Callable[[StoredRoom, int], Awaitable[Room]]

#: stored rooms read from the store in one worker-thread call (a thread hop per room cost a third more CPU)
BATCH = 16


class Restorer:
    """The stored rooms not served yet, and the task that serves them (see the module docstring)."""

    def __init__(self, store: RoomStore, quarantined: set[str], serve: Serve) -> None:
        self.store = store
        self.quarantined = quarantined
        self._serve = serve
        self._waiting: dict[str, None] = {}  # stored codes not taken up yet, in the order they will be
        self._running: dict[str, asyncio.Future[Room | None]] = {}
        self._served_ms: int | None = None
        self._pace = True  # a turn of the loop after each room served
        self._task: asyncio.Task[None] | None = None
        #: called after each batch of rooms is served (the app's garbage-collector policy: see
        #: ``app._tune_gc``); None: nothing
        self.settle: Callable[[], None] | None = None

    async def begin(self, codes: list[str], served_ms: int | None, *, background: bool = True) -> None:
        """Serve the rooms ``codes`` from now on (``served_ms``: when the previous run last served them, None
        if not known): in the background, or (``background=False``) all of them before this returns, the
        last one's deadline and bots scheduled with no turn of the loop in between (as callers of a
        restoring start-up expect)."""
        self._served_ms = served_ms
        self._waiting = dict.fromkeys(codes)
        self._pace = background
        if background:
            self._task = asyncio.get_running_loop().create_task(self._run())
        else:
            await self._run()

    @property
    def left(self) -> int:
        """Stored rooms not served yet (``/healthz``)."""
        return len(self._waiting) + len(self._running)

    def holds(self, code: str) -> bool:
        """Is ``code`` a stored room still to be served (so a new room must not take its code)?"""
        return code in self._waiting or code in self._running

    async def find(self, code: str) -> Room | None:
        """The room ``code`` if it is a stored room not served yet: served now (None: it could not be)."""
        if not self.holds(code):
            return None
        return await self._restore([code])

    async def done(self) -> None:
        """Wait until every stored room is served (or quarantined)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while self._waiting:
            try:
                await self._restore(list(itertools.islice(self._waiting, BATCH)))
            except asyncio.CancelledError:
                raise
            except Exception:  # the store could not be read: said, and those rooms are left where they are
                log.exception("stored rooms could not be read; they stay in the store, not served")
            if self.settle is not None:
                self.settle()

    async def _restore(self, codes: list[str]) -> Room | None:
        """Serve ``codes`` (waiting ones): read together on a worker thread, then rebuilt one at a time, a
        turn of the loop between two. Returns the first one's room (None: it could not be served)."""
        running = self._running.get(codes[0])
        if running is not None:
            return await asyncio.shield(running)
        loop = asyncio.get_running_loop()
        futures: dict[str, asyncio.Future[Room | None]] = {}
        for code in codes:
            self._waiting.pop(code, None)
            futures[code] = self._running[code] = loop.create_future()
        try:
            found = await asyncio.to_thread(lambda: [self.store.load(code) for code in codes])
            for code, stored in zip(codes, found, strict=True):
                futures[code].set_result(await self._serve_one(code, stored))
                del self._running[code]
                if self._pace:
                    await asyncio.sleep(0)
        finally:
            for code, future in futures.items():
                if not future.done():
                    future.set_result(None)
                    self._running.pop(code, None)
        return futures[codes[0]].result()

    async def _serve_one(self, code: str, stored: StoredRoom | None) -> Room | None:
        if stored is None:  # damaged (the store named it in ``damaged``) or deleted meanwhile
            if code in self.store.damaged:
                self.quarantined.add(code)
            return None
        try:
            return await self._serve(stored, max(self._served_ms or 0, stored.newest_ms))
        except Exception:
            log.exception("room %s could not be restored; kept in the store, quarantined", code)
            self.quarantined.add(code)
            return None
