"""The host runs the table live (server/room/hostlive.py): pause / resume, stakes from the next hand, ending
the game early, handing the host's role on; each host only, checked, stored, and kept across a restart.

The rooms run in process on the real engine and a real SQLite file, with the server's own clock: a 30 s
pause is the clock moved 30 s on (``Clock.not_before``), never a 30 s sleep.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from frame_sock import FrameSock

from pokerroom.server.engine_port import PokerEngine
from pokerroom.server.room.model import Room
from pokerroom.server.room.rooms import Rooms
from pokerroom.server.storage import Store
from pokerroom.server.wire import protocol as P

HANGUL = re.compile("[\uac00-\ud7a3]")


class Sock(FrameSock):
    """A socket that keeps every frame it was sent."""

    def last(self, kind: str) -> dict[str, Any]:  # type: ignore[override]
        frame = super().last(kind)
        assert frame is not None, kind
        return frame

    def error(self) -> dict[str, Any]:
        err = self.last("error")
        assert HANGUL.search(err["message"]), err  # a clear Korean refusal
        return err

    def notices(self) -> list[str]:
        return [f["message"] for f in self.frames if f["type"] == "notice"]


class Table:
    """A room of three people (host, 철수, 영희) on one store, in one ``Rooms``."""

    def __init__(self, rooms: Rooms, room: Room, socks: list[Sock]) -> None:
        self.rooms, self.room, self.socks = rooms, room, socks
        self.host, self.b, self.c = socks

    async def send(self, sock: Sock, **msg: Any) -> None:
        await self.rooms.handle(self.room, sock, P.client_message_from(msg))

    def view(self, sock: Sock) -> dict[str, Any]:
        view: dict[str, Any] = sock.last("view")["view"]
        return view

    async def act_for_whoever(self, sock_of: dict[str, Sock]) -> None:
        """The player to act checks or calls (else the deadline decides)."""
        state = self.room.game_state
        engine = self.rooms.engine
        for pid, sock in sock_of.items():
            acts = {a["type"] for a in engine.view(state, pid)["me"]["legalActions"]}
            for kind in ("nl.check", "nl.call", "ready", "k.check", "k.call"):
                if kind in acts:
                    await self.send(sock, type="action", clientMsgId=f"{pid}-{self.room.version}",
                                    version=self.room.version, action={"type": kind})
                    return
        await self.pass_deadline()

    async def pass_deadline(self) -> None:
        due = self.rooms.engine.deadline(self.room.game_state)
        assert due is not None
        self.rooms.clock.not_before(due + 1)
        await self.rooms.deadline_passed(self.room)


async def _table(path: Path, *, start: bool = True, bot_delay_ms: int = 800, **options: Any) -> Table:
    rooms = Rooms(PokerEngine(), Store(path), bot_delay_ms=bot_delay_ms)
    await rooms.start()
    room, _, token = await rooms.create_room({"mode": "holdem", "turnSeconds": 60, "hints": False, **options},
                                             "방장")
    socks = [Sock() for _ in range(3)]
    hellos = ({"token": token}, {"nickname": "철수"}, {"nickname": "영희"})
    for sock, hello in zip(socks, hellos, strict=True):
        await rooms.handle(room, sock, P.client_message_from({"type": "hello", **hello}))
    table = Table(rooms, room, socks)
    if start:
        await table.send(table.host, type="start")
    return table


async def _close(table: Table) -> None:
    await table.rooms.stop()
    table.rooms.store.close()


def _run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(body())  # type: ignore[arg-type]


def test_only_the_host_and_only_good_input(tmp_path: Path) -> None:
    async def main() -> None:
        t = await _table(tmp_path / "s.sqlite3", start=False)
        await t.send(t.host, type="pause")
        assert t.host.error()["code"] == "no_game"  # nothing to pause in the lobby
        await t.send(t.host, type="start")
        version = t.room.version
        for msg in ({"type": "pause"}, {"type": "resume"}, {"type": "endGame"},
                    {"type": "setStakes", "baseUnit": 20, "startingChips": 1000},
                    {"type": "transferHost", "playerId": "p2"}):
            await t.send(t.b, **msg)
            assert t.b.error()["code"] == "not_host", msg
        assert t.room.version == version and t.room.host_id == "p1"
        # shapes: the wire refuses them before any room sees them
        for bad in ({"type": "setStakes", "baseUnit": "20", "startingChips": 1000},
                    {"type": "setStakes", "baseUnit": 20},
                    {"type": "pause", "extra": 1},
                    {"type": "transferHost", "playerId": ""}):
            with pytest.raises(P.ProtocolError) as exc:
                P.client_message_from(bad)
            assert exc.value.code == "bad_message"
        # values: the lobby's option checks, in Korean
        await t.send(t.host, type="setStakes", baseUnit=7, startingChips=1000)
        assert t.host.error()["code"] == "bad_options"
        await t.send(t.host, type="setStakes", baseUnit=50, startingChips=500)
        assert "20배" in t.host.error()["message"]
        await t.send(t.host, type="setStakes", baseUnit=10, startingChips=1000)
        assert t.host.error()["code"] == "same_stakes"
        await t.send(t.host, type="resume")
        assert t.host.error()["code"] == "not_paused"
        await t.send(t.host, type="pause")
        await t.send(t.host, type="pause")
        assert t.host.error()["code"] == "already_paused"
        for pid in ("p1", "nobody"):  # oneself, a stranger
            await t.send(t.host, type="transferHost", playerId=pid)
            assert t.host.error()["code"] == "not_transferable"
        assert t.room.version == version  # no refusal changed the game
        await _close(t)

    _run(main)


def test_a_pause_freezes_every_clock_and_the_resume_gives_the_time_back(tmp_path: Path) -> None:
    async def main() -> None:
        t = await _table(tmp_path / "s.sqlite3")
        engine, clock, room = t.rooms.engine, t.rooms.clock, t.room
        due = engine.deadline(room.game_state)
        assert due is not None and room.timer is not None and room.timer.deadline_ms == due
        clock.not_before(clock.now_ms() + 12_000)  # 12 s of the turn used
        await t.send(t.host, type="pause")
        assert room.table.paused is not None
        left = due - room.table.paused.at_ms  # the turn's time when the clocks stopped
        assert 47_000 <= left <= 48_000
        assert room.timer.deadline_ms is None  # no deadline armed
        for sock in t.socks:
            assert sock.last("lobby")["paused"] == {"by": "p1", "nickname": "방장"}
            assert "방장 님이 게임을 일시 정지했어요" in sock.notices()
        version = room.version
        clock.not_before(clock.now_ms() + 30_000)  # a 30 s pause, well past the turn's deadline
        await t.rooms.deadline_passed(room)
        assert room.version == version  # nobody was timed out
        to_act = engine.view(room.game_state, None)["toAct"]
        sock = {"p1": t.host, "p2": t.b, "p3": t.c}[to_act]
        await t.send(sock, type="action", clientMsgId="x", version=version, action={"type": "nl.fold"})
        assert sock.error()["code"] == "paused"
        await t.send(sock, type="preAction", kind="checkFold", version=version)
        assert sock.error()["code"] == "paused"
        # harmless while paused: talk is still on (the host turns chat on first)
        await t.send(t.host, type="social", chat=True, spectatorReactions=False)
        await t.send(t.b, type="chat", text="잠깐 쉬어요")
        assert t.c.last("chat")["text"] == "잠깐 쉬어요"
        assert room.version == version
        before = clock.now_ms()
        await t.send(t.host, type="resume")
        assert "paused" not in t.c.last("lobby")
        new_due = engine.deadline(room.game_state)
        # the turn resumes with the time it had when paused (measured from the resume)
        assert new_due is not None and before <= new_due - left <= clock.now_ms()
        assert room.timer.deadline_ms == new_due
        assert t.c.last("view")["view"]["deadlineAt"] == new_due  # every screen counts down again
        await _close(t)

    _run(main)


def test_bots_wait_while_paused(tmp_path: Path) -> None:
    async def main() -> None:
        t = await _table(tmp_path / "s.sqlite3", start=False, bot_delay_ms=300)
        await t.send(t.host, type="addBot")
        await t.send(t.host, type="start")
        room, engine = t.room, t.rooms.engine
        for _ in range(30):  # time the humans' turns out until the bot's turn comes (its move takes 0.3 s)
            to_act = engine.view(room.game_state, None)["toAct"]
            if to_act is not None and room.members[to_act].bot:
                break
            await t.pass_deadline()
        assert room.bot_pending
        await t.send(t.host, type="pause")
        version = room.version
        await asyncio.sleep(0.9)  # three times the bot's delay
        assert room.version == version and room.table.paused is not None
        await t.send(t.host, type="resume")
        for _ in range(40):
            if room.version > version + 1:
                break
            await asyncio.sleep(0.05)
        assert room.version > version + 1  # the bot moved once the game went on
        await _close(t)

    _run(main)


def test_a_paused_room_is_still_paused_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"

    async def main() -> None:
        t = await _table(path)
        clock, engine = t.rooms.clock, t.rooms.engine
        due = engine.deadline(t.room.game_state)
        assert due is not None
        await t.send(t.host, type="pause")
        code, stopped_at = t.room.code, clock.now_ms()
        assert t.room.table.paused is not None
        left = due - t.room.table.paused.at_ms
        await _close(t)

        again = Rooms(engine, Store(path))
        await again.start()
        room = again.rooms[code]
        assert room.table.paused is not None and room.table.paused.by == "p1"
        assert room.timer is not None and room.timer.deadline_ms is None
        again.clock.not_before(stopped_at + 45_000)
        await again.deadline_passed(room)
        assert engine.deadline(room.game_state) == due  # nothing timed out across the restart
        watcher = Sock()
        await again.handle(room, watcher, P.client_message_from({"type": "hello", "spectate": True}))
        assert watcher.last("lobby")["paused"]["nickname"] == "방장"
        # the host's socket is back (as a hello with its token would make it) and resumes
        back = Sock()
        back.role, back.player_id, back.room = "player", room.host_id, room
        room.connections.append(back)
        before = again.clock.now_ms()
        await again.handle(room, back, P.client_message_from({"type": "resume"}))
        new_due = engine.deadline(room.game_state)
        assert new_due is not None and before <= new_due - left <= again.clock.now_ms()
        assert room.table.paused is None
        await again.stop()
        again.store.close()

    _run(main)


def test_new_stakes_apply_at_the_next_hand_not_this_one(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"

    async def main() -> None:
        t = await _table(path)
        room = t.room
        hand = room.game_state.hand
        assert hand is not None and hand.hand_no == 1
        await t.send(t.host, type="setStakes", baseUnit=20, startingChips=2000)
        for sock in t.socks:
            assert "다음 판부터 기본 단위 20 (블라인드 10/20) · 시작 칩 2,000" in sock.notices()
        view = t.view(t.c)
        assert view["baseUnit"] == 10 and view["nextStakes"] == {"baseUnit": 20, "startingChips": 2000}
        assert t.c.last("lobby")["options"]["baseUnit"] == 20  # the room's options: the next game too
        # stored: a restart keeps the change waiting
        code = room.code
        socks = {"p1": t.host, "p2": t.b, "p3": t.c}
        while room.game_state.hand is not None and room.game_state.hand.hand_no == 1:
            await t.act_for_whoever(socks)
        view = t.view(t.c)
        assert view["handNo"] == 2 and view["baseUnit"] == 20 and "nextStakes" not in view
        assert any(e["text"] == "이번 판부터 기본 단위 20 · 시작 칩 2,000" for e in view["publicLog"])
        await _close(t)
        again = Rooms(PokerEngine(), Store(path))
        await again.start()
        assert again.rooms[code].game_state.options.starting_chips == 2000
        await again.stop()
        again.store.close()

    _run(main)


def test_end_game_early_gives_the_normal_result(tmp_path: Path) -> None:
    async def main() -> None:
        t = await _table(tmp_path / "s.sqlite3", handLimit=20)
        room = t.room
        await t.send(t.host, type="pause")
        await t.send(t.host, type="endGame")  # mid-hand: this hand is the last, the pause stays
        assert "방장이 게임을 마치기로 했어요. 이번 판이 끝나면 결과가 나와요" in t.c.notices()
        assert t.view(t.c)["endAfterHand"] is True and room.table.paused is not None
        await t.send(t.host, type="endGame")
        assert t.host.error()["code"] == "already_ending"
        await t.send(t.host, type="resume")
        socks = {"p1": t.host, "p2": t.b, "p3": t.c}
        while room.phase == "playing":
            await t.act_for_whoever(socks)
        result = t.c.last("result")["result"]
        assert t.c.last("lobby")["phase"] == "finished"
        assert result["stats"]["handsPlayed"] == 1 and room.game_state.end_reason == "host"
        scores = [r["score"] for r in result["ranking"]]
        assert scores == sorted(scores, reverse=True)  # §6.7 (hands): by score
        await t.send(t.host, type="endGame")
        assert t.host.error()["code"] == "no_game"
        await _close(t)

    _run(main)


def test_the_host_hands_the_role_to_a_connected_member(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"

    async def main() -> None:
        t = await _table(path, start=False)
        await t.send(t.host, type="addBot")
        await t.send(t.host, type="transferHost", playerId="p4")  # a bot
        assert t.host.error()["code"] == "not_transferable"
        await t.send(t.c, type="leave")  # gone: not connected any more
        await t.send(t.host, type="transferHost", playerId="p3")
        assert t.host.error()["code"] == "not_transferable"
        await t.send(t.host, type="transferHost", playerId="p2")
        assert t.b.last("lobby")["hostId"] == "p2"
        assert "이제 철수 님이 방장이에요" in t.host.notices()
        await t.send(t.host, type="start")
        assert t.host.error()["code"] == "not_host"
        await t.send(t.b, type="start")
        await t.send(t.b, type="pause")
        assert t.room.table.paused is not None and t.room.table.paused.by == "p2"
        code = t.room.code
        await _close(t)
        again = Rooms(PokerEngine(), Store(path))
        await again.start()
        assert again.rooms[code].host_id == "p2"
        await again.stop()
        again.store.close()

    _run(main)


def test_a_time_bank_is_spent_paused_and_kept_across_a_restart(tmp_path: Path) -> None:
    """The turn's 15 s run out: the server's timer spends the bank (no timeout, no strike) and every screen
    gets the later deadline; a pause 5 s into the bank freezes it; a restart keeps it being spent; the
    player's move takes off only the seconds really used."""
    path = tmp_path / "s.sqlite3"

    async def main() -> None:
        t = await _table(path, turnSeconds=15, timeBank=30, timeBankEvery=5)
        room, engine, clock = t.room, t.rooms.engine, t.rooms.clock
        to_act = engine.view(room.game_state, None)["toAct"]
        due = engine.deadline(room.game_state)
        assert due is not None
        await t.pass_deadline()
        view = t.view(t.c)
        seat = next(s for s in view["seats"] if s["id"] == to_act)
        assert seat["timeBank"] == 30 and seat["timeBankInUse"] and view["toAct"] == to_act
        assert view["deadlineAt"] == due + 30_000 and room.timer is not None
        assert room.timer.deadline_ms == due + 30_000  # the server waits for the bank now
        assert not any(e["type"] == "timeout" for e in t.c.last("events")["events"])
        assert t.c.last("events")["events"][0]["type"] == "timeBank"
        clock.not_before(due + 1 + 5_000)  # 5 s of bank used
        await t.send(t.host, type="pause")
        clock.not_before(clock.now_ms() + 60_000)  # a minute's pause: the bank does not run
        await t.rooms.deadline_passed(room)
        await t.send(t.host, type="resume")
        code = room.code
        await _close(t)

        again = Rooms(engine, Store(path))
        await again.start()
        room = again.rooms[code]
        state = room.game_state
        assert state.hand is not None and state.hand.bank_from is not None  # stored with the game
        sock = Sock()
        sock.role, sock.player_id, sock.room = "player", to_act, room
        room.connections.append(sock)
        await again.handle(room, sock, P.client_message_from({
            "type": "action", "clientMsgId": "late", "version": room.version, "action": {"type": "nl.fold"}}))
        assert sock.last("ack")
        left = next(s for s in engine.view(room.game_state, None)["seats"] if s["id"] == to_act)["timeBank"]
        assert left in (23, 24)  # 30 - the 5 to 7 whole seconds the bank ran, not the minute's pause
        await again.stop()
        again.store.close()

    _run(main)
