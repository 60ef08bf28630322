"""Reactions and chat: fixed reactions for players, spectators only when the host allows, free
text only while the host has chat on (cleaned, length-capped, never stored), spectators' chat only while the
host has 관전자 채팅 on (marked as a spectator's), rate-limited per sender."""

from __future__ import annotations

import asyncio
import json
import typing

from server_helpers import Client, LiveServer, join

from pokerroom.server.room import reactions as talk
from pokerroom.server.wire import protocol as P


async def _room(srv: LiveServer) -> tuple[str, Client, Client, Client]:
    room = srv.create_room("p1")
    code = room["code"]
    host = await join(srv, code, "host", token=room["token"])
    guest = await join(srv, code, "guest", nickname="지수")
    watcher = await join(srv, code, "watcher", spectate=True)
    return code, host, guest, watcher


async def _refused(c: Client, msg: dict[str, typing.Any], code: str) -> None:
    await c.send(msg)
    err = await c.expect("error")
    assert err["code"] == code, err


def test_reaction_ids_match_the_protocol() -> None:
    assert set(typing.get_args(P.ReactionId)) == set(talk.REACTIONS)
    assert {"나이스!", "빨리요~", "ㅋㅋ"} <= set(talk.REACTIONS.values())


def test_player_reaction_reaches_everyone_with_its_sender(server: LiveServer) -> None:
    async def main() -> None:
        _, host, guest, watcher = await _room(server)
        await guest.send({"type": "react", "reaction": "nice"})
        for c in (host, guest, watcher):
            msg = await c.expect("reaction")
            assert msg == {"type": "reaction", "from": guest.player_id, "reaction": "nice", "text": "나이스!",
                           "showMs": talk.SHOW_MS}
        await _refused(guest, {"type": "react", "reaction": "<img src=x>"}, "bad_message")
        await _refused(guest, {"type": "react", "reaction": "nice", "text": "hi"}, "bad_message")

    asyncio.run(main())


def test_spectators_react_only_when_the_host_allows(server: LiveServer) -> None:
    async def main() -> None:
        _, host, guest, watcher = await _room(server)
        await _refused(watcher, {"type": "react", "reaction": "lol"}, "reactions_off")
        await _refused(guest, {"type": "social", "chat": False, "spectatorReactions": True}, "not_host")
        await host.send({"type": "social", "chat": False, "spectatorReactions": True})
        lobby = await watcher.expect("lobby", pred=lambda m: m["social"]["spectatorReactions"])
        assert lobby["social"] == {"chat": False, "spectatorReactions": True, "spectatorChat": False}
        await watcher.send({"type": "react", "reaction": "lol"})
        msg = await host.expect("reaction")
        assert msg["from"] is None and msg["text"] == "ㅋㅋ"
        await _refused(watcher, {"type": "chat", "text": "안녕"}, "chat_off")  # reacting is not chatting

    asyncio.run(main())


def test_chat_only_when_on_cleaned_capped_and_never_stored(server: LiveServer) -> None:
    async def main() -> None:
        code, host, guest, watcher = await _room(server)
        await _refused(guest, {"type": "chat", "text": "안녕하세요"}, "chat_off")
        await host.send({"type": "social", "chat": True, "spectatorReactions": False})
        await guest.expect("lobby", pred=lambda m: m["social"]["chat"])
        raw = "<b>안녕</b>\n\u0007  " + "가" * 100
        await guest.send({"type": "chat", "text": raw})
        msg = await watcher.expect("chat")
        assert msg["from"] == guest.player_id
        assert msg["text"] == ("<b>안녕</b> " + "가" * 100)[: talk.CHAT_MAX]
        assert len(msg["text"]) == talk.CHAT_MAX
        await _refused(guest, {"type": "chat", "text": " \n\t "}, "chat_empty")
        await _refused(guest, {"type": "chat", "text": "x" * 201}, "bad_message")
        room = server.rooms.get(code)
        assert room is not None
        assert "안녕" not in json.dumps(room.meta(), ensure_ascii=False)
        assert all(row.kind != "chat" for row in server.rooms.store.log(code))

    asyncio.run(main())


