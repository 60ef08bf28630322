"""Client messages of a room: ``handle`` dispatches each one under the room's lock through ``HANDLERS``
(message type -> handler), and each handler, a plain function given the rooms' ``Parts``, checks its
message and makes its change through the room's driver (a plan: a new table, stored, then swapped in).

Why a module of its own: this is the room's protocol surface (docs/protocol.md §2): who may send what,
in which phase, and which error a refusal carries. Refusals go to the sender only; a store outage refuses
with ``store_unavailable`` and changes nothing. Seat requests during a game are in ``seating``.
"""

from __future__ import annotations

import itertools
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Literal

from pokerroom.history import HistoryRecorder
from pokerroom.rejections import Rejected
from pokerroom.server.engine_port import OptionsError
from pokerroom.server.room import bans, hostlive, ledger_figures, seating
from pokerroom.server.room import preactions as pre
from pokerroom.server.room import reactions as talk
from pokerroom.server.room.members import (
    admit_member,
    check_capacity,
    member_by_token,
    new_member,
    require_host,
    with_host_fixed,
)
from pokerroom.server.room.model import Connection, Member, Room, Table, clean_nickname
from pokerroom.server.room.parts import Parts
from pokerroom.server.storage import LogRow
from pokerroom.server.storage.base import StoreError
from pokerroom.server.wire import protocol as P

log = logging.getLogger("pokerroom.server")


Handler = Callable[[Parts, Room, Connection, Any], Awaitable[None]]


async def handle(parts: Parts, room: Room, conn: Connection, msg: P.ClientMessage) -> None:
    """Apply one client message under the room's lock; refusals go to the sender only."""
    if isinstance(msg, P.Ping):
        conn.send(P.dumps(P.pong_msg(parts.clock.now_ms())))
        return
    if isinstance(msg, P.History):  # read-only and cached: no need to wait for the room's lock
        parts.views.answer_history(room, conn, msg)
        return
    async with room.lock:
        if room.closed:
            return
        cmid = msg.clientMsgId if isinstance(msg, P.ActionMsg) else None
        try:
            if conn.role == "none" and not isinstance(msg, P.Hello):
                raise P.error("hello_first")
            await HANDLERS[type(msg)](parts, room, conn, msg)
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


async def hello(parts: Parts, room: Room, conn: Connection, msg: P.Hello) -> None:
    if conn.role != "none":
        raise P.error("already_hello")
    bans.check_hello(room, conn, msg.token)  # a kick is a ban (room/bans.py)
    token_out: str | None = None
    if msg.token is not None:
        member = member_by_token(room, msg.token)
        if member is None:
            raise P.error("bad_token")
        tabs = sum(1 for c in room.connections if c.player_id == member.id)
        if tabs >= parts.limits.max_tabs_per_seat:
            raise P.error("too_many_tabs")
        conn.role, conn.player_id = "player", member.id
    elif msg.nickname is not None:
        # a nickname hello during a game is a request for a seat (the host still decides)
        member, token_out = await admit_member(parts.driver, room, msg.nickname, asking=seating.wants_seat)
        conn.role, conn.player_id = "player", member.id
    else:
        if room.spectator_count() >= parts.limits.max_spectators:
            raise P.error("spectators_full")
        conn.role = "spectator"
    conn.room = room
    conn.deltas = bool(msg.deltas)
    room.connections.append(conn)
    if conn.role == "player":
        room.empty_since = None
    conn.send(P.dumps(P.welcome_msg(room.code, conn.role, conn.player_id, room.version, token_out)))
    parts.views.broadcast_lobby(room)
    parts.views.send_snapshot(room, conn)


async def action(parts: Parts, room: Room, conn: Connection, msg: P.ActionMsg) -> None:
    if conn.role != "player" or conn.player_id is None:
        raise P.error("spectator")
    pid = conn.player_id
    seen = room.acks.get(pid)
    if seen is not None and msg.clientMsgId in seen:
        conn.send(P.dumps(P.ack_msg(msg.clientMsgId, seen[msg.clientMsgId])))
        return
    act = P.action_dict(msg)
    require_current_game(room, pid, msg.version, act)
    now = parts.clock.now_ms()
    new_state, events = parts.engine.apply(room.game_state, pid, act, now)
    row = LogRow(room.version + 1, "action", pid, msg.clientMsgId, act, now)
    await parts.driver.commit(room, new_state, events, row, sender=conn)


