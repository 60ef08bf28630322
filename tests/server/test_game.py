"""Games through the protocol on the real rules engine: scripted players, a spectator, the frame scanner,
reconnects, tabs, duplicates, races and timeouts. (Every mode played to the end with the scanner is
tests/server/test_real_engine.py.)"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from server_helpers import (
    Client,
    LiveServer,
    join,
    play_until_result,
    real_secrets_for,
    safe_actor,
    scan_frames,
    without_clock,
)

#: hold'em, one player to act at a time; hints cost CPU and are not under test here
HOLDEM: dict[str, Any] = {"mode": "holdem", "hints": False}


async def _table(server: LiveServer, n: int = 3, spectators: int = 1, **options: object
                 ) -> tuple[str, list[Client], list[Client]]:
    room = server.create_room("p1", **options)
    code = room["code"]
    host = await join(server, code, "p1", token=room["token"])
    players = [host]
    for i in range(2, n + 1):
        players.append(await join(server, code, f"p{i}", nickname=f"플레이어{i}"))
    watchers = [await join(server, code, f"s{i}", spectate=True) for i in range(spectators)]
    return code, players, watchers


async def _start(host: Client) -> dict[str, Any]:
    await host.send({"type": "start"})
    return await host.expect("view")


async def _dealt(server: LiveServer, n: int) -> tuple[str, list[Client], Any]:
    """A hold'em table of ``n`` players, started: (code, players, the live room)."""
    code, players, _ = await _table(server, n, 0, **HOLDEM)
    await _start(players[0])
    room = server.rooms.get(code)
    assert room is not None
    return code, players, room


async def _turn(server: LiveServer, code: str, players: list[Client]) -> tuple[Client, int, dict[str, Any]]:
    """Whoever may act on the room's newest version (once every player holds it): (player, version, a safe
    move: check, call or ready)."""
    room = server.rooms.get(code)
    assert room is not None
    end = time.monotonic() + 5
    while any((p.last("view") or {}).get("version", -1) < room.version for p in players):
        assert time.monotonic() < end, "a player never got the newest view"
        await asyncio.sleep(0.005)
    found = safe_actor(players)
    assert found is not None and found[1] == room.version, "nobody may act"
    return found


def test_many_random_hands_never_leak(server: LiveServer) -> None:
    """Frame scanner over many hands, with mid-hand reconnects and a late joiner (a waiting member)."""

    async def main() -> None:
        code, players, watchers = await _table(server, 3, 1, mode="indian", hints=False, handLimit=10)
        await players[0].send({"type": "start"})
        late = await join(server, code, "late", nickname="늦게온사람")
        rnd = random.Random(11)
        reconnects: list[Client] = []
        pending: set[asyncio.Future[None]] = set()

        def maybe_reconnect(c: Client, msg: dict[str, object]) -> None:
            if rnd.random() < 0.05:
                async def again() -> None:
                    extra = await join(server, code, c.name + "-re", token=c.token)
                    reconnects.append(extra)
                    await extra.close()
                pending.add(asyncio.ensure_future(again()))

        await play_until_result(players, rnd, on_view=maybe_reconnect)
        await asyncio.gather(*pending)
        for c in players + reconnects:
            scan_frames(server, code, c, lambda v, c=c: c.player_id, real_secrets_for)
        for c in [*watchers, late]:
            scan_frames(server, code, c, lambda v: None, real_secrets_for)
        assert reconnects, "the run should have exercised reconnect snapshots"
        assert any(f["type"] == "view" for f in late.frames)

    asyncio.run(main())


def test_reconnect_with_token_gets_the_same_view(server: LiveServer) -> None:
    async def main() -> None:
        code, players, _ = await _table(server, 3, 0)
        first = await _start(players[0])
        await players[1].expect("view")
        before = players[1].last("view")
        await players[1].close()
        back = await Client.open(server.ws_url(code), "p2-back")
        welcome = await back.hello(token=players[1].token)
        assert welcome["playerId"] == players[1].player_id and welcome["role"] == "player"
        assert "token" not in welcome
        assert (await back.expect("lobby"))["players"][1]["connected"] is True
        snap = await back.expect("view")
        assert before is not None and without_clock(snap) == without_clock(before)
        assert snap["version"] == first["version"] and snap["serverNow"] >= before["serverNow"]

    asyncio.run(main())


