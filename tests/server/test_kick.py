"""The host removes a griefer (kick), and nicknames that impersonate a member are refused."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from hardening_helpers import hello, recv_json, ws_open

from pokerroom.server.room.nicknames import looks_like_bot, skeleton
from serving import Serve, ServeProcess

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def srv(serve_process: Serve) -> ServeProcess:
    return serve_process()


@pytest.fixture(scope="module")
def shared_srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """One server for the checks that each open a room of their own and change nothing else (the bot-label
    refusals): a process per name was most of their time."""
    srv = ServeProcess(tmp_path_factory.mktemp("kick-shared"), "--rooms-per-address", "0",
                       "--room-creations-per-minute", "0").up()
    yield srv
    srv.stop()


async def _closed_code(ws: Any) -> int | None:
    try:
        while True:
            await asyncio.wait_for(ws.recv(), 5)
    except websockets.ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd is not None else None


async def _three(srv: ServeProcess, **options: Any) -> tuple[dict[str, Any], list[Any], list[str]]:
    room = srv.create_room("방장", mode="holdem", hints=False, **options)
    host = await ws_open(srv.ws_url(room["code"]))
    await hello(host, token=room["token"])
    b = await ws_open(srv.ws_url(room["code"]))
    wb = await hello(b, nickname="철수")
    c = await ws_open(srv.ws_url(room["code"]))
    wc = await hello(c, nickname="영희")
    return room, [host, b, c], [wb["token"], wc["token"]]


def test_host_kicks_a_player_between_games(srv: ServeProcess) -> None:
    async def main() -> None:
        room, (host, b, c), (token_b, _) = await _three(srv)
        await b.send(json.dumps({"type": "kick", "playerId": "p3"}))
        assert (await recv_json(b, kind="error"))["code"] == "not_host"
        await host.send(json.dumps({"type": "kick", "playerId": "p1"}))
        assert (await recv_json(host, kind="error"))["code"] == "not_kickable"  # not oneself
        await host.send(json.dumps({"type": "addBot"}))
        await host.send(json.dumps({"type": "kick", "playerId": "p4"}))
        assert (await recv_json(host, kind="error"))["code"] == "not_kickable"  # bots have removeBot

        await host.send(json.dumps({"type": "kick", "playerId": "p2"}))
        gone = await recv_json(b, kind="error")
        assert gone["code"] == "kicked" and "내보냈어요" in gone["message"]
        assert await _closed_code(b) == 4403
        notice = await recv_json(c, kind="notice")
        assert notice["code"] == "kicked" and "철수" in notice["message"]
        lobby = await recv_json(c, kind="lobby", pred=lambda m: all(p["id"] != "p2" for p in m["players"]))
        assert [p["nickname"] for p in lobby["players"]] == ["방장", "영희", "봇 1"]
        # the seat token is revoked (a kick is a ban)
        again = await ws_open(srv.ws_url(room["code"]))
        await again.send(json.dumps({"type": "hello", "token": token_b}))
        assert (await recv_json(again, kind="error"))["code"] == "banned"  # revoked, and said so

    asyncio.run(main())


def test_host_kicks_a_player_mid_hand_who_then_auto_dies(srv: ServeProcess) -> None:
    async def main() -> None:
        room, (host, b, c), (token_b, _) = await _three(srv, turnSeconds=60)
        await host.send(json.dumps({"type": "start"}))
        await recv_json(c, kind="view")
        await host.send(json.dumps({"type": "kick", "playerId": "p2"}))
        assert (await recv_json(b, kind="error"))["code"] == "kicked"
        assert await _closed_code(b) == 4403
        ev = await recv_json(c, kind="events", pred=lambda m: any(
            "p2" in (e.get("playerId"), e.get("player")) for e in m["events"]))
        assert ev["events"]
        lobby = await recv_json(c, kind="lobby", pred=lambda m: any(p["id"] == "p2" and p["status"] == "left"
                                                                    for p in m["players"]))
        assert lobby["phase"] == "playing"
        again = await ws_open(srv.ws_url(room["code"]))
        await again.send(json.dumps({"type": "hello", "token": token_b}))
        assert (await recv_json(again, kind="error"))["code"] == "banned"  # revoked, and said so

    asyncio.run(main())


@pytest.mark.parametrize("fake", ["Аdmin", "ａｄｍｉｎ", "ADMIN", "adm\u0456n", "Admin\u0301", "\u0251dmin"])
def test_confusable_nicknames_are_refused(srv: ServeProcess, fake: str) -> None:
    async def main() -> None:
        room = srv.create_room("admin")
        ws = await ws_open(srv.ws_url(room["code"]))
        await ws.send(json.dumps({"type": "hello", "nickname": fake}))
        err = await recv_json(ws, kind="error")
        assert err["code"] in ("nickname_confusable", "nickname_taken", "nickname_invalid"), err
        if fake not in ("ADMIN",):
            assert err["code"] == "nickname_confusable" and "헷갈리는" in err["message"]
        ok = await ws_open(srv.ws_url(room["code"]))
        await hello(ok, nickname="admin2")

    asyncio.run(main())


def test_skeletons() -> None:
    assert skeleton("민수") == skeleton("민수") != skeleton("민지")
    assert skeleton("Раul") == skeleton("paul")  # Cyrillic Р and а
    assert skeleton("ｂｏｂ") == skeleton("bob")
    assert skeleton("rnike") == skeleton("mike")
    assert skeleton("l1I|") == skeleton("llll")
    assert skeleton("지수") != skeleton("지우")


def test_skeletons_from_the_unicode_confusables_data() -> None:
    """Look-alikes the reviewed table does not list come from Unicode's confusables data (the package)."""
    assert skeleton("b\u0585b") == skeleton("bob")  # Armenian small oh
    assert skeleton("\u13aanna") == skeleton("Anna")  # Cherokee A
    assert skeleton("\u0251lice") == skeleton("alice")  # Latin alpha
    assert skeleton("\u041a\u0456m") == skeleton("Kim")  # Cyrillic К and і
    assert skeleton("ｍｉｎｓｕ") == skeleton("minsu")  # fullwidth
    assert skeleton("ㅁㅣㄴㅅㅜ") == skeleton("민수")  # compatibility jamo, the ㄴ read as a final
    assert skeleton("민수") == skeleton("민수")  # conjoining jamo
    # plain ASCII and Hangul names stay apart (the data's depth-2 pairs f/s, 3/e are not applied to ASCII)
    assert skeleton("fam") != skeleton("sam") and skeleton("b3n") != skeleton("ben")
    assert skeleton("가나") != skeleton("간아") and skeleton("철수") != skeleton("철슈")