async def talk_line(parts: Parts, room: Room, conn: Connection, msg: P.React | P.Chat) -> None:
    """A reaction or a chat line: checked, rate-limited per sender, broadcast, never stored."""
    spectator = conn.role != "player" or conn.player_id is None
    social = room.social
    if isinstance(msg, P.React) and spectator and not social.spectator_reactions:
        raise P.error("reactions_off")
    if isinstance(msg, P.Chat) and not (social.spectator_chat if spectator else social.chat):
        raise P.error("chat_off")
    text = talk.clean_chat(msg.text) if isinstance(msg, P.Chat) else None
    if isinstance(msg, P.Chat) and text is None:
        raise P.error("chat_empty")
    # one allowance per player, and per spectator client (spectators have no id; a socket's own allowance
    # would refill by opening another socket)
    watcher = conn.client_key or f"socket:{conn.conn_id}"
    if not room.throttle.allow(f"spectator:{watcher}" if spectator else str(conn.player_id)):
        raise P.error("too_fast")
    if text is not None:
        parts.views.broadcast(room, P.dumps(talk.chat_msg(None if spectator else conn.player_id, text)))
    elif isinstance(msg, P.React):
        sender = None if spectator else conn.player_id
        parts.views.broadcast(room, P.dumps(talk.reaction_msg(sender, msg.reaction)))


async def set_social(parts: Parts, room: Room, conn: Connection, msg: P.SocialMsg) -> None:
    """Host only, any phase: chat, spectator reactions and spectator chat on/off; stored, then a new
    ``lobby``."""
    require_host(room, conn)
    social = talk.Social(msg.chat, msg.spectatorReactions, msg.spectatorChat)
    await parts.driver.save(room, room.table.evolve(social=social))
    parts.views.broadcast_lobby(room)


def require_current_game(room: Room, pid: str, version: int, action: dict[str, Any] | None = None) -> None:
    """An action or a pre-action needs a game in play, a seat in it, and the room's current version
    (or, for a commuting ``action`` such as ``ready``, a version no older than the table's last other
    change: ``Room.is_current``)."""
    if room.phase != "playing" or room.state is None:
        raise P.error("no_game")
    if room.table.paused is not None:  # the host paused the game: nothing moves (room/hostlive.py)
        raise P.error("paused")
    if pid not in room.game_players:
        raise P.error("not_seated")
    if not room.is_current(version, action, pid):
        raise P.error("stale_version")


async def pre_action(parts: Parts, room: Room, conn: Connection, msg: P.PreActionMsg) -> None:
    """Choose (or clear, ``kind: null``) my pre-action: stored with the room (its pre-actions row, a few
    hundred bytes: no snapshot), answered with my view."""
    if conn.role != "player" or conn.player_id is None:
        raise P.error("spectator")
    pid = conn.player_id
    require_current_game(room, pid, msg.version)
    chosen = room.pre.copy()
    if msg.kind is None:
        chosen.chosen.pop(pid, None)
    else:
        picked = pre.choose(parts.engine.view(room.game_state, pid), msg.kind)
        if picked is None:
            raise P.error("preaction_unavailable")
        chosen.chosen[pid] = picked
    chosen.notices.pop(pid, None)
    await parts.driver.save_pre(room, room.table.evolve(pre=chosen))
    parts.views.send_views_to(room, pid)


