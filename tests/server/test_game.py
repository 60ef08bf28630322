"""Games through the protocol: scripted players, a spectator, the frame scanner, reconnects, tabs,
duplicates, races and timeouts (stand-in engine, so only the server is under test)."""

from __future__ import annotations

import asyncio
import random

import pytest
from server_fake_engine import secrets_for
from server_helpers import Client, LiveServer, join, play_until_result, scan_frames, without_clock


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


async def _start(host: Client) -> dict[str, object]:
    await host.send({"type": "start"})
    return await host.expect("view")


@pytest.mark.parametrize("mode", ["fake", "fakeIndian"])
def test_full_game_with_spectator_and_scanner(server: LiveServer, mode: str) -> None:
    async def main() -> None:
        code, players, watchers = await _table(server, 4, 2, mode=mode, handLimit=6)
        tokens = tuple(p.token for p in players if p.token)
        await players[0].send({"type": "start"})
        result = await play_until_result(players, random.Random(7))
        assert result["result"]["summary"] == "게임 종료"
        for w in watchers:
            await w.expect("result")
        checked = 0
        for c in players:
            checked += scan_frames(server, code, c, lambda v, c=c: c.player_id, secrets_for, tokens)
        for w in watchers:
            checked += scan_frames(server, code, w, lambda v: None, secrets_for, tokens)
            views = [f for f in w.frames if f["type"] == "view"]
            assert all(f["view"]["me"] is None for f in views)
        # every view carries the server's clock (deadlineAt is in it), and it never runs backwards
        for c in [*players, *watchers]:
            nows = [f["serverNow"] for f in c.frames if f["type"] == "view"]
            assert nows and nows == sorted(nows) and all(isinstance(n, int) for n in nows)
            assert abs(nows[-1] - server.rooms.clock.now_ms()) < 60_000
        assert checked > 20
        lobby = players[0].last("lobby")
        assert lobby is not None and lobby["phase"] == "finished"

    asyncio.run(main())


def test_many_random_hands_never_leak(server: LiveServer) -> None:
    """Frame scanner over many hands, with mid-hand reconnects and a late joiner (a waiting member)."""

    async def main() -> None:
        code, players, watchers = await _table(server, 3, 1, mode="fakeIndian", handLimit=25)
        await players[0].send({"type": "start"})
        late = await join(server, code, "late", nickname="늦게온사람")
        rnd = random.Random(11)
        reconnects: list[Client] = []
        pending: set[asyncio.Future[None]] = set()

        def maybe_reconnect(c: Client, msg: dict[str, object]) -> None:
            if rnd.random() < 0.03:
                async def again() -> None:
                    extra = await join(server, code, c.name + "-re", token=c.token)
                    reconnects.append(extra)
                    await extra.close()
                pending.add(asyncio.ensure_future(again()))

        await play_until_result(players, rnd, on_view=maybe_reconnect)
        await asyncio.gather(*pending)
        for c in players + reconnects:
            scan_frames(server, code, c, lambda v, c=c: c.player_id, secrets_for)
        for c in [*watchers, late]:
            scan_frames(server, code, c, lambda v: None, secrets_for)
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
        code, players, _ = await _table(server, 2, 0)
        view = await _start(players[0])
        tab2 = await join(server, code, "p1-tab2", token=players[0].token)
        snap = await tab2.expect("view")
        assert snap["view"] == view["view"]
        await tab2.send({"type": "action", "clientMsgId": "t2-1", "version": view["version"],
                         "action": {"type": "nl.check"}})
        ack = await tab2.expect("ack")
        assert ack["version"] == view["version"] + 1
        v1 = await players[0].expect("view")
        v2 = tab2.last("view")  # events and view come before the ack
        assert v1 == v2 and v1["version"] == ack["version"]
        assert not any(f["type"] == "ack" for f in players[0].frames)  # the ack goes to the sender only

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
        _, players, _ = await _table(server, 2, 0)
        view = await _start(players[0])
        msg = {"type": "action", "clientMsgId": "same", "version": view["version"],
               "action": {"type": "nl.check"}}
        await players[0].send(msg)
        first = await players[0].expect("ack")
        await players[0].send(msg)
        second = await players[0].expect("ack")
        assert first == second
        assert server.rooms.get(players[0].frames[0]["code"]).version == view["version"] + 1  # type: ignore[union-attr]
        errors = [f for f in players[0].frames if f["type"] == "error"]
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
    """Everyone checks once (the stand-in engine's betting round), so the hand waits for ``ready``."""
    for p in players:
        cur = server.rooms.get(code)
        assert cur is not None
        await p.send({"type": "action", "clientMsgId": "c0", "version": cur.version,
                      "action": {"type": "nl.check"}})
        await p.expect("ack")
    room = server.rooms.get(code)
    assert room is not None
    return room.version


