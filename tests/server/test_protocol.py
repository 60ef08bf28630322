"""Bad input of every kind gets a typed Korean error, changes nothing and keeps the socket open;
only a flood closes it (1008). Plus the handshake Origin check, membership and host rules."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
import websockets
from server_helpers import Client, LiveServer, join, safe_action

HANGUL = re.compile("[\uac00-\ud7a3]")


async def _expect_error(c: Client, code: str) -> dict[str, object]:
    err = await c.expect("error")
    assert err["code"] == code, err
    assert HANGUL.search(str(err["message"])), err
    return err


def test_bad_inputs_each_get_a_typed_error_and_change_nothing(server: LiveServer) -> None:
    async def main() -> None:
        room = server.create_room("방장", mode="holdem", hints=False)  # one seat to act at a time
        code = room["code"]
        p1 = await Client.open(server.ws_url(code), "p1")
        await p1.send({"type": "start"})
        await _expect_error(p1, "hello_first")
        await p1.hello(token=room["token"])
        p2 = await join(server, code, "p2", nickname="둘")
        spec = await join(server, code, "s", spectate=True)
        await p1.send({"type": "start"})
        view = await p1.expect("view")
        version = view["version"]
        mover, idle = (p1, p2) if view["view"]["toAct"] == p1.player_id else (p2, p1)
        move = safe_action(server.view_at(code, version, mover.player_id))
        assert move is not None
        live = server.rooms.get(code)
        assert live is not None
        state_before = server.rooms.engine.dump_state(live.state)

        def act(action: object, **extra: object) -> dict[str, object]:
            return {"type": "action", "clientMsgId": "m1", "version": version, "action": action, **extra}

        cases: list[tuple[object, str]] = [
            ("{not json", "bad_json"),
            ("[1, 2]", "bad_message"),
            ('"hello"', "bad_message"),
            ({"type": "nope"}, "unknown_type"),
            ({"hello": 1}, "unknown_type"),
            ({"type": "ping", "extra": 1}, "bad_message"),
            (act({"type": "nl.raise", "to": -5}), "bad_message"),
            (act({"type": "nl.raise", "to": 20.0}), "bad_message"),
            (act({"type": "nl.raise", "to": 20.5}), "bad_message"),
            (act({"type": "nl.raise", "to": "20"}), "bad_message"),
            (act({"type": "nl.raise", "to": True}), "bad_message"),
            (act({"type": "nl.raise", "to": 10**30}), "bad_message"),
            (act({"type": "nl.raise"}), "bad_message"),
            (act({"type": "k.steal"}), "bad_message"),
            (act({"type": "leave"}), "bad_message"),  # only the server injects leave
            (act({"type": "nl.check", "playerId": "p2"}), "bad_message"),  # no acting for another seat
            (act({"type": "nl.check"}, playerId="p2"), "bad_message"),
            (act({"type": "draw", "cardIds": [1, 1]}), "bad_message"),
            (act({"type": "draw", "cardIds": [1, 2, 3, 4, 5, 6]}), "bad_message"),
            ({"type": "action", "clientMsgId": "", "version": version, "action": {"type": "nl.check"}},
             "bad_message"),
            ({"type": "action", "clientMsgId": "m", "version": -1, "action": {"type": "nl.check"}},
             "bad_message"),
            (act({"type": "nl.check"}) | {"version": version - 1}, "stale_version"),
            ({"type": "hello", "spectate": True}, "already_hello"),
            ({"type": "hello", "token": "a", "nickname": "b"}, "bad_message"),
            ({"type": "addBot"}, "game_running"),
            ("x" * 5000, "too_large"),
            (json.dumps({"type": "hello", "nickname": "가" * 1500}), "too_large"),
        ]
        for payload, expected in cases:
            await p1.send(payload if isinstance(payload, str) else json.dumps(payload))
            await _expect_error(p1, expected)
        await p1.send(b"\x00\x01binary")
        await _expect_error(p1, "binary_frame")
        # acting out of turn and as a spectator
        await idle.send(act({"type": "nl.check"}))
        err = await _expect_error(idle, "not_your_turn")
        assert err["clientMsgId"] == "m1" and err["message"] == "지금은 내 차례가 아니에요"
        await spec.send(act({"type": "nl.check"}))
        await _expect_error(spec, "spectator")
        await p2.send({"type": "start"})
        await _expect_error(p2, "not_host")
        assert live.version == version
        assert server.rooms.engine.dump_state(live.state) == state_before
        for c in (p1, p2, spec):
            await c.send({"type": "ping"})
            pong = await c.expect("pong")
            # serverNow: the server clock, so a client with a wrong clock still counts down to deadlineAt
            assert abs(pong["serverNow"] - server.rooms.clock.now_ms()) < 5_000
            assert c.closed_code is None
        # and the game still works
        await mover.send(act(move))
        assert (await mover.expect("ack"))["version"] == version + 1

    asyncio.run(main())


def test_flood_closes_1008(make_server: object) -> None:
    from pokerroom.server.edge.limits import Limits

    srv: LiveServer = make_server(limits=Limits(rate_per_second=5, rate_burst=10))  # type: ignore[operator]

    async def main() -> None:
        room = srv.create_room()
        c = await join(srv, room["code"], "flood", token=room["token"])
        for _ in range(50):
            try:
                await c.send({"type": "ping"})
            except websockets.ConnectionClosed:
                break
        closed = await c.expect("_closed", timeout=5)
        assert closed["code"] == 1008
        info = srv.rooms.get(room["code"])
        assert info is not None  # the room survives; the seat can reconnect
        again = await join(srv, room["code"], "again", token=room["token"])
        assert again.player_id == c.player_id

    asyncio.run(main())


def test_origin_check_on_handshake(make_server: object) -> None:
    from pokerroom.server.edge.limits import Limits

    srv: LiveServer = make_server(limits=Limits(rate_per_second=1000, rate_burst=1000,  # type: ignore[operator]
                                                allowed_origins=("https://friends.example",)))

    async def main() -> None:
        room = srv.create_room()
        url = srv.ws_url(room["code"])
        for bad in ("https://evil.example", "null", f"http://127.0.0.1:{srv.port + 1}"):
            with pytest.raises(websockets.InvalidStatus) as info:
                await websockets.connect(url, origin=bad)  # type: ignore[arg-type]
            assert info.value.response.status_code == 403
        for good in (f"http://127.0.0.1:{srv.port}", "https://friends.example"):
            c = await Client.open(url, "ok", origin=good)
            await c.hello(spectate=True)
            await c.close()

    asyncio.run(main())


def test_unknown_room_socket_is_told_and_closed(server: LiveServer) -> None:
    async def main() -> None:
        for code in ("abcdefghjk", "ABC%20x"):
            c = await Client.open(f"ws://127.0.0.1:{server.port}/ws/{code}", "lost")
            err = await c.expect("error")
            assert err["code"] == "room_not_found"
            assert (await c.expect("_closed"))["code"] == 4404

    asyncio.run(main())


def test_membership_rules_and_host_passing(server: LiveServer) -> None:
    async def main() -> None:
        room = server.create_room("방장")
        code = room["code"]
        host = await join(server, code, "host", token=room["token"])
        await host.send({"type": "start"})
        err = await _expect_error(host, "player_count")
        assert err["message"] == "2~6명이 있어야 시작할 수 있어요"
        dup = await Client.open(server.ws_url(code), "dup")
        await dup.send({"type": "hello", "nickname": " 방장 "})
        await _expect_error(dup, "nickname_taken")
        await dup.send({"type": "hello", "nickname": "a" * 13})
        await _expect_error(dup, "nickname_invalid")
        guest = await join(server, code, "guest", nickname="손님")
        assert guest.token and guest.token != room["token"]
        # host adds bots up to the cap of 6
        for _ in range(4):
            await host.send({"type": "addBot"})
        lobby = await host.expect("lobby", pred=lambda m: len(m["players"]) == 6)
        bots = [p for p in lobby["players"] if p["bot"]]
        assert len(bots) == 4 and bots[0]["nickname"] == "봇 1"
        full = await Client.open(server.ws_url(code), "full")
        await full.send({"type": "hello", "nickname": "일곱째"})
        await _expect_error(full, "room_full")
        await guest.send({"type": "removeBot", "playerId": bots[0]["id"]})
        await _expect_error(guest, "not_host")
        await host.send({"type": "removeBot", "playerId": bots[0]["id"]})
        await host.expect("lobby", pred=lambda m: len(m["players"]) == 5)
        # the host leaves: the earliest remaining human becomes host
        await host.send({"type": "leave"})
        assert (await host.expect("_closed"))["code"] == 1000
        lobby = await guest.expect("lobby", pred=lambda m: m["hostId"] == guest.player_id)
        assert all(p["id"] != host.player_id for p in lobby["players"])
        gone = await Client.open(server.ws_url(code), "gone")
        await gone.send({"type": "hello", "token": room["token"]})
        await _expect_error(gone, "bad_token")  # a left seat's token is dead

    asyncio.run(main())


def test_spectator_cap(make_server: object) -> None:
    from pokerroom.server.edge.limits import Limits

    srv: LiveServer = make_server(limits=Limits(rate_per_second=1000, rate_burst=1000,  # type: ignore[operator]
                                                max_spectators=2))

    async def main() -> None:
        room = srv.create_room()
        watchers = [await join(srv, room["code"], f"s{i}", spectate=True) for i in range(2)]
        extra = await Client.open(srv.ws_url(room["code"]), "s3")
        await extra.send({"type": "hello", "spectate": True})
        await _expect_error(extra, "spectators_full")
        lobby = watchers[0].last("lobby")
        assert lobby is not None and lobby["spectators"] == 2

    asyncio.run(main())


def test_leaving_mid_game_and_bots_play(make_server: object) -> None:
    srv: LiveServer = make_server(bot_delay_ms=10)  # type: ignore[operator]

    async def main() -> None:
        room = srv.create_room("방장", handLimit=10)
        code = room["code"]
        host = await join(srv, code, "host", token=room["token"])
        guest = await join(srv, code, "guest", nickname="손님")
        await host.send({"type": "addBot"})
        await host.send({"type": "start"})
        await guest.expect("view")
        await guest.send({"type": "leave"})
        await guest.expect("_closed")
        lobby = await host.expect("lobby", pred=lambda m: any(p["status"] == "left" for p in m["players"]))
        assert lobby["hostId"] == host.player_id
        log = [row.kind for row in srv.rooms.store.log(code)]
        assert "leave" in log

    asyncio.run(main())


def test_idle_room_is_closed_and_forgotten(make_server: object) -> None:
    srv: LiveServer = make_server(idle_close_s=0.3, reap_interval_s=0.05)  # type: ignore[operator]

    async def main() -> None:
        room = srv.create_room()
        c = await join(srv, room["code"], "c", token=room["token"])
        await asyncio.sleep(0.5)
        assert srv.rooms.get(room["code"]) is not None  # someone is connected
        await c.close()
        for _ in range(100):  # idle 0.3 s, then the next reaper pass (polled: the machine may be busy)
            if room["code"] not in srv.rooms.rooms:  # dropped once its store rows are deleted (close_room)
                break
            await asyncio.sleep(0.05)
        assert srv.rooms.get(room["code"]) is None
        assert srv.rooms.store.load_all() == []
        c2 = await Client.open(srv.ws_url(room["code"]), "late")
        assert (await c2.expect("error"))["code"] == "room_not_found"

    asyncio.run(main())
