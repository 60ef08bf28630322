"""A restart with many stored rooms: the server answers at once, the rooms come back in the background.

``Rooms.start(background=True)`` (what the app does) reads the stored codes and returns; the rooms are
restored a batch at a time with turns of the event loop between them, a room asked for is restored ahead of
the queue, a new room never takes a stored code, and in the end every room is served at its stored version.
Counted, not timed (``benchmarks/startup.py`` times 10,000 rooms).
"""

from __future__ import annotations

import asyncio
import gc
import json
import weakref
from pathlib import Path

from frame_sock import FrameSock

from pokerroom.server.engine_port import PokerEngine
from pokerroom.server.room.rooms import Room, Rooms
from pokerroom.server.room.startup import BATCH
from pokerroom.server.storage import Store
from pokerroom.server.wire import protocol as P

ROOMS = 3 * BATCH + 5


def test_a_restart_answers_at_once_and_restores_the_rooms_behind_it(tmp_path: Path) -> None:
    engine = PokerEngine()
    path = tmp_path / "pokerroom.sqlite3"

    async def main() -> None:
        store = Store(path)
        first = Rooms(engine, store)
        await first.start()
        versions: dict[str, int] = {}
        for i in range(ROOMS):
            room, _member, token = await first.create_room({"mode": "holdem", "turnSeconds": 60}, f"방장{i}")
            if i % 5 == 0:  # some rooms with a game under way (a deadline to resume)
                sock = FrameSock()
                await first.handle(room, sock, P.parse_client_message(json.dumps({"type": "hello",
                                                                                   "token": token})))
                await first.handle(room, sock, P.parse_client_message('{"type":"addBot"}'))
                await first.handle(room, sock, P.parse_client_message('{"type":"start"}'))
                assert room.phase == "playing"
            versions[room.code] = room.version
        await first.stop()
        store.close()

        again = Rooms(engine, Store(path), bot_delay_ms=60_000)
        turns = 0

        async def count_turns() -> None:
            nonlocal turns
            while True:
                await asyncio.sleep(0)
                turns += 1

        ticker = asyncio.get_running_loop().create_task(count_turns())
        await again.start(background=True)
        assert again.rooms == {} and again.restorer.left == ROOMS  # start returned before any restore

        last = sorted(versions)[-1]  # the background's last room, asked for first
        room = await again.find(last)
        assert room is not None and room.version == versions[last] and again.get(last) is room
        assert again.restorer.left > 0, "the room asked for was served ahead of the others"
        assert await again.find(last) is room and await again.find("nosuchroom") is None

        fresh, _member, _token = await again.create_room({"mode": "holdem"}, "새방")
        assert fresh.code not in versions

        await again.restored()
        ticker.cancel()
        assert again.restorer.left == 0 and not again.quarantined
        assert {code: again.rooms[code].version for code in versions} == versions
        playing = [code for code in versions if again.rooms[code].phase == "playing"]
        assert len(playing) == len(range(0, ROOMS, 5))
        for code in playing:  # each game's deadline re-armed
            timer = again.rooms[code].timer
            assert timer is not None and timer.deadline_ms is not None
        # the loop turned between the batches (each batch's read is on a worker thread, and a turn follows
        # every room): at least once a room
        assert turns >= ROOMS
        await again.stop()

    asyncio.run(main())


def test_a_closed_room_is_freed_without_the_cycle_collector(tmp_path: Path) -> None:
    """Rooms restored at start-up are frozen out of the collector's scans (the app's ``_tune_gc``): closing
    one must leave no reference cycle, or its objects would stay for the life of the process."""
    engine = PokerEngine()

    async def frozen_then_closed(rooms: Rooms) -> weakref.ref[Room]:
        """A room mid-hand (its deadline armed), frozen, then closed; only a weak reference leaves here."""
        room, _member, token = await rooms.create_room({"mode": "holdem", "turnSeconds": 60}, "방장")
        sock = FrameSock()
        await rooms.handle(room, sock, P.parse_client_message(json.dumps({"type": "hello", "token": token})))
        await rooms.handle(room, sock, P.parse_client_message('{"type":"addBot"}'))
        await rooms.handle(room, sock, P.parse_client_message('{"type":"start"}'))
        armed = room.timer is not None and room.timer.deadline_ms is not None
        if not armed:
            raise AssertionError("the hand's deadline is not armed")
        gc.collect()
        gc.freeze()
        await rooms.detach(sock)
        await rooms.close_room(room)
        return weakref.ref(room)

    async def main() -> None:
        rooms = Rooms(engine, Store(tmp_path / "pokerroom.sqlite3"), bot_delay_ms=60_000)
        await rooms.start()
        try:
            gone = await frozen_then_closed(rooms)
            await rooms.stop()  # (a bot's move still scheduled holds its room until it runs: cancelled here)
            for _ in range(50):  # the cancelled tasks unwind in a few turns of the loop
                if gone() is None:
                    break
                await asyncio.sleep(0.01)
            assert gone() is None, "a closed room lives on in a reference cycle"
        finally:
            gc.unfreeze()

    asyncio.run(main())


def test_a_stored_code_that_is_not_text_is_quarantined_and_the_others_served(tmp_path: Path) -> None:
    """Listing the stored codes must not fail on one damaged row (decision 0012: a damaged room is
    quarantined, the rest are served)."""
    import sqlite3

    engine = PokerEngine()
    path = tmp_path / "pokerroom.sqlite3"

    async def main() -> None:
        store = Store(path)
        first = Rooms(engine, store)
        await first.start()
        kept, _m, _t = await first.create_room({"mode": "holdem"}, "가")
        damaged, _m, _t = await first.create_room({"mode": "holdem"}, "나")
        await first.stop()
        store.close()
        db = sqlite3.connect(path)
        with db:
            db.execute("UPDATE rooms SET code=CAST(? AS TEXT) WHERE code=?", (b"\xff\xfe-bad", damaged.code))
        db.close()
        again = Rooms(engine, Store(path))
        await again.start()
        assert list(again.rooms) == [kept.code] and len(again.quarantined) == 1
        await again.stop()

    asyncio.run(main())
