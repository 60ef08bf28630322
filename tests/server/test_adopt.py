"""``Rooms.adopt`` and ``Rooms.drop``: one room handed from one server to another through the store.

A cluster node that takes a room over adopts it from the store (restored as at start-up, its deadline
re-armed and its bots scheduled); the node that lost it drops it (stops serving it, leaves the store as it
is). Here two :class:`Rooms` share one SQLite file, with the real engine: the room moves mid-hand, and the
new server serves the same state, acts for the bot on its own, and takes the player's next action.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from frame_sock import FrameSock

from pokerroom.server.engine_port import PokerEngine
from pokerroom.server.room.botseat import legal_actions
from pokerroom.server.room.rooms import Room, Rooms
from pokerroom.server.storage import Store, StoredRoom
from pokerroom.server.wire import protocol as P

Sock = FrameSock


def stored(path: Path, code: str) -> StoredRoom:
    store = Store(path)
    try:
        return next(s for s in store.load_all() if s.code == code)
    finally:
        store.close()


async def hello(rooms: Rooms, room: Room, sock: Sock, token: str) -> None:
    await rooms.handle(room, sock, P.parse_client_message(json.dumps({"type": "hello", "token": token})))


def first_action(view: dict[str, Any]) -> dict[str, Any]:
    acts = {a["type"]: a for a in legal_actions(view)}
    for kind in ("ready", "check", "call", "fold"):
        if kind in acts:
            return {"type": kind}
    return {"type": next(iter(acts))}


def test_a_dropped_room_is_adopted_mid_hand(tmp_path: Path) -> None:
    engine = PokerEngine()
    path = tmp_path / "pokerroom.sqlite3"

    async def play() -> None:
        store_a = Store(path)
        # A's bot would wait a minute: it must not move before the room leaves A
        a = Rooms(engine, store_a, bot_delay_ms=60_000)
        await a.start()
        room, host, token = await a.create_room({"mode": "holdem", "turnSeconds": 60, "hints": False}, "방장")
        sock = Sock()
        await hello(a, room, sock, token)
        await a.handle(room, sock, P.parse_client_message('{"type":"addBot"}'))
        await a.handle(room, sock, P.parse_client_message('{"type":"start"}'))
        bot = next(pid for pid in room.game_players if pid != host.id)
        n = 0
        while not legal_actions(engine.view(room.state, bot)):  # the host acts until it is the bot's turn
            n += 1
            assert n < 20 and legal_actions(engine.view(room.state, host.id))
            msg = {"type": "action", "clientMsgId": f"m{n}", "version": room.version,
                   "action": first_action(engine.view(room.state, host.id))}
            await a.handle(room, sock, P.parse_client_message(json.dumps(msg)))
        assert bot in room.bot_pending
        live_state, live_version = engine.dump_state(room.state), room.version
        before = stored(path, room.code)

        dropped = a.drop(room.code)
        assert dropped is room and room.closed and a.get(room.code) is None and a.rooms == {}
        assert room.timer is not None and room.timer.deadline_ms is None  # A's deadline is off
        assert sock.closed is None and sock in room.connections  # the caller decides about its sockets
        assert a.drop(room.code) is None
        await a.deadline_passed(room)  # a deadline or bot move already under way changes nothing
        await a.timing.bot_act(room, bot)
        assert room.version == live_version
        after = stored(path, room.code)  # the store is untouched
        assert (after.newest_version, after.state, after.replay) == (before.newest_version, before.state,
                                                                     before.replay)

        store_b = Store(path)
        b = Rooms(engine, store_b, bot_delay_ms=0)
        await b.start()  # b's store already holds the room: start-up restores it too; serve a fresh one
        b.drop(room.code)
        moved = b.adopt(stored(path, room.code))
        assert b.get(room.code) is moved
        assert (engine.dump_state(moved.state), moved.version) == (live_state, live_version)
        assert moved.timer is not None and moved.timer.deadline_ms == engine.deadline(moved.state)
        with pytest.raises(ValueError):
            b.adopt(stored(path, room.code))
        for _ in range(200):  # B acts for the bot by itself: adopt scheduled it
            if moved.version > live_version:
                break
            await asyncio.sleep(0.01)
        assert moved.version > live_version and bot not in moved.bot_pending

        sock_b = Sock()  # the host's seat token works on B, and their next action is taken there
        await hello(b, moved, sock_b, token)
        assert sock_b.frames[0]["type"] == "welcome" and sock_b.frames[0]["playerId"] == host.id
        for _ in range(200):
            if legal_actions(engine.view(moved.state, host.id)) or moved.phase != "playing":
                break
            await asyncio.sleep(0.01)
        if moved.phase == "playing":
            version = moved.version
            msg = {"type": "action", "clientMsgId": "on-b", "version": version,
                   "action": first_action(engine.view(moved.state, host.id))}
            await b.handle(moved, sock_b, P.parse_client_message(json.dumps(msg)))
            assert moved.version > version
            assert {"type": "ack", "clientMsgId": "on-b", "version": version + 1} in sock_b.frames
        assert stored(path, room.code).newest_version == moved.version

        await a.stop()
        await b.stop()
        store_a.close()
        store_b.close()

    asyncio.run(play())


def test_adopt_of_a_room_that_cannot_be_restored_raises_and_serves_nothing(tmp_path: Path) -> None:
    engine = PokerEngine()
    path = tmp_path / "pokerroom.sqlite3"

    async def play() -> None:
        store = Store(path)
        rooms = Rooms(engine, store)
        await rooms.start()
        room, _, _ = await rooms.create_room({"mode": "holdem"}, "방장")
        good = stored(path, room.code)
        rooms.drop(room.code)
        bad = StoredRoom(good.code, {**good.meta, "options": {"mode": "no such mode"}}, good.state,
                         good.version, good.updated_ms)
        with pytest.raises(Exception):  # noqa: B017 - whatever the engine raises for bad options
            rooms.adopt(bad)
        assert rooms.get(room.code) is None
        assert rooms.adopt(good).code == room.code
        await rooms.stop()
        store.close()

    asyncio.run(play())