def test_second_tab_same_seat(server: LiveServer) -> None:
    async def main() -> None:
        code, players, _room = await _dealt(server, 2)
        seat, version, move = await _turn(server, code, players)  # a second tab of the seat to act
        view = seat.last("view")
        assert view is not None
        tab2 = await join(server, code, f"{seat.name}-tab2", token=seat.token)
        snap = await tab2.expect("view")
        assert snap["view"] == view["view"]
        await tab2.send({"type": "action", "clientMsgId": "t2-1", "version": version, "action": move})
        ack = await tab2.expect("ack")
        assert ack["version"] == version + 1
        v1 = await seat.expect("view", pred=lambda m: m["version"] > version)
        v2 = tab2.last("view")  # events and view come before the ack
        assert v1 == v2 and v1["version"] == ack["version"]
        assert not any(f["type"] == "ack" for f in seat.frames)  # the ack goes to the sender only

    asyncio.run(main())


def test_wrong_token_never_opens_a_seat(server: LiveServer) -> None:
    async def main() -> None:
        code, players, _ = await _table(server, 2, 0)
        other = server.create_room("남")
        for token in ("x" * 43, other["token"], players[0].token + "x", players[0].token[:-1]):
            c = await Client.open(server.ws_url(code), "intruder")
            await c.send({"type": "hello", "token": token})
            err = await c.expect("error")
            assert err["code"] == "bad_token"
            assert err["message"] == "입장 정보가 맞지 않아요. 새로 참가해 주세요"
            await c.send({"type": "ping"})
            await c.expect("pong")  # still open
            await c.close()
        # the room-A token is useless in room B too
        c = await Client.open(server.ws_url(other["code"]), "cross")
        await c.send({"type": "hello", "token": players[0].token})
        assert (await c.expect("error"))["code"] == "bad_token"

    asyncio.run(main())


def test_duplicate_client_msg_id_applies_once(server: LiveServer) -> None:
    async def main() -> None:
        code, players, room = await _dealt(server, 2)
        seat, version, move = await _turn(server, code, players)
        msg = {"type": "action", "clientMsgId": "same", "version": version, "action": move}
        await seat.send(msg)
        first = await seat.expect("ack")
        await seat.send(msg)
        second = await seat.expect("ack")
        assert first == second
        assert room.version == version + 1
        errors = [f for f in seat.frames if f["type"] == "error"]
        assert errors == []

    asyncio.run(main())


async def _answers(players: list[Client]) -> list[dict[str, object]]:
    """The first ``ack`` or ``error`` of each player, in the players' order."""
    outcomes = []
    for p in players:
        while True:
            m = await p.queue.get()
            if m["type"] in ("ack", "error"):
                outcomes.append(m)
                break
    return outcomes


async def _to_hand_end(server: LiveServer, code: str, players: list[Client]) -> int:
    """Whoever is to act folds until one player is left, so the hand ends and waits for ``ready``."""
    for n in range(len(players) - 1):
        seat, version, _move = await _turn(server, code, players)
        await seat.send({"type": "action", "clientMsgId": f"f{n}", "version": version,
                         "action": {"type": "nl.fold"}})
        assert (await seat.expect("ack"))["version"] == version + 1
    room = server.rooms.get(code)
    assert room is not None
    view = server.view_at(code, room.version, None)
    assert view["phase"] == "handEnd", view["phase"]
    return room.version


def test_bets_racing_apply_one_after_another(server: LiveServer) -> None:
    """A bet is a decision on what the table shows: one based on a version the table has left is refused
    ``stale_version``, even when it has become legal meanwhile (the player never saw the change)."""
    async def main() -> None:
        code, players, room = await _dealt(server, 3)
        first, version, move = await _turn(server, code, players)
        for p in players:
            p.drain()
        # the seat to act calls; the next calls "at once", on the same version (its turn only after)
        await first.send({"type": "action", "clientMsgId": "b1", "version": version, "action": move})
        assert (await first.expect("ack"))["version"] == version + 1
        second, now, again = await _turn(server, code, players)
        assert second is not first and now == version + 1
        await second.send({"type": "action", "clientMsgId": "b2", "version": version, "action": again})
        err = await second.expect("error")
        assert err["code"] == "stale_version" and err["clientMsgId"] == "b2"
        assert room.version == version + 1
        # the same move on the version it now sees is accepted
        await second.send({"type": "action", "clientMsgId": "b3", "version": version + 1, "action": again})
        assert (await second.expect("ack"))["version"] == version + 2

    asyncio.run(main())


