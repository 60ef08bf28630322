"""Rooms: every room of one server process — members, seats, host, spectators, games — with exactly one
writer per room.

This module is the registry and the façade the app talks to: construction, start (restore every stored
room), stop, create, look up, adopt or drop one room, close, and a socket going away. The work is done by
parts, one job each, composed into :class:`Rooms`:

- ``model``: the data (``Table``, the stored part of a room as one value; ``Room``, ``Member``,
  ``Connection``, ``FinishedHand``) and nickname rules;
- ``writer``: the driver of a room's changes: a change is a new ``Table`` (plus its store operation and its
  frames), written to the store, then swapped in and published (under ``room.lock``); restore and replay,
  acks, store-outage retries;
- ``views``: what each socket is sent (its own seat's view only), broadcasts, hand history;
- ``clock``: deadlines and bots;
- ``members``: members and seat tokens; ``handlers`` and ``seating``: one function per client message,
  looked up in ``handlers.HANDLERS``.

What is secret is decided by the engine's ``view(state, viewer)``; the rooms hand each socket the view of
exactly its own seat, and put nothing else secret in any frame.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

from pokerroom.server.edge.limits import Limits
from pokerroom.server.engine_port import GameEngine, OptionsError
from pokerroom.server.room.botseat import ActionFn, cautious_decide
from pokerroom.server.room.clock import RoomClock
from pokerroom.server.room.handlers import RoomHandlers
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
from pokerroom.server.room.timers import Clock, DeadlineTimer
from pokerroom.server.room.tokens import new_room_code
from pokerroom.server.room.views import HISTORY_CACHE
from pokerroom.server.room.writer import (
    REPLAYED_KINDS,
    RETRY_FIRST_S,
    RETRY_MAX_S,
    SLOW_COMMIT_S,
    SNAPSHOT_EVERY,
    WriteGuard,
)
from pokerroom.server.storage import GroupWriter, RoomStore, StoredRoom
from pokerroom.server.wire import protocol as P

__all__ = [
    "ACKS_KEPT", "HISTORY_CACHE", "MAX_NICKNAME", "REPLAYED_KINDS", "RETRY_FIRST_S", "RETRY_MAX_S",
    "SLOW_COMMIT_S", "SNAPSHOT_EVERY", "CommitHook", "Connection", "FinishedHand", "Member", "Phase", "Room",
    "Rooms", "Status", "clean_nickname",
]

log = logging.getLogger("pokerroom.server")


class Rooms(RoomHandlers, RoomClock):
    """All rooms of one server process, their persistence, timers and bots."""

    def __init__(self, engine: GameEngine, store: RoomStore, *, clock: Clock | None = None,
                 limits: Limits | None = None, idle_close_s: float = 1800.0, reap_interval_s: float = 5.0,
                 bot_delay_ms: int = 800, decider: ActionFn | None = None,
                 recommender: ActionFn | None = None, guard: WriteGuard | None = None,
                 restore: bool = True) -> None:
        """``guard``: consulted around every store write (a cluster node's fencing, see ``WriteGuard``);
        ``restore``: :meth:`start` serves every stored room (False: a cluster node, whose rooms come by
        :meth:`adopt` once their lease is won)."""
        self.engine = engine
        self.store = store
        self.clock = clock or Clock()
        self.limits = limits or Limits()
        self.idle_close_s = idle_close_s
        self.reap_interval_s = reap_interval_s
        self.bot_delay_ms = bot_delay_ms
        self.decider: ActionFn = decider or cautious_decide
        self.recommender = recommender
        self.guard = guard
        self.restore = restore
        self.rooms: dict[str, Room] = {}
        self.on_commit: CommitHook | None = None  # test hook, called after each accepted change
        self.observe_commit: Callable[[str, float], None] | None = None  # metrics: (row kind, seconds)
        self.change_ms: deque[float] = deque(maxlen=4096)  # recent change durations, for /healthz
        self._reaper: asyncio.Task[None] | None = None
        self._writer = GroupWriter(store)
        self._tasks: set[asyncio.Task[None]] = set()
        self.quarantined: set[str] = set()  # stored rooms that could not be loaded: kept, never served
        self.on_close: Callable[[str], None] | None = None  # told the code of every room closed
        self._failures: dict[str, int] = {}  # room code -> store failures in a row (timeouts and bots)
        self._history_cache: OrderedDict[tuple[str, str | None], tuple[tuple[int, int], str]] = OrderedDict()

    # --- lifecycle ------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Restore every stored room (state, members, tokens, recent acks), resume deadlines and bots; then
        start the idle reaper. Without ``restore``, the reaper only."""
        stored_rooms = self.store.load_all() if self.restore else []
        if self.restore:
            self.quarantined.update(self.store.damaged)
        if stored_rooms:
            self.clock.not_before(max(s.newest_ms for s in stored_rooms))
        for stored in stored_rooms:
            try:
                room = self._load(stored)
            except Exception:
                log.exception("room %s could not be restored; kept in the store, quarantined", stored.code)
                self.quarantined.add(stored.code)
                continue
            self.rooms[room.code] = room
        for room in self.rooms.values():
            self.after_change(room)
        self._reaper = asyncio.get_running_loop().create_task(self._reap_loop())

    def _load(self, stored: StoredRoom) -> Room:
        """One stored room rebuilt in memory (snapshot, then its log rows replayed); not yet registered."""
        room = self._restore(stored.code, stored.meta, stored.state, stored.version, stored.pre_actions)
        self._replay(room, stored.replay)
        return room

    def adopt(self, stored: StoredRoom) -> Room:
        """Serve one stored room from now on, as start-up restores each: rebuilt from its snapshot and log,
        registered, its deadline re-armed and its bots scheduled. For a node taking a room over (the store
        row is left as it is). Raises if the room cannot be restored, or if it is already served here."""
        if stored.code in self.rooms:
            raise ValueError(f"room {stored.code} is already served here")
        self.clock.not_before(stored.newest_ms)
        room = self._load(stored)
        room.fence = None if self.guard is None else self.guard.token_of(room.code)
        self.rooms[room.code] = room
        self.quarantined.discard(room.code)
        self.after_change(room)
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
        self._failures.pop(code, None)
        for key in [k for k in self._history_cache if k[0] == code]:
            del self._history_cache[key]

    def warm_up(self) -> int:
        """Call the bot and hint functions on sample views once (their first call builds lookup tables that
        take seconds; paying that at start-up, in a thread, keeps it out of any room's critical section)."""
        count = 0
        for view in self.engine.sample_views():
            for fn in (self.decider, self.recommender):
                if fn is not None:
                    try:
                        fn(view)
                        count += 1
                    except Exception:
                        log.debug("warm-up call failed", exc_info=True)
        return count

    async def stop(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
        for room in self.rooms.values():
            if room.timer is not None:
                room.timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        self._writer.close()

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
            while code in self.rooms or code in self.quarantined:
                code = new_room_code()
        table = Table(code, self.clock.now_ms(), options, self.engine.options_json(options), lo, hi)
        member, token, table = self.new_member(table, nick, bot=False)
        room = Room(table.evolve(host_id=member.id))
        room.timer = DeadlineTimer(self.clock, functools.partial(self.deadline_passed, room))
        room.empty_since = time.monotonic()
        self.rooms[code] = room
        try:
            await self.save(room)
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
                    self.broadcast_lobby(room)
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
            await self._write(room, "delete")
            self._forget(room.code)
            if self.on_close is not None:
                self.on_close(room.code)
