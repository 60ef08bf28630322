"""The host runs the table live: pause and resume, the stakes from the next hand, ending the game early, and
handing the host's role to someone else. Client messages (docs/protocol.md §2.10), host only, each checked
here and carried out through the room's driver like every other change (stored first, then published).

Why a module of its own: these are the host's powers over a game in play, with rules of their own (what a
pause freezes, what a stake change may touch), apart from the seat-level messages of ``handlers``; that
module's ``HANDLERS`` table takes this one's as they are.

A pause is stored with the room (``Table.paused``: who, and the game time the clocks stopped at), so a restart
keeps the room paused. While paused no deadline is armed and no bot moves (``clock``), and moves of the game
are refused (``handlers.require_current_game``); a change that still reaches the engine (a leave, a kick, new
stakes) is made at the paused time (:func:`game_now`), so the resume, which moves every deadline by the
pause's length (``engine.shift_clock``), gives each decision exactly the time it had
(docs/decisions/0043-host-runs-the-table.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pokerroom.engine.options import uses_blinds
from pokerroom.server.engine_port import OptionsError
from pokerroom.server.room.members import require_host
from pokerroom.server.room.model import Connection, Pause, Room
from pokerroom.server.storage import LogRow
from pokerroom.server.wire import protocol as P

if TYPE_CHECKING:
    from pokerroom.server.room.parts import Parts


def game_now(parts: Parts, room: Room) -> int:
    """The game's time for a change now: the clock's, or the time it stopped at while the room is paused."""
    pause = room.table.paused
    return parts.clock.now_ms() if pause is None else pause.at_ms


def _require_game(room: Room) -> None:
    if room.phase != "playing" or room.state is None:
        raise P.error("no_game")


def _tell(parts: Parts, room: Room, code: str, text: str) -> None:
    parts.views.broadcast(room, P.dumps(P.notice_msg(code, text)))


def _nickname(room: Room, pid: str | None) -> str:
    member = room.members.get(pid or "")
    return member.nickname if member is not None else "방장"


async def pause(parts: Parts, room: Room, conn: Connection, msg: P.PauseGame) -> None:
    """Stop every clock of the game: stored, the deadline timer cancelled, all told (``lobby.paused``)."""
    require_host(room, conn)
    _require_game(room)
    if room.table.paused is not None:
        raise P.error("already_paused")
    assert conn.player_id is not None
    await parts.driver.save(room, room.table.evolve(paused=Pause(conn.player_id, parts.clock.now_ms())))
    parts.driver.after_change(room)  # no deadline armed, no bot scheduled while paused
    _tell(parts, room, "paused", f"{_nickname(room, conn.player_id)} 님이 게임을 일시 정지했어요")
    parts.views.broadcast_lobby(room)


async def resume(parts: Parts, room: Room, conn: Connection, msg: P.ResumeGame) -> None:
    """Every deadline moves by the pause's length (a stored change of the game, with fresh views); the
    clocks run again, bots move again, a pre-action that came due fires."""
    require_host(room, conn)
    _require_game(room)
    paused = room.table.paused
    if paused is None:
        raise P.error("not_paused")
    now = parts.clock.now_ms()
    state = parts.engine.shift_clock(room.game_state, now - paused.at_ms)
    row = LogRow(room.version + 1, "resume", conn.player_id, None, None, now)
    await parts.driver.commit(room, state, [], row, base=room.table.evolve(paused=None))
    _tell(parts, room, "resumed", f"{_nickname(room, conn.player_id)} 님이 게임을 다시 시작했어요")
    parts.views.broadcast_lobby(room)


def stakes_notice(room: Room, base_unit: int, starting: int) -> str:
    """The table's announcement of new stakes, e.g. "다음 판부터 기본 단위 20"."""
    state = room.game_state
    parts: list[str] = []
    if base_unit != state.base_unit:
        blinds = f" (블라인드 {max(1, base_unit // 2):,}/{base_unit:,})" if uses_blinds(state.options) else ""
        parts.append(f"기본 단위 {base_unit:,}{blinds}")
    if starting != state.options.starting_chips:
        parts.append(f"시작 칩 {starting:,}")
    if not parts:
        return f"다음 판도 기본 단위 {base_unit:,} · 시작 칩 {starting:,} 그대로예요"
    return "다음 판부터 " + " · ".join(parts)


async def set_stakes(parts: Parts, room: Room, conn: Connection, msg: P.SetStakes) -> None:
    """New base unit / starting stack from the next hand: the room's options with them, checked like the
    lobby's (``parse_options``), then the engine's ``change_stakes`` (only those two may differ). The room's
    options change too, so the next game starts with them."""
    require_host(room, conn)
    _require_game(room)
    raw: dict[str, Any] = {**room.options_json, "baseUnit": msg.baseUnit, "startingChips": msg.startingChips}
    try:
        options = parts.engine.parse_options(raw)
    except OptionsError as exc:
        raise P.error("bad_options", exc.message) from None
    now = game_now(parts, room)
    text = stakes_notice(room, options.base_unit, options.starting_chips)
    state, events = parts.engine.change_stakes(room.game_state, options, now)
    base = room.table.evolve(options=options, options_json=parts.engine.options_json(options))
    await parts.driver.commit(room, state, events, LogRow(room.version + 1, "stakes", conn.player_id, None,
                                                          None, now), base=base)
    _tell(parts, room, "stakes", text)
    parts.views.broadcast_lobby(room)


async def end_game(parts: Parts, room: Room, conn: Connection, msg: P.EndGame) -> None:
    """End the game with its normal result: at once between hands, else when the hand in play ends. The
    result goes out like any game's end (``result``, then ``lobby``)."""
    require_host(room, conn)
    _require_game(room)
    now = game_now(parts, room)
    state, events = parts.engine.end_early(room.game_state, now)
    await parts.driver.commit(room, state, events, LogRow(room.version + 1, "end", conn.player_id, None,
                                                          None, now))
    if room.phase == "playing":
        _tell(parts, room, "ending", "방장이 게임을 마치기로 했어요. 이번 판이 끝나면 결과가 나와요")
    else:
        _tell(parts, room, "ended", "방장이 게임을 마쳤어요")


async def transfer_host(parts: Parts, room: Room, conn: Connection, msg: P.TransferHost) -> None:
    """The host's role to another human member who is connected now (someone who can use it at once)."""
    require_host(room, conn)
    target = room.members.get(msg.playerId)
    if (target is None or target.bot or target.status == "left" or target.id == conn.player_id
            or target.id not in room.connected_ids()):
        raise P.error("not_transferable")
    await parts.driver.save(room, room.table.evolve(host_id=target.id))
    _tell(parts, room, "host", f"이제 {target.nickname} 님이 방장이에요")
    parts.views.broadcast_lobby(room)


#: this module's messages, for ``handlers.HANDLERS``
HANDLERS: dict[type, Any] = {
    P.PauseGame: pause,
    P.ResumeGame: resume,
    P.SetStakes: set_stakes,
    P.EndGame: end_game,
    P.TransferHost: transfer_host,
}
