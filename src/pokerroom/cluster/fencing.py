"""A cluster node's write guard: every durable write of a room fenced by the room's lease.

The node hands :class:`LeaseGuard` to its :class:`~pokerroom.server.room.rooms.Rooms` (``guard=``, the
server's :class:`~pokerroom.server.room.driver.WriteGuard` seam), so the rooms stay the single node's own code
and the writer stays one function. Why a guard passed in and not a subclass of ``Rooms``: a subclass had to
override the writer's private ``_write``/``_store_op`` and ``start``/``adopt``, so any change in how the room
writes could silently skip the fencing; the seam is declared by the server and checked by mypy. What differs
on a node is small and all of it is here:

- every write carries the room's fencing token and is refused *before* it is sent when the lease is no
  longer valid by this node's clock (Redis unreachable): the action gets a Korean error and nothing is
  half-applied (the room keeps its table when its write raises);
- a write refused by PostgreSQL (``Fenced``: another node took the room) makes the node drop the room at
  once: no frame of it is sent any more, and its sockets re-attach to the new owner;
- a write whose outcome is unknown (``StoreUnavailable``) makes the node let the room go, so whichever node
  takes it next reloads the truth.

(That a node restores no room at start-up, adopting each only after winning its lease, is ``Rooms``'
``restore=False``; that ``create_room`` is given the code the node reserved is the node's own call.)
"""

from __future__ import annotations

import logging
from typing import Protocol

from pokerroom.server.storage.base import Fenced, StoreUnavailable
from pokerroom.server.wire import protocol as P

log = logging.getLogger("pokerroom.cluster")

NODE_MOVING = "cluster_unavailable"
NODE_MOVING_TEXT = "서버 연결을 다시 잡는 중이에요. 잠시 후 다시 해 주세요"


def moving_error() -> P.ProtocolError:
    """The refusal of a change this node may not write now (lease not renewed, room moving)."""
    return P.error(NODE_MOVING, NODE_MOVING_TEXT, status=503)


class Fencing(Protocol):
    """What the node tells its rooms' guard about ownership (``ClusterNode``)."""

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


class LeaseGuard:
    """The rooms' :class:`~pokerroom.server.room.driver.WriteGuard` on a node (see the module docstring)."""

    def __init__(self, fencing: Fencing) -> None:
        self.fencing = fencing

    def token_of(self, code: str) -> int | None:
        return self.fencing.token_of(code)

    async def before_write(self, code: str) -> int:
        """None is even tried without a valid lease: renew a lapsed one first, then take its token."""
        await self.fencing.ensure_valid(code)
        return self.fencing.fence_for_write(code)  # raises the Korean "reconnecting" refusal

    def write_failed(self, code: str, exc: Exception) -> None:
        if isinstance(exc, Fenced):
            if code in exc.codes:
                log.warning("room %s: write refused by its fencing token; another node owns it", code)
                self.fencing.fenced(code)
                raise moving_error() from None
        elif isinstance(exc, StoreUnavailable):
            # the commit's outcome is unknown (the connection broke, or no answer in time): this node's copy
            # may be behind or ahead of PostgreSQL, so it lets the room go; whichever node takes it next
            # reloads the truth once PostgreSQL answers again (the action is refused meanwhile, in Korean)
            log.warning("room %s: store unreachable during a write; the room is reloaded", code)
            self.fencing.unsure(code)