def test_bets_racing_apply_one_after_another(server: LiveServer) -> None:
    """A bet is a decision on what the table shows: one based on a version the table has left is refused
    ``stale_version``, even when it has become legal meanwhile (the player never saw the change)."""
    async def main() -> None:
        code, players, _ = await _table(server, 3, 0)
        await _start(players[0])
        room = server.rooms.get(code)
        assert room is not None
        version = room.version
        for p in players:
            p.drain()
        # the first seat checks; the second checks "at once", on the same version (its turn only after)
        await players[0].send({"type": "action", "clientMsgId": "b1", "version": version,
                               "action": {"type": "nl.check"}})
        assert (await players[0].expect("ack"))["version"] == version + 1
        await players[1].send({"type": "action", "clientMsgId": "b2", "version": version,
                               "action": {"type": "nl.check"}})
        err = await players[1].expect("error")
        assert err["code"] == "stale_version" and err["clientMsgId"] == "b2"
        assert room.version == version + 1
        # the same check on the version it now sees is accepted
        await players[1].send({"type": "action", "clientMsgId": "b3", "version": version + 1,
                               "action": {"type": "nl.check"}})
        assert (await players[1].expect("ack"))["version"] == version + 2

    asyncio.run(main())


def test_readies_based_on_an_older_version_are_all_accepted(server: LiveServer) -> None:
    """``ready`` commutes (docs/protocol.md §2.1): the readies racing at a hand's end are all applied, one
    after another, although all but the first are based on a version the table has left; a ``ready`` based
    on a version before the hand's last other change is still stale."""
    async def main() -> None:
        code, players, _ = await _table(server, 3, 0)
        await _start(players[0])
        version = await _to_hand_end(server, code, players)
        room = server.rooms.get(code)
        assert room is not None and room.settled_version == version
        for p in players:
            p.drain()
        # based on the view before the last check (which ended the hand): that check is not a ready
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
        code, players, watchers = await _table(srv, 2, 1, turnSeconds=20, handLimit=2)
        await _start(players[0])
        # nobody acts: 20 s turns pass in 0.2 s; the hand ends and the next starts via timeouts
        ev = await watchers[0].expect("events", timeout=10, pred=lambda m: any(
            e["type"] == "timeout" for e in m["events"]))
        assert ev["events"][0]["player"] == players[0].player_id
        result = await watchers[0].expect("result", timeout=20)
        assert result["result"]["ranking"]
        kinds = [row.kind for row in srv.rooms.store.log(code)]
        assert kinds[0] == "start" and "timeout" in kinds

    asyncio.run(main())


def test_new_game_with_the_same_people(server: LiveServer) -> None:
    async def main() -> None:
        _, players, _ = await _table(server, 2, 0, handLimit=1)
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
        code, players, _ = await _table(server, 2, 0)
        view = await _start(players[0])
        room = server.rooms.get(code)
        assert room is not None
        store = server.rooms.store
        real = store.apply_batch

        def broken(ops: object) -> None:
            raise OSError("disk full")

        store.apply_batch = broken  # type: ignore[method-assign]
        try:
            await players[0].send({"type": "action", "clientMsgId": "w1", "version": view["version"],
                                   "action": {"type": "nl.check"}})
            err = await players[0].expect("error")
            assert err["code"] == "internal" and err["clientMsgId"] == "w1"
        finally:
            store.apply_batch = real  # type: ignore[method-assign]
        assert room.version == view["version"]
        assert not any(f["type"] == "view" and f["version"] > view["version"] for f in players[1].frames)
        await players[0].send({"type": "action", "clientMsgId": "w1", "version": view["version"],
                               "action": {"type": "nl.check"}})
        assert (await players[0].expect("ack"))["version"] == view["version"] + 1

    asyncio.run(main())
