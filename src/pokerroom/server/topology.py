"""Where the rooms live: the seam between the app's routes and the process (or cluster) that holds the rooms.

Why a seam (the idea of Colyseus's presence driver): the app's routes are the same whether this process is the
only one or one node of many. What differs is where a room is made, where it is found and how a socket reaches
it, plus the store and how rooms are written; all of that is a :class:`Topology`, handed to the app in
``ServerConfig.topology``. :class:`SingleNode` is one process on SQLite, every room here; a cluster node
(the cluster's ``ClusterNode``, chosen by the composition root ``pokerroom.serve`` behind ``--redis``)
implements the same protocol, so the app holds no ``if cluster`` branch and this package never
imports the cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any, Protocol

from starlette.websockets import WebSocket

from pokerroom.server.edge.guard import RoomCreationGuard
from pokerroom.server.ops.drain import Drain
from pokerroom.server.ops.metrics import Metrics
from pokerroom.server.ops.served import ServedMark
from pokerroom.server.room.driver import WriteGuard
from pokerroom.server.room.rooms import Rooms
from pokerroom.server.storage import RoomStore, Store
from pokerroom.server.websocket import OpenSockets, WsConnection, refuse, serve_connection


class Topology(Protocol):
    """What the app needs from "where rooms live". Called in this order: ``make_store``, then the rooms are
    built (with ``write_guard`` and ``restores_rooms``) and started, then ``start``; the routes; ``stop``."""

    @property
    def write_guard(self) -> WriteGuard | None:
        """Handed to ``Rooms(guard=...)``: consulted around every store write (None: unfenced)."""
        ...

    @property
    def restores_rooms(self) -> bool:
        """Handed to ``Rooms(restore=...)``: does ``Rooms.start`` serve every stored room?"""
        ...

    def make_store(self, data_dir: Path | None, busy_timeout_ms: int) -> RoomStore:
        """The rooms' store (``data_dir``/``busy_timeout_ms``: the app's settings for a store of its own)."""
        ...

    def last_served_ms(self) -> int | None:
        """The game time (ms) at which this process's previous run last served the rooms ``Rooms.start``
        restores (None: not known, or it restores none); read after ``make_store``. Time since then is
        not charged to the players (``Rooms.start``)."""
        ...

    async def start(self, rooms: Rooms, metrics: Metrics) -> None:
        """The rooms are started: begin serving them (``metrics``: the app's)."""
        ...

    async def stop(self) -> None:
        """The app is stopping, its sockets drained: let go of whatever this holds (bounded by the app)."""
        ...

    async def create_room(self, options: dict[str, Any], nickname: str, address: str) -> dict[str, Any]:
        """``POST /api/rooms``: a new room as ``{"code", "playerId", "token"}``, or ``P.ProtocolError``."""
        ...

    async def room_info(self, code: str) -> dict[str, Any] | None:
        """``GET /api/rooms/{code}``: the room's public info, None if there is no such room (or none can be
        had now)."""
        ...

    async def serve_socket(self, ws: WebSocket, code: str, sockets: OpenSockets, drain: Drain) -> None:
        """Serve an accepted websocket of room ``code`` (a well-formed code; the app checked the drain) until
        it closes: admit it in ``sockets`` (refusing it if the process is full) and release it once done."""
        ...

    def rooms_refused(self) -> int:
        """Room creations refused by this process's own caps (``/healthz``)."""
        ...


class SingleNode:
    """One process on its own store (SQLite): every room is here, and its caps are the process's own."""

    write_guard: WriteGuard | None = None  # the only writer of its store: nothing to fence
    restores_rooms = True  # every stored room is this process's

    def __init__(self) -> None:
        self.rooms: Rooms | None = None
        self.metrics: Metrics | None = None
        self.creations: RoomCreationGuard | None = None
        self.served: ServedMark | None = None  # when this process serves its rooms (ops/served.py)
        self._served_before: int | None = None
        self._heartbeat: asyncio.Task[None] | None = None

    def make_store(self, data_dir: Path | None, busy_timeout_ms: int) -> RoomStore:
        path = None if data_dir is None else data_dir / "pokerroom.sqlite3"  # None: in memory (tests)
        store = Store(path, busy_timeout_ms=busy_timeout_ms)
        if data_dir is not None:
            self.served = ServedMark(data_dir / "served-at")
            self._served_before = self.served.read()
        return store

    def last_served_ms(self) -> int | None:
        return self._served_before

    async def start(self, rooms: Rooms, metrics: Metrics) -> None:
        self.rooms, self.metrics = rooms, metrics
        limits = rooms.limits
        self.creations = RoomCreationGuard(limits.rooms_per_address, limits.room_creations_per_minute)
        rooms.on_close = self.creations.closed
        if self.served is not None:
            restorer = rooms.restorer
            self._heartbeat = asyncio.get_running_loop().create_task(self.served.keep(
                rooms.clock, before=self._served_before, restoring=lambda: restorer.left > 0))

    async def stop(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat

    def _rooms(self) -> Rooms:
        assert self.rooms is not None, "the single node is not started"
        return self.rooms

    async def create_room(self, options: dict[str, Any], nickname: str, address: str) -> dict[str, Any]:
        creations = self.creations
        assert creations is not None, "the single node is not started"
        refusal = creations.refusal(address, self._rooms().idle_close_s)
        if refusal is not None:
            raise refusal
        room, member, token = await self._rooms().create_room(options, nickname)
        creations.created(address, room.code)
        return {"code": room.code, "playerId": member.id, "token": token}

    async def room_info(self, code: str) -> dict[str, Any] | None:
        room = await self._rooms().find(code)
        return None if room is None else room.public_info()

    async def serve_socket(self, ws: WebSocket, code: str, sockets: OpenSockets, drain: Drain) -> None:
        rooms = self._rooms()
        room = await rooms.find(code)
        if room is None:
            await refuse(ws, "room_not_found", 4404)
            return
        if not sockets.admit():
            await refuse(ws, "server_full", 1013)
            return
        conn = WsConnection(ws, rooms.limits, self.metrics)
        conn.room = room
        sockets.conns.add(conn)
        await serve_connection(rooms, room, conn, rooms.limits, lambda: sockets.closed(conn), drain)

    def rooms_refused(self) -> int:
        return 0 if self.creations is None else self.creations.refused
