"""Graceful shutdown of a node (SIGTERM): finish what is being written, then send every socket elsewhere.

Why before uvicorn's own shutdown: uvicorn closes every websocket with 1012 *before* it runs the app's
lifespan shutdown, so a lifespan hook would find the sockets already gone. ``pokerroom serve`` runs
:meth:`Drain.run` first (``cli.DrainingServer``); the lifespan shutdown runs it too (it is idempotent), so
an app served another way still freezes its rooms and runs the hooks.

The order, and why:

1. **Freeze every room**: take each room's lock (the change in flight, if any, finishes: its store write and
   its frames, acks included), mark the room closed and stop its timer. No timer, bot or message changes a
   room after this, so what is stored is exactly what players were sent. Then ``rooms.stop()``: the reaper
   and pending bot/retry tasks stop and the group-commit writer commits whatever is still queued (a room
   being created). (In a single node the rooms come back from SQLite on restart; in a cluster another node
   takes them over from PostgreSQL.)
2. **Hooks** (``ServerConfig.drain_hooks``, run in order, each bounded): the cluster node releases its
   leases here, so the node the players reconnect to can take the rooms over at once instead of after TTL.
3. **Close every socket with 4012** ("reconnect, to any node, with your seat token"; docs/protocol.md) once
   its queued frames are out, and wait (bounded) for the close frames to be sent.

A socket that connects while the node drains is accepted and closed with 4012 at once (see ``app``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

log = logging.getLogger("pokerroom.server")

CLOSE_MOVING = 4012
#: the close frame's reason (UTF-8, at most 123 bytes): what a client shows if it shows anything
MOVING_REASON = "이 서버가 잠시 내려가요. 다른 서버로 다시 연결해요"
FREEZE_TIMEOUT_S = 10.0  # longer than a store write may wait for a lock (busy_timeout, 5 s)
HOOK_TIMEOUT_S = 5.0
FLUSH_TIMEOUT_S = 3.0

DrainHook = Callable[[], Awaitable[None]]


class Closable(Protocol):
    """A socket as the drain sees it (``server.websocket.WsConnection``)."""

    def close(self, code: int) -> None: ...

    async def wait_flushed(self) -> None: ...


class Drain:
    """Runs the shutdown steps once; ``draining`` is True from the first step on (``/readyz`` answers 503)."""

    def __init__(self, hooks: list[DrainHook] | None = None) -> None:
        self.hooks: list[DrainHook] = hooks if hooks is not None else []
        self.draining = False
        self.report: dict[str, float] = {}  # step -> ms, for the log line and the tests
        self._task: asyncio.Task[None] | None = None

    async def run(self, rooms: Any, connections: Callable[[], Iterable[Closable]]) -> None:
        """Drain once (a second call waits for the first). ``connections``: every open socket, read after
        the rooms are frozen (a socket may have arrived meanwhile)."""
        if self._task is None:
            self.draining = True
            self._task = asyncio.get_running_loop().create_task(self._run(rooms, connections))
        await asyncio.shield(self._task)

    async def _run(self, rooms: Any, connections: Callable[[], Iterable[Closable]]) -> None:
        t0 = time.perf_counter()
        restorer = getattr(rooms, "restorer", None)
        if restorer is not None:  # no stored room comes back after the freeze (room/startup.py)
            restorer.cancel()
        frozen = await self._freeze(list(getattr(rooms, "rooms", {}).values()))
        stop = getattr(rooms, "stop", None)
        if stop is not None:  # no reaper, timer or bot any more; the store writer commits what is pending
            await stop()
        t1 = time.perf_counter()
        for hook in list(self.hooks):
            try:
                async with asyncio.timeout(HOOK_TIMEOUT_S):
                    await hook()
            except Exception:
                log.exception("drain hook %s failed", getattr(hook, "__qualname__", hook))
        t2 = time.perf_counter()
        socks = list(connections())
        for conn in socks:
            conn.close(CLOSE_MOVING)
        if socks:
            waits = [asyncio.ensure_future(c.wait_flushed()) for c in socks]
            _, late = await asyncio.wait(waits, timeout=FLUSH_TIMEOUT_S)
            for task in late:  # a peer that does not read: its transport is closed by uvicorn's shutdown
                task.cancel()
        t3 = time.perf_counter()
        self.report = {"roomsMs": (t1 - t0) * 1e3, "hooksMs": (t2 - t1) * 1e3, "socketsMs": (t3 - t2) * 1e3}
        log.info("drained: %d rooms frozen, %d sockets sent elsewhere (4012) in %.0f ms", frozen, len(socks),
                 (t3 - t0) * 1e3)

    @staticmethod
    async def _freeze(rooms: list[Any]) -> int:
        """Close every room to change once its change in flight (store write, frames, ack) is done; all rooms
        at once, bounded (a room stuck on a store outage is closed anyway: its change fails or lands, and
        either way nothing more happens to it here)."""

        async def freeze(room: Any) -> None:
            async with room.lock:
                room.closed = True
                if room.timer is not None:
                    room.timer.cancel()

        open_rooms = [room for room in rooms if not room.closed]
        if open_rooms:
            tasks = [asyncio.ensure_future(freeze(room)) for room in open_rooms]
            _, late = await asyncio.wait(tasks, timeout=FREEZE_TIMEOUT_S)
            for task in late:
                task.cancel()
        for room in open_rooms:
            room.closed = True
            if room.timer is not None:
                room.timer.cancel()
        return len(open_rooms)