def test_a_kick_is_a_ban_for_that_room(srv: ServeProcess) -> None:
    """The kicked player came straight back under the same name. Now their token, their client (here
    127.0.0.2; the host is on 127.0.0.1) and their nickname (and its look-alikes) are refused in that room,
    as a player or a spectator; someone else still joins, and another room is not affected."""

    async def main() -> None:
        room = srv.create_room("방장", mode="holdem", hints=False)
        host = await ws_open(srv.ws_url(room["code"]))
        await hello(host, token=room["token"])
        b = await ws_open(srv.ws_url(room["code"]), source="127.0.0.2")
        token_b = (await hello(b, nickname="Bob"))["token"]
        await host.send(json.dumps({"type": "kick", "playerId": "p2"}))
        assert await _closed_code(b) == 4403

        async def refused(source: str, **hello_msg: Any) -> dict[str, Any]:
            ws = await ws_open(srv.ws_url(room["code"]), source=source)
            await ws.send(json.dumps({"type": "hello", **hello_msg}))
            return await recv_json(ws, kind="error")

        for msg in ({"nickname": "철수2"}, {"spectate": True}, {"token": token_b}):
            err = await refused("127.0.0.2", **msg)
            assert err["code"] == "banned" and "내보내서" in err["message"], (msg, err)
        for name in ("Bob", "ｂｏｂ", "B0B", "Вob"):  # from another client: the name and its look-alikes
            err = await refused("127.0.0.3", nickname=name)
            assert err["code"] == "nickname_banned" and "내보낸" in err["message"], (name, err)
        ok = await ws_open(srv.ws_url(room["code"]), source="127.0.0.3")
        assert (await hello(ok, nickname="영희"))["role"] == "player"
        other = srv.create_room("다른방장")
        elsewhere = await ws_open(srv.ws_url(other["code"]), source="127.0.0.2")
        assert (await hello(elsewhere, nickname="Bob"))["role"] == "player"

    asyncio.run(main())


