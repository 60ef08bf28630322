"""A pre-action survives a crash between the change that made it due and the change that fires it.

The two are separate store writes (the pre-action fires right after the change that made the turn come). The
pre-action stays chosen in the store until the write that fires it, so a process that dies in between leaves
it chosen and due: the next process to load the room (a restart here, a takeover in a cluster) fires it.
Before, it was dropped by the first write, and the player's turn ran out (a fold where they chose "call any").
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from frame_sock import FrameSock

from pokerroom.server.engine_port import PokerEngine
from pokerroom.server.room.rooms import Room, Rooms
from pokerroom.server.storage import Store, StoreUnavailable
from pokerroom.server.storage.base import Op
from pokerroom.server.wire import protocol as P


def _msg(**fields: Any) -> P.ClientMessage:
    return P.parse_client_message(json.dumps(fields))


def _to_act(engine: PokerEngine, room: Room) -> str | None:
    to_act: str | None = engine.view(room.state, None)["toAct"]
    return to_act


def _kinds(ops: list[Op]) -> list[str]:
    """The log-row kinds a batch writes."""
    out = []
    for kind, args in ops:
        row = args[0] if kind == "log" else args[1] if kind == "save" else None
        if row is not None:
            out.append(str(row[2]))
    return out


def test_a_crash_between_the_due_change_and_the_fired_one_loses_no_pre_action(tmp_path: Path) -> None:
    engine = PokerEngine()
    path = tmp_path / "pokerroom.sqlite3"

    async def first_run() -> tuple[str, str, int]:
        store = Store(path)
        rooms = Rooms(engine, store, bot_delay_ms=60_000)
        await rooms.start()
        room, host, token = await rooms.create_room({"mode": "holdem", "turnSeconds": 60}, "방장")
        socks = {host.id: FrameSock()}
        await rooms.handle(room, socks[host.id], _msg(type="hello", token=token))
        for nick in ("둘", "셋"):
            sock = FrameSock()
            await rooms.handle(room, sock, _msg(type="hello", nickname=nick))
            socks[next(pid for pid in room.members if pid not in socks)] = sock
        await rooms.handle(room, socks[host.id], _msg(type="start"))
        first = _to_act(engine, room)
        assert first is not None
        legal = {a["type"] for a in engine.view(room.state, first)["me"]["legalActions"]}
        call = {"type": "nl.call"} if "nl.call" in legal else {"type": "nl.check"}
        after, _ = engine.apply(room.state, first, call, rooms.clock.now_ms())
        second = engine.view(after, None)["toAct"]
        assert second is not None and second != first
        await rooms.handle(room, socks[second], _msg(type="preAction", kind="callAny", version=room.version))
        assert room.pre.chosen[second].kind == "callAny"

        # the process dies as it writes the fired pre-action: that write and every later one never land
        dead: list[str] = []
        apply_batch = store.apply_batch

        def dying(ops: list[Op]) -> None:
            if dead or "preaction" in _kinds(ops):
                dead.append("x")
                raise StoreUnavailable("the process died")
            apply_batch(ops)

        store.apply_batch = dying  # type: ignore[method-assign]
        made_due = room.version + 1
        await rooms.handle(room, socks[first], _msg(type="action", clientMsgId="c1", version=room.version,
                                                     action=call))
        assert dead, "the pre-action was due and its write was attempted"
        await rooms.stop()
        store.apply_batch = apply_batch  # type: ignore[method-assign]
        store.close()
        return room.code, second, made_due

    code, second, made_due = asyncio.run(first_run())

    async def second_run() -> None:
        store = Store(path)
        stored = store.load(code)
        assert stored is not None and stored.newest_version == made_due  # the crash left the due change only
        rooms = Rooms(engine, store, bot_delay_ms=60_000)
        await rooms.start()
        room = rooms.get(code)
        assert room is not None
        fired = [r for r in store.log(code) if r.version == made_due + 1]
        assert len(fired) == 1 and fired[0].kind == "preaction" and fired[0].player_id == second
        assert fired[0].action is not None and fired[0].action["type"] in ("nl.call", "nl.check")
        assert _to_act(engine, room) != second and second not in room.pre.chosen
        again = store.load(code)
        assert again is not None and second not in (again.pre_actions or {}).get("chosen", {})
        await rooms.stop()
        store.close()

    asyncio.run(second_run())