async def start(parts: Parts, room: Room, conn: Connection, msg: P.Start) -> None:
    require_host(room, conn)
    if room.phase == "playing":
        raise P.error("game_running")
    # the game that ends now joins the ledger's closed games, with its players' names as they were
    closed = ledger_figures.closed_with_current(room.table, parts.engine)
    staying = {k: m for k, m in room.members.items() if m.status != "left"}
    if len(staying) != len(room.members):
        # members who left the last game are forgotten here even if the start is refused (memory only,
        # like before: the next stored change stores them gone); the ledger keeps their names
        gone = {k: m.nickname for k, m in room.members.items() if k not in staying}
        room.table = room.table.evolve(members=staying, ledger=room.table.ledger.remembering(gone))
    ids = [m.id for m in sorted(staying.values(), key=lambda m: m.seq)]
    if not room.min_players <= len(ids) <= room.max_players:
        lo, hi = room.min_players, room.max_players
        raise P.error("player_count", f"{lo}~{hi}명이 있어야 시작할 수 있어요")
    now = parts.clock.now_ms()
    try:
        state, setup_events = parts.engine.setup_with_events(ids, room.options, now)
    except Rejected as exc:
        raise P.error("player_count", exc.message) from None
    except ValueError as exc:
        raise P.error("player_count", str(exc) if any("\uac00" <= c <= "\ud7a3" for c in str(exc))
                      else None) from None
    recorder = HistoryRecorder(ids, int(room.options_json.get("startingChips") or 0))
    base = room.table.evolve(
        members={k: replace(m, status="seated", asking=False) for k, m in staying.items()},
        game_players=ids, phase="playing", game_no=room.game_no + 1, result=None, pre=pre.PreActions(),
        recorder_json=recorder.to_json(), ledger=closed)
    row = LogRow(room.version + 1, "start", conn.player_id, None, None, now)
    # the first hand's events are recorded, not sent: a game start has no events frame (protocol §2.1)
    await parts.driver.commit(room, state, [], row, record="begin" if setup_events is None else setup_events,
                       base=base, recorder=recorder)
    parts.views.broadcast_lobby(room)


async def add_bot(parts: Parts, room: Room, conn: Connection, msg: P.AddBot) -> None:
    require_host(room, conn)
    if room.phase == "playing":
        raise P.error("game_running")
    nickname = msg.nickname
    if nickname is None:
        taken = {m.nickname for m in room.members.values()}
        nickname = next(f"봇 {i}" for i in itertools.count(1) if f"봇 {i}" not in taken)
    nick = clean_nickname(nickname)
    check_capacity(room, nick)
    _, _, after = new_member(room.table, nick, bot=True, level=msg.level)
    await parts.driver.save(room, after)  # not stored, not added (a store outage must not leave a ghost bot)
    parts.views.broadcast_lobby(room)


def hosts_bot(room: Room, conn: Connection, player_id: str) -> Member:
    """The bot ``player_id`` for its host to remove or change: only the host, only a bot, between games."""
    require_host(room, conn)
    if room.phase == "playing":
        raise P.error("game_running")
    member = room.members.get(player_id)
    if member is None or not member.bot:
        raise P.error("no_such_bot")
    return member


async def remove_bot(parts: Parts, room: Room, conn: Connection, msg: P.RemoveBot) -> None:
    hosts_bot(room, conn, msg.playerId)
    await parts.driver.save(room, room.table.without_member(msg.playerId))
    parts.views.broadcast_lobby(room)


async def bot_level(parts: Parts, room: Room, conn: Connection, msg: P.BotLevel) -> None:
    """The host makes a bot play another way (docs/bots.md "Levels")."""
    member = hosts_bot(room, conn, msg.playerId)
    if member.level != msg.level:
        await parts.driver.save(room, room.table.with_member(replace(member, level=msg.level)))
    parts.views.broadcast_lobby(room)


async def kick(parts: Parts, room: Room, conn: Connection, msg: P.Kick) -> None:
    """Host only: remove a human player. Between games the member is removed; during a game they stay
    ranked but auto-die every hand (the engine's ``leave``, §5.8), like leaving. Either way the seat token
    is revoked at once (its digest is dropped, so no tab can come back with it), their sockets get
    ``kicked`` and are closed (4403), and everyone else gets a ``notice``. The kick is a ban until the host
    lifts it (``unban``; room/bans.py), stored with the table. Stored first."""
    require_host(room, conn)
    player_id = msg.playerId
    member = room.members.get(player_id)
    if member is None or member.bot or member.id == conn.player_id or member.status == "left":
        raise P.error("not_kickable")
    table = bans.banned(room.table, member, [c for c in room.connections if c.player_id == player_id], conn)
    in_game = player_id in room.game_players and room.phase != "lobby"
    if in_game:
        after = table.with_member(replace(member, digest=None, status="left"))
    else:
        after = table.without_member(player_id)
    if in_game and room.phase == "playing":
        await engine_leave(parts, room, after, player_id, "kick")
    else:
        await parts.driver.save(room, after)
    for other in [c for c in room.connections if c.player_id == player_id]:
        room.connections.remove(other)
        other.send(P.dumps(P.error_msg("kicked", P.MESSAGES["kicked"])))
        other.close(4403)
    parts.views.broadcast(room, P.dumps(P.notice_msg("kicked", f"방장이 {member.nickname} 님을 내보냈어요")))
    parts.views.broadcast_lobby(room)


