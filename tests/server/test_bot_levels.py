"""How a bot plays is the host's choice (docs/bots.md "Levels"): ``addBot`` takes a ``level``, ``botLevel``
changes it between games, the lobby says it, the store keeps it, and each bot decides at its own level.

In process: :class:`Rooms` with the real engine, the real bots and a real SQLite file."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from pokerroom.server.engine_port import PokerEngine
from pokerroom.server.room.botseat import load_decider
from pokerroom.server.room.rooms import Connection, Rooms
from pokerroom.server.storage import Store
from pokerroom.server.wire import protocol as P


class Sock(Connection):
    def __init__(self) -> None:
        super().__init__()
        self.frames: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def close(self, code: int) -> None:
        pass

    def last(self, kind: str) -> dict[str, Any]:
        return next(f for f in reversed(self.frames) if f["type"] == kind)


def _msg(**fields: Any) -> P.ClientMessage:
    return P.parse_client_message(json.dumps(fields))


def test_the_host_chooses_how_each_bot_plays_and_each_bot_plays_so(tmp_path: Path) -> None:
    engine = PokerEngine()
    path = tmp_path / "pokerroom.sqlite3"
    brain = load_decider()
    asked: list[tuple[str, str]] = []  # (the bot whose view it was, the level it was asked at)

    def decider(view: dict[str, Any], level: Any = "easy") -> dict[str, Any] | None:
        asked.append((view["me"]["id"], level))
        return brain(view, level)

    async def play() -> tuple[str, str]:
        store = Store(path)
        rooms = Rooms(engine, store, decider=decider)
        await rooms.start()
        room, _, token = await rooms.create_room({"mode": "holdem", "handLimit": 10, "hints": False}, "방장")
        host, guest = Sock(), Sock()
        await rooms.handle(room, host, _msg(type="hello", token=token))
        await rooms.handle(room, guest, _msg(type="hello", nickname="손님"))
        await rooms.handle(room, host, _msg(type="addBot", level="normal"))
        await rooms.handle(room, host, _msg(type="addBot"))
        players = host.last("lobby")["players"]
        levels = {p["nickname"]: p.get("level") for p in players}
        assert levels == {"방장": None, "손님": None, "봇 1": "normal", "봇 2": "easy"}
        strong, weak = (next(p["id"] for p in players if p["nickname"] == n) for n in ("봇 1", "봇 2"))
        # only the host, only a bot, only between games
        await rooms.handle(room, guest, _msg(type="botLevel", playerId=weak, level="normal"))
        assert guest.last("error")["code"] == "not_host"
        await rooms.handle(room, host, _msg(type="botLevel", playerId=guest.player_id, level="normal"))
        assert host.last("error")["code"] == "no_such_bot"
        await rooms.handle(room, host, _msg(type="botLevel", playerId=weak, level="normal"))
        await rooms.handle(room, host, _msg(type="botLevel", playerId=weak, level="easy"))
        assert {p["id"]: p["level"] for p in guest.last("lobby")["players"] if p["bot"]} == {
            strong: "normal", weak: "easy"}
        await rooms.stop()
        store.close()
        # the store keeps each bot's level
        store = Store(path)
        rooms = Rooms(engine, store, decider=decider)
        await rooms.start()
        room = rooms.rooms[room.code]
        assert {m.id: m.level for m in room.members.values() if m.bot} == {strong: "normal", weak: "easy"}
        host, guest = Sock(), Sock()
        await rooms.handle(room, host, _msg(type="hello", token=token))
        await rooms.handle(room, host, _msg(type="start"))
        await rooms.handle(room, host, _msg(type="botLevel", playerId=weak, level="normal"))
        assert host.last("error")["code"] == "game_running"
        # a few hands: the humans' turns pass by their deadlines, the bots decide at their own levels
        for _ in range(60):
            if room.phase != "playing":
                break
            for pid in (strong, weak):
                await rooms.timing.bot_act(room, pid)
            due = engine.deadline(room.state)
            if due is not None:
                rooms.clock.not_before(due + 1)
                await rooms.deadline_passed(room)
        await rooms.stop()
        store.close()
        return strong, weak

    strong, weak = asyncio.run(play())
    by_bot: dict[str, set[str]] = {}
    for pid, level in asked:
        by_bot.setdefault(pid, set()).add(level)
    assert by_bot == {strong: {"normal"}, weak: {"easy"}}
    assert len(asked) >= 6  # (each bot decided a few times)


def test_a_member_stored_before_levels_is_an_easy_bot_and_an_easy_bot_is_stored_as_before() -> None:
    from pokerroom.server.room.model import Member

    old = {"id": "p3", "nickname": "봇 1", "digest": None, "bot": True, "status": "seated", "seq": 3,
           "asking": False}
    member = Member.from_json(old)
    assert member.level == "easy" and member.to_json() == old  # byte for byte what was stored before
    strong = Member.from_json({**old, "level": "normal"})
    assert strong.level == "normal" and Member.from_json(strong.to_json()) == strong
