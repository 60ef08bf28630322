"""Rooms: every room of one server process — members, seats, host, spectators, games — with exactly one
writer per room.

This module is the registry and the façade the app (and a cluster node) talks to: construction, start
(restore every stored room), stop, create, look up, adopt or drop one room, close, a client message, and a
socket going away. The work is done by parts, each held (never inherited) and given only what it needs:

- ``model``: the data (``Table``, the stored part of a room as one value; ``Room``, ``Member``,
  ``Connection``, ``FinishedHand``) and nickname rules;
- ``plan``: a change computed without I/O: the new ``Table``, its store write, the hands it finished, the
  pre-actions it made due (``recording`` feeds the hand recorder first);
- ``driver`` (:class:`RoomDriver`): carries a plan out: the store write (one function for every write of a
  room), then the swap, then publishing; acks, pre-actions due, store-outage retries;
- ``views`` (:class:`RoomViews`): what each socket is sent (its own seat's view only), broadcasts, history;
- ``clock`` (:class:`RoomClock`): deadlines and bots; ``restore``: a stored room rebuilt (snapshot + replay);
- ``members``, ``handlers`` and ``seating``: plain functions; one handler per client message, looked up in
  ``handlers.HANDLERS`` and given the parts it may use (``parts.Parts``).

What is secret is decided by the engine's ``view(state, viewer)``; the rooms hand each socket the view of
exactly its own seat, and put nothing else secret in any frame.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

from pokerroom.server.edge.limits import Limits
from pokerroom.server.engine_port import GameEngine, OptionsError
from pokerroom.server.room import handlers, restore
from pokerroom.server.room.botseat import ActionFn, Decider, cautious_decide
from pokerroom.server.room.clock import RoomClock
from pokerroom.server.room.driver import RETRY_FIRST_S, RETRY_MAX_S, SLOW_COMMIT_S, RoomDriver, WriteGuard
from pokerroom.server.room.members import new_member
from pokerroom.server.room.model import (
    ACKS_KEPT,
    MAX_NICKNAME,
    CommitHook,
    Connection,
    FinishedHand,
    Member,
    Phase,
    Room,
    Status,
    Table,
    clean_nickname,
)
from pokerroom.server.room.parts import Parts
from pokerroom.server.room.pasthands import HISTORY_CACHE
from pokerroom.server.room.plan import REPLAYED_KINDS, SNAPSHOT_EVERY
from pokerroom.server.room.startup import Restorer
from pokerroom.server.room.timers import Clock, DeadlineTimer, Later
from pokerroom.server.room.tokens import new_room_code
from pokerroom.server.room.views import RoomViews
from pokerroom.server.storage import RoomStore, StoredRoom
from pokerroom.server.wire import protocol as P

__all__ = [
    "ACKS_KEPT", "HISTORY_CACHE", "MAX_NICKNAME", "REPLAYED_KINDS", "RETRY_FIRST_S", "RETRY_MAX_S",
    "SLOW_COMMIT_S", "SNAPSHOT_EVERY", "CommitHook", "Connection", "FinishedHand", "Member", "Phase", "Room",
    "Rooms", "Status", "clean_nickname",
]

log = logging.getLogger("pokerroom.server")
T = TypeVar("T")


class Held(Generic[T]):
    """An attribute of the rooms that one of their parts keeps: read and set through to ``part``'s
    attribute of the same name (the façade keeps its attributes; the part alone holds the value)."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, objtype: type | None = None) -> Held[T]: ...
    @overload
    def __get__(self, obj: object, objtype: type | None = None) -> T: ...
    def __get__(self, obj: object | None, objtype: type | None = None) -> Held[T] | T:
        if obj is None:
            return self
        value: T = getattr(getattr(obj, self.part), self.name)
        return value

    def __set__(self, obj: object, value: T) -> None:
        setattr(getattr(obj, self.part), self.name, value)


