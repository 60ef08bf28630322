"""Changes stored as action-log rows and replayed on restart (issue 13).

A player's action, a bot's move or a timeout inside a hand is stored as its log row alone; a start, a leave,
a new member, the end of a hand or game store a snapshot. Restoring a room = its last snapshot + the rows
after it, re-applied by the pure engine. These tests drive :class:`Rooms` in process with the real engine and
a real SQLite file and, after changes all through whole games, restore the store in a fresh ``Rooms`` and
compare the state byte for byte with the live one.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from pokerroom.server.engine_port import PokerEngine
from pokerroom.server.room.botseat import load_decider
from pokerroom.server.room.rooms import SNAPSHOT_EVERY, Connection, Rooms
from pokerroom.server.storage import Store
from pokerroom.server.wire import protocol as P


class Sock(Connection):
    def __init__(self) -> None:
        super().__init__()
        self.text: str | None = None

    def send(self, text: str) -> None:
        if text.startswith('{"type":"view"'):
            self.text = text

    def close(self, code: int) -> None:
        pass

    def view(self) -> tuple[int, dict[str, Any]] | None:
        if self.text is None:
            return None
        msg = json.loads(self.text)
        return msg["version"], msg["view"]


class CountingStore(Store):
    """Counts what each change wrote: a snapshot (``save``) or a log row alone (``log``)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.ops: list[str] = []

    def apply_batch(self, ops: list[tuple[str, tuple[Any, ...]]]) -> None:
        self.ops.extend(op for op, _ in ops)
        super().apply_batch(ops)


def choose(view: dict[str, Any], rnd: random.Random) -> dict[str, Any] | None:
    acts = {a["type"]: a for a in (view.get("me") or {}).get("legalActions") or []}
    if not acts:
        return None
    for kind, make in (("ready", lambda a: {"type": "ready"}),
                       ("choose", lambda a: {"type": "choose", "discardId": a["cardIds"][0],
                                             "openId": a["cardIds"][1]}),
                       ("draw", lambda a: {"type": "draw", "cardIds": a.get("cardIds", [])[:1]}),
                       ("declare", lambda a: {"type": "declare", "side": "high"}),
                       ("rebuy", lambda a: {"type": "rebuy", "accept": True})):
        if kind in acts:
            return make(acts[kind])
    simple = [k for k in acts if k not in ("nl.raise",)]
    if "nl.raise" in acts and rnd.random() < 0.15:
        return {"type": "nl.raise", "to": acts["nl.raise"]["min"]}
    return {"type": rnd.choice(simple)}


async def _restored_state(path: Path, engine: PokerEngine, code: str) -> tuple[str, int]:
    store = Store(path)
    again = Rooms(engine, store)
    try:
        await again.start()
        room = again.rooms[code]
        return engine.dump_state(room.state), room.version
    finally:
        await again.stop()
        store.close()


@pytest.mark.parametrize("mode", ["holdem", "sevenPoker", "badugi", "indian"])
def test_log_rows_replay_to_the_live_state(tmp_path: Path, mode: str) -> None:
    engine = PokerEngine()
    path = tmp_path / "pokerroom.sqlite3"

    async def play() -> None:
        store = CountingStore(path)
        rooms = Rooms(engine, store, decider=load_decider())
        await rooms.start()
        room, _, token = await rooms.create_room({"mode": mode, "handLimit": 10, "turnSeconds": 60,
                                                  "hints": False}, "방장")
        socks = [Sock() for _ in range(3)]
        for i, s in enumerate(socks):
            hello = {"token": token} if i == 0 else {"nickname": f"친구{i}"}
            await rooms.handle(room, s, P.parse_client_message(json.dumps({"type": "hello", **hello})))
        await rooms.handle(room, socks[0], P.parse_client_message('{"type":"start"}'))
        rnd = random.Random(7)
        checked = 0
        n = 0
        while room.phase == "playing" and n < 400:
            n += 1
            moves = []
            for s in socks:
                seen = s.view()
                if seen is not None and seen[0] == room.version and (a := choose(seen[1], rnd)) is not None:
                    moves.append((s, a))
            if moves:
                s, action = moves[0]
                msg = {"type": "action", "clientMsgId": f"m{n}", "version": room.version, "action": action}
                await rooms.handle(room, s, P.parse_client_message(json.dumps(msg)))
            else:  # nobody can act now (a deadline decides): let the clock pass it
                due = engine.deadline(room.state)
                assert due is not None
                rooms.clock.not_before(due + 1)
                await rooms.deadline_passed(room)
            if n % 7 == 0 or room.phase != "playing":
                live = engine.dump_state(room.state), room.version
                assert await _restored_state(path, engine, room.code) == live
                checked += 1
        await rooms.stop()
        store.close()
        assert checked >= 5
        # most changes are log rows; snapshots come with starts, hands' ends and the game's end: one per
        # hand in play (issue 13), besides the room's creation, two members joining and the start (a
        # winner's show, chosen at random here, is a log row too)
        logs, saves = store.ops.count("log"), store.ops.count("save")
        assert logs > saves > 0
        assert saves <= 4 + room.hand_seq + (room.phase == "finished")

    asyncio.run(play())


def test_snapshot_every_bounds_the_replay(tmp_path: Path) -> None:
    """However long a hand runs without ending, a snapshot comes every SNAPSHOT_EVERY log rows."""
    engine = PokerEngine()

    async def play() -> None:
        store = CountingStore(tmp_path / "s.sqlite3")
        rooms = Rooms(engine, store)
        await rooms.start()
        room, _, token = await rooms.create_room({"mode": "holdem", "hints": False}, "방장")
        room.log_only = SNAPSHOT_EVERY  # as if that many log-only changes had just been stored
        socks = [Sock(), Sock()]
        await rooms.handle(room, socks[0], P.parse_client_message(json.dumps({"type": "hello",
                                                                               "token": token})))
        await rooms.handle(room, socks[1], P.parse_client_message('{"type":"hello","nickname":"친구"}'))
        await rooms.handle(room, socks[0], P.parse_client_message('{"type":"start"}'))
        room.log_only = SNAPSHOT_EVERY
        store.ops.clear()
        for s in socks:
            seen = s.view()
            assert seen is not None
            acts = [a["type"] for a in seen[1]["me"]["legalActions"]]
            if seen[0] == room.version and acts:
                kind = "nl.call" if "nl.call" in acts else acts[0]
                msg = {"type": "action", "clientMsgId": "x", "version": room.version,
                       "action": {"type": kind}}
                await rooms.handle(room, s, P.parse_client_message(json.dumps(msg)))
                break
        assert store.ops == ["save"] and room.log_only == 0
        await rooms.stop()
        store.close()

    asyncio.run(play())
