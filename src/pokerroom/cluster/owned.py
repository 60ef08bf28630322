"""The room server of a cluster node: :class:`~pokerroom.server.room.rooms.Rooms` holding only the rooms this
node owns, every durable write fenced by the room's lease.

Why a subclass here and not flags in ``Rooms``: the single-node server must not know about leases; what
differs on a node is small and all of it is here:

- ``start`` restores nothing: a node adopts a room only after winning its lease (``adopt``; ``drop``
  lets one go without touching the store);
- every write carries the room's fencing token and is refused *before* it is sent when the lease is no
  longer valid by this node's clock (Redis unreachable): the action gets a Korean error and nothing is
  half-applied (the room's driver swaps a change in only once it is written), all in the driver's one
  write function (``OwnedDriver``);
- a write refused by PostgreSQL (``Fenced``: another node took the room) makes the node drop the room at
  once: no frame of it is sent any more, and its sockets re-attach to the new owner;
- ``create_room`` is given the code the node reserved (cluster-wide unique, lease already held).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from pokerroom.server.room.driver import RoomDriver
from pokerroom.server.room.plan import WriteOp
from pokerroom.server.room.rooms import Held, Room, Rooms
from pokerroom.server.storage.base import Fenced, StoreUnavailable
from pokerroom.server.wire import protocol as P

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

    async def ensure_valid(self, code: str) -> None:
        """Renew the room's lease now if its local validity ran out (a late renewal under load), so only
        a real loss (or Redis unreachable) refuses a write."""
        ...

    def fenced(self, code: str) -> None:
        """PostgreSQL refused a write of the room (a newer owner exists): drop it now."""
        ...

    def unsure(self, code: str) -> None:
        """A write's outcome is unknown (store unreachable): drop the room and release its lease."""
        ...

    def token_of(self, code: str) -> int | None:
        """The fencing token of the room's lease held by this node (None: not held)."""
        ...


class OwnedDriver(RoomDriver):
    """The driver of a node's rooms: every write fenced by the room's lease (see the module docstring)."""

    fencing: Fencing | None = None

    def store_op(self, room: Room, op: str, args: tuple[Any, ...],
                 fence: int | None = None) -> tuple[str, tuple[Any, ...]]:
        """Every write of a room carries its fencing token, and none is even tried without a valid lease."""
        fencing = self.fencing
        if fencing is None:
            return super().store_op(room, op, args)
        fence = fencing.fence_for_write(room.code)  # raises the Korean "reconnecting" refusal
        room.fence = fence
        return super().store_op(room, op, args, fence)

    async def write(self, room: Room, op: WriteOp, *args: Any) -> None:
        """A write refused by PostgreSQL's fencing check drops the room at once (a newer owner exists)."""
        fencing = self.fencing
        if fencing is not None:
            await fencing.ensure_valid(room.code)
        try:
            await super().write(room, op, *args)
        except Fenced as exc:
            if fencing is not None and room.code in exc.codes:
                log.warning("room %s: write refused by its fencing token; another node owns it", room.code)
                fencing.fenced(room.code)
                raise moving_error() from None
            raise
        except StoreUnavailable:
            # the commit's outcome is unknown (the connection broke, or no answer in time): this node's copy
            # may be behind or ahead of PostgreSQL, so it lets the room go; whichever node takes it next
            # reloads the truth once PostgreSQL answers again (the action is refused meanwhile, in Korean)
            if fencing is not None:
                log.warning("room %s: store unreachable during a write; the room is reloaded", room.code)
                fencing.unsure(room.code)
            raise


class OwnedRooms(Rooms):
    """The rooms of one cluster node (see the module docstring)."""

    driver_class = OwnedDriver
    driver: OwnedDriver

    fencing: Held[Fencing | None] = Held("driver")  # what the node tells its rooms (set once it runs)

    async def start(self) -> None:
        """Start the idle reaper only: rooms come by :meth:`adopt`, after their lease is won."""
        self._reaper = asyncio.get_running_loop().create_task(self._reap_loop())

    def adopt(self, stored: Any) -> Room:
        """Serve a stored room whose lease (and claim) this node won; see :meth:`Rooms.adopt`."""
        room = super().adopt(stored)
        fencing = self.fencing
        room.fence = None if fencing is None else fencing.token_of(room.code)
        return room
