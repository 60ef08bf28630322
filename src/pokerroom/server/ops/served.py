"""When a single server last served its rooms: a heartbeat file beside its store.

Why: a turn's deadline is stored as a time, so a server stopped (a crash, a restart, an upgrade) for longer
than a turn would time the player out the moment it loads the room again: it would charge them for time
nobody ran the table. To give that time back (``RoomClock.resume``) the restarted server must know when the
previous run was last serving. That run wrote it here every second: its game clock's ms, in a small file of
its own replaced atomically (``served-at`` in the data directory), so the store's own writes, which carry
the players' changes, are not slowed by a heartbeat. A missing or unreadable file means "not known": each
room then counts from its own newest change, which gives the player more time, never less.

(A cluster node needs none of this: the Redis lease of each room says when it was last renewed.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from pathlib import Path

from pokerroom.server.room.timers import Clock

log = logging.getLogger("pokerroom.server")

EVERY_S = 1.0  # the most time given back on top of the real pause


class ServedMark:
    """The heartbeat file: :meth:`read` once at start-up, :meth:`keep` while serving, :meth:`write` at the
    end."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> int | None:
        """The game time (ms) the previous run last wrote, or None if it is not known."""
        try:
            return int(self.path.read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            return None

    def write(self, ms: int) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_text(str(ms), encoding="ascii")
            os.replace(tmp, self.path)
        except OSError as exc:  # a full or read-only disk: the rooms go on; only a restart gives back less
            log.debug("served-at mark not written (%s)", exc)

    async def keep(self, clock: Clock, every_s: float = EVERY_S, *, before: int | None = None,
                   restoring: Callable[[], bool] = lambda: False) -> None:
        """Write the clock's time every ``every_s`` until cancelled, and once more then.

        While ``restoring()`` says stored rooms are still to be served again (a restart restores them in the
        background), the mark stays at ``before``, the previous run's (nothing is written if that is not
        known): the mark speaks for every stored room, and a room not restored yet was not served since then.
        Were this run to die before its restore ended, the next one gives those rooms back the whole time
        since the previous run, and the rooms that were restored a little more than their due (more time,
        never less, as when the mark is missing)."""
        def mark() -> None:
            if not restoring():
                self.write(clock.now_ms())
            elif before is not None:
                self.write(before)

        try:
            while True:
                mark()
                await asyncio.sleep(every_s)
        finally:
            with contextlib.suppress(Exception):
                mark()
