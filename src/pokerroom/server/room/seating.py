"""Seats during a running game: asking for a seat, the host's answer, sitting out and back.

Why a module of its own: these messages touch the room's members and the engine's seats together, and
keeping them apart from ``handlers`` (actions, options, kicks, leaves) keeps both small. They run inside
``handlers.handle``, i.e. under the room's lock, like every change, and make it through the driver.

Rules:
- A player who joins by nickname while a game runs is ``waiting`` and asks for a seat at once (``asking``);
  a spectator asks with ``requestSeat`` + nickname and becomes a member first (seat token stored before it
  is handed out, sent in a second ``welcome``). In the lobby or after a game a spectator's ``requestSeat``
  simply seats them for the next ``start``, like a nickname ``hello``.
- The host sees ``asking: true`` in the lobby's players and answers ``answerSeat``. Accepted: the engine's
  ``join_seat`` adds the seat (dealt in from the next hand with startingChips), the member becomes
  ``seated`` and a player of the game; the change is stored and published like an action. Refused: the
  request is cleared and the asker gets ``seatAnswer`` (accept false); they keep watching.
- ``sitOut`` / ``sitIn`` are the engine's actions of that name, sent without ``version`` (they do not
  depend on what the table shows) and effective from the next hand.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from pokerroom.server.room.members import admit_member, require_host
from pokerroom.server.storage import LogRow
from pokerroom.server.wire import protocol as P

if TYPE_CHECKING:
    from pokerroom.server.room.model import Connection, Member, Room
    from pokerroom.server.room.parts import Parts


def table_full(room: Room) -> bool:
    """The game's seats (eliminated and left ones keep their chair) are at the mode's maximum."""
    return room.phase == "playing" and len(room.game_players) >= room.max_players


async def request_seat(parts: Parts, room: Room, conn: Connection, msg: P.RequestSeat) -> None:
    if conn.role == "spectator":
        if msg.nickname is None:
            raise P.error("nickname_needed")
        if table_full(room):
            raise P.error("table_full")
        await _spectator_becomes_member(parts, room, conn, msg.nickname)
        return
    pid = conn.player_id
    member = room.members.get(pid or "")
    if member is None or room.phase != "playing":
        raise P.error("no_game")
    if pid in room.game_players:
        raise P.error("already_seated")
    if table_full(room):
        raise P.error("table_full")
    if not member.asking:
        await parts.driver.save(room, room.table.with_member(replace(member, asking=True)))
    parts.views.broadcast_lobby(room)


async def _spectator_becomes_member(parts: Parts, room: Room, conn: Connection, nickname: str) -> None:
    """A spectator takes a member's place (a token of their own); mid-game they ask for a seat at once."""
    member, token = await admit_member(parts.driver, room, nickname,
                                       asking=lambda r, _m: r.phase == "playing")
    conn.role, conn.player_id = "player", member.id
    room.empty_since = None  # a player is connected now: the idle close counts only players
    conn.send(P.dumps(P.welcome_msg(room.code, conn.role, conn.player_id, room.version, token)))
    parts.views.broadcast_lobby(room)


def wants_seat(room: Room, member: Member) -> bool:
    """A nickname ``hello`` during a game is a request for a seat (the host still decides)."""
    return room.phase == "playing" and member.status == "waiting" and not table_full(room)


async def answer_seat(parts: Parts, room: Room, conn: Connection, msg: P.AnswerSeat) -> None:
    require_host(room, conn)
    player_id = msg.playerId
    member = room.members.get(player_id)
    if member is None or not member.asking or member.status != "waiting":
        raise P.error("no_such_request")
    if room.phase != "playing" or room.state is None:
        raise P.error("no_game")
    if not msg.accept:
        await parts.driver.save(room, room.table.with_member(replace(member, asking=False)))
        _tell(room, player_id, P.seat_answer_msg(player_id, False))
        parts.views.broadcast_lobby(room)
        return
    now = parts.clock.now_ms()
    new_state, events = parts.engine.join_seat(room.state, player_id, now)  # Rejected: table full, game over
    base = room.table.with_member(replace(member, asking=False, status="seated")).evolve(
        game_players=[*room.game_players, player_id])
    action = {"type": "join", "playerId": player_id}
    row = LogRow(room.version + 1, "join", conn.player_id, None, action, now)
    await parts.driver.commit(room, new_state, events, row, base=base)
    _tell(room, player_id, P.seat_answer_msg(player_id, True))
    parts.views.broadcast_lobby(room)


async def sit(parts: Parts, room: Room, conn: Connection, msg: P.SitOut | P.SitIn) -> None:
    pid = conn.player_id
    if conn.role != "player" or pid is None:
        raise P.error("spectator")
    if room.phase != "playing" or room.state is None:
        raise P.error("no_game")
    if pid not in room.game_players:
        raise P.error("not_seated")
    now = parts.clock.now_ms()
    action = {"type": "sitOut" if isinstance(msg, P.SitOut) else "sitIn"}
    new_state, events = parts.engine.apply(room.state, pid, action, now)
    row = LogRow(room.version + 1, "action", pid, None, action, now)
    await parts.driver.commit(room, new_state, events, row)


def _tell(room: Room, player_id: str, msg: dict[str, object]) -> None:
    text = P.dumps(msg)
    for c in room.connections:
        if c.player_id == player_id:
            c.send(text)