BOT_LOOKALIKES = ["민수 (봇)", "민수（봇）", "민수[봇]", "민수 ( 봇 )", "민수(bot)", "민수 (B0T)",
                  "민수(ㅂㅗㅅ)", "민수❨봇❩", "민수〈봇〉", "민수 (ʙᴏᴛ)", "봇 3", "봇"]


@pytest.mark.parametrize("name", BOT_LOOKALIKES)
def test_a_human_cannot_take_a_bots_label(shared_srv: ServeProcess, name: str) -> None:
    srv = shared_srv

    async def main() -> None:
        room = srv.create_room("방장")
        ws = await ws_open(srv.ws_url(room["code"]))
        await ws.send(json.dumps({"type": "hello", "nickname": name}))
        err = await recv_json(ws, kind="error")
        assert err["code"] == "nickname_bot" and "(봇)" in err["message"], err

    asyncio.run(main())


def test_bot_labels() -> None:
    assert looks_like_bot("민수 (봇)") and looks_like_bot("민수（봇）") and looks_like_bot("x(BOT)")
    assert not looks_like_bot("로봇") and not looks_like_bot("봇짱") and not looks_like_bot("민수 (나)")
    assert not looks_like_bot("bot") and not looks_like_bot("민수봇")


def test_the_host_lifts_a_ban_and_bans_survive_a_restart(srv: ServeProcess) -> None:
    """A kick is a ban until the host lifts it: the list is stored with the room (a restart keeps it), only
    the host's lobby shows it (nicknames, never tokens or addresses), and ``unban`` lets the person back."""

    async def main() -> tuple[dict[str, Any], str]:
        room = srv.create_room("방장", mode="holdem", hints=False)
        host = await ws_open(srv.ws_url(room["code"]))
        await hello(host, token=room["token"])
        c = await ws_open(srv.ws_url(room["code"]), source="127.0.0.3")
        await hello(c, nickname="영희")
        b = await ws_open(srv.ws_url(room["code"]), source="127.0.0.2")
        token_b = (await hello(b, nickname="Bob"))["token"]
        await host.send(json.dumps({"type": "kick", "playerId": "p3"}))
        assert await _closed_code(b) == 4403
        lobby = await recv_json(host, kind="lobby", pred=lambda m: bool(m.get("bans")))
        assert lobby["bans"] == [{"id": "p3", "nickname": "Bob"}]
        seen = await recv_json(c, kind="lobby", pred=lambda m: all(p["id"] != "p3" for p in m["players"]))
        assert "bans" not in seen  # only the host's view lists them
        await c.send(json.dumps({"type": "unban", "playerId": "p3"}))
        assert (await recv_json(c, kind="error"))["code"] == "not_host"
        await host.send(json.dumps({"type": "unban", "playerId": "p9"}))
        err = await recv_json(host, kind="error")
        assert err["code"] == "no_such_ban" and "내보낸" in err["message"]
        for ws in (host, c):
            await ws.close()
        return room, token_b

    async def after_restart(room: dict[str, Any], token_b: str) -> None:
        async def answer(source: str, **hello_msg: Any) -> dict[str, Any]:
            ws = await ws_open(srv.ws_url(room["code"]), source=source)
            await ws.send(json.dumps({"type": "hello", **hello_msg}))
            return await recv_json(ws, kind="error")

        assert (await answer("127.0.0.2", nickname="철수"))["code"] == "banned"  # the client
        assert (await answer("127.0.0.2", token=token_b))["code"] == "banned"  # the token
        assert (await answer("127.0.0.4", nickname="Вob"))["code"] == "nickname_banned"  # a look-alike
        host = await ws_open(srv.ws_url(room["code"]))
        await hello(host, token=room["token"])
        lobby = await recv_json(host, kind="lobby", pred=lambda m: "bans" in m)
        assert lobby["bans"] == [{"id": "p3", "nickname": "Bob"}]
        assert "127.0.0.2" not in json.dumps(lobby) and "digest" not in json.dumps(lobby)
        await host.send(json.dumps({"type": "unban", "playerId": "p3"}))
        assert (await recv_json(host, kind="lobby", pred=lambda m: m.get("bans") == []))["bans"] == []
        back = await ws_open(srv.ws_url(room["code"]), source="127.0.0.2")
        assert (await hello(back, nickname="Bob"))["role"] == "player"

    room, token_b = asyncio.run(main())
    srv.stop()
    srv.start().wait()
    asyncio.run(after_restart(room, token_b))