def test_rate_limited_per_sender(server: LiveServer) -> None:
    async def main() -> None:
        _, host, guest, _ = await _room(server)
        for _ in range(int(talk.RATE_BURST)):
            await guest.send({"type": "react", "reaction": "hurry"})
            await host.expect("reaction")
        await _refused(guest, {"type": "react", "reaction": "hurry"}, "too_fast")
        # another sender has their own allowance
        await host.send({"type": "react", "reaction": "gg"})
        assert (await guest.expect("reaction"))["from"] == host.player_id

    asyncio.run(main())


def test_throttle_refills_over_time() -> None:
    t = talk.Throttle(rate=0.5, burst=3)
    assert [t.allow("a", 100.0) for _ in range(4)] == [True, True, True, False]
    assert t.allow("b", 100.0)
    assert not t.allow("a", 101.0)
    assert t.allow("a", 102.1)
    assert not t.allow("a", 102.2)


def test_clean_chat() -> None:
    assert talk.clean_chat("  a\r\n\tb\u200b  ") == "a b"
    assert talk.clean_chat("\u0000\u0007") is None
    assert talk.clean_chat("x" * 99) == "x" * talk.CHAT_MAX


def test_spectators_chat_only_when_the_host_allows_marked_and_rate_limited(server: LiveServer) -> None:
    async def main() -> None:
        code, host, guest, watcher = await _room(server)
        other = await Client.open(server.ws_url(code), "other", local_addr=("127.0.0.5", 0))  # another home
        await other.hello(spectate=True)
        # players' chat on does not open it to spectators
        await host.send({"type": "social", "chat": True, "spectatorReactions": False})
        await watcher.expect("lobby", pred=lambda m: m["social"]["chat"])
        await _refused(watcher, {"type": "chat", "text": "안녕"}, "chat_off")
        off = {"type": "social", "chat": True, "spectatorReactions": False}
        await _refused(guest, {**off, "spectatorChat": True}, "not_host")
        await host.send({"type": "social", "chat": False, "spectatorReactions": False, "spectatorChat": True})
        lobby = await watcher.expect("lobby", pred=lambda m: m["social"]["spectatorChat"])
        assert lobby["social"] == {"chat": False, "spectatorReactions": False, "spectatorChat": True}
        # stored with the room's social settings (a restart keeps it)
        room = server.rooms.get(code)
        assert room is not None and room.meta()["social"]["spectatorChat"] is True
        assert talk.Social.from_json(room.meta()["social"]) == talk.Social(False, False, True)
        await watcher.send({"type": "chat", "text": " 힘내요\n민수 "})
        for c in (host, guest, other):
            msg = await c.expect("chat")
            assert msg == {"type": "chat", "from": None, "spectator": True, "text": "힘내요 민수",
                           "showMs": talk.SHOW_MS}
        await _refused(guest, {"type": "chat", "text": "나도"}, "chat_off")  # the players' switch is off
        await _refused(watcher, {"type": "react", "reaction": "lol"}, "reactions_off")
        await _refused(watcher, {"type": "chat", "text": "<>" * 101}, "bad_message")
        # the same allowance as a player's, per spectator client: a second socket from the same client draws
        # from the same allowance, a spectator from another address still has theirs
        for _ in range(int(talk.RATE_BURST) - 1):
            await watcher.send({"type": "chat", "text": "ㅋㅋ"})
            await host.expect("chat")
        await _refused(watcher, {"type": "chat", "text": "ㅋㅋ"}, "too_fast")
        again = await join(server, code, "again", spectate=True)
        await _refused(again, {"type": "chat", "text": "ㅋㅋ"}, "too_fast")
        await other.send({"type": "chat", "text": "저도 봐요"})
        assert (await host.expect("chat"))["text"] == "저도 봐요"
        # an old client's social message (no spectatorChat) turns it off
        await host.send({"type": "social", "chat": True, "spectatorReactions": False})
        await other.expect("lobby", pred=lambda m: not m["social"]["spectatorChat"])
        await _refused(other, {"type": "chat", "text": "또"}, "chat_off")

    asyncio.run(main())