def test_readies_based_on_an_older_version_are_all_accepted(server: LiveServer) -> None:
    """``ready`` commutes (docs/protocol.md §2.1): the readies racing at a hand's end are all applied, one
    after another, although all but the first are based on a version the table has left; a ``ready`` based
    on a version before the hand's last other change is still stale."""
    async def main() -> None:
        code, players, room = await _dealt(server, 3)
        version = await _to_hand_end(server, code, players)
        assert room.settled_version == version
        for p in players:
            p.drain()
        # based on the view before the last fold (which ended the hand): that fold is not a ready
        await players[0].send({"type": "action", "clientMsgId": "old", "version": version - 1,
                               "action": {"type": "ready"}})
        err = await players[0].expect("error")
        assert err["code"] == "stale_version" and room.version == version
        await asyncio.gather(*(p.send({"type": "action", "clientMsgId": "r", "version": version,
                                       "action": {"type": "ready"}}) for p in players))
        outcomes = await _answers(players)
        assert [m["type"] for m in outcomes] == ["ack"] * 3
        assert sorted(int(str(m["version"])) for m in outcomes) == [version + 1, version + 2, version + 3]
        assert room.version == version + 3
        # a second ready decided on the same old view (its sender's own ready was applied after that view)
        # is a duplicate: stale, as before, not handed to the rules (which would say wrong_phase)
        await players[0].send({"type": "action", "clientMsgId": "late", "version": version,
                               "action": {"type": "ready"}})
        late = await players[0].expect("error")
        assert late["code"] == "stale_version" and room.version == version + 3

    asyncio.run(main())


def test_silent_player_is_timed_out_on_a_scaled_clock(make_server: object) -> None:
    srv: LiveServer = make_server(time_scale=0.01)  # type: ignore[operator]

    async def main() -> None:
        code, players, watchers = await _table(srv, 2, 1, turnSeconds=20, handLimit=10, **HOLDEM)
        first = await _start(players[0])
        # nobody acts: 20 s turns pass in 0.2 s; the hands end and the next start via timeouts
        ev = await watchers[0].expect("events", timeout=10, pred=lambda m: any(
            e["type"] == "timeout" for e in m["events"]))
        assert ev["events"][0]["type"] == "timeout"
        assert ev["events"][0]["player"] == first["view"]["toAct"]  # the seat whose turn it was
        result = await watchers[0].expect("result", timeout=20)
        assert result["result"]["ranking"]
        kinds = [row.kind for row in srv.rooms.store.log(code)]
        assert kinds[0] == "start" and "timeout" in kinds

    asyncio.run(main())


def test_new_game_with_the_same_people(server: LiveServer) -> None:
    async def main() -> None:
        _, players, _ = await _table(server, 2, 0, handLimit=10, **HOLDEM)
        await players[0].send({"type": "start"})
        await play_until_result(players, random.Random(3))
        await players[1].send({"type": "start"})
        # (an action of the last hand may still be answered no_game: its sender had not seen the result yet)
        refusal = await players[1].expect("error", pred=lambda m: m["code"] != "no_game")
        assert refusal["code"] == "not_host"
        await players[0].send({"type": "start"})
        lobby = await players[0].expect("lobby", pred=lambda m: m["phase"] == "playing")
        assert lobby["gameNo"] == 2 and [p["id"] for p in lobby["players"]] == [p.player_id for p in players]
        view = await players[1].expect("view", pred=lambda m: m["view"]["phase"] == "betting")
        assert view["view"]["me"]["id"] == players[1].player_id

    asyncio.run(main())


def test_a_failed_write_changes_nothing(server: LiveServer) -> None:
    """Persist before publish: if the store refuses a change, nobody sees it and the room is unchanged."""

    async def main() -> None:
        code, players, room = await _dealt(server, 2)
        seat, version, move = await _turn(server, code, players)
        other = next(p for p in players if p is not seat)
        store = server.rooms.store
        real = store.apply_batch

        def broken(ops: object) -> None:
            raise OSError("disk full")

        store.apply_batch = broken  # type: ignore[method-assign]
        try:
            await seat.send({"type": "action", "clientMsgId": "w1", "version": version, "action": move})
            err = await seat.expect("error")
            assert err["code"] == "internal" and err["clientMsgId"] == "w1"
        finally:
            store.apply_batch = real  # type: ignore[method-assign]
        assert room.version == version
        assert not any(f["type"] == "view" and f["version"] > version for f in other.frames)
        await seat.send({"type": "action", "clientMsgId": "w1", "version": version, "action": move})
        assert (await seat.expect("ack"))["version"] == version + 1

    asyncio.run(main())