async def unban(parts: Parts, room: Room, conn: Connection, msg: P.Unban) -> None:
    """Host only, any time: let a kicked member back (their nickname and client; the old seat is gone, so
    they join anew). Stored first; the host's ``lobby`` shows the shorter list."""
    require_host(room, conn)
    await parts.driver.save(room, bans.lifted(room.table, msg.playerId))
    parts.views.broadcast_lobby(room)


async def set_options(parts: Parts, room: Room, conn: Connection, msg: P.SetOptions) -> None:
    """Host only, in the lobby or after a game: new options for the next game (same checks as creation).

    Refused when more members are present than the new mode seats, with poker.md's sentence; the room, its
    members, tokens and past hands are kept. Stored before the new lobby is sent, like every change.
    """
    require_host(room, conn)
    if room.phase == "playing":
        raise P.error("game_running")
    try:
        options = parts.engine.parse_options(msg.options)
    except OptionsError as exc:
        raise P.error("bad_options", exc.message) from None
    lo, hi = parts.engine.player_range(options)
    present = sum(1 for m in room.members.values() if m.status != "left")
    if present > hi:
        raise P.error("too_many_players", f"이 모드는 최대 {hi}명까지 할 수 있어요")
    await parts.driver.save(room, room.table.evolve(
        options=options, options_json=parts.engine.options_json(options), min_players=lo, max_players=hi))
    parts.views.broadcast_lobby(room)


async def engine_leave(parts: Parts, room: Room, after: Table, pid: str,
                       kind: Literal["leave", "kick"]) -> None:
    """The engine's ``leave`` for a member who goes mid-game (§5.8: auto-die each hand, stays ranked),
    committed as a ``kind`` row with the members of ``after``; if the engine refuses it, only the members
    are stored. During a pause, at the paused time (``hostlive.game_now``)."""
    now = hostlive.game_now(parts, room)
    try:
        new_state, events = parts.engine.apply(room.game_state, pid, {"type": "leave"}, now)
    except Rejected:
        await parts.driver.save(room, after)
    else:
        await parts.driver.commit(room, new_state, events,
                           LogRow(room.version + 1, kind, pid, None, {"type": "leave"}, now), base=after)


async def leave(parts: Parts, room: Room, conn: Connection, msg: P.Leave) -> None:
    """Leave for good. Mid-game the engine gets ``leave`` (§5.8: auto-die each hand, stays ranked)."""
    pid = conn.player_id
    if conn.role == "spectator" or pid is None:
        room.connections.remove(conn)
        conn.close(1000)
        parts.views.broadcast_lobby(room)
        return
    member = room.members[pid]
    in_game = pid in room.game_players and room.phase != "lobby"
    if in_game:
        after = room.table.with_member(replace(member, status="left"))
    else:
        after = room.table.without_member(pid)
    after = with_host_fixed(after)
    for other in [c for c in room.connections if c.player_id == pid]:
        room.connections.remove(other)
        other.close(1000)
    if in_game and room.phase == "playing":
        await engine_leave(parts, room, after, pid, "leave")
    else:
        await parts.driver.save(room, after)
    parts.views.broadcast_lobby(room)
    if not room.human_connected() and room.empty_since is None:
        room.empty_since = time.monotonic()


async def resync(parts: Parts, room: Room, conn: Connection, msg: P.Resync) -> None:
    parts.views.send_view(room, conn)


#: every message a room handles under its lock, by type (``Ping`` and ``History`` are answered before)
HANDLERS: dict[type, Handler] = {
    P.Hello: hello,
    P.ActionMsg: action,
    P.Start: start,
    P.AddBot: add_bot,
    P.RemoveBot: remove_bot,
    P.BotLevel: bot_level,
    P.SetOptions: set_options,
    P.Leave: leave,
    P.Kick: kick,
    P.Unban: unban,
    P.Resync: resync,
    P.PreActionMsg: pre_action,
    P.React: talk_line,
    P.Chat: talk_line,
    P.SocialMsg: set_social,
    P.RequestSeat: seating.request_seat,
    P.AnswerSeat: seating.answer_seat,
    P.SitOut: seating.sit,
    P.SitIn: seating.sit,
    **hostlive.HANDLERS,
}
