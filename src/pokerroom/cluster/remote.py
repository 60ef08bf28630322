"""The owner's side of the relay: a :class:`Connection` for each socket that lives on another node.

Why the owner computes every frame: a relayed connection is an ordinary connection of the room (a player
with their seat, or a spectator), so the room builds its frames exactly as for a local socket — the viewer's
own projection — and only that text is published to the socket's node. Nothing a connection may not see
ever leaves the owner.

Messages of one remote socket are applied one after another, in arrival order (like a local socket's
receive loop), each shielded from cancellation. A relayed message arrives decoded with the relay's batch
(:mod:`~pokerroom.cluster.messages`) and is only validated here, never parsed from text again.

The room's ``welcome`` to a remote socket goes out as its own message (:class:`~messages.Welcome`), with the
seat it announces: the socket's node needs the seat token to say hello again after the room moves.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any

from pokerroom.cluster import messages as M
from pokerroom.cluster.relay import Relay
from pokerroom.server.edge.limits import Limits
from pokerroom.server.room.rooms import Connection, Rooms
from pokerroom.server.wire import protocol as P

RESYNC = P.client_message_from({"type": "resync"})  # what a client missing a view asks for

log = logging.getLogger("pokerroom.cluster")


class RemoteConnection(Connection):
    """A socket on node ``origin`` (its id there: ``cid``) attached to a room of this node."""

    def __init__(self, relay: Relay, origin: str, cid: int, limits: Limits) -> None:
        super().__init__()
        self.relay = relay
        self.origin = origin
        self.cid = cid
        self.dead = False  # detached: sends are dropped
        self.inbox: deque[P.ClientMessage] = deque()
        self.busy = False
        self.welcome = M.WelcomeWatch()
        self.limit_history(limits)

    def send(self, text: str) -> None:
        if self.dead:
            return
        seat = self.welcome.check(self.role, self.player_id, text)
        self.relay.send(self.origin,
                        M.Frame(self.cid, text) if seat is None else M.Welcome(self.cid, text, seat))

    def close(self, code: int) -> None:
        if not self.dead:
            self.dead = True
            self.relay.send(self.origin, M.Close(self.cid, code))


class RemoteConnections:
    """Every remote socket attached to this node's rooms, keyed by (origin node, socket id)."""

    def __init__(self, rooms: Rooms, relay: Relay, limits: Limits) -> None:
        self.rooms = rooms
        self.relay = relay
        self.limits = limits
        self.conns: dict[tuple[str, int], RemoteConnection] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def message(self, relayed: M.ClientMsg) -> None:
        """A client message relayed from a socket's node (``attach``: a re-attach, which replaces whatever
        connection that socket had here)."""
        origin, cid = relayed.origin, relayed.cid
        key = (origin, cid)
        conn = self.conns.get(key)
        if conn is not None and (relayed.attach or conn.dead or conn.room is None or conn.room.closed):
            self._forget(conn)
            conn = None
        room = self.rooms.get(relayed.code)
        if room is None:  # not (or no longer) ours: the socket's node must look for the owner again
            self.relay.send(origin, M.Gone(cid, relayed.code, relayed.body, relayed.hops))
            return
        if conn is None:
            conn = RemoteConnection(self.relay, origin, cid, self.limits)
            conn.room = room
            self.conns[key] = conn
        try:
            msg = M.client_message(relayed.body)
        except P.ProtocolError as exc:
            conn.send(P.dumps(P.error_msg(exc.code, exc.message)))
            return
        self._enqueue(conn, msg)

    def detached(self, origin: str, cid: int) -> None:
        """The socket closed on its node."""
        conn = self.conns.get((origin, cid))
        if conn is not None:
            self._forget(conn)

    def frames_lost(self, origin: str, msgs: list[M.Message]) -> None:
        """Frames to sockets of ``origin`` that a failed publish may have lost: a lost welcome is sent again
        (it carries the seat token), and each socket gets a whole view of now, under its room's lock, as if
        it had asked ``resync`` (a missed view delta would otherwise leave it on an old table until the
        next change, which may be its own turn's to make)."""
        concerned: dict[int, RemoteConnection] = {}  # by socket id, in the order of their first lost frame
        for msg in msgs:
            if not isinstance(msg, M.Frame | M.Welcome):
                continue
            conn = self.conns.get((origin, msg.cid))
            if conn is None or conn.dead:
                continue
            if isinstance(msg, M.Welcome):
                self.relay.send(origin, msg)
            concerned[msg.cid] = conn
        for conn in concerned.values():
            if conn.role == "none" or any(isinstance(m, P.Resync) for m in conn.inbox):
                continue
            self._enqueue(conn, RESYNC)

    def origin_gone(self, origin: str) -> None:
        """A node stopped listening (its frames could not be delivered): forget its sockets."""
        for conn in [c for key, c in self.conns.items() if key[0] == origin]:
            self._forget(conn)

    def room_dropped(self, code: str) -> None:
        """A room left this node: its remote sockets re-attach to the new owner (told by "moved")."""
        for conn in [c for c in self.conns.values() if c.room is not None and c.room.code == code]:
            conn.dead = True
            self.conns.pop((conn.origin, conn.cid), None)
            # its node looks for the new owner even if the new owner's "moved" never reaches it
            self.relay.send(conn.origin, M.Gone(conn.cid, code, None))

    def _enqueue(self, conn: RemoteConnection, msg: P.ClientMessage) -> None:
        """One message for the room, after those already waiting (one drain task per connection)."""
        conn.inbox.append(msg)
        if not conn.busy:
            conn.busy = True
            self._spawn(self._drain(conn))

    def _forget(self, conn: RemoteConnection) -> None:
        conn.dead = True
        if self.conns.get((conn.origin, conn.cid)) is conn:
            del self.conns[(conn.origin, conn.cid)]
        conn.inbox.clear()
        self._spawn(self.rooms.detach(conn))

    async def _drain(self, conn: RemoteConnection) -> None:
        try:
            while conn.inbox and not conn.dead:
                msg = conn.inbox.popleft()
                room = conn.room
                if room is None or room.closed:
                    break
                await asyncio.shield(self.rooms.handle(room, conn, msg))
        finally:
            conn.busy = False

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
