"""The room's ledger (장부, server/room/ledger.py) over whole games, through the real ``Rooms`` and a real
SQLite file: what every socket is sent, that its nets move exactly by each hand's ``handNet``, sum to zero,
equal the result's, carry over "한 판 더" with the players who left, and come back the same after a restart
(snapshot plus replayed log rows)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from frame_sock import FrameSock
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.engine import State, apply, deadline, legal_actions, on_timeout, setup
from pokerroom.server.engine_port import PokerEngine
from pokerroom.server.room.ledger import Entry, Ledger
from pokerroom.server.room.ledger_figures import closed_with_current, ledger_json
from pokerroom.server.room.model import Member, Table
from pokerroom.server.room.rooms import Room, Rooms
from pokerroom.server.storage import Store
from pokerroom.server.wire import protocol as P

Sock = FrameSock


def _choose(view: dict[str, Any], rnd: random.Random) -> dict[str, Any] | None:
    acts = {a["type"]: a for a in (view.get("me") or {}).get("legalActions") or []}
    if not acts:
        return None
    if "ready" in acts:
        return {"type": "ready"}
    if "rebuy" in acts:
        return {"type": "rebuy", "accept": True}
    if "nl.allIn" in acts and rnd.random() < 0.25:
        return {"type": "nl.allIn"}
    for kind in ("nl.call", "nl.check"):
        if kind in acts and rnd.random() < 0.85:
            return {"type": kind}
    return {"type": rnd.choice([k for k in acts if k != "nl.raise"])}


async def _msg(rooms: Rooms, room: Room, sock: Sock, msg: dict[str, Any]) -> None:
    await rooms.handle(room, sock, P.parse_client_message(json.dumps(msg)))


async def _play(rooms: Rooms, room: Room, socks: list[Sock], rnd: random.Random, *, hands: int | None = None,
                check: Any = None) -> None:
    """Players act on their newest view (the clock passes deadlines) until the game ends or ``hands`` more
    hands have ended; ``check()`` after every change."""
    engine = rooms.engine
    target = None if hands is None else room.game_state.hands_played + hands
    n = 0
    while room.phase == "playing" and (target is None or room.game_state.hands_played < target):
        n += 1
        assert n < 3000, "the game did not end"
        moves = []
        for s in socks:
            v = s.last("view")
            if v is not None and v["version"] == room.version and (a := _choose(v["view"], rnd)) is not None:
                moves.append((s, a))
        if moves:
            s, action = moves[0]
            await _msg(rooms, room, s, {"type": "action", "clientMsgId": f"m{n}", "version": room.version,
                                        "action": action})
        else:
            due = engine.deadline(room.game_state)
            assert due is not None
            rooms.clock.not_before(due + 1)
            await rooms.deadline_passed(room)
        if check is not None:
            check()


def _nets(ledger: dict[str, Any]) -> dict[str, int]:
    return {r["id"]: r["net"] for r in ledger["rows"]}


def _check_frames(sock: Sock) -> int:
    """Every ledger frame this socket got: nets + unowned sum to 0, and between two frames the nets moved
    by exactly the handNet of the view of that version (a rebuy or a seat moves no net). Returns how many
    hands were checked so."""
    views = {f["version"]: f["view"] for f in sock.of("view")}
    before: dict[str, Any] | None = None
    hands = 0
    for f in sock.of("ledger"):
        led = f["ledger"]
        assert sum(_nets(led).values()) + led["unowned"] == 0, led
        for r in led["rows"]:
            assert r["net"] == r["closed"] + (r["stack"] or 0) - r["buyIn"] - r["rebuyChips"]
        if before is not None and before["current"] == led["current"]:
            old = _nets(before)
            moved = {k: v - old.get(k, 0) for k, v in _nets(led).items() if v != old.get(k, 0)}
            view = views.get(f["version"])
            net = {k: v for k, v in ((view or {}).get("handNet") or {}).items() if v}
            if moved:
                assert view is not None and net == moved, (f["version"], moved, net)
                hands += 1
        before = led
    return hands


def test_the_ledger_of_a_night(tmp_path: Path) -> None:
    engine = PokerEngine()
    path = tmp_path / "pokerroom.sqlite3"

    async def main() -> None:
        store = Store(path)
        rooms = Rooms(engine, store)
        await rooms.start()
        room, _, token = await rooms.create_room({"mode": "holdem", "handLimit": 10, "startingChips": 500,
                                                  "baseUnit": 20, "turnSeconds": 60, "hints": False}, "방장")
        socks = [Sock() for _ in range(3)]
        for i, s in enumerate(socks):
            await _msg(rooms, room, s, {"type": "hello", **({"token": token} if i == 0
                                                               else {"nickname": f"친구{i}"})})
        watcher = Sock()
        await _msg(rooms, room, watcher, {"type": "hello", "spectate": True})
        assert watcher.of("ledger") == []  # no game yet, no ledger
        await _msg(rooms, room, socks[0], {"type": "start"})
        rnd = random.Random(11)

        def check() -> None:
            led = ledger_json(room.table, engine)
            assert led is not None and sum(_nets(led).values()) + led["unowned"] == 0

        await _play(rooms, room, socks, rnd, check=check)
        assert room.phase == "finished"
        result = watcher.last("result")
        assert result is not None
        first = watcher.last("ledger")
        assert first is not None and first["ledger"]["games"] == 1 and first["ledger"]["current"] == 1
        by_result = {e["playerId"]: e["net"] for e in result["result"]["ranking"]}
        assert _nets(first["ledger"]) == by_result
        assert sum(by_result.values()) == 0
        rebuys = sum(r["rebuys"] for r in first["ledger"]["rows"])
        # everybody, spectator included, got the same ledger frames
        assert [f["ledger"] for f in watcher.of("ledger")] == [f["ledger"] for f in socks[1].of("ledger")]
        hands = _check_frames(watcher)
        assert hands >= 5 and rebuys >= 1  # (seed 11: 10 hands with a net, 9 rebuys)

        # the third player leaves between games; "한 판 더" with the other two
        leaver = room.members[socks[2].player_id or ""]
        await _msg(rooms, room, socks[2], {"type": "leave"})
        await _msg(rooms, room, socks[0], {"type": "start"})
        assert room.phase == "playing" and room.game_no == 2
        led = ledger_json(room.table, engine)
        assert led is not None and led["games"] == 2 and led["current"] == 2
        assert _nets(led) == by_result  # a new game changes nobody's net
        finals = {e["playerId"]: e["finalChips"] for e in result["result"]["ranking"]}
        gone = next(r for r in led["rows"] if r["id"] == leaver.id)
        assert gone["nickname"] == leaver.nickname and gone["stack"] is None and gone["games"] == 1
        assert gone["closed"] == finals[leaver.id]
        for r in led["rows"]:
            if r["id"] != leaver.id:
                assert r["games"] == 2 and r["stack"] == 500 and r["closed"] == finals[r["id"]]
        assert sum(r["rebuys"] for r in led["rows"]) == rebuys

        # a few hands of game 2, then the store alone must give back the same ledger (snapshot + rows)
        await _play(rooms, room, socks[:2], rnd, hands=3)
        live = ledger_json(room.table, engine)
        await rooms.stop()
        again = Rooms(engine, store)
        await again.start()
        try:
            restored = again.rooms[room.code]
            assert restored.table.ledger == room.table.ledger
            assert ledger_json(restored.table, engine) == live
            late = Sock()
            await again.handle(restored, late, P.parse_client_message('{"type": "hello", "spectate": true}'))
            snap = late.last("ledger")
            assert snap is not None and snap["ledger"] == live  # a new socket gets it in its snapshot
        finally:
            await again.stop()
            store.close()
        assert _check_frames(watcher) >= hands

    asyncio.run(main())


def test_closed_games_round_trip_and_keep_names() -> None:
    led = Ledger(2, (Entry("p1", "민수", 2, 1000, 1, 500, 900), Entry("p3", "영희", 1, 500, 0, 0, 0)))
    assert Ledger.from_json(json.loads(json.dumps(led.to_json()))) == led
    assert Ledger.from_json(None) == Ledger()
    named = led.remembering({"p4": "지수"})
    assert dict(named.names) == {"p4": "지수"} and named.entries == led.entries
    assert led.remembering({}) is led


def _random_game(ids: list[str], seed: int, opts: dict[str, Any]) -> State:
    """A whole game of random legal actions (rebuys taken at random, a timeout now and then)."""
    rnd = random.Random(seed)
    state = setup(ids, opts, seed=seed)
    now = 0
    for _ in range(5000):
        if state.phase == "finished":
            return state
        now += 1000
        acting = [(pid, acts) for pid in ids if (acts := legal_actions(state, pid))]
        if not acting or rnd.random() < 0.03:
            now = max(now, deadline(state) or now)
            state, _ = on_timeout(state, now)
            continue
        pid, acts = rnd.choice(acting)
        a = rnd.choice(acts)
        if a["type"] == "nl.raise":
            action: dict[str, Any] = {"type": "nl.raise", "to": a["min"]}
        elif a["type"] == "rebuy":
            action = {"type": "rebuy", "accept": rnd.random() < 0.6}
        elif a["type"] == "choose":
            action = {"type": "choose", "discardId": a["cardIds"][0], "openId": a["cardIds"][-1]}
        elif a["type"] == "draw":
            action = {"type": "draw", "cardIds": []}
        elif a["type"] == "declare":
            action = {"type": "declare", "side": "high"}
        else:
            action = {"type": a["type"]}
        state, _ = apply(state, pid, action, now)
    raise AssertionError("the game did not end")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds=st.lists(st.integers(min_value=0, max_value=2**31), min_size=2, max_size=3),
       modes=st.lists(st.sampled_from(["holdem", "badugi", "indian", "sevenPoker"]), min_size=3, max_size=3),
       chips=st.lists(st.sampled_from([500, 1000]), min_size=3, max_size=3))
def test_a_night_of_random_games_sums_to_zero(seeds: list[int], modes: list[str], chips: list[int]) -> None:
    """Games of different modes and starting chips, folded one after the other (a player sitting one out):
    after every game and every fold the nets sum to zero and each is closed + stack − buy-ins − rebuys."""
    engine = PokerEngine()
    everyone = ["p1", "p2", "p3", "p4"]
    members = {pid: Member(pid, f"친구{pid}", None, False, "seated", i) for i, pid in enumerate(everyone)}
    table: Table | None = None
    games = 0
    for n, seed in enumerate(seeds):
        opts = {"mode": modes[n], "startingChips": chips[n], "baseUnit": 20, "handLimit": 10,
                "rebuy": "unlimited", "indianTie": "carry"}
        options = engine.parse_options(opts)
        ids = everyone[:3] if n % 2 == 0 else everyone[1:]
        state = _random_game(ids, seed, opts)
        ledger = Ledger() if table is None else closed_with_current(table, engine)
        table = Table("code", 0, options, engine.options_json(options), 2, 6, members=members, state=state,
                      game_no=n + 1, ledger=ledger)
        games += 1
        led = ledger_json(table, engine)
        assert led is not None and led["games"] == games and led["unowned"] == 0
        assert sum(_nets(led).values()) == 0
        result = engine.result(state)
        assert result is not None
        game_nets = {e["playerId"]: e["net"] for e in result["ranking"]}
        for r in led["rows"]:
            assert r["net"] == r["closed"] + (r["stack"] or 0) - r["buyIn"] - r["rebuyChips"]
            if r["id"] not in ids:
                assert r["stack"] is None
        before = {e.id: e.closed - e.buy_in - e.rebuy_chips for e in ledger.entries}
        assert {pid: _nets(led)[pid] - before.get(pid, 0) for pid in ids} == game_nets
