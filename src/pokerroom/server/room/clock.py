"""Timers and bots: the changes nobody's message makes (a deadline passes, a bot's turn comes).

Why a module of its own: these run as tasks of their own, take the room's lock like a client message, and
go through the same ``commit`` (``driver``), so a timeout, a bot and two players' clicks apply one after
another against one version counter. A store outage must never stop a room's clock: a failed write is
retried later (``RoomDriver.store_failed``). A paused room (``Table.paused``, room/hostlive.py) arms no
deadline and moves no bot; its resume re-arms both through the same ``after_change``. A part held by the
rooms, given the engine, the clock, the driver, the rooms' delayed work and the bots' decision function.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pokerroom.rejections import Rejected
from pokerroom.server.room.botseat import BotSeat, legal_actions
from pokerroom.server.room.model import Room
from pokerroom.server.storage import LogRow

if TYPE_CHECKING:
    from pokerroom.server.engine_port import GameEngine
    from pokerroom.server.room.botseat import Decider
    from pokerroom.server.room.driver import RoomDriver
    from pokerroom.server.room.timers import Clock, Later

log = logging.getLogger("pokerroom.server")

#: a room unserved for less than this keeps its deadline as it was (a hand-over is about this quick: a
#: snapshot and a log line for a few hundred milliseconds would be noise)
MIN_PAUSE_MS = 1000


@dataclass(eq=False)
class RoomClock:
    """Deadlines, delayed retries and bot moves. ``decider``: a bot's choice from its view, at its level."""

    engine: GameEngine
    clock: Clock
    driver: RoomDriver
    later: Later
    decider: Decider
    bot_delay_ms: int

    def after_change(self, room: Room) -> None:
        """After a stored change (or a restore): re-arm the room's deadline, schedule its bots."""
        self._arm(room)
        self._schedule_bots(room)

    def _arm(self, room: Room) -> None:
        if room.timer is None:
            return
        running = room.phase == "playing" and not room.closed and room.table.paused is None
        if running and room.state is not None:
            room.timer.arm(self.engine.deadline(room.state))
        else:
            room.timer.cancel()

    async def resume(self, room: Room, since_ms: int) -> None:
        """A room loaded by a new owner (a restart, a takeover) that was last surely served at game time
        ``since_ms``: the time since is not charged to whoever must decide. Their pending deadline moves that
        much later, so it is re-armed with what was left when the room stopped being served, as a stored
        change (a snapshot, version + 1, whose event puts a Korean line in the table's log), before any
        socket sees the room. A deadline already due by ``since_ms`` is left to fire as it would have.

        Why a stored change and not a timer of this process's own: the deadline lives in the game's state
        (every view shows it, every later owner loads it), so the state itself must say it moved."""
        async with room.lock:
            if room.closed or room.phase != "playing" or room.state is None:
                return
            due = self.engine.deadline(room.state)
            now = self.clock.now_ms()
            paused = now - since_ms
            if due is None or due <= since_ms or paused < MIN_PAUSE_MS:
                return
            new_state, events = self.engine.resume_clock(room.state, paused)
            row = LogRow(room.version + 1, "clock", None, None, {"pausedMs": paused}, now)
            try:
                await self.driver.commit(room, new_state, events, row)
            except Exception as exc:  # the store refused: the deadline stays as stored (charged, as before)
                log.warning("room %s: the %d ms nobody served it could not be given back (%s: %s)", room.code,
                            paused, type(exc).__name__, exc)
                return
            log.info("room %s: deadline moved %d ms later (unserved since %d)", room.code, paused, since_ms)

    async def deadline_passed(self, room: Room) -> None:
        """A deadline passed: the engine's automatic action (§8.5), through the same writer as actions."""
        async with room.lock:
            if (room.closed or room.phase != "playing" or room.state is None or room.timer is None
                    or room.table.paused is not None):
                return
            due = self.engine.deadline(room.state)
            now = self.clock.now_ms()
            if due is None:
                return
            if due > now:
                room.timer.arm(due)
                return
            try:
                new_state, events = self.engine.on_timeout(room.state, now)
            except Exception:
                log.exception("room %s: on_timeout failed; retrying in a second", room.code)
                self.later(1.0, lambda: self.deadline_passed(room))
                return
            if self.engine.deadline(new_state) == due and not events:
                self.later(1.0, lambda: self.deadline_passed(room))  # no progress: do not spin
                room.timer.cancel()
            row = LogRow(room.version + 1, "timeout", None, None, None, now)
            try:
                await self.driver.commit(room, new_state, events, row)
            except Exception as exc:
                self.driver.store_failed(room, exc, lambda: self.deadline_passed(room))
                return
            self.driver.store_recovered(room)

    def _schedule_bots(self, room: Room) -> None:
        if room.phase != "playing" or room.state is None or room.table.paused is not None:
            return
        for pid in room.game_players:
            member = room.members.get(pid)
            if member is None or not member.bot or pid in room.bot_pending:
                continue
            if legal_actions(self.engine.view(room.state, pid)):
                room.bot_pending.add(pid)
                delay = self.clock.real_seconds(self.bot_delay_ms)
                self.later(delay, functools.partial(self.bot_act, room, pid))

    async def bot_act(self, room: Room, pid: str) -> None:
        async with room.lock:
            room.bot_pending.discard(pid)
            if room.closed or room.phase != "playing" or room.state is None or room.table.paused is not None:
                return
            member = room.members.get(pid)
            level = member.level if member is not None else "easy"
            action = BotSeat(pid, functools.partial(self.decider, level=level)).choose(
                self.engine.view(room.state, pid))
            if action is None:
                return  # the deadline will act for the bot
            now = self.clock.now_ms()
            try:
                new_state, events = self.engine.apply(room.state, pid, action, now)
            except Rejected as exc:
                log.warning("room %s: bot %s refused: %s", room.code, pid, exc.code)
                return
            row = LogRow(room.version + 1, "bot", pid, None, action, now)
            try:
                await self.driver.commit(room, new_state, events, row)
            except Exception as exc:
                room.bot_pending.add(pid)
                self.driver.store_failed(room, exc, functools.partial(self.bot_act, room, pid))
                return
            self.driver.store_recovered(room)
