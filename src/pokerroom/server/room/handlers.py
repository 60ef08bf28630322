"""Client messages of a room: ``handle`` dispatches each one under the room's lock, and one method per
message checks it and makes its change through ``room_writer``.

Why a module of its own: this is the room's protocol surface (docs/protocol.md §2): who may send what,
in which phase, and which error a refusal carries. Refusals go to the sender only; a store outage refuses
with ``store_unavailable`` and changes nothing. Seat requests during a game are in ``seating``.
"""

from __future__ import annotations

import itertools
import logging
import sqlite3
import time
from typing import Any, Literal

from pokerroom.history import HistoryRecorder
from pokerroom.rejections import Rejected
from pokerroom.server.engine_port import OptionsError
from pokerroom.server.room import preactions as pre
from pokerroom.server.room import reactions as talk
from pokerroom.server.room import seating
from pokerroom.server.room.members import RoomMembers
from pokerroom.server.room.model import Connection, Room, clean_nickname
from pokerroom.server.storage import LogRow
from pokerroom.server.storage.base import StoreError
from pokerroom.server.wire import protocol as P

log = logging.getLogger("pokerroom.server")


class RoomHandlers(RoomMembers):
    """One method per client message; ``handle`` is the only entry point."""

    async def handle(self, room: Room, conn: Connection, msg: P.ClientMessage) -> None:
        """Apply one client message under the room's lock; refusals go to the sender only."""
        if isinstance(msg, P.Ping):
            conn.send(P.dumps(P.pong_msg(self.clock.now_ms())))
            return
        if isinstance(msg, P.History):  # read-only and cached: no need to wait for the room's lock
            self._answer_history(room, conn)
            return
        async with room.lock:
            if room.closed:
                return
            cmid = msg.clientMsgId if isinstance(msg, P.ActionMsg) else None
            try:
                if isinstance(msg, P.Hello):
                    await self._hello(room, conn, msg)
                    return
                if conn.role == "none":
                    raise P.error("hello_first")
                if isinstance(msg, P.ActionMsg):
                    await self._action(room, conn, msg)
                elif isinstance(msg, P.Start):
                    await self._start(room, conn)
                elif isinstance(msg, P.AddBot):
                    await self._add_bot(room, conn, msg.nickname)
                elif isinstance(msg, P.RemoveBot):
                    await self._remove_bot(room, conn, msg.playerId)
                elif isinstance(msg, P.SetOptions):
                    await self._set_options(room, conn, msg.options)
                elif isinstance(msg, P.Leave):
                    await self._leave(room, conn)
                elif isinstance(msg, P.Kick):
                    await self._kick(room, conn, msg.playerId)
                elif isinstance(msg, P.Resync):
                    self._send_view(room, conn)
                elif isinstance(msg, P.PreActionMsg):
                    await self._pre_action(room, conn, msg)
                elif isinstance(msg, P.React | P.Chat):
                    self._talk(room, conn, msg)
                elif isinstance(msg, P.SocialMsg):
                    await self._set_social(room, conn, msg)
                elif isinstance(msg, P.SEAT_MESSAGES):
                    await seating.handle(self, room, conn, msg)
            except P.ProtocolError as exc:
                conn.send(P.dumps(P.error_msg(exc.code, exc.message, cmid)))
            except Rejected as exc:
                conn.send(P.dumps(P.error_msg(exc.code, exc.message, cmid)))
            except (sqlite3.Error, StoreError):  # SQLite, or PostgreSQL down / timed out (StoreUnavailable)
                log.warning("room %s: store write failed on %s; nothing changed", room.code,
                            type(msg).__name__)
                conn.send(P.dumps(P.error_msg("store_unavailable", P.MESSAGES["store_unavailable"], cmid)))
            except Exception:
                log.exception("room %s: internal error on %s", room.code, type(msg).__name__)
                conn.send(P.dumps(P.error_msg("internal", P.MESSAGES["internal"], cmid)))

    async def _hello(self, room: Room, conn: Connection, msg: P.Hello) -> None:
        if conn.role != "none":
            raise P.error("already_hello")
        token_out: str | None = None
        if msg.token is not None:
            member = self._member_by_token(room, msg.token)
            if member is None:
                raise P.error("bad_token")
            tabs = sum(1 for c in room.connections if c.player_id == member.id)
            if tabs >= self.limits.max_tabs_per_seat:
                raise P.error("too_many_tabs")
            conn.role, conn.player_id = "player", member.id
        elif msg.nickname is not None:
            # a nickname hello during a game is a request for a seat (the host still decides)
            member, token_out = await self.admit_member(room, msg.nickname, asking=seating.wants_seat)
            conn.role, conn.player_id = "player", member.id
        else:
            if room.spectator_count() >= self.limits.max_spectators:
                raise P.error("spectators_full")
            conn.role = "spectator"
        conn.room = room
        conn.deltas = bool(msg.deltas)
        room.connections.append(conn)
        if conn.role == "player":
            room.empty_since = None
        conn.send(P.dumps(P.welcome_msg(room.code, conn.role, conn.player_id, room.version, token_out)))
        self._broadcast_lobby(room)
        self._send_snapshot(room, conn)

    async def _action(self, room: Room, conn: Connection, msg: P.ActionMsg) -> None:
        if conn.role != "player" or conn.player_id is None:
            raise P.error("spectator")
        pid = conn.player_id
        seen = room.acks.get(pid)
        if seen is not None and msg.clientMsgId in seen:
            conn.send(P.dumps(P.ack_msg(msg.clientMsgId, seen[msg.clientMsgId])))
            return
        action = P.action_dict(msg)
        self._require_current_game(room, pid, msg.version, action)
        now = self.clock.now_ms()
        new_state, events = self.engine.apply(room.game_state, pid, action, now)
        await self._commit(room, new_state, events, LogRow(room.version + 1, "action", pid, msg.clientMsgId,
                                                     action, now), sender=conn)

    def _talk(self, room: Room, conn: Connection, msg: P.React | P.Chat) -> None:
        """A reaction or a chat line: checked, rate-limited per sender, broadcast, never stored."""
        spectator = conn.role != "player" or conn.player_id is None
        if spectator and (isinstance(msg, P.Chat) or not room.social.spectator_reactions):
            raise P.error("reactions_off" if isinstance(msg, P.React) else "chat_off")
        if isinstance(msg, P.Chat) and not room.social.chat:
            raise P.error("chat_off")
        text = talk.clean_chat(msg.text) if isinstance(msg, P.Chat) else None
        if isinstance(msg, P.Chat) and text is None:
            raise P.error("chat_empty")
        if not room.throttle.allow(conn.player_id or f"spectator:{conn.conn_id}"):
            raise P.error("too_fast")
        if text is not None and conn.player_id is not None:
            self._broadcast(room, P.dumps(talk.chat_msg(conn.player_id, text)))
        elif isinstance(msg, P.React):
            sender = None if spectator else conn.player_id
            self._broadcast(room, P.dumps(talk.reaction_msg(sender, msg.reaction)))

    async def _set_social(self, room: Room, conn: Connection, msg: P.SocialMsg) -> None:
        """Host only, any phase: chat on/off, spectator reactions on/off; stored, then a new ``lobby``."""
        self._require_host(room, conn)
        before = room.social
        room.social = talk.Social(msg.chat, msg.spectatorReactions)
        try:
            await self._save_meta(room)
        except BaseException:
            room.social = before
            raise
        self._broadcast_lobby(room)

    @staticmethod
    def _require_current_game(room: Room, pid: str, version: int, action: dict[str, Any] | None = None
                              ) -> None:
        """An action or a pre-action needs a game in play, a seat in it, and the room's current version
        (or, for a commuting ``action`` such as ``ready``, a version no older than the table's last other
        change: ``Room.is_current``)."""
        if room.phase != "playing" or room.state is None:
            raise P.error("no_game")
        if pid not in room.game_players:
            raise P.error("not_seated")
        if not room.is_current(version, action, pid):
            raise P.error("stale_version")

    async def _pre_action(self, room: Room, conn: Connection, msg: P.PreActionMsg) -> None:
        """Choose (or clear, ``kind: null``) my pre-action: stored with the room (its pre-actions row, a few
        hundred bytes: no snapshot), answered with my view."""
        if conn.role != "player" or conn.player_id is None:
            raise P.error("spectator")
        pid = conn.player_id
        self._require_current_game(room, pid, msg.version)
        before = room.pre.to_json()
        if msg.kind is None:
            room.pre.chosen.pop(pid, None)
        else:
            chosen = pre.choose(self.engine.view(room.game_state, pid), msg.kind)
            if chosen is None:
                raise P.error("preaction_unavailable")
            room.pre.chosen[pid] = chosen
        room.pre.notices.pop(pid, None)
        try:
            await self._write(room, "pre", room.pre.to_json())
        except BaseException:
            room.pre = pre.PreActions.from_json(before)
            raise
        self._send_views_to(room, pid)

    async def _start(self, room: Room, conn: Connection) -> None:
        self._require_host(room, conn)
        if room.phase == "playing":
            raise P.error("game_running")
        for pid in [m.id for m in room.members.values() if m.status == "left"]:
            del room.members[pid]
        ids = [m.id for m in sorted(room.members.values(), key=lambda m: m.seq)]
        if not room.min_players <= len(ids) <= room.max_players:
            lo, hi = room.min_players, room.max_players
            raise P.error("player_count", f"{lo}~{hi}명이 있어야 시작할 수 있어요")
        now = self.clock.now_ms()
        try:
            state, setup_events = self.engine.setup_with_events(ids, room.options, now)
        except Rejected as exc:
            raise P.error("player_count", exc.message) from None
        except ValueError as exc:
            raise P.error("player_count", str(exc) if any("\uac00" <= c <= "\ud7a3" for c in str(exc))
                          else None) from None
        for m in room.members.values():
            m.status, m.asking = "seated", False
        room.game_players = ids
        room.phase = "playing"
        room.game_no += 1
        room.result = None
        room.pre.clear()
        room.recorder = HistoryRecorder(ids, int(room.options_json.get("startingChips") or 0))
        room.recorder_json = room.recorder.to_json()
        row = LogRow(room.version + 1, "start", conn.player_id, None, None, now)
        # the first hand's events are recorded, not sent: a game start has no events frame (protocol §2.1)
        await self._commit(room, state, [], row, record="begin" if setup_events is None else setup_events)
        self._broadcast_lobby(room)

    async def _add_bot(self, room: Room, conn: Connection, nickname: str | None) -> None:
        self._require_host(room, conn)
        if room.phase == "playing":
            raise P.error("game_running")
        if nickname is None:
            taken = {m.nickname for m in room.members.values()}
            nickname = next(f"봇 {i}" for i in itertools.count(1) if f"봇 {i}" not in taken)
        nick = clean_nickname(nickname)
        self._check_capacity(room, nick)
        member, _ = self._new_member(room, nick, bot=True)
        try:
            await self._save_meta(room)
        except BaseException:  # not stored, so not added (a store outage must not leave a ghost bot)
            del room.members[member.id]
            raise
        self._broadcast_lobby(room)

    async def _remove_bot(self, room: Room, conn: Connection, player_id: str) -> None:
        self._require_host(room, conn)
        if room.phase == "playing":
            raise P.error("game_running")
        member = room.members.get(player_id)
        if member is None or not member.bot:
            raise P.error("no_such_bot")
        del room.members[player_id]
        try:
            await self._save_meta(room)
        except BaseException:
            room.members[player_id] = member
            raise
        self._broadcast_lobby(room)

    async def _kick(self, room: Room, conn: Connection, player_id: str) -> None:
        """Host only: remove a human player (issue #12.10). Between games the member is removed; during a
        game they stay ranked but auto-die every hand (the engine's ``leave``, §5.8), like leaving. Either way
        the seat token is revoked at once (its digest is dropped, so no tab can come back with it), their
        sockets get ``kicked`` and are closed (4403), and everyone else gets a ``notice``. Stored first."""
        self._require_host(room, conn)
        member = room.members.get(player_id)
        if member is None or member.bot or member.id == conn.player_id or member.status == "left":
            raise P.error("not_kickable")
        in_game = player_id in room.game_players and room.phase != "lobby"
        before = (member.digest, member.status)
        member.digest = None
        if in_game:
            member.status = "left"
        else:
            del room.members[player_id]
        try:
            if in_game and room.phase == "playing":
                await self._engine_leave(room, player_id, "kick")
            else:
                await self._save_meta(room)
        except BaseException:
            member.digest, member.status = before
            room.members[player_id] = member
            raise
        for other in [c for c in room.connections if c.player_id == player_id]:
            room.connections.remove(other)
            other.send(P.dumps(P.error_msg("kicked", P.MESSAGES["kicked"])))
            other.close(4403)
        self._broadcast(room, P.dumps(P.notice_msg("kicked", f"방장이 {member.nickname} 님을 내보냈어요")))
        self._broadcast_lobby(room)

    async def _set_options(self, room: Room, conn: Connection, raw: dict[str, Any]) -> None:
        """Host only, in the lobby or after a game: new options for the next game (same checks as creation).

        Refused when more members are present than the new mode seats, with poker.md's sentence; the room, its
        members, tokens and past hands are kept. Stored before the new lobby is sent, like every change.
        """
        self._require_host(room, conn)
        if room.phase == "playing":
            raise P.error("game_running")
        try:
            options = self.engine.parse_options(raw)
        except OptionsError as exc:
            raise P.error("bad_options", exc.message) from None
        lo, hi = self.engine.player_range(options)
        present = sum(1 for m in room.members.values() if m.status != "left")
        if present > hi:
            raise P.error("too_many_players", f"이 모드는 최대 {hi}명까지 할 수 있어요")
        before = (room.options, room.options_json, room.min_players, room.max_players)
        room.options, room.options_json = options, self.engine.options_json(options)
        room.min_players, room.max_players = lo, hi
        try:
            await self._save_meta(room)
        except BaseException:
            room.options, room.options_json, room.min_players, room.max_players = before
            raise
        self._broadcast_lobby(room)

    async def _engine_leave(self, room: Room, pid: str, kind: Literal["leave", "kick"]) -> None:
        """The engine's ``leave`` for a member who goes mid-game (§5.8: auto-die each hand, stays ranked),
        committed as a ``kind`` row; if the engine refuses it, only the members are stored."""
        now = self.clock.now_ms()
        try:
            new_state, events = self.engine.apply(room.game_state, pid, {"type": "leave"}, now)
        except Rejected:
            await self._save_meta(room)
        else:
            await self._commit(room, new_state, events,
                               LogRow(room.version + 1, kind, pid, None, {"type": "leave"}, now))

    async def _leave(self, room: Room, conn: Connection) -> None:
        """Leave for good. Mid-game the engine gets ``leave`` (§5.8: auto-die each hand, stays ranked)."""
        pid = conn.player_id
        if conn.role == "spectator" or pid is None:
            room.connections.remove(conn)
            conn.close(1000)
            self._broadcast_lobby(room)
            return
        member = room.members[pid]
        in_game = pid in room.game_players and room.phase != "lobby"
        if in_game:
            member.status = "left"
        else:
            del room.members[pid]
        self._fix_host(room)
        for other in [c for c in room.connections if c.player_id == pid]:
            room.connections.remove(other)
            other.close(1000)
        if in_game and room.phase == "playing":
            await self._engine_leave(room, pid, "leave")
        else:
            await self._save_meta(room)
        self._broadcast_lobby(room)
        if not room.human_connected() and room.empty_since is None:
            room.empty_since = time.monotonic()