class Rooms:
    """All rooms of one server process, their persistence, timers and bots: the registry, and the façade
    over the parts that do the work (``views``, ``driver``, ``timing``; see the module docstring)."""

    def __init__(self, engine: GameEngine, store: RoomStore, *, clock: Clock | None = None,
                 limits: Limits | None = None, idle_close_s: float = 1800.0, reap_interval_s: float = 5.0,
                 bot_delay_ms: int = 800, decider: Decider | None = None,
                 recommender: ActionFn | None = None, guard: WriteGuard | None = None,
                 restore: bool = True) -> None:
        """``guard``: consulted around every store write (a cluster node's fencing, see ``WriteGuard``);
        ``restore``: :meth:`start` serves every stored room (False: a cluster node, whose rooms come by
        :meth:`adopt` once their lease is won)."""
        self.engine = engine
        self.restore = restore
        self.store = store
        self.clock = clock or Clock()
        self.limits = limits or Limits()
        self.idle_close_s = idle_close_s
        self.reap_interval_s = reap_interval_s
        self.rooms: dict[str, Room] = {}
        self.quarantined: set[str] = set()  # stored rooms that could not be loaded: kept, never served
        self.on_close: Callable[[str], None] | None = None  # told the code of every room closed
        self._reaper: asyncio.Task[None] | None = None
        self.later = Later()
        self.views = RoomViews(engine, self.clock, recommender)
        self.driver = RoomDriver(engine, store, self.clock, self.views, self.later, guard)
        self.timing = RoomClock(engine, self.clock, self.driver, self.later, decider or cautious_decide,
                                bot_delay_ms)
        self.driver.after_change = self.timing.after_change  # the one part built after the driver
        self.parts = Parts(engine, self.clock, self.limits, self.driver, self.views)
        self.restorer = Restorer(store, self.quarantined, self._serve_stored)

    # what the app and tests set or read on the rooms, kept by the parts
    on_commit: Held[CommitHook | None] = Held("driver")  # test hook, called after each accepted change
    observe_commit: Held[Callable[[str, float], None] | None] = Held("driver")  # metrics: (row kind, seconds)
    recommender: Held[ActionFn | None] = Held("views")  # the hint function (None: no hints)

    async def handle(self, room: Room, conn: Connection, msg: P.ClientMessage) -> None:
        """Apply one client message under the room's lock; refusals go to the sender only."""
        await handlers.handle(self.parts, room, conn, msg)

    async def save(self, room: Room, after: Table | None = None) -> None:
        """Store ``after`` (default: the room's table as it is) as a snapshot, then make it the room's."""
        await self.driver.save(room, after)

    async def deadline_passed(self, room: Room) -> None:
        """Run the room's deadline now (what its timer does when it fires)."""
        await self.timing.deadline_passed(room)

    def change_latency(self) -> dict[str, float]:
        """p50/p99/max of recent changes (ms), for /healthz."""
        return self.driver.change_latency()

    # --- lifecycle ------------------------------------------------------------------------------------

    async def start(self, served_ms: int | None = None, *, background: bool = False) -> None:
        """Serve every stored room again (state, members, tokens, recent acks; deadlines resumed, bots
        scheduled), then start the idle reaper. Without ``restore``, the reaper only.

        ``background``: return once the stored codes are read, the rooms restored behind it (the server
        answers meanwhile; a room asked for is restored first: :mod:`.startup`); else return when every
        room is served. ``served_ms``: the game time at which the previous run last served these rooms (None:
        not known, then each room's newest change): the time since is not charged to whoever must decide."""
        if self.restore:
            codes = await asyncio.to_thread(self.store.codes)
            self.quarantined.update(self.store.damaged)  # (a row the listing itself could not read)
            await self.restorer.begin(codes, served_ms, background=background)
        self._reaper = asyncio.get_running_loop().create_task(self._reap_loop())

    async def restored(self) -> None:
        """Wait until every stored room is served again (see :meth:`start`)."""
        await self.restorer.done()

    async def find(self, code: str) -> Room | None:
        """The room ``code`` if it is served here, restoring it first if it is a stored room not served yet
        (a restart's background restore, :meth:`start`)."""
        room = self.get(code)
        return room if room is not None else await self.restorer.find(code)

    async def _serve_stored(self, stored: StoredRoom, since_ms: int) -> Room:
        """One stored room served from now on (its restore at start-up): rebuilt, registered, its pending
        deadline moved later by the time since ``since_ms`` and re-armed, its bots scheduled."""
        self.clock.not_before(stored.newest_ms)
        room = self._load(stored)
        self.rooms[room.code] = room
        await self.resume(room, since_ms)
        self.timing.after_change(room)
        return room

    async def resume(self, room: Room, since_ms: int) -> None:
        """A room just loaded (restored or adopted) was last surely served at game time ``since_ms``: its
        pending deadline moves later by the time since, as a stored change (``RoomClock.resume``); then a
        pre-action that came due before the room stopped being served, and was not fired, fires."""
        await self.timing.resume(room, since_ms)
        await self.driver.fire_due(room)

    def _load(self, stored: StoredRoom) -> Room:
        """One stored room rebuilt in memory (snapshot, then its log rows replayed); not yet registered."""
        return restore.load(self.engine, self.store, self.clock, stored, self.timing.deadline_passed)

    def adopt(self, stored: StoredRoom) -> Room:
        """Serve one stored room from now on, as start-up restores each: rebuilt from its snapshot and log,
        registered, its deadline re-armed and its bots scheduled. For a node taking a room over (the store
        row is left as it is). Raises if the room cannot be restored, or if it is already served here."""
        if stored.code in self.rooms:
            raise ValueError(f"room {stored.code} is already served here")
        self.clock.not_before(stored.newest_ms)
        room = self._load(stored)
        guard = self.driver.guard  # the driver alone keeps it (it fences every write)
        room.fence = None if guard is None else guard.token_of(room.code)
        self.rooms[room.code] = room
        self.quarantined.discard(room.code)
        self.timing.after_change(room)
        return room

    def drop(self, code: str) -> Room | None:
        """Stop serving a room without deleting it from the store (another node owns it now): its timer
        is cancelled, pending bot moves and retries find it closed, and it is forgotten in memory. Does not
        take the room's lock (a change in flight finishes), does not close its sockets (returned with the
        room: the caller tells them where to go) and does not call ``on_close`` (the room lives on)."""
        room = self.rooms.get(code)
        if room is None:
            return None
        room.closed = True
        if room.timer is not None:
            room.timer.cancel()
        room.bot_pending.clear()
        self._forget(code)
        return room

    def _forget(self, code: str) -> None:
        """Everything this process keeps about a room it no longer serves (closed or dropped)."""
        self.rooms.pop(code, None)
        self.driver.forget(code)
        self.views.forget(code)

    def warm_up(self) -> int:
        """Call the bot and hint functions on sample views once (their first call builds lookup tables that
        take seconds; paying that at start-up, in a thread, keeps it out of any room's critical section)."""
        count = 0
        for view in self.engine.sample_views():
            for fn in (self.timing.decider, self.views.recommender):
                if fn is not None:
                    try:
                        fn(view)
                        count += 1
                    except Exception:
                        log.debug("warm-up call failed", exc_info=True)
        return count

    async def stop(self) -> None:
        self.restorer.cancel()
        if self._reaper is not None:
            self._reaper.cancel()
        for room in self.rooms.values():
            if room.timer is not None:
                room.timer.cancel()
        self.later.cancel()
        self.driver.close()

    async def create_room(self, raw_options: dict[str, Any], nickname: str,
                          code: str | None = None) -> tuple[Room, Member, str]:
        """A new room with its creator as host and first member; returns the creator's seat token.

        ``code``: a code the caller reserved, and whose room count it checked itself (a cluster node does
        both in Redis, cluster-wide); None: a fresh code here, under this process's ``max_rooms``. A room
        whose first write fails is forgotten again (nobody learned its code)."""
        if code is None and len(self.rooms) >= self.limits.max_rooms:
            raise P.error("too_many_rooms", status=503)
        try:
            options = self.engine.parse_options(raw_options)
        except OptionsError as exc:
            raise P.error("bad_options", exc.message) from None
        nick = clean_nickname(nickname)
        lo, hi = self.engine.player_range(options)
        if code is None:
            code = new_room_code()
            while code in self.rooms or code in self.quarantined or self.restorer.holds(code):
                code = new_room_code()
        table = Table(code, self.clock.now_ms(), options, self.engine.options_json(options), lo, hi)
        member, token, table = new_member(table, nick, bot=False)
        room = Room(table.evolve(host_id=member.id))
        room.timer = DeadlineTimer(self.clock, functools.partial(self.timing.deadline_passed, room))
        room.empty_since = time.monotonic()
        self.rooms[code] = room
        try:
            await self.driver.save(room)
        except BaseException:
            self.rooms.pop(code, None)  # nobody learned its code
            raise
        return room, member, token

    def get(self, code: str) -> Room | None:
        room = self.rooms.get(code)
        return None if room is None or room.closed else room

    async def detach(self, conn: Connection) -> None:
        """A socket went away: not a leave (§8.5: the seat keeps playing on timeouts)."""
        room = conn.room
        if room is None:
            return
        async with room.lock:
            if conn in room.connections:
                room.connections.remove(conn)
                if not room.closed:
                    self.views.broadcast_lobby(room)
            if not room.human_connected() and room.empty_since is None:
                room.empty_since = time.monotonic()

    # --- closing idle rooms ---------------------------------------------------------------------------

    async def _reap_loop(self) -> None:
        while True:
            await asyncio.sleep(self.reap_interval_s)
            now = time.monotonic()
            for room in list(self.rooms.values()):
                if room.empty_since is not None and now - room.empty_since >= self.idle_close_s:
                    try:
                        await self.close_room(room, idle=True)
                    except Exception:  # a store outage must not stop the reaper; try again next round
                        log.warning("room %s: could not be closed yet (store write failed)", room.code)

    async def close_room(self, room: Room, *, idle: bool = False) -> None:
        """Close a room for good: sockets closed (4404), store rows deleted, chips gone (§12). ``idle``: no
        player was connected for ``idle_close_s``; whoever still watches is told why before the close."""
        async with room.lock:
            room.closed = True
            if room.timer is not None:
                room.timer.cancel()
            for conn in list(room.connections):
                if idle:
                    conn.send(P.dumps(P.error_msg("room_closed", P.MESSAGES["room_closed"])))
                conn.close(4404)
            room.connections.clear()
            await self.driver.write(room, "delete")
            self._forget(room.code)
            # the room's one reference cycle (its timer's callback holds the room): without it, a room frozen
            # out of the garbage collector's scans (``app._tune_gc``) is freed by reference counting
            room.timer = None
            if self.on_close is not None:
                self.on_close(room.code)
