"""The room server of a cluster node: :class:`~pokerroom.server.rooms.Rooms` holding only the rooms this
node owns, every durable write fenced by the room's lease.

Why a subclass here and not flags in ``Rooms``: the single-node server must not know about leases; what
differs on a node is small and all of it is here:

- ``start`` restores nothing: a node adopts a room only after winning its lease (:meth:`adopt`);
- every write carries the room's fencing token and is refused *before* it is sent when the lease is no
  longer valid by this node's clock (Redis unreachable): the action gets a Korean error and nothing is
  half-applied (``_commit`` puts the room back when its write raises);
- a write refused by PostgreSQL (``Fenced``: another node took the room) makes the node drop the room at
  once (:meth:`drop`): no frame of it is sent any more, and its sockets re-attach to the new owner;
- ``create_room`` takes the code the node reserved (cluster-wide unique, lease already held).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from pokerroom.server import protocol as P
from pokerroom.server.rooms import Connection, Member, Room, Rooms
from pokerroom.server.timers import DeadlineTimer

log = logging.getLogger("pokerroom.cluster")

NODE_MOVING = "cluster_unavailable"
NODE_MOVING_TEXT = "서버 연결을 다시 잡는 중이에요. 잠시 후 다시 해 주세요"


def moving_error() -> P.ProtocolError:
    """The refusal of a change this node may not write now (lease not renewed, room moving)."""
    return P.error(NODE_MOVING, NODE_MOVING_TEXT, status=503)


class Fencing(Protocol):
    """What the node tells its rooms about ownership."""

    def fence_for_write(self, code: str) -> int:
        """The room's fencing token, or raise :func:`moving_error` if this node may not write it now."""
        ...

    def fenced(self, code: str) -> None:
        """PostgreSQL refused a write of the room (a newer owner exists): drop it now."""
        ...


class OwnedRooms(Rooms):
    """The rooms of one cluster node (see the module docstring)."""

    fencing: Fencing | None = None

    async def start(self) -> None:
        """Start the idle reaper only: rooms come by :meth:`adopt`, after their lease is won."""
        self._reaper = asyncio.get_running_loop().create_task(self._reap_loop())

    def adopt(self, stored: Any) -> Room:
        """Serve a stored room (its lease and claim are won): restore, replay its log, re-arm its timers
        from the stored deadlines and resume its bots. The RNG is in the state: the same next cards."""
        self.clock.not_before(stored.newest_ms)
        room = self._restore(stored.code, stored.meta, stored.state, stored.version)
        self._replay(room, stored.replay)
        self.rooms[room.code] = room
        self._arm(room)
        self._schedule_bots(room)
        return room

    def drop(self, code: str) -> list[Connection]:
        """Stop serving a room without touching the store (another node owns it now, or will): timers
        stopped, nothing more sent to its sockets, which are returned so the node can re-attach them."""
        room = self.rooms.pop(code, None)
        self._failures.pop(code, None)
        for key in [k for k in self._history_cache if k[0] == code]:
            del self._history_cache[key]
        if room is None:
            return []
        room.closed = True
        if room.timer is not None:
            room.timer.cancel()
        room.bot_pending.clear()
        conns = list(room.connections)
        room.connections.clear()
        return conns

    async def create_room(self, raw_options: dict[str, Any], nickname: str,
                          code: str | None = None) -> tuple[Room, Member, str]:
        """A new room under ``code`` (reserved by the node); see :meth:`Rooms.create_room`."""
        if code is None:
            return await super().create_room(raw_options, nickname)
        from pokerroom.server.engine_port import OptionsError
        from pokerroom.server.rooms import clean_nickname

        try:
            options = self.engine.parse_options(raw_options)
        except OptionsError as exc:
            raise P.error("bad_options", exc.message) from None
        nick = clean_nickname(nickname)
        lo, hi = self.engine.player_range(options)
        room = Room(code, options, self.engine.options_json(options), lo, hi, self.clock.now_ms())
        room.timer = DeadlineTimer(self.clock, functools.partial(self._on_deadline, room))
        room.empty_since = time.monotonic()
        member, token = self._new_member(room, nick, bot=False)
        room.host_id = member.id
        self.rooms[code] = room
        try:
            await self._save_meta(room)
        except BaseException:
            self.rooms.pop(code, None)
            raise
        return room, member, token

    async def _write(self, op: str, *args: Any) -> None:
        """One fenced store write: refused here if the lease is not valid now, by PostgreSQL if stale."""
        code = str(args[0])
        fencing = self.fencing
        fence = None if fencing is None else fencing.fence_for_write(code)
        store: Any = self.store
        if op == "save":
            op, args = store.prepare_save(*args, fence=fence)
        elif op == "log":
            op, args = store.prepare_log(*args, fence=fence)
        try:
            await self._writer.submit(op, *args)
        except Exception as exc:
            if fencing is not None and type(exc).__name__ == "Fenced" and code in getattr(exc, "codes", ()):
                log.warning("room %s: write refused by its fencing token; another node owns it now", code)
                fencing.fenced(code)
                raise moving_error() from None
            raise


def on_room_closed(rooms: Rooms, hook: Callable[[str], None]) -> None:
    """Chain ``hook`` after the rooms' existing close hook (the app's per-address room count)."""
    before = rooms.on_close

    def both(code: str) -> None:
        if before is not None:
            before(code)
        hook(code)

    rooms.on_close = both
